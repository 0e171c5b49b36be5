"""Equity engine against the bars of the equity issue.

    python bench/bench_equity.py [--runs 5] [--games 10M]

- Monte Carlo heads-up, random boards (AcKd vs QhQs): M games/s on one thread and on all;
- exact AcKd vs QhQs preflop, all 1,712,304 boards by real enumeration: ms on one thread;
- range vs range preflop, QQ+,AKs vs JJ-99,AQs+: exact seconds and Monte Carlo games/s.
"""

from __future__ import annotations

import argparse

import pypoker as pp
from pypoker._parallel import cpu_count
from pypoker.benchmark import machine, median_ns
from pypoker.cli import parse_count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=parse_count, default=10_000_000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; kernels: {pp.cpu()}")
    print(f"median of {args.runs} runs\n")
    hands = ["AcKd", "QhQs"]
    for threads in sorted({1, cpu_count()}):
        ns = median_ns(
            lambda t=threads: pp.equity(hands, exact=False, games=args.games, threads=t),
            args.runs,
        )
        print(f"Monte Carlo heads-up, {threads} thread(s): {args.games / ns * 1e3:7.1f} M games/s")
    ns = median_ns(lambda: pp.equity(hands, threads=1), args.runs)
    result = pp.equity(hands, threads=1)
    wins = result.wins.tolist()
    print(f"exact AcKd vs QhQs, 1 thread: {ns / 1e6:.2f} ms "
          f"({result.games:,} boards, wins {wins}, ties {result.ties[0]:,})")  # fmt: skip
    ranges = ["QQ+,AKs", "JJ-99,AQs+"]
    ns = median_ns(lambda: pp.equity(ranges, exact=True, threads=1), 1)
    print(f"exact QQ+,AKs vs JJ-99,AQs+ preflop, 1 thread: {ns / 1e9:.2f} s (one run)")
    ns = median_ns(lambda: pp.equity(ranges, exact=False, games=args.games, threads=1), args.runs)
    print(f"Monte Carlo QQ+,AKs vs JJ-99,AQs+, 1 thread: {args.games / ns * 1e3:7.1f} M games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
