"""The latency of one small ``pp.equity`` call, beside the native work it asks for.

    python bench/bench_equity_latency.py [--runs 2001]

Each row times one whole ``pp.equity`` call (text in, ``EquityResult`` out) and the bare
native call under it (``pp_equity_exact`` through cffi, its buffers made once), in turn
(a b a b …), and prints both medians and the median of the pairs' ratios: the Python around
a call is what the ratio shows. The bar (issue 50): two known hands on a flop (990 runouts)
in at most 20 µs, and the whole call within about 20x its native work. The last rows time
``pp.equities`` over a batch of such spots (one call, rows of hands and boards).
"""

from __future__ import annotations

import argparse

import numpy as np

import pypoker as pp
from pypoker._native import ffi, lib, new_error
from pypoker.benchmark import machine, paired

SPOTS = [
    # (name, players, board, runs scale): preflop counts 1.7M boards, so fewer runs.
    ("AsKs vs QdQc, flop Jh7c2d (990 runouts)", ["AsKs", "QdQc"], "Jh7c2d", 1),
    ("AsKs vs QdQc, turn Jh7c2d5s (44)", ["AsKs", "QdQc"], "Jh7c2d5s", 1),
    ("AsKs vs QdQc, river Jh7c2d5s9h (1)", ["AsKs", "QdQc"], "Jh7c2d5s9h", 1),
    ("AsKs vs QdQc vs 8h8d, flop Jh7c2d", ["AsKs", "QdQc", "8h8d"], "Jh7c2d", 1),
    ("AsKs vs QdQc, preflop (1.7M boards)", ["AsKs", "QdQc"], None, 20),
]


def native_call(players: list[str], board: str | None):
    """The bare native count of a spot: hole sets and the tally buffer made once."""
    hole_sets = ffi.new("uint64_t[]", [int(pp.CardSet(p)) for p in players])
    board_set = int(pp.CardSet(board))
    tallies = ffi.new("pp_tally[]", len(players))
    games = ffi.new("uint64_t *")
    err = new_error()

    def call():
        status = lib.pp_equity_exact(hole_sets, len(players), board_set, 0, 0, 1, tallies,
                                     games, err)  # fmt: skip
        assert status == 0

    return call


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2001)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; kernels: {pp.cpu()}")
    print(f"medians of {args.runs} calls (preflop: 1/20 of them), in turn with the native call\n")
    print(f"  {'spot':<42}{'pp.equity':>11}{'native':>10}{'ratio':>8}")
    for name, players, board, scale in SPOTS:
        whole = lambda p=players, b=board: pp.equity(p, board=b)  # noqa: E731
        native_s, whole_s, ratio = paired(native_call(players, board), whole,
                                          max(5, args.runs // scale))  # fmt: skip
        line = f"  {name:<42}{whole_s * 1e6:8.1f} µs{native_s * 1e6:7.1f} µs{ratio:7.1f}x"
        if board == "Jh7c2d" and len(players) == 2:
            ok = whole_s <= 20e-6 and ratio <= 20
            line += f"   bar 20 µs and 20x: {'meets the bar' if ok else 'MISSES the bar'}"
        print(line)
    range_s = paired(lambda: None, lambda: pp.equity(["AsKs", "QQ"], board="Jh7c2d"),
                     max(5, args.runs // 10))[1]  # fmt: skip
    print(f"  {'AsKs vs QQ (6 combos), flop Jh7c2d':<42}{range_s * 1e6:8.1f} µs")
    print()
    batch_rows(args.runs)
    return 0


def batch_rows(runs: int) -> None:
    """Many heads-up flop spots in one ``pp.equities`` call, per spot, on 1 and 2 threads."""
    rng = np.random.default_rng(0)
    n = 10_000
    cards = np.array([rng.permutation(52)[:7] for _ in range(n)], dtype=np.uint8)
    holes, boards = cards[:, :4].reshape(n, 2, 2), cards[:, 4:]
    for threads in (1, 2):
        taken = paired(lambda: None, lambda t=threads: pp.equities(holes, boards, threads=t),
                       max(5, runs // 200))[1]  # fmt: skip
        print(f"  pp.equities, {n:,} random heads-up flop spots, {threads} thread(s): "
              f"{taken / n * 1e6:.2f} µs a spot")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
