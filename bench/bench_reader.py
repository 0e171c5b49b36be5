"""The Range Reader (issue 48) against its bars.

    python bench/bench_reader.py [--runs 3] [--hands 2000000]

- generation: ``pypoker.reader.generate`` of the default population (equity agents, 6-max,
  100 big blinds) into Parquet shards, one thread and two (hands/s, median of runs; bar
  100,000 on one core, and 10M hands in 2 minutes on two);
- examples: shards read back and replayed into the fixed-size encoding (examples/s);
- the exact posterior: heads-up examples of ``--posterior-hands`` hands a second on one
  thread, styles known and hidden (bar 20,000 known).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time

import numpy as np

import pypoker as pp
from pypoker.benchmark import machine
from pypoker.reader import generate, posterior, read


def generation(hands: int, threads: int, runs: int) -> float:
    rates = []
    for _ in range(runs):
        folder = tempfile.mkdtemp()
        started = time.perf_counter()
        generate(hands, folder, threads=threads)
        rates.append(hands / (time.perf_counter() - started))
        shutil.rmtree(folder)
    return statistics.median(rates)


def reading(hands: int) -> tuple[float, float]:
    folder = tempfile.mkdtemp()
    generate(hands, folder, threads=1)
    started = time.perf_counter()
    count = sum(len(batch) for batch in read(folder, threads=1))
    elapsed = time.perf_counter() - started
    shutil.rmtree(folder)
    return count / elapsed, hands / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--posterior-hands", type=int, default=5_000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; default population, 6-max, 100bb\n")
    for threads in (1, 2):
        rate = generation(args.hands, threads, args.runs)
        print(f"generate, {threads} thread(s): {rate:>12,.0f} hands/s into Parquet "
              f"(10M hands in {1e7 / rate:.0f} s)")  # fmt: skip
    examples_rate, hands_rate = reading(min(args.hands, 500_000))
    print(f"read + examples, 1 thread: {examples_rate:>12,.0f} examples/s "
          f"({hands_rate:,.0f} hands/s)")  # fmt: skip
    for known in (True, False):
        rate = posterior_rate(args.posterior_hands, known, args.runs)
        print(f"posterior, heads-up, styles {'known' if known else 'hidden'}, 1 thread: "
              f"{rate:>10,.0f} examples/s" + (" (bar 20,000)" if known else ""))  # fmt: skip
    return 0


def posterior_rate(hands: int, known: bool, runs: int) -> float:
    """Examples a second of the exact posterior on heads-up hands of the default
    population, one thread, into a preallocated output (its pages touched once)."""
    folder = tempfile.mkdtemp()
    generate(hands, folder, seats=2, threads=1)
    batch = next(read(folder, batch_hands=hands))
    shutil.rmtree(folder)
    out = np.zeros((len(batch), 1326))
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        posterior(batch, known_styles=known, threads=1, out=out)
        rates.append(len(batch) / (time.perf_counter() - started))
    return statistics.median(rates)


if __name__ == "__main__":
    raise SystemExit(main())
