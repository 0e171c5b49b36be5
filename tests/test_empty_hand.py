"""The hand of no cards ranks, wherever hands of 1 to 4 cards do, lowest of all."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import pypoker as pp

EMPTY = pp.EMPTY_HAND_RANK


def test_the_empty_hand_ranks_below_every_card_and_is_a_high_card():
    singles = pp.rank(np.arange(52, dtype=np.uint8)[:, None])
    assert EMPTY < singles.min() and EMPTY != 0
    assert pp.category(EMPTY) == 1 and pp.describe(EMPTY) == "High Card"


def test_one_empty_hand_in_every_form():
    assert pp.rank("") == EMPTY
    assert pp.rank(" ") == EMPTY  # separators only: no cards
    assert pp.rank(np.zeros(0, dtype=np.uint8)) == EMPTY
    assert pp.rank(np.uint64(0)) == EMPTY
    assert pp.rank(pp.accumulate(np.zeros((1, 0), dtype=np.uint8))[0]) == EMPTY
    # An empty list or tuple is no hands, as an empty list of strings is.
    assert pp.rank([]).shape == (0,) and pp.rank(()).shape == (0,)


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_batches_of_no_cards(threads, each_cpu):
    n = 5000  # more than a vector block, on every level
    expected = np.full(n, EMPTY, dtype=np.uint16)
    np.testing.assert_array_equal(pp.rank(np.zeros((n, 0), np.uint8), threads=threads), expected)
    out = np.zeros(n, dtype=np.uint16)
    assert pp.rank(np.zeros((n, 0), np.uint8), out=out, threads=threads) is out
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(pp.rank(np.zeros(n, np.uint64), threads=threads), expected)
    np.testing.assert_array_equal(pp.rank([""] * n, threads=threads), expected)


def test_empty_hands_mixed_with_others_on_every_level(each_cpu):
    """Sets and accumulators go through the vector kernels in blocks: the empty ones among
    hands of every size rank as the scalar path ranks them, and bad ones are still found."""
    rng = np.random.default_rng(5)
    sets = pp.deal(4096, 7, seed=3)
    keep = rng.integers(0, 8, size=len(sets))  # 0..7 cards of each row
    rows = [row[:k] for row, k in zip(sets, keep, strict=True)]
    card_sets = np.array([sum(1 << int(c) for c in row) for row in rows], dtype=np.uint64)
    texts = [pp.format_cards(row) for row in rows]
    expected = pp.rank(texts)
    assert (expected[keep == 0] == EMPTY).all() and (expected[keep > 0] > EMPTY).all()
    np.testing.assert_array_equal(pp.rank(card_sets), expected)
    accumulators = pp.accumulate(card_sets)
    np.testing.assert_array_equal(pp.rank(accumulators), expected)
    np.testing.assert_array_equal(pp.rank(accumulators, trusted=True), expected)
    card_sets[3000] = 0xFF  # eight cards: still refused, beside the empty ones
    with pytest.raises(pp.InvalidHandError, match="row 3000: more than 7 cards"):
        pp.rank(card_sets)


def test_accumulators_of_no_cards_merge_as_nothing():
    empty = pp.accumulate(np.zeros((3, 0), dtype=np.uint8))
    np.testing.assert_array_equal(empty, pp.accumulate(np.zeros(3, dtype=np.uint64)))
    hands = pp.accumulate(pp.deal(3, 5, seed=1))
    np.testing.assert_array_equal(pp.merge(empty, hands), hands)
    np.testing.assert_array_equal(pp.rank(pp.merge(empty, empty)), [EMPTY] * 3)


def test_arrow_columns_rank_empty_rows_and_keep_nulls():
    lists = pa.array([[], [12, 25], None, []], pa.list_(pa.uint8()))
    assert pp.arrow.rank(lists).to_pylist() == [EMPTY, pp.rank("AcAd"), None, EMPTY]
    large = pa.array([[], [0]], pa.large_list(pa.uint8()))
    assert pp.arrow.rank(large).to_pylist() == [EMPTY, EMPTY + 1]
    fixed = pa.array([[], []], pa.list_(pa.uint8(), 0))
    assert pp.arrow.rank(fixed).to_pylist() == [EMPTY, EMPTY]
    strings = pa.array(["", "AhKd", None, " "])
    assert pp.arrow.rank(strings).to_pylist() == [EMPTY, pp.rank("AhKd"), None, EMPTY]
    sets = pa.array([0, 1], pa.uint64())
    assert pp.arrow.rank(sets).to_pylist() == [EMPTY, EMPTY + 1]


def test_no_cards_is_still_no_excuse_for_bad_ones():
    with pytest.raises(pp.InvalidHandError, match="hands of 8 cards"):
        pp.rank(np.zeros((2, 8), dtype=np.uint8))
    with pytest.raises(pp.InvalidHandError, match="row 1: a hand of 8 cards"):
        pp.arrow.rank(pa.array([[], list(range(8))], pa.list_(pa.uint8())))
    with pytest.raises(pp.CardParseError, match="not a card value"):
        pp.rank("x")
