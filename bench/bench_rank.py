"""Median ns/hand of ``pypoker.rank`` on 16M random 7-card hands, single thread.

    python bench/bench_rank.py [--hands 16M] [--runs 7] [--threads 1] [--json out.json]

Two input forms: a uint8 (N, 7) array of card ids and a uint64 array of card sets. The hands
are dealt once with a fixed seed; each run times one native call into a preallocated (and
already touched) output, so only the ranking is measured. Prints the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import pypoker as pp
from pypoker.cli import parse_count


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}"


def time_runs(call, runs: int) -> list[float]:
    call()  # warm: tables into cache, pages of `out` faulted in
    times = []
    for _ in range(runs):
        started = time.perf_counter_ns()
        call()
        times.append(time.perf_counter_ns() - started)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=parse_count, default=16_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the results here as JSON")
    args = parser.parse_args(argv)
    if args.runs < 5:
        parser.error("at least 5 runs, for a median worth quoting")

    n = args.hands
    cards = pp.deal(n, 7, seed=args.seed)
    sets = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
    out = np.empty(n, dtype=np.uint16)

    print(f"pypoker {pp.__version__} bench: {n:,} random 7-card hands, seed {args.seed}")
    print(f"machine: {machine()}; kernels: {pp.cpu()}; threads: {args.threads}")
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}\n")
    print(f"{'input':<28} {'median ns/hand':>15} {'min':>8} {'max':>8}")
    results = {"hands": n, "threads": args.threads, "machine": machine(), "cpu": pp.cpu()}
    forms = {
        "uint8 (N, 7) card ids": lambda: pp.rank(cards, out=out, threads=args.threads),
        "uint64 card sets": lambda: pp.rank(sets, out=out, threads=args.threads),
    }
    checksum = None
    for name, call in forms.items():
        per_hand = [t / n for t in time_runs(call, args.runs)]
        median = statistics.median(per_hand)
        print(f"{name:<28} {median:>15.3f} {min(per_hand):>8.3f} {max(per_hand):>8.3f}")
        results[name] = {"median_ns": median, "runs_ns": per_hand}
        total = int(out.sum(dtype=np.uint64))
        if checksum is not None and total != checksum:
            raise SystemExit("the two input forms ranked the same hands differently")
        checksum = total
    print(f"\nchecksum of ranks: {checksum}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
