"""Issue #51's short-deck bar: a 7-card batch rank of short deck (6+) at the same ns/hand as
Hold'em (within ±20%), in one run, one thread, the two interleaved (noise hits both alike);
the same for card sets, and short-deck equity's rates for the record.

python bench/bench_shortdeck.py [--runs 21] [--hands 2e6]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import pypoker as pp
from pypoker.benchmark import machine

BAR = 0.20  # short deck's ns/hand may differ from Hold'em's by at most this share


def timed_ns(call, n: int) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) / n * 1e9


def interleaved(calls: dict, n: int, runs: int) -> dict[str, tuple[float, float]]:
    """(Fastest, median) ns/hand of each call, the calls taking turns run by run. On a shared
    machine the fastest run is the one least disturbed: the bar is judged on it."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            times[name].append(timed_ns(call, n))
    return {name: (float(np.min(t)), float(np.median(t))) for name, t in times.items()}


def verdict(ratio: float) -> str:
    if ratio < 1 - BAR:
        return "faster than Hold'em"
    return f"{'within' if ratio <= 1 + BAR else 'OUTSIDE'} the ±{BAR:.0%} bar"


def ranking(n: int, runs: int) -> None:
    out = np.empty(n, dtype=np.uint16)
    holdem = pp.deal(n, 7, seed=1)
    short = pp.deal(n, 7, seed=1, game="shortdeck")
    sets = {
        "holdem": np.bitwise_or.reduce(np.left_shift(np.uint64(1), holdem.astype(np.uint64)), 1),
        "shortdeck": np.bitwise_or.reduce(np.left_shift(np.uint64(1), short.astype(np.uint64)), 1),
    }
    for form, hands in (("7-card ids (N, 7) uint8", {"holdem": holdem, "shortdeck": short}),
                        ("7-card sets (N,) uint64", sets)):  # fmt: skip
        calls = {
            "Hold'em": lambda h=hands: pp.rank(h["holdem"], out=out, threads=1),
            "short deck": lambda h=hands: pp.rank(
                h["shortdeck"], out=out, threads=1, game="shortdeck"
            ),  # fmt: skip
            "short deck (straights)": lambda h=hands: pp.rank(
                h["shortdeck"], out=out, threads=1, game="shortdeck-straights"
            ),
        }
        for call in calls.values():
            call()  # tables and pages in, once
        ns = interleaved(calls, n, runs)
        base = ns["Hold'em"][0]
        print(f"{form}, {n:,} hands, 1 thread, fastest / median of {runs}:")
        for name, (fastest, median) in ns.items():
            ratio = fastest / base
            note = "" if name == "Hold'em" else f"  {ratio:.2f}x Hold'em ({verdict(ratio)})"
            print(f"  {name:<24} {fastest:6.2f} / {median:6.2f} ns/hand{note}")


def equity(runs: int) -> None:
    hands = ["AhKh", "TsTd"]
    seconds = [pp.equity(hands, game="shortdeck", threads=1).seconds for _ in range(runs)]
    print(f"exact short-deck heads-up preflop (201,376 boards): {np.median(seconds) * 1e3:.1f} ms "
          f"(1 thread, median of {runs})")  # fmt: skip
    games = 1_000_000
    rates = [games / pp.equity(hands, game="shortdeck", games=games, threads=1, seed=s).seconds
             / 1e6 for s in range(runs)]  # fmt: skip
    print(f"Monte Carlo short-deck heads-up preflop: {np.median(rates):.1f} M games/s "
          f"(1 thread, median of {runs})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--hands", type=float, default=2e6)
    args = parser.parse_args()
    print(machine())
    ranking(int(args.hands), args.runs)
    equity(max(3, args.runs // 3))


if __name__ == "__main__":
    main()
