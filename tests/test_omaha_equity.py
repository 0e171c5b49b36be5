"""Omaha equity: exact against every runout ranked in the test, Monte Carlo within four
standard errors of brute force (random opponents and partial hands, dealt from the deck),
thread independence and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp


def brute_force(boards: np.ndarray, holes: np.ndarray, weights=None) -> np.ndarray:
    """Each player's pot share over showdown rows (boards (N, 5), holes (N, P, k))."""
    ranks = pp.rank_showdown_omaha(boards, holes).astype(np.int64)
    best = ranks.max(axis=1, keepdims=True)
    winners = ranks == best
    share = winners / winners.sum(axis=1, keepdims=True)
    weights = np.ones(len(boards)) if weights is None else weights
    return (share * weights[:, None]).sum(axis=0) / weights.sum()


def runouts(known: list[int], board: list[int], dead: int = 0) -> np.ndarray:
    deck = [c for c in range(52) if c not in known and c not in board and not dead >> c & 1]
    rest = np.array(list(itertools.combinations(deck, 5 - len(board))), dtype=np.uint8)
    return np.hstack([np.tile(np.array(board, dtype=np.uint8), (len(rest), 1)), rest])


def test_exact_equals_every_runout():
    hands = ["AhAsKhKs", "9c8c7d6d", "QdJdTc9h"]
    board = pp.parse_cards("2h3cTs").tolist()
    result = pp.equity(hands, board="2h3cTs", game="plo4")
    assert result.exact and result.games == 666  # C(37, 2)
    known = pp.parse_cards("".join(hands))
    boards = runouts(known.tolist(), board)
    holes = np.tile(known.reshape(1, 3, 4), (len(boards), 1, 1))
    np.testing.assert_allclose(result.equity, brute_force(boards, holes), rtol=0, atol=1e-12)
    assert result.equity.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("game", ["plo5", "plo6"])
def test_exact_on_a_turn_for_five_and_six_cards(game):
    k = {"plo5": 5, "plo6": 6}[game]
    cards = pp.deal(1, 2 * k + 4, seed=k)[0]
    hands = [pp.format_cards(cards[:k]), pp.format_cards(cards[k : 2 * k])]
    board = cards[2 * k :].tolist()
    result = pp.equity(hands, board=pp.format_cards(cards[2 * k :]), game=game)
    boards = runouts(cards[: 2 * k].tolist(), board)
    holes = np.tile(cards[: 2 * k].reshape(1, 2, k), (len(boards), 1, 1))
    np.testing.assert_allclose(result.equity, brute_force(boards, holes), atol=1e-12)


def test_monte_carlo_against_a_random_hand_matches_brute_force():
    """AhAsKhKs against a random hand on a turn: every opponent hand and river, weighted."""
    hero = pp.parse_cards("AhAsKhKs").tolist()
    board = pp.parse_cards("2h3cTs9d").tolist()
    deck = [c for c in range(52) if c not in hero + board]
    rows = []
    for hand in itertools.combinations(deck, 4):
        for river in deck:
            if river not in hand:
                rows.append((*board, river, *hero, *hand))
    rows = np.array(rows, dtype=np.uint8)
    exact = brute_force(np.ascontiguousarray(rows[:, :5]),
                        np.ascontiguousarray(rows[:, 5:]).reshape(-1, 2, 4))  # fmt: skip
    result = pp.equity(["AhAsKhKs", "random"], board="2h3cTs9d", game="plo4", games=400_000)
    assert not result.exact and result.games == 400_000
    assert np.all(np.abs(result.equity - exact) <= 4 * result.stderr)


def test_partial_hands_are_completed_from_the_deck():
    """AhAs?? against KdKc?? on a flop, against averaging every completion exactly."""
    result = pp.equity(["AhAs", "KdKc"], board="2h3cTs", game="plo4", games=300_000, seed=3)
    assert result.hands == ["AhAs??", "KdKc??"]
    # Brute force over a sample of completions is too slow in full; the exact value of
    # each completion, averaged over 300 random ones, pins the mean to about 1%.
    rng = np.random.default_rng(5)
    known = pp.parse_cards("AhAsKdKc2h3cTs").tolist()
    deck = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
    shares = []
    for _ in range(300):
        extra = rng.permutation(deck)[:4]
        hands = [pp.format_cards(np.r_[known[0:2], extra[:2]].astype(np.uint8)),
                 pp.format_cards(np.r_[known[2:4], extra[2:]].astype(np.uint8))]  # fmt: skip
        shares.append(pp.equity(hands, board="2h3cTs", game="plo4").equity[0])
    spread = np.std(shares) / np.sqrt(len(shares))
    assert abs(result.equity[0] - np.mean(shares)) <= 4 * spread + 4 * result.stderr[0]


def test_the_same_games_for_any_thread_count():
    hands = ["AhAsKhKs", "random", "random"]
    one = pp.equity(hands, game="plo4", games=200_000, threads=1, seed=9)
    two = pp.equity(hands, game="plo4", games=200_000, threads=2, seed=9)
    np.testing.assert_array_equal(one.equity, two.equity)
    exact_one = pp.equity(["AhAsKhKs", "9c8c7d6d"], game="plo4", threads=1)
    exact_two = pp.equity(["AhAsKhKs", "9c8c7d6d"], game="plo4", threads=2)
    assert exact_one.games == exact_two.games == 1_086_008  # C(44, 5)
    np.testing.assert_array_equal(exact_one.equity, exact_two.equity)


def test_the_result_says_what_ran():
    exact = pp.equity(["AhAsKhKs", "9c8c7d6d"], board="2h3cTs", game="plo4")
    assert exact.method == "exact" and "known hands" in exact.reason
    sampled = pp.equity(["AhAsKhKs", "random"], game="plo4", games=10_000)
    assert sampled.method == "monte carlo" and sampled.stderr is not None
    assert sampled.to_dict()["hand"] == ["AhAsKhKs", "random"]


@pytest.mark.parametrize(
    ("players", "kwargs", "error", "message"),
    [
        (["AhAsKhKsQd", "random"], {}, ValueError, "player 1: 5 cards, PLO4 hands hold 4"),
        (["AhAsKhKs", "AhQsQhJs"], {}, pp.PokerError, "player 2: card Ah is dealt twice"),
        (["AhAsKhKs", "random"], {"board": "Ah2c3d"}, pp.PokerError, "card Ah is dealt twice"),
        (["AhAsKhKs", "random"], {"exact": True}, ValueError, "needs every hole card known"),
        (["AA", "random"], {}, pp.PokerError, "AA"),
        (["AhAsKhKs"], {}, ValueError, "equity takes 2 to 10 players, got 1"),
        (["random"] * 9, {"game": "plo6"}, ValueError, "deck enough to deal"),
        (["AhAsKhKs", "random"], {"game": "plo7"}, ValueError, "game='plo7'"),
    ],
)
def test_bad_input_is_named(players, kwargs, error, message):
    kwargs = {"game": "plo4", **kwargs}
    with pytest.raises(error, match=message):
        pp.equity(players, **kwargs)


@pytest.mark.parametrize(("first", "count"), [(0, 0), (1, 1), (0, 1 << 32)])
def test_exact_refuses_a_part_outside_its_parts_at_the_abi(first, count):
    """Exact counts take `first` as the part and `count` as the parts: no parts, a part past
    them or more parts than 32 bits hold are refused, never counted (a division by zero)."""
    from pypoker._native import ffi, lib, new_error
    from pypoker._spot import SUM_FIELDS

    holes = pp.parse_cards("AhAsKhKsQdQcJdJc")
    sums = np.zeros((2, len(SUM_FIELDS)))
    status = lib.pp_omaha_equity(
        ffi.from_buffer("uint8_t[]", holes), 4, 2, ffi.NULL, 0, 0, False, True, 0, first, count,
        ffi.cast("pp_sums *", ffi.from_buffer("double[]", sums, require_writable=True)),
        ffi.new("uint64_t *", 0), new_error(),
    )  # fmt: skip
    assert status == lib.PP_BAD_ARGUMENT
