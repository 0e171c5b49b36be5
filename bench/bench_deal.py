"""Dealing, enumeration and dataset writing, against the bars of the dealing issue.

    python bench/bench_deal.py [--runs 5] [--deals 10M]

- dealing: 16M hands of 7 cards on one thread, in M cards/s (median of the runs);
- enumeration: all 133,784,560 seven-card sets on one thread, streamed through one reused
  4M-set buffer (median seconds);
- exhaustive counting: the category histogram of all seven-card hands, one thread and all;
- dataset: 10M deals of 6 players with river ranks written to Parquet (median seconds).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pypoker as pp
from pypoker.benchmark import machine, median_ns
from pypoker.cli import parse_count


def median_seconds(call, runs: int) -> float:
    return median_ns(call, runs) / 1e9


def enumerate_all_seven() -> int:
    return sum(len(c) for c in pp.iter_combinations(7, chunk=1 << 22, reuse=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deals", type=parse_count, default=10_000_000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; kernels: {pp.cpu()}\n")

    hands = 16_000_000
    seconds = median_seconds(lambda: pp.deal(hands, 7, seed=1, threads=1), args.runs)
    print(f"deal 16M x 7 cards, 1 thread:        {hands * 7 / seconds / 1e6:8.1f} M cards/s")

    assert enumerate_all_seven() == 133_784_560
    seconds = median_seconds(enumerate_all_seven, args.runs)
    print(f"enumerate all 7-card sets, 1 thread: {seconds:8.3f} s")

    for threads in (1, None):
        seconds = median_seconds(lambda t=threads: pp.category_counts(7, threads=t), args.runs)
        label = "1 thread" if threads == 1 else "all cores"
        print(f"category counts of all 7-card hands, {label}: {seconds:.3f} s")

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "deals.parquet"
        seconds = median_seconds(
            lambda: pp.dataset(args.deals, 6, seed=1, path=path), max(3, args.runs // 2)
        )
        size = path.stat().st_size
    print(
        f"dataset {args.deals:,} deals x 6 players -> Parquet: {seconds:8.2f} s "
        f"({size / 2**20:.0f} MiB)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
