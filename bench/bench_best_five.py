"""Issue #51's bar for the best five cards: ``pp.best_five`` on a batch of 7-card hands
against ``pp.rank`` on the same batch, at every CPU level this machine runs (bar: at most
3x the rank's time at each), one thread, interleaved runs, medians.

python bench/bench_best_five.py [--hands 4000000] [--runs 7]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import pypoker as pp
from pypoker.benchmark import machine

BAR = 3.0  # the most best_five may cost, in ranks of the same hands


def seconds(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def level(name: str, hands: np.ndarray, runs: int) -> float:
    pp.select_cpu(name)
    ranks = np.empty(len(hands), dtype=np.uint16)
    rank_times, five_times = [], []
    for _ in range(runs):  # interleaved: a noisy neighbour slows both alike
        rank_times.append(seconds(lambda: pp.rank(hands, out=ranks, threads=1)))
        five_times.append(seconds(lambda: pp.best_five(hands, threads=1)))
    n = len(hands)
    rank_ns = float(np.median(rank_times)) / n * 1e9
    five_ns = float(np.median(five_times)) / n * 1e9
    ratio = five_ns / rank_ns
    verdict = "meets" if ratio <= BAR else "MISSES"
    print(f"{name:>8}: rank {rank_ns:5.2f} ns/hand, best_five {five_ns:5.2f} ns/hand = "
          f"{ratio:.2f}x ({verdict} the bar of {BAR:g}x)")  # fmt: skip
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4_000_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(machine())
    hands = pp.deal(args.hands, 7, seed=51)
    for name in pp.supported_cpus():
        level(name, hands, args.runs)
    pp.select_cpu("auto")


if __name__ == "__main__":
    main()
