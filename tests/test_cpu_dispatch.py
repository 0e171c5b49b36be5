"""One library, kernels chosen at run time: every level gives bit-identical results, and the
Zig code cross-compiles for the other platforms pypoker ships to."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import pypoker as pp


def results_at(level: str) -> dict[str, np.ndarray]:
    pp.select_cpu(level)
    cards = pp.deal(200_000, 7, seed=31, exclude="Ah")
    holes = pp.deal(50_000, 17, seed=32)
    return {
        "deal": cards,
        "rank": pp.rank(cards),
        "sets": pp.rank(
            np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), 1)
        ),
        "showdown": pp.rank_showdown(holes[:, :5], holes[:, 5:].reshape(-1, 6, 2)),
        "combinations": pp.combinations(4, exclude="2s3s"),
        "counts": pp.category_counts(6),
        # Monte Carlo deals its games in vectors on some levels: the same games on every one
        # (tables of the range players' deals, copied by gathers on avx512, among them), and
        # the same standard errors (the six ranges' games grouped by deal).
        **{
            f"equity {spot}": np.concatenate([result.wins, result.ties, result.stderr])
            for spot, board in (
                (("random",) * 3, ""),
                # Random vs random: its own deal on avx2 (all 52 cards, one straight line).
                (("random", "random"), ""),
                (("QQ+,AKs", "random", "AA"), "2c7d9h"),
                (("AKs", "random", "random", "random"), ""),
                # Six players: the showdown ranks whole blocks of rows, past the games.
                (("AA",) + ("random",) * 5, ""),
                (("QQ+,AKs", "JJ-99,AQs+"), ""),
                (("QQ+", "JJ+,AK", "random", "TT+"), "2c7d9h"),
                # Range players drawn by rejection: tries in vectors (equal weights), and
                # one draw at a time with alias coins (unequal ones).
                (("22+,A2+,K2+",) * 6, ""),
                (("A2+:0.5,KK", "A2+", "AK:0.5,KQ,QQ:0.25", "A2+,K2+:0.3"), "Jc8d5h3s"),
            )
            for result in [pp.equity(list(spot), board=board, games=100_000, seed=3, exact=False)]
        },
    }


def test_every_level_gives_identical_results():
    levels = pp.supported_cpus()
    before = pp.cpu()
    try:
        reference = results_at("baseline")
        for level in levels[1:]:
            for name, value in results_at(level).items():
                assert np.array_equal(value, reference[name]), f"{level}: {name} differs"
    finally:
        pp.select_cpu(before)


def test_environment_variable_forces_a_level():
    code = "import pypoker as pp; print(pp.cpu())"
    for level in pp.supported_cpus():
        out = subprocess.run(
            [sys.executable, "-c", code], env={"PYPOKER_CPU": level}, capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        assert out.stdout.strip() == level
    bad = subprocess.run(
        [sys.executable, "-c", code], env={"PYPOKER_CPU": "sse9"}, capture_output=True, text=True
    )
    assert bad.returncode != 0 and "use baseline, avx2, avx512 or auto" in bad.stderr


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        pp.select_cpu("neon")
