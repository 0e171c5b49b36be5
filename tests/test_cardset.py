"""CardSet: set algebra over a u64, agreeing with the uint64 arrays the NumPy API uses."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp
from pypoker import CardSet


def test_construction_and_text():
    s = CardSet("AhKd 7c")
    assert str(s) == "7cAhKd" and repr(s) == 'CardSet("7cAhKd")'
    assert CardSet([38, 50, 18]) == s == CardSet(int(s)) == CardSet(s)
    assert CardSet(np.array([18, 38, 50], dtype=np.uint8)) == s
    assert list(s) == [18, 38, 50] and s.ids().tolist() == [18, 38, 50]
    assert len(CardSet.full_deck()) == 52 and len(CardSet()) == 0 and not CardSet()


def test_algebra_and_membership():
    a, b = CardSet("AhKd7c"), CardSet("7c2s")
    assert a | b == CardSet("AhKd7c2s")
    assert a & b == CardSet("7c")
    assert a - b == CardSet("AhKd")
    assert a ^ b == CardSet("AhKd2s")
    assert len(~a) == 49 and (~a & a) == CardSet()
    assert "Ah" in a and 38 in a and "2s" not in a and 60 not in a and "AhKd" in a
    assert a | "2s" == CardSet("AhKd7c2s")
    assert {a, CardSet("7cKdAh")} == {a}


def test_sets_rank_like_the_numpy_api():
    s = CardSet("AsKsQsJsTs")
    assert pp.rank(np.array([int(s)], dtype=np.uint64))[0] == pp.rank(str(s))
    assert pp.deal(1, 5, seed=1, exclude=CardSet("AhKd")).shape == (1, 5)


def test_bad_cards():
    with pytest.raises(ValueError, match="bits outside"):
        CardSet(1 << 52)
    with pytest.raises(ValueError):
        CardSet([52])
    with pytest.raises(pp.CardParseError):
        CardSet("Ax")
