"""Omaha hi-lo, eight or better (issue #51): the low against a brute-force oracle over every
two-from-hand, three-from-board choice and against pokerkit's ``OmahaEightOrBetterLowHand``,
on every CPU level; the fused high + low pass against the high alone; split-pot chip
arithmetic; hi-lo equity against runouts split by hand; bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp

LOW_ORDER = "A2345678"  # ace low


def oracle_low(hole: list[int], board: list[int]) -> int:
    """The plain rule: every two of the hole and three of the board whose five ranks are
    distinct and eight or lower; the best by comparing the ranks from the highest down."""
    best = None
    for pair in itertools.combinations(hole, 2):
        for triple in itertools.combinations(board, 3):
            ranks = [1 if c % 13 == 12 else c % 13 + 2 for c in pair + triple]  # ace = 1
            if max(ranks) > 8 or len(set(ranks)) < 5:
                continue
            key = sorted(ranks, reverse=True)
            best = key if best is None or key < best else best
    if best is None:
        return pp.NO_LOW
    return 255 - sum(1 << (r - 1) for r in best)  # the documented encoding


def low_rows(n: int, hole_cards: int, board_cards: int, seed: int):
    """Random rows, half of them dealt from the low cards first so lows are common."""
    rng = np.random.default_rng(seed)
    low_first = np.array([c for c in range(52) if c % 13 in (12, 0, 1, 2, 3, 4, 5, 6)])
    rest = np.setdiff1d(np.arange(52), low_first)
    rows = []
    for i in range(n):
        deck = rng.permutation(52)
        if i % 2:
            deck = np.concatenate([rng.permutation(low_first), rng.permutation(rest)])
        rows.append(
            rng.permutation(deck[: hole_cards + board_cards + 4])[: hole_cards + board_cards]
        )
    cards = np.array(rows, dtype=np.uint8)
    return np.ascontiguousarray(cards[:, :hole_cards]), np.ascontiguousarray(cards[:, hole_cards:])


@pytest.fixture(params=pp.supported_cpus())
def level(request):
    pp.select_cpu(request.param)
    yield request.param
    pp.select_cpu("auto")


@pytest.mark.parametrize("hole_cards", [4, 5, 6])
@pytest.mark.parametrize("board_cards", [3, 4, 5])
def test_low_equals_every_two_and_three_choice(level, hole_cards, board_cards):
    holes, boards = low_rows(1500, hole_cards, board_cards, seed=hole_cards * 7 + board_cards)
    lows = pp.rank_low_omaha(holes, boards)
    expected = [oracle_low(h, b) for h, b in zip(holes.tolist(), boards.tolist(), strict=True)]
    np.testing.assert_array_equal(lows, expected)
    assert 0.2 < np.mean(lows != pp.NO_LOW) < 0.9  # lows and no lows both tested


@pytest.mark.parametrize("players", [1, 3])
def test_high_and_low_in_one_pass_equal_each_alone(level, players):
    # One player a row runs the 16-row vector path (and its tail), three the row path.
    holes, boards = low_rows(1003, 4 * players, 5, seed=players)
    holes = holes.reshape(len(holes), players, 4)
    highs, lows = pp.rank_showdown_omaha(boards, holes, low=True)
    np.testing.assert_array_equal(highs, pp.rank_showdown_omaha(boards, holes))
    for p in range(players):
        np.testing.assert_array_equal(lows[:, p], pp.rank_low_omaha(holes[:, p].copy(), boards))


def test_low_orders_and_ties_as_pokerkit():
    pokerkit = pytest.importorskip("pokerkit")
    holes, boards = low_rows(3000, 4, 5, seed=11)
    lows = pp.rank_low_omaha(holes, boards)
    names = np.array(pp.CARD_NAMES)
    theirs = []
    for hole, board in zip(holes.tolist(), boards.tolist(), strict=True):
        try:
            hand = pokerkit.OmahaEightOrBetterLowHand.from_game(
                "".join(names[hole]), "".join(names[board])
            )
        except ValueError:  # pokerkit: no low can be formed
            hand = None
        theirs.append(hand)
    made = [i for i, h in enumerate(theirs) if h is not None]
    np.testing.assert_array_equal(lows != pp.NO_LOW, [h is not None for h in theirs])
    assert len(made) > 500
    # pokerkit's hands compare stronger-is-greater, as our lows do: the same order, the
    # same ties, on every pair of consecutive lows sorted by ours.
    order = sorted(made, key=lambda i: int(lows[i]))
    for a, b in itertools.pairwise(order):
        assert (lows[a] == lows[b]) == (theirs[a] == theirs[b])
        assert (lows[a] < lows[b]) == (theirs[a] < theirs[b])


def test_encoding_and_text():
    assert (pp.NO_LOW, pp.LOW_WORST, pp.LOW_BEST) == (0, 7, 224)
    lows = pp.rank_low_omaha(["As2d9c9h", "AsAd8c7c", "KsKcQcJc", "2s3sAhKd"],
                             ["3h4c5sKdQd", "2h3h4hKdQd", "2h3h4hKdQd", "4d5d8dKhKc"])  # fmt: skip
    assert pp.describe_low(lows) == ["5-4-3-2-A", "7-4-3-2-A", "no low", "8-5-4-2-A"]
    assert lows[0] == pp.LOW_BEST
    # A straight or a flush does not spoil a low: the wheel of one suit is the best low.
    assert pp.rank_low_omaha("As2s9c9h", "3s4s5sKdQd")[0] == pp.LOW_BEST
    # Exactly two from the hand: one low card in the hand makes no low on any board.
    assert pp.rank_low_omaha("AsKdQdJd", "2h3h4h5h6h")[0] == pp.NO_LOW
    # Exactly three from the board: a hand of four low cards on two low board cards has none.
    assert pp.rank_low_omaha("As2s3s4s", "5h6hKdQdJd")[0] == pp.NO_LOW
    with pytest.raises(pp.ArgumentError, match="not a low"):
        pp.describe_low([101])  # a mask of four ranks


def test_split_pot_chips_odd_chip_and_quartering():
    high, low = np.array([[9, 5, 5]]), np.array([[0, 200, 200]])
    # Player 0 takes the high half (51, the odd chip with it); two tie the low: 25 and 24
    # (the odd chip of the half to the earlier seat).
    np.testing.assert_array_equal(pp.split_pot(100 + 1, high, low), [[51, 25, 25]])
    np.testing.assert_array_equal(pp.split_pot(103, high, low), [[52, 26, 25]])
    # Quartered: player 0 wins the high alone and ties the low with player 1: 3/4 and 1/4.
    np.testing.assert_array_equal(pp.split_pot(400, [9, 5, 4], [200, 200, 100]), [300, 100, 0])
    # No low: the high takes it all (split when tied).
    np.testing.assert_array_equal(pp.split_pot(7, [5, 5, 1], [0, 0, 0]), [4, 3, 0])
    # A scoop: best high and best low.
    np.testing.assert_array_equal(pp.split_pot(10, [9, 5], [200, 100]), [10, 0])
    # Rows, pots per row; every chip handed out.
    rng = np.random.default_rng(1)
    highs = rng.integers(1, 4, (500, 4))
    lows = np.where(rng.random((500, 4)) < 0.5, 0, rng.integers(7, 10, (500, 4)))
    pots = rng.integers(0, 1000, 500)
    chips = pp.split_pot(pots, highs, lows)
    np.testing.assert_array_equal(chips.sum(axis=1), pots)
    assert chips.dtype == np.int64


def test_equity_splits_pots_as_runouts_split_by_hand():
    hands, board = ["AhAd2h3c", "KdKc8h9s"], "4h5cTs"
    result = pp.equity(hands, board=board, game="plo4-8")
    assert result.exact and result.games == 820  # C(41, 2) turns and rivers
    holes = np.array([pp.parse_cards(h) for h in hands], dtype=np.uint8)
    flop = pp.parse_cards(board)
    left = sorted(set(range(52)) - set(holes.reshape(-1).tolist()) - set(flop.tolist()))
    boards = np.array([list(flop) + list(r) for r in itertools.combinations(left, 2)], np.uint8)
    rows = np.broadcast_to(holes, (len(boards), 2, 4)).copy()
    highs, lows = pp.rank_showdown_omaha(boards, rows, low=True)
    chips = pp.split_pot(4, highs, lows)  # 4 chips: halves and quarters come out whole
    np.testing.assert_allclose(result.equity, chips.mean(axis=0) / 4)
    best_high = highs == highs.max(axis=1, keepdims=True)
    has_low = lows.max(axis=1) != pp.NO_LOW
    high_part = np.where(has_low[:, None], 2, 4) * best_high / best_high.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(result.high, high_part.mean(axis=0) / 4)
    np.testing.assert_allclose(result.high + result.low, result.equity)
    np.testing.assert_allclose(result.scoop, (chips == 4).mean(axis=0))
    assert result.low[0] > 0 and result.low[1] == 0  # kings hold one low card: never a low


def test_monte_carlo_lands_near_exact_and_keeps_its_stopping_rules():
    hands = ["AhAd2h3c", "KdKc8h9s"]
    exact = pp.equity(hands, game="plo4-8")
    sampled = pp.equity(hands, game="plo4-8", games=100_000, seed=4)
    assert not sampled.exact and sampled.games == 100_000
    for part in ("equity", "high", "low", "scoop"):
        np.testing.assert_allclose(getattr(sampled, part), getattr(exact, part), atol=0.01)
    stopped = pp.equity(["AhAd2h3c6s", "random"], game="plo5-8", stderr=0.004)
    assert stopped.stderr.max() <= 0.004
    assert {"high", "low", "scoop"} <= set(stopped.to_dict())
    assert "scoop" in str(stopped)


def test_dataset_low_columns():
    table = pp.dataset(300, 3, seed=5, game="plo5-8")
    holes = np.array(table["holes"].to_pylist(), dtype=np.uint8)
    boards = np.array([f + [t, r] for f, t, r in zip(table["flop"].to_pylist(),
                       table["turn"].to_pylist(), table["river"].to_pylist(), strict=True)],
                      dtype=np.uint8)  # fmt: skip
    highs, lows = pp.rank_showdown_omaha(boards, holes, low=True)
    np.testing.assert_array_equal(np.array(table["low"].to_pylist()), lows)
    np.testing.assert_array_equal(np.array(table["rank"].to_pylist()), highs)
    winners = np.array(table["low_winner"].to_pylist())
    assert not winners[lows.max(axis=1) == pp.NO_LOW].any()
    assert "low" not in pp.dataset(10, 3, seed=5, game="plo5").column_names


def test_bad_input_is_named():
    with pytest.raises(pp.InvalidHandError, match="hole cards"):
        pp.rank_low_omaha(["AsKd2c"], ["2h3h4h5h6h"])
    holes = np.array([[12, 0, 1, 2], [12, 0, 1, 1]], dtype=np.uint8)  # row 1: a card twice
    with pytest.raises(pp.InvalidHandError, match="row 1: hole card 3"):
        pp.rank_low_omaha(holes, np.array([[30, 31, 32, 33, 34]] * 2, dtype=np.uint8))
    with pytest.raises(pp.InvalidHandError, match="row 0: board card 4 is 60"):
        pp.rank_low_omaha(holes[:1], np.array([[30, 31, 32, 33, 60]], dtype=np.uint8))
    with pytest.raises(ValueError, match="plo4-8"):
        pp.equity(["AhAd2h3c", "random"], game="plo6-8")
    with pytest.raises(ValueError, match="player 1: 5 cards"):
        pp.equity(["AhAd2h3c4c", "random"], game="plo4-8")
    with pytest.raises(pp.ArgumentError, match="low must be True or False"):
        pp.rank_showdown_omaha(np.zeros((1, 5), np.uint8), np.zeros((1, 1, 4), np.uint8), low=1)
    with pytest.raises(pp.ArgumentError, match="lows of shape"):
        pp.split_pot(10, [[1, 2]], [[1, 2, 3]])
    with pytest.raises(pp.ArgumentError, match="pot must be whole chips"):
        pp.split_pot(-1, [1, 2], [0, 0])
    with pytest.raises(pp.ArgumentError, match="highs must be"):
        pp.split_pot(10, [1.5, 2], [0, 0])
