"""Enumeration and exhaustive counts: every subset exactly once, the known category counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import FIVE_CARD_CATEGORIES, SEVEN_CARD_CATEGORIES, SIX_CARD_CATEGORIES, to_sets

import pypoker as pp


def popcounts(sets: np.ndarray) -> np.ndarray:
    bytes_ = sets.view(np.uint8).reshape(-1, 8)
    return np.unpackbits(bytes_, axis=1).sum(axis=1)


@pytest.mark.parametrize("k, exclude", [(1, None), (2, "AhKd"), (3, None), (5, "2s3s4s5s6s7s")])
def test_combinations_are_every_subset_once(k, exclude, each_cpu):
    sets = pp.combinations(k, exclude=exclude)
    dead = pp.card_set(exclude)
    n = 52 - bin(dead).count("1")
    assert len(sets) == math.comb(n, k)
    assert len(np.unique(sets)) == len(sets)
    assert (popcounts(sets) == k).all()
    assert not (sets & np.uint64(dead)).any()
    assert not (sets >> np.uint64(52)).any()


def test_five_card_combinations_match_itertools(all_five_card_hands):
    ours = np.sort(pp.combinations(5))
    assert np.array_equal(ours, np.sort(to_sets(all_five_card_hands)))


def test_iter_combinations_streams_the_same_subsets_in_chunks():
    whole = pp.combinations(4, exclude="Ah")
    chunks = list(pp.iter_combinations(4, exclude="Ah", chunk=10_000))
    assert max(len(c) for c in chunks) == 10_000
    assert np.array_equal(np.concatenate(chunks), whole)
    reused = [c.copy() for c in pp.iter_combinations(4, exclude="Ah", chunk=7777, reuse=True)]
    assert np.array_equal(np.concatenate(reused), whole)


def test_every_seven_card_set_streams_through_rank():
    histogram = np.zeros(16, dtype=np.int64)
    out = np.empty(1 << 22, dtype=np.uint16)
    total = 0
    for chunk in pp.iter_combinations(7, chunk=1 << 22, reuse=True):
        ranks = pp.rank(chunk, out=out[: len(chunk)])
        histogram += np.bincount(ranks >> 12, minlength=16)
        total += len(chunk)
    assert total == 133_784_560
    assert histogram[:10].tolist() == SEVEN_CARD_CATEGORIES


@pytest.mark.parametrize(
    "k, expected", [(5, FIVE_CARD_CATEGORIES), (6, SIX_CARD_CATEGORIES), (7, SEVEN_CARD_CATEGORIES)]
)
@pytest.mark.parametrize("threads", [1, 2, 5])
def test_category_counts(k, expected, threads, each_cpu):
    assert pp.category_counts(k, threads=threads).tolist() == expected


@pytest.mark.parametrize("k, exclude", [(3, "AhKd"), (5, "AsKsQsJs"), (6, "2c7d9hJsKc")])
def test_category_counts_with_dead_cards_match_ranking_every_hand(k, exclude):
    sets = pp.combinations(k, exclude=exclude)
    expected = np.bincount(pp.category(pp.rank(sets)), minlength=10)
    assert pp.category_counts(k, exclude=exclude).tolist() == expected.tolist()


def test_bad_arguments():
    with pytest.raises(ValueError):
        pp.combinations(0)
    with pytest.raises(ValueError):
        pp.combinations(53)
    with pytest.raises(ValueError, match="iter_combinations"):
        pp.combinations(10)
    with pytest.raises(ValueError):
        pp.category_counts(8)
    with pytest.raises(ValueError):
        pp.category_counts(5, threads=0)
    with pytest.raises(pp.CardParseError):
        pp.combinations(2, exclude="AhAh")


def test_rank_showdown_equals_ranking_each_hand(each_cpu):
    n, players = 20_000, 6
    cards = pp.deal(n, 5 + 2 * players, seed=9)
    boards, holes = cards[:, :5], cards[:, 5:].reshape(n, players, 2)
    ranks = pp.rank_showdown(boards, holes)
    assert ranks.shape == (n, players) and ranks.dtype == np.uint16
    for p in range(players):
        hands = np.concatenate([boards, holes[:, p, :]], axis=1)
        assert np.array_equal(ranks[:, p], pp.rank(hands))
    for b in (0, 3, 4):  # preflop, flop and turn boards
        partial = pp.rank_showdown(np.ascontiguousarray(boards[:, :b]), holes, threads=2)
        hands = np.concatenate([boards[:, :b], holes[:, 2, :]], axis=1)
        assert np.array_equal(partial[:, 2], pp.rank(hands))


@pytest.mark.parametrize("players", [1, 2, 3, 6, 9, 23])
def test_rank_showdown_every_table_size(players, each_cpu):
    """Each player count has its own vector layout: ranks as the players' own hands, and a
    hole card two players share is named at its row."""
    n = 3_000
    cards = pp.deal(n, 5 + 2 * players, seed=players)
    boards, holes = cards[:, :5], cards[:, 5:].reshape(n, players, 2)
    ranks = pp.rank_showdown(boards, holes)
    for p in range(players):
        assert np.array_equal(ranks[:, p], pp.rank(np.concatenate([boards, holes[:, p]], axis=1)))
    if players > 1:
        shared = holes.copy()
        shared[1234, players - 1, 1] = shared[1234, 0, 0]
        with pytest.raises(pp.InvalidHandError, match=r"row 1234: card \w\w appears twice"):
            pp.rank_showdown(boards, shared)


def test_rank_showdown_bad_input(each_cpu):
    cards = pp.deal(100, 9, seed=2)
    boards, holes = cards[:, :5].copy(), cards[:, 5:].reshape(100, 2, 2).copy()
    holes[42, 1, 0] = boards[42, 3]
    with pytest.raises(pp.InvalidHandError, match=r"row 42: card \w\w appears twice"):
        pp.rank_showdown(boards, holes)
    holes[42, 1, 0] = 99
    with pytest.raises(pp.InvalidHandError, match="row 42: card id 99"):
        pp.rank_showdown(boards, holes)
    with pytest.raises(ValueError):
        pp.rank_showdown(boards, holes[:50])
    with pytest.raises(TypeError):
        pp.rank_showdown(boards.astype(np.int64), holes)
    with pytest.raises(pp.InvalidHandError):
        pp.rank_showdown(np.zeros((100, 6), dtype=np.uint8), holes)


def test_rank_showdown_into_out():
    """``out`` receives the ranks a fresh array would; a bad one is refused, a failed call
    leaves it zeroed, and it may not overlap the cards."""
    cards = pp.deal(1_000, 9, seed=4)
    boards, holes = cards[:, :5], cards[:, 5:].reshape(1_000, 2, 2)
    out = np.full((1_000, 2), 7, dtype=np.uint16)
    assert pp.rank_showdown(boards, holes, out=out, threads=2) is out
    assert np.array_equal(out, pp.rank_showdown(boards, holes))
    with pytest.raises(ValueError, match=r"out must have shape \(1000, 2\)"):
        pp.rank_showdown(boards, holes, out=np.zeros(2_000, dtype=np.uint16))
    with pytest.raises(TypeError, match="dtype uint16"):
        pp.rank_showdown(boards, holes, out=np.zeros((1_000, 2), dtype=np.int32))
    shared = np.zeros((1_000, 2), dtype=np.uint16)  # the ranks' bytes are the hole cards
    shared_holes = shared.view(np.uint8).reshape(1_000, 2, 2)
    shared_holes[...] = holes
    with pytest.raises(ValueError, match="overlaps the cards it would rank"):
        pp.rank_showdown(boards, shared_holes, out=shared)
    bad = holes.copy()
    bad[500, 1, 1] = 60
    with pytest.raises(pp.InvalidHandError, match="row 500: card id 60"):
        pp.rank_showdown(boards, bad, out=out, threads=2)
    assert not out.any()
