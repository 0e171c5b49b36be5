"""Shared fixtures: every 5-card hand, built once per session."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


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
