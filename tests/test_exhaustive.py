"""Every 5-, 6- and 7-card hand through the shipped library, and an independent evaluator.

The Zig suite (test_toolchain.py) holds every hand of 1..7 cards to the counting oracle; these
tests hold the Python surface to the known counts, and to phevaluator from PyPI.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from conftest import (
    FIVE_CARD_CATEGORIES,
    FIVE_CARD_CLASSES,
    SEVEN_CARD_CATEGORIES,
    SIX_CARD_CATEGORIES,
    to_sets,
)
from phevaluator import evaluate_cards
from phevaluator.card import Card

import pypoker as pp

# Our card id → phevaluator's (4 * value + suit, suits c d h s).
TO_PHEVALUATOR = np.array([Card(name).id_ for name in pp.CARD_NAMES], dtype=np.int64)


def test_all_five_card_hands(all_five_card_hands, each_cpu):
    ranks = pp.rank(all_five_card_hands)
    categories = pp.category(ranks)
    assert np.bincount(categories, minlength=10).tolist() == FIVE_CARD_CATEGORIES
    distinct = np.unique(ranks)
    assert len(distinct) == 7462
    assert np.bincount(distinct >> 12, minlength=10).tolist() == FIVE_CARD_CLASSES
    # Subranks are dense within each category: 1, 2, 3, … for 5-card hands plus shorter
    # hands interleaved, so at least strictly increasing and never 0.
    assert (distinct & 0xFFF).min() >= 1
    # Card sets rank exactly as card ids do.
    assert np.array_equal(pp.rank(to_sets(all_five_card_hands)), ranks)


def test_five_card_order_matches_phevaluator_on_every_hand(all_five_card_hands):
    """phevaluator numbers the 7,462 classes 1 (royal flush) … 7462; ours must be the
    exact reverse order: the map between the two is a strictly decreasing bijection."""
    ranks = pp.rank(all_five_card_hands)
    ph = TO_PHEVALUATOR[all_five_card_hands]
    theirs = np.fromiter(
        (evaluate_cards(*row) for row in ph.tolist()), dtype=np.int64, count=len(ph)
    )
    pairs = np.unique(np.stack([ranks.astype(np.int64), theirs], axis=1), axis=0)
    assert len(pairs) == 7462  # one of theirs per one of ours
    assert np.all(np.diff(pairs[:, 1]) < 0)  # ours ascending ⇔ theirs descending


def test_seven_card_order_matches_phevaluator_on_a_million_pairs():
    hands = pp.deal(2_000_000, 7, seed=20261130)
    ranks = pp.rank(hands).astype(np.int64)
    ph = TO_PHEVALUATOR[hands].tolist()
    theirs = np.fromiter((evaluate_cards(*row) for row in ph), dtype=np.int64, count=len(ph))
    ours_a, ours_b = ranks[0::2], ranks[1::2]
    theirs_a, theirs_b = theirs[0::2], theirs[1::2]
    assert np.array_equal(np.sign(ours_a - ours_b), np.sign(theirs_b - theirs_a))
    assert np.count_nonzero(ours_a == ours_b) > 0  # ties occur, and agree too


def _all_k_card_sets(k: int, five_sets: np.ndarray, first_cards: np.ndarray):
    """Yields every k-card set (k = 6 or 7) as chunks: k - 5 leading cards, then any five
    higher ones (the 5-card sets with a smallest card above them form a suffix)."""
    suffix_start = np.searchsorted(first_cards, np.arange(53))
    for lead in itertools.combinations(range(52), k - 5):
        start = suffix_start[lead[-1] + 1]
        if start == len(five_sets):
            continue
        lead_set = np.uint64(sum(1 << c for c in lead))
        yield five_sets[start:] | lead_set


@pytest.mark.parametrize("k, expected", [(6, SIX_CARD_CATEGORIES), (7, SEVEN_CARD_CATEGORIES)])
def test_all_six_and_seven_card_hands(all_five_card_hands, k, expected, each_cpu):
    five_sets = to_sets(all_five_card_hands)
    first_cards = all_five_card_hands[:, 0]
    histogram = np.zeros(16, dtype=np.int64)
    out = np.empty(len(five_sets), dtype=np.uint16)
    hands = 0
    for chunk in _all_k_card_sets(k, five_sets, first_cards):
        ranks = pp.rank(chunk, out=out[: len(chunk)])
        histogram += np.bincount(ranks >> 12, minlength=16)
        hands += len(chunk)
    assert hands == math.comb(52, k)
    assert histogram[:10].tolist() == expected


def test_seven_cards_rank_as_the_best_of_their_21_fives(each_cpu):
    hands = pp.deal(300_000, 7, seed=7)
    best = np.zeros(len(hands), dtype=np.uint16)
    for five in itertools.combinations(range(7), 5):
        np.maximum(best, pp.rank(np.ascontiguousarray(hands[:, five])), out=best)
    assert np.array_equal(pp.rank(hands), best)


def test_six_cards_rank_as_the_best_of_their_6_fives():
    hands = pp.deal(300_000, 6, seed=6)
    best = np.zeros(len(hands), dtype=np.uint16)
    for five in itertools.combinations(range(6), 5):
        np.maximum(best, pp.rank(np.ascontiguousarray(hands[:, five])), out=best)
    assert np.array_equal(pp.rank(hands), best)
