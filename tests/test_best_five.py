"""pp.best_five: against a brute-force oracle (every five of the hand, ranked by pp.rank, the
best's cards ordered by counting), Omaha, the wheel, the tie rule and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp


def _reading_order(five: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """The five as a player reads them: by (count of the value, value) falling, the wheel's
    ace last, each value's cards by rising id."""
    values = [card % 13 for card in five]
    counts = {v: values.count(v) for v in values}
    ordered = sorted(five, key=lambda c: (-counts[c % 13], -(c % 13), c))
    category = rank >> 12
    if category in (5, 9) and sorted(values) == [0, 1, 2, 3, 12]:
        ordered = ordered[1:] + ordered[:1]  # 5-4-3-2-A
    return tuple(ordered)


def oracle(hand) -> tuple[int, ...]:
    """The best five by brute force; of tied fives, the lowest ids in reading order."""
    fives = list(itertools.combinations([int(c) for c in hand], 5))
    ranks = pp.rank(np.array(fives, dtype=np.uint8))
    best = int(ranks.max())
    return min(
        _reading_order(f, best) for f, r in zip(fives, ranks.tolist(), strict=True) if r == best
    )


def _deal(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_match_the_oracle(k):
    hands = _deal(3000, k, seed=k)
    fives = pp.best_five(hands)
    assert fives.shape == (3000, 5) and fives.dtype == np.uint8
    for hand, five in zip(hands, fives, strict=True):
        assert tuple(five.tolist()) == oracle(hand), pp.format_cards(hand)


@pytest.mark.parametrize("cpu", pp.supported_cpus())
def test_every_cpu_level_matches_the_oracle(cpu):
    """Each level picks its own way (byte permutes, in-lane shuffles, one row at a time)."""
    hands = {k: _deal(1500, k, seed=10 + k) for k in (5, 6, 7)}
    pp.select_cpu(cpu)
    try:
        fives = {k: pp.best_five(rows) for k, rows in hands.items()}
    finally:
        pp.select_cpu("auto")
    for k, rows in hands.items():
        for hand, five in zip(rows, fives[k], strict=True):
            assert tuple(five.tolist()) == oracle(hand), (cpu, pp.format_cards(hand))


def test_every_category_and_the_tie_rule():
    # Boards that play, trips in two suits, three pairs: the lowest ids in reading order.
    hands = [
        "AsKsQsJsTs2h3h",  # royal flush
        "5s4s3s2sAsKdKh",  # steel wheel: 5-4-3-2-A
        "As2c3d4h5sKdKh",  # wheel
        "7s7c7h2s2c2hAs",  # full house: sevens, then the two lowest deuces
        "KhKsKcKdAhAsQs",  # quads, the lowest ace
        "AhJh9h6h4h2h3s",  # flush of six: the top five
        "QsQcJhJd5s5c2h",  # three pairs: the fives' lowest is the kicker's place... A? no: 5
        "AhKd9c7s3s2d4c",  # high card
        "KhKsAdQc9s2s3c",  # pair
        "TsTcTh9d8d7c6c",  # a straight over trips
    ]
    for hand in hands:
        assert tuple(pp.best_five(hand).tolist()) == oracle(pp.parse_cards(hand)), hand
    assert pp.format_cards(pp.best_five("As2c3d4h5sKdKh")) == "5s4h3d2cAs"
    assert pp.format_cards(pp.best_five("KhKsAdQc9s2s3c")) == "KsKhAdQc9s"


def test_forms_one_hand_and_batches():
    one = pp.best_five("AhKd9c7s3s2d4c")
    assert one.shape == (5,)
    ids = pp.parse_cards("AhKd9c7s3s2d4c")
    assert (pp.best_five(ids) == one).all()
    assert (pp.best_five(ids.tolist()) == one).all()
    assert (pp.best_five(ids[None, :])[0] == one).all()
    ragged = pp.best_five(["AhKd9c7s3s2d4c", "AhKd9c7s3s", "AhKd9c7s3s2d"])
    assert ragged.shape == (3, 5) and (ragged[0] == one).all()
    sets = np.array([int(pp.CardSet(h)) for h in ["AhKd9c7s3s2d4c", "AhKd9c7s3s"]], np.uint64)
    assert (pp.best_five(sets) == ragged[:2]).all()
    assert pp.best_five(np.empty((0, 7), dtype=np.uint8)).shape == (0, 5)


def test_omaha_two_from_the_hand_three_from_the_board():
    # One heart in the hand and four on the board: no flush.
    five = pp.best_five("AhAsKsKc", boards="QhJhTh3h2s")
    assert pp.format_cards(five) == "AsKsQhJhTh"
    holes = _deal(400, 9, seed=9)
    hands, boards = holes[:, :4], holes[:, 4:]
    fives = pp.best_five(hands, boards=boards)
    for hand, board, five in zip(hands, boards, fives, strict=True):
        assert len(set(five.tolist()) & set(hand.tolist())) == 2
        assert len(set(five.tolist()) & set(board.tolist())) == 3
        choices = [
            (a, b, *t)
            for a, b in itertools.combinations(hand.tolist(), 2)
            for t in itertools.combinations(board.tolist(), 3)
        ]
        best = int(pp.rank(np.array(choices, np.uint8)).max())
        assert int(pp.rank(five)) == best
    assert (pp.rank(fives) == pp.rank_omaha(hands, boards)).all()


def test_bad_input_names_the_row():
    hands = _deal(10, 7, seed=1)
    hands[6, 3] = 60
    with pytest.raises(pp.InvalidHandError, match="row 6: card id 60 at position 3"):
        pp.best_five(hands)
    hands[6, 3] = hands[6, 0]
    with pytest.raises(pp.InvalidHandError, match="row 6: .* appears twice"):
        pp.best_five(hands)
    with pytest.raises(pp.InvalidHandError, match="hands of 4 cards"):
        pp.best_five(hands[:, :4])
    with pytest.raises(pp.InvalidHandError, match="row 1: 4 cards"):
        pp.best_five(["AhKd9c7s3s", "AhKd9c7s"])
    with pytest.raises(pp.CardParseError, match="row 3: .*Kd appears twice"):
        pp.best_five(["AhKd9c7s3s", "AhKd9c7s3s2d", "AhKd9c7s3s2d4c", "AhKd9c7s3s2dKd"])
    sets = np.array([0b11111, 0b1111111, 0b1111], dtype=np.uint64)
    with pytest.raises(pp.InvalidHandError, match="row 2: 4 cards"):
        pp.best_five(sets)
    with pytest.raises(
        pp.InvalidHandError, match="row 0: hole card 0 is 3s, a card already in the row"
    ):
        pp.best_five(np.array([[1, 2, 3, 4]], np.uint8), boards=np.array([[5, 6, 1]], np.uint8))
    with pytest.raises(pp.InvalidHandError, match="Omaha hands of 3 cards"):
        pp.best_five("AhKhQh", boards="2c3c4c")
    with pytest.raises(pp.ArgumentError):
        pp.best_five(np.zeros((2, 7), dtype=np.int64))


def test_describe_names_the_five():
    hand = "AhKh9h7h3h2c2d"
    five = pp.best_five(hand)
    text = pp.describe(pp.rank(hand), cards=five)
    assert text == "Flush, Ace-King-Nine-Seven-Three of hearts: Ah Kh 9h 7h 3h"
    assert pp.describe(pp.rank(hand)) == "Flush, Ace-King-Nine-Seven-Three"
    hands = ["KhKsAdQc9s2s3c", "AsKsQsJsTs2h3h"]
    words = pp.describe(pp.rank(hands), cards=pp.best_five(hands))
    assert words.tolist() == [
        "Pair, Kings, Ace-Queen-Nine kickers: Ks Kh Ad Qc 9s",
        "Straight Flush, Ace high of spades (Royal Flush): As Ks Qs Js Ts",
    ]
    with pytest.raises(pp.ArgumentError, match="row 0"):
        pp.describe(pp.rank(hands), cards=pp.best_five(hands)[::-1].copy())


def test_arrow_columns_in_and_out():
    pa = pytest.importorskip("pyarrow")
    hands = _deal(50, 7, seed=5)
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(hands.reshape(-1)), 7)
    fives = pp.arrow.best_five(fixed)
    assert fives.type == pa.list_(pa.uint8(), 5)
    expected = pp.best_five(hands)
    assert (fives.flatten().to_numpy().reshape(-1, 5) == expected).all()
    texts = pa.chunked_array([pp.format_cards(hands[:20]), [None, *pp.format_cards(hands[20:])]])
    out = pp.arrow.best_five(texts)
    assert isinstance(out, pa.ChunkedArray) and out.null_count == 1
    assert out.to_pylist()[:20] == expected[:20].tolist()
    assert out.to_pylist()[21:] == expected[20:].tolist()
    lists = pa.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 60]],
                     type=pa.list_(pa.uint8()))  # fmt: skip
    with pytest.raises(pp.InvalidHandError, match="row 2: card id 60"):
        pp.arrow.best_five(lists)
