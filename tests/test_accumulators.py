"""Hands as 16-byte accumulators: built from ids or sets, merged, ranked, and checked."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FIVE_CARD_CATEGORIES, to_sets

import pypoker as pp


def test_the_record_is_sixteen_bytes_key_then_mask():
    assert pp.ACCUMULATOR.itemsize == 16
    assert pp.ACCUMULATOR.names == ("key", "mask")
    hands = pp.deal(3, 7, seed=1)
    assert np.array_equal(pp.accumulate(hands)["mask"], to_sets(hands))


def test_every_five_card_hand_ranks_as_its_ids(all_five_card_hands, each_cpu):
    accumulators = pp.accumulate(all_five_card_hands)
    ranks = pp.rank(accumulators)
    assert np.array_equal(ranks, pp.rank(all_five_card_hands))
    assert np.array_equal(pp.rank(accumulators, trusted=True), ranks)
    assert np.bincount(ranks >> 12, minlength=10).tolist() == FIVE_CARD_CATEGORIES


def test_ids_and_sets_build_the_same_accumulators_and_any_card_count():
    for k in range(1, 8):
        hands = pp.deal(20_000, k, seed=k)
        from_ids = pp.accumulate(hands)
        assert np.array_equal(from_ids, pp.accumulate(to_sets(hands)))
        assert np.array_equal(pp.rank(from_ids, threads=2), pp.rank(hands))


def test_a_board_merged_with_each_players_cards_is_the_showdown(each_cpu):
    rows, players = 5_000, 6
    dealt = pp.deal(rows, 5 + 2 * players, seed=9)
    boards, holes = dealt[:, :5], dealt[:, 5:].reshape(rows, players, 2)
    expected = pp.rank_showdown(boards, holes)
    board_accumulators = pp.accumulate(boards)
    for player in range(players):
        hands = pp.merge(board_accumulators, pp.accumulate(holes[:, player]))
        assert np.array_equal(pp.rank(hands), expected[:, player])


def test_one_accumulator_merges_with_every_row():
    board = pp.accumulate(pp.parse_cards("AhKhQh")[None, :])[0]  # a 0-d record
    holes = pp.accumulate(np.array([[9, 10], [35, 34], [0, 13]], dtype=np.uint8))
    ranks = pp.rank(pp.merge(board, holes))
    assert ranks.tolist() == pp.rank(["AhKhQhJsQs", "AhKhQhJhTh", "AhKhQh2s2c"]).tolist()
    assert pp.rank(pp.merge(holes, board)).tolist() == ranks.tolist()  # either side
    assert pp.rank(pp.merge(board, holes)[1]) == pp.rank("AhKhQhJhTh")  # one record


def test_bad_accumulators_name_the_row():
    good = pp.accumulate(pp.deal(100, 5, seed=2))
    edited = good.copy()
    edited["mask"][42] ^= np.uint64(1) << np.uint64(51)  # a card the key does not hold
    if edited["mask"][42] & (np.uint64(1) << np.uint64(51)) == 0:
        edited["mask"][42] ^= np.uint64(1) << np.uint64(50)
    out = np.full(100, 7, dtype=np.uint16)
    with pytest.raises(pp.InvalidHandError, match="row 42: the accumulator's key is not") as e:
        pp.rank(edited, out=out)
    assert e.value.row == 42 and not out.any()
    edited = good.copy()
    edited["key"][7] += np.uint64(1)
    with pytest.raises(pp.InvalidHandError, match="row 7: the accumulator's key"):
        pp.rank(edited)
    zeros = np.zeros(3, dtype=pp.ACCUMULATOR)  # all zeros is not even an empty hand's key
    with pytest.raises(pp.InvalidHandError, match="row 0: the accumulator's key"):
        pp.rank(zeros)
    with pytest.raises(pp.InvalidHandError, match="row 0: the accumulator's key"):
        pp.merge(zeros, good[:3])


def test_merging_refuses_shared_cards_and_more_than_seven():
    hands = pp.deal(50, 5, seed=3)
    boards = pp.accumulate(hands)
    holes = pp.accumulate(np.ascontiguousarray(hands[:, :2]))  # two of each row's board cards
    name = pp.CARD_NAMES[min(hands[0, 0], hands[0, 1])]  # the lowest shared card is named
    with pytest.raises(pp.InvalidHandError, match=f"row 0: card {name} appears twice"):
        pp.merge(boards, holes)
    dealt = pp.deal(4, 8, seed=4)  # eight distinct cards a row
    seven = pp.merge(pp.accumulate(dealt[:, :5]), pp.accumulate(dealt[:, 5:7]))
    with pytest.raises(pp.InvalidHandError, match="row 0: more than 7 cards"):
        pp.merge(seven, pp.accumulate(np.ascontiguousarray(dealt[:, 7:])))


def test_wrong_types_are_refused():
    with pytest.raises(TypeError, match="uint8 card ids"):
        pp.accumulate(np.zeros((3, 7), dtype=np.int64))
    with pytest.raises(TypeError, match="pp.ACCUMULATOR"):
        pp.merge(np.zeros(3, dtype=np.uint64), np.zeros(3, dtype=np.uint64))
    with pytest.raises(ValueError, match="one length"):
        pp.merge(pp.accumulate(pp.deal(3, 2, seed=1)), pp.accumulate(pp.deal(2, 2, seed=2)))


@pytest.mark.parametrize("k", [1, 4, 6, 7])
def test_trusted_accumulators_rank_as_checked_ones(k, each_cpu):
    # 1,000 rows: whole blocks of 64 and a tail, one thread and two.
    accumulators = pp.accumulate(pp.deal(1_000, k, seed=20 + k))
    checked = pp.rank(accumulators)
    for threads in (1, 2):
        trusted = pp.rank(accumulators, trusted=True, threads=threads)
        np.testing.assert_array_equal(trusted, checked)


def test_trusted_accumulators_of_any_bytes_never_crash(each_cpu):
    # Records the key does not describe: a meaningless rank each, read inside the tables.
    junk = np.random.default_rng(5).integers(0, 2**64, size=(10_000, 2), dtype=np.uint64)
    ranks = pp.rank(junk.view(pp.ACCUMULATOR).reshape(-1), trusted=True)
    assert ranks.dtype == np.uint16 and ranks.shape == (10_000,)
    with pytest.raises(TypeError, match="trusted=True"):
        pp.rank(pp.deal(3, 7, seed=1), trusted=True)


def test_every_single_bit_edit_is_refused():
    # The checked path: a key or mask with any one of its 128 bits flipped is refused (the
    # key is checked against the cards in full), naming the row.
    hands = pp.accumulate(pp.deal(8, 7, seed=3))
    for row in range(len(hands)):
        for field in ("key", "mask"):
            for bit in range(64):
                edited = hands.copy()
                edited[field][row] ^= np.uint64(1) << np.uint64(bit)
                with pytest.raises(pp.InvalidHandError, match=f"row {row}"):
                    pp.rank(edited)
