"""The arena's agents (issue 47) against their bars.

    python bench/bench_agents.py [--runs 5] [--hands 1000000]

- native agents, 6-max, 100 big blinds, one thread, histories off (hands/s, median of runs):
  the equity agent at every seat (bar 200,000) and a mix of every native agent (bar 300,000);
- ``match`` of call vs random heads-up, ``--hands`` hands, plain and duplicate: the 95%
  intervals' half-widths and their ratio (bar: duplicate at most half of plain);
- equity heads-up against random, call and raise (duplicate): bb/100 and the 95% interval
  (bar: outside it, above 0).
"""

from __future__ import annotations

import argparse
import statistics
import time

import pypoker as pp
from pypoker.arena import Arena, match
from pypoker.benchmark import machine

MIX = ["equity", "chart", "call", "random", "raise", "fold"]


def rate(agents, runs: int, tables: int = 256, hands: int = 2000) -> float:
    rates = []
    for _ in range(runs):
        arena = Arena(tables, 6, stacks=200, blinds=(1, 2))
        started = time.perf_counter()
        arena.play(hands, agents=agents, threads=1)
        rates.append(tables * hands / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; 6-max, 100bb, one thread\n")
    print(f"equity at every seat: {rate('equity', args.runs):>12,.0f} hands/s (bar 200,000)")
    print(f"every native agent:   {rate(MIX, args.runs):>12,.0f} hands/s (bar 300,000)")
    widths = {}
    for duplicate in (False, True):
        result = match(["call", "random"], args.hands, seed=1, duplicate=duplicate, threads=1)
        widths[duplicate] = 1.959963984540054 * result.stderr[0]
        print(f"\ncall vs random, {'duplicate' if duplicate else 'plain'}:\n{result}")
    print(f"\nduplicate / plain 95% half-width: {widths[True] / widths[False]:.3f} (bar 0.5)")
    for opponent in ("random", "call", "raise"):
        result = match(["equity", opponent], args.hands, seed=2, duplicate=True, threads=1)
        low, high = result.interval[0]
        print(f"equity vs {opponent:<6}: {result.bb_per_100[0]:8.2f} bb/100, 95% [{low:.2f}, "
              f"{high:.2f}]")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
