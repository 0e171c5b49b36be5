"""Hand isomorphism: Waugh's indices (reference vectors), sizes, density, round trips."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import pypoker as pp

VECTORS = json.loads((Path(__file__).parent / "data" / "waugh_indices.json").read_text())
STREET = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


@pytest.mark.parametrize("layout", sorted(VECTORS["layouts"]))
def test_indices_equal_the_reference_library(layout):
    case = VECTORS["layouts"][layout]
    cards = np.array(case["cards"], dtype=np.uint8)
    hole, board = case["hole"], case["board"]
    got = pp.hand_index(
        cards[:, :hole] if hole else None,
        cards[:, hole:] if board else None,
        per_street=case["per_street"],
    )
    assert got.tolist() == case["index"]


@pytest.mark.parametrize(
    ("street", "per_street", "board_only", "size"),
    [
        ("preflop", False, False, 169),
        ("flop", False, False, 1_286_792),
        ("turn", False, False, 13_960_050),
        ("river", False, False, 123_156_254),
        ("turn", True, False, 55_190_538),
        ("river", True, False, 2_428_287_420),
        ("flop", False, True, 1_755),
        ("turn", False, True, 16_432),
        ("river", False, True, 134_459),
    ],
)
def test_sizes_and_round_trips(street, per_street, board_only, size):
    assert pp.hand_index_size(street, per_street=per_street, board_only=board_only) == size
    rng = np.random.default_rng(size % 1000)
    indices = np.unique(np.concatenate([[0, size - 1], rng.integers(0, size, 5000)]))
    holes, boards = pp.hand_unindex(street, indices, per_street=per_street, board_only=board_only)
    again = pp.hand_index(
        None if board_only else holes,
        boards if boards.shape[1] else None,
        per_street=per_street,
    )
    assert np.array_equal(again, indices)


def _relabel(cards: np.ndarray, order) -> np.ndarray:
    suit, value = np.divmod(cards, 13)
    return (np.asarray(order)[suit] * 13 + value).astype(np.uint8)


def test_relabelled_suits_share_an_index_and_other_hands_do_not():
    cards = pp.deal(20_000, 7, seed=3)
    holes, boards = cards[:, :2], cards[:, 2:]
    for per_street in (False, True):
        index = pp.hand_index(holes, boards, per_street=per_street)
        for order in ([1, 0, 2, 3], [3, 2, 1, 0], [2, 3, 0, 1]):
            moved = pp.hand_index(
                _relabel(holes, order), _relabel(boards, order), per_street=per_street
            )
            assert np.array_equal(moved, index)
    # Per street, the turn and river cards are not interchangeable with the flop's.
    swapped = boards[:, [3, 1, 2, 0, 4]]
    assert not np.array_equal(
        pp.hand_index(holes, swapped, per_street=True),
        pp.hand_index(holes, boards, per_street=True),
    )
    assert np.array_equal(pp.hand_index(holes, swapped), pp.hand_index(holes, boards))


def test_every_flop_hand_enumerated_is_dense():
    """All 1,326 x 19,600 (hole, flop) hands: every index hit, each as often as its class."""
    hands = pp.combinations(5)  # card sets of every 5-card hand
    bits = (hands[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    cards = np.nonzero(bits)[1].astype(np.uint8).reshape(len(hands), 5)
    total = np.zeros(pp.hand_index_size("flop"), dtype=np.int64)
    for pair in ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)):
        rest = [i for i in range(5) if i not in pair]
        index = pp.hand_index(cards[:, list(pair)], cards[:, rest])
        total += np.bincount(index.astype(np.int64), minlength=len(total))
    assert total.sum() == math.comb(52, 2) * math.comb(50, 3)
    assert (total > 0).all()


def test_preflop_classes():
    combos = pp.COMBOS
    index = pp.hand_index(combos)
    assert len(np.unique(index)) == 169
    counts = np.bincount(index.astype(np.int64))
    assert sorted(set(counts.tolist())) == [4, 6, 12]  # suited, pairs, offsuit
    assert (counts == 6).sum() == 13 and (counts == 4).sum() == 78 and (counts == 12).sum() == 78


def test_text_and_board_only():
    assert pp.hand_index("AhKh", "2h3h4d")[0] == pp.hand_index("AsKs", "2s3s4c")[0]
    assert pp.hand_index(None, "2h3h4d")[0] == pp.hand_index(None, "4c2d3d")[0]


@pytest.mark.parametrize(
    ("holes", "boards", "error", "words"),
    [
        (
            np.array([[0, 1]], np.uint8),
            np.array([[2, 3]], np.uint8),
            pp.InvalidHandError,
            "boards of 2",
        ),
        (
            np.array([[0, 1]], np.uint8),
            np.array([[2, 3, 4, 5, 6, 7]], np.uint8),
            pp.InvalidHandError,
            "6",
        ),
        (
            np.array([[0, 1], [0, 52]], np.uint8),
            np.array([[2, 3, 4]] * 2, np.uint8),
            pp.InvalidHandError,
            "row 1: card id 52",
        ),
        (
            np.array([[0, 1], [5, 6]], np.uint8),
            np.array([[2, 3, 4], [7, 8, 6]], np.uint8),
            pp.InvalidHandError,
            "row 1: card 8s appears twice",
        ),
        (np.array([[0, 1, 2]], np.uint8), None, pp.InvalidHandError, "2 hole cards"),
        (np.array([[0, 1]], np.int64), None, TypeError, "uint8"),
    ],
)
def test_bad_input_names_the_row_and_card(holes, boards, error, words):
    with pytest.raises(error, match=words):
        pp.hand_index(holes, boards)


def test_bad_indices():
    with pytest.raises(ValueError, match="row 1: index 169 is outside 0..168"):
        pp.hand_unindex("preflop", [0, 169])
    with pytest.raises(ValueError, match="street"):
        pp.hand_unindex("showdown", [0])
    with pytest.raises(ValueError, match="board-only"):
        pp.hand_index_size("preflop", board_only=True)


@pytest.mark.parametrize(
    ("board", "per_street"), [(0, False), (3, False), (4, False), (5, False), (4, True), (5, True)]
)
def test_every_cpu_level_gives_the_same_indices(board, per_street):
    """The avx2/avx512 kernels index blocks of 8 rows with vectors; baseline row by row."""
    cards = pp.deal(100_003, 2 + board, seed=40 + board)  # not a multiple of 8: a scalar tail
    holes, boards = cards[:, :2], (cards[:, 2:] if board else None)
    results = []
    for level in pp.supported_cpus():
        pp.select_cpu(level)
        try:
            results.append(pp.hand_index(holes, boards, per_street=per_street))
        finally:
            pp.select_cpu("auto")
    for other in results[1:]:
        assert np.array_equal(other, results[0])


def test_every_suit_pattern_per_street_is_indexed_alike_by_every_cpu_level():
    # The vector path reads per-street indices by the cards' suits (hole pair, flop counts,
    # turn and river suits): every pattern of suits, each card a value of its own.
    suits = np.array(np.meshgrid(*[np.arange(4)] * 7, indexing="ij")).reshape(7, -1).T
    cards = (suits * 13 + np.arange(7)).astype(np.uint8)  # 16,384 rows, no card twice
    holes, boards = cards[:, :2], cards[:, 2:]
    results = []
    for level in pp.supported_cpus():
        pp.select_cpu(level)
        try:
            results.append(pp.hand_index(holes, boards, per_street=True))
            results.append(pp.hand_index(holes, boards[:, :4], per_street=True))
        finally:
            pp.select_cpu("auto")
    for i in range(2, len(results), 2):
        assert np.array_equal(results[i], results[0])
        assert np.array_equal(results[i + 1], results[1])


def test_a_bad_row_inside_a_vector_block_is_named():
    cards = pp.deal(64, 7, seed=5)
    cards[37, 4] = cards[37, 0]  # row 37: a board card repeats a hole card
    with pytest.raises(pp.InvalidHandError, match="row 37: card .* appears twice"):
        pp.hand_index(cards[:, :2], cards[:, 2:])
    cards = pp.deal(64, 7, seed=5)
    cards[21, 6] = 77
    with pytest.raises(pp.InvalidHandError, match="row 21: card id 77"):
        pp.hand_index(cards[:, :2], cards[:, 2:])
    out = np.empty(64, dtype=np.uint64)
    good = pp.deal(64, 7, seed=6)
    assert pp.hand_index(good[:, :2], good[:, 2:], out=out) is out
    with pytest.raises(TypeError, match="uint64"):
        pp.hand_index(good[:, :2], good[:, 2:], out=np.empty(64, dtype=np.uint16))


@pytest.mark.parametrize("per_street", [False, True])
def test_every_pair_of_places_repeating_a_card_is_found_by_every_cpu_level(per_street):
    # The vector path checks repeats by round (hole, first board round, single cards) and
    # across rounds by suit: each pair of places, in a row inside a block of 8.
    for level in pp.supported_cpus():
        pp.select_cpu(level)
        try:
            for first in range(7):
                for second in range(first + 1, 7):
                    cards = pp.deal(64, 7, seed=first * 7 + second)
                    cards[29, second] = cards[29, first]
                    with pytest.raises(pp.InvalidHandError, match="row 29: card .* appears twice"):
                        pp.hand_index(cards[:, :2], cards[:, 2:], per_street=per_street)
        finally:
            pp.select_cpu("auto")
