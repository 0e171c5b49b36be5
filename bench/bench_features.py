"""Issue #15's bars: isomorphism speed, whole-street tables, agreement with brute force.

python bench/bench_features.py            # every bar (about 5 minutes on 2 cores)
python bench/bench_features.py --quick    # isomorphism and the spot checks only
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

import pypoker as pp
from pypoker.benchmark import machine


def isomorphism(runs: int) -> None:
    n = 1 << 22
    cards = pp.deal(n, 7, seed=1)
    holes, boards = np.ascontiguousarray(cards[:, :2]), np.ascontiguousarray(cards[:, 2:])
    out = np.empty(n, dtype=np.uint64)  # as bench_rank does: the kernel, not page faults
    for per_street in (False, True):
        for level in pp.supported_cpus():
            pp.select_cpu(level)
            times, cpu = [], []
            for _ in range(runs):
                started, started_cpu = time.perf_counter(), time.thread_time()
                pp.hand_index(holes, boards, per_street=per_street, out=out, threads=1)
                times.append(time.perf_counter() - started)
                cpu.append(time.thread_time() - started_cpu)
            name = "per street" if per_street else "board as one set"
            # The thread's CPU time too: on a shared machine, wall time counts waits for a core.
            print(f"isomorphism, river, {name}, {level}: {np.median(times) / n * 1e9:.1f} "
                  f"ns/hand, CPU time {np.median(cpu) / n * 1e9:.1f} (1 thread, median of "
                  f"{runs}; bar <= 10)")  # fmt: skip
        pp.select_cpu("auto")


def brute_river(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """HS of each row against every live opponent combo, by pp.rank."""
    out = np.empty(len(holes))
    for i, (hole, board) in enumerate(zip(holes, boards, strict=True)):
        taken = np.zeros(52, dtype=bool)
        taken[np.concatenate([hole, board])] = True
        opp = pp.COMBOS[~taken[pp.COMBOS].any(axis=1)]
        hero = pp.rank(np.concatenate([hole, board])[None])[0]
        ranks = pp.rank(np.concatenate([opp, np.repeat(board[None], len(opp), 0)], 1))
        out[i] = ((hero > ranks).sum() + (hero == ranks).sum() / 2) / len(opp)
    return out


def river_table(folder: Path) -> None:
    path = folder / "river.parquet"
    started = time.perf_counter()
    pp.street_table("river", path, features=["ehs"], progress=True)
    seconds = time.perf_counter() - started
    table = pq.read_table(path)
    print(f"river HS of all {table.num_rows:,} canonical river hands, written to Parquet: "
          f"{seconds:.1f} s on 2 cores (bar <= 120)")  # fmt: skip
    rng = np.random.default_rng(15)
    rows = rng.choice(table.num_rows, 10_000, replace=False)
    sample = table.take(rows)
    holes = np.stack(sample["hole"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    boards = np.stack(sample["board"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    error = np.abs(sample["ehs"].to_numpy() - brute_river(holes, boards)).max()
    print(f"  10,000 random rows against brute force (pp.rank of every opponent): "
          f"max |error| {error:.1e} (bar <= 1e-12)")  # fmt: skip


def flop_histograms(folder: Path) -> None:
    path = folder / "flop.parquet"
    started = time.perf_counter()
    pp.street_table("flop", path, features=["ehs", "histogram"], bins=50, progress=True)
    seconds = time.perf_counter() - started
    table = pq.read_table(path)
    print(f"flop histograms (50 bins) of all {table.num_rows:,} canonical flop hands: "
          f"{seconds:.1f} s on 2 cores (bar <= 300)")  # fmt: skip
    rows = np.random.default_rng(16).choice(table.num_rows, 100, replace=False)
    sample = table.take(rows)
    holes = np.stack(sample["hole"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    boards = np.stack(sample["board"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    want = pp.hand_features(holes, boards, bins=50)["histogram"]
    got = np.stack(sample["histogram"].to_numpy(zero_copy_only=False))
    print(f"  100 random rows against the per-row kernel (every opponent on every runout): "
          f"max |error| {np.abs(got - want).max():.1e} (float32 column)")  # fmt: skip


def agreement() -> None:
    rng = np.random.default_rng(17)
    worst = 0.0
    for k in (3, 4, 5):
        cards = pp.deal(20, 2 + k, seed=int(rng.integers(1 << 30)))
        ehs = pp.hand_strength(cards[:, :2], cards[:, 2:])
        for row in range(20):
            hole, board = pp.format_cards(cards[row, :2]), pp.format_cards(cards[row, 2:])
            exact = pp.equity([hole, "random"], board=board, exact=True).equity[0]
            worst = max(worst, abs(exact - ehs[row]))
    print(f"hand_strength vs pp.equity(exact) on 60 flop/turn/river rows: max |diff| {worst:.1e}")
    started = time.perf_counter()
    classes = pp.hand_index(pp.COMBOS)
    preflop = pp.hand_strength(pp.COMBOS)
    seconds = time.perf_counter() - started
    aces = preflop[pp.COMBOS.tolist().index(sorted(pp.parse_cards("AsAh").tolist()))]
    print(f"preflop EHS of all 169 classes: {seconds:.1f} s (first call); AA {aces:.4%}, "
          f"{len(np.unique(classes))} classes")  # fmt: skip
    check = ["AsAh", "7c2d", "KhQh", "5s5d"]
    diffs = [abs(pp.hand_strength(h)[0] - pp.equity([h, "random"], exact=True).equity[0])
             for h in check]  # fmt: skip
    print(f"  preflop vs pp.equity(exact) on {', '.join(check)}: max |diff| {max(diffs):.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(machine())
    isomorphism(args.runs)
    agreement()
    if args.quick:
        return
    with tempfile.TemporaryDirectory() as folder:
        river_table(Path(folder))
        flop_histograms(Path(folder))


if __name__ == "__main__":
    main()
