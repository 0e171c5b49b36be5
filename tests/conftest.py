"""Shared fixtures: every 5-card hand, built once per session."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent

# Known category counts (index = category) of every 5-, 6- and 7-card hand, and the number
# of distinct 5-card classes per category.
FIVE_CARD_CATEGORIES = [0, 1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
FIVE_CARD_CLASSES = [0, 1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10]
SIX_CARD_CATEGORIES = [
    0, 6_612_900, 9_730_740, 2_532_816, 732_160, 361_620, 205_792, 165_984, 14_664, 1_844,
]  # fmt: skip
SEVEN_CARD_CATEGORIES = [
    0, 23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
    224_848, 41_584,
]  # fmt: skip


@pytest.fixture(scope="session")
def all_five_card_hands() -> np.ndarray:
    """All C(52, 5) = 2,598,960 hands as a (N, 5) uint8 array, in lexicographic order."""
    return np.fromiter(
        itertools.combinations(range(52), 5), dtype=np.dtype((np.uint8, 5)), count=2_598_960
    )


def to_sets(cards: np.ndarray) -> np.ndarray:
    """(N, k) uint8 card ids → (N,) uint64 card sets."""
    bits = np.left_shift(np.uint64(1), cards.astype(np.uint64))
    return np.bitwise_or.reduce(bits, axis=1)


@pytest.fixture(params=["baseline", "avx2", "avx512"])
def each_cpu(request):
    """Runs a test once per kernel level this CPU can run, then restores the default."""
    import pypoker as pp

    if request.param not in pp.supported_cpus():
        pytest.skip(f"this CPU cannot run the {request.param} kernels")
    before = pp.cpu()
    pp.select_cpu(request.param)
    yield request.param
    pp.select_cpu(before)
