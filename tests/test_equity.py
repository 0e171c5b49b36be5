"""Equity of known hands: exact counts, Monte Carlo against exact, an independent brute force
through pp.rank, reproducibility, stopping rules, bad input, the CLI."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp


def test_ackd_vs_qhqs_exactly(each_cpu):
    result = pp.equity(["AcKd", "QhQs"])
    assert result.exact and result.games == 1_712_304
    assert result.wins.tolist() == [730_541, 975_909]
    assert result.ties.tolist() == [5_854, 5_854]
    assert result.equity[0] == pytest.approx((730_541 + 5_854 / 2) / 1_712_304, abs=1e-12)
    assert result.equity.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "hands, board",
    [
        (["AcKd", "QhQs"], None),
        (["AcKd", "QhQs", "7s7d"], "Jh7c2d"),
        (["AsKs", "QdQc"], "2d5s9hJh7c"),
    ],
)
def test_known_hands_written_natively_match_the_sums_bit_for_bit(hands, board):
    """A known-hands result as one native call writes it (pp_equity_known), as threads' parts
    summed give it (pp_equity_exact, pp_equity_result), and as every other run's sums make it
    (from_sums): the same figures, bit for bit."""
    from pypoker._equity_runs import known_exact, known_sums
    from pypoker._spot import SLOTS, SUM_FIELDS
    from pypoker.equity_result import from_sums

    one = pp.equity(hands, board=board, threads=1)
    parts = pp.equity(hands, board=board, threads=3)
    rows, played = known_exact([int(pp.CardSet(h)) for h in hands], int(pp.CardSet(board)), 0, 1)
    sums = np.zeros((len(hands), SLOTS, len(SUM_FIELDS)))
    sums[:, 0] = known_sums(rows, played)
    weights = np.zeros((len(hands), SLOTS - 1))
    weights[:, 0] = 1
    fields = {"hands": hands, "board": "", "dead": "", "seconds": 0.0}
    summed = from_sums(sums, list(weights), played, exact=True, **fields)
    for result in (parts, summed):
        assert result.games == one.games == played
        for name in ("equity", "win", "tie", "wins", "ties"):
            assert getattr(result, name).tobytes() == getattr(one, name).tobytes(), name
    for player in range(len(hands)):
        table = one.by_combo(player)
        assert len(table["combo"]) == 1 and table["weight"].tolist() == [1.0]
        assert table["equity"].tobytes() == one.equity[player : player + 1].tobytes()


def brute_force(hands: list[str], board: str, dead: str = "") -> np.ndarray:
    """Every completion of the board, ranked with pp.rank: pot shares per player."""
    holes = [pp.parse_cards(h) for h in hands]
    known = np.concatenate([*holes, pp.parse_cards(board), pp.parse_cards(dead)])
    left = np.setdiff1d(np.arange(52, dtype=np.uint8), known)
    missing = 5 - len(pp.parse_cards(board))
    runouts = np.array(list(itertools.combinations(left, missing)), dtype=np.uint8)
    runouts = runouts.reshape(len(runouts), missing)
    boards = np.concatenate(
        [np.broadcast_to(pp.parse_cards(board), (len(runouts), 5 - missing)), runouts], axis=1
    )
    ranks = np.stack(
        [pp.rank(np.concatenate([boards, np.broadcast_to(h, (len(boards), 2))], axis=1))
         for h in holes], axis=1,
    )  # fmt: skip
    best = ranks == ranks.max(axis=1, keepdims=True)
    return (best / best.sum(axis=1, keepdims=True)).mean(axis=0)


@pytest.mark.parametrize(
    "hands, board, dead",
    [
        (["AhAd", "KhKd", "7c2s"], "Kc8h2d", ""),
        (["AsKs", "QdQc", "JhTh", "9c9d"], "2s7sQh", "3c"),
        (["5c5d", "AhKh", "8s9s", "2d3d", "TcJc", "6h6s"], "4h5h6d9h", ""),
        (["AcAd", "KcKd"], "2h3h4h5h9s", ""),
    ],
)
def test_multiway_flop_turn_and_river_spots_match_brute_force(hands, board, dead):
    result = pp.equity(hands, board=board, dead=dead, threads=2)
    assert np.allclose(result.equity, brute_force(hands, board, dead), atol=1e-12)


@pytest.mark.parametrize(
    "hands, board", [(["AcKd", "QhQs"], None), (["AhAd", "KhKd", "7c2s"], "Kc8h2d"),
                     (["JsTs", "AhKc"], "9s8h2s3d")],
)  # fmt: skip
def test_monte_carlo_lands_within_four_standard_errors(hands, board):
    exact = pp.equity(hands, board=board)
    estimate = pp.equity(hands, board=board, exact=False, games=400_000, seed=5)
    assert not estimate.exact and estimate.games == 400_000
    assert (np.abs(estimate.equity - exact.equity) <= 4 * estimate.stderr + 1e-12).all()


def test_monte_carlo_is_reproducible_for_any_thread_count():
    one = pp.equity(["AcKd", "QhQs", "7s7d"], exact=False, games=300_000, seed=9, threads=1)
    two = pp.equity(["AcKd", "QhQs", "7s7d"], exact=False, games=300_000, seed=9, threads=2)
    assert np.array_equal(one.equity, two.equity) and np.array_equal(one.wins, two.wins)
    other = pp.equity(["AcKd", "QhQs", "7s7d"], exact=False, games=300_000, seed=10)
    assert not np.array_equal(one.wins, other.wins)


def test_stopping_rules():
    by_error = pp.equity(["AcKd", "QhQs"], exact=False, stderr=0.002, seed=1)
    assert by_error.stderr.max() <= 0.002 and by_error.games < 1_000_000
    by_time = pp.equity(["AcKd", "QhQs"], exact=False, seconds=0.05)
    assert by_time.games >= 1 and by_time.seconds < 5
    with pytest.raises(ValueError, match="stopping rules"):
        pp.equity(["AcKd", "QhQs"], exact=True, games=10)


@pytest.mark.parametrize(
    "players, kwargs, error, message",
    [
        (["AcKd", "AcQs"], {}, pp.PokerError, "player 2: card Ac is dealt twice"),
        (["AcKd", "QhQs"], {"board": "Kd7c2s"}, pp.PokerError, "card Kd is dealt twice"),
        (["AcKd", "QhQs"], {"dead": "Qh"}, pp.PokerError, "card Qh is dealt twice"),
        (["AcKd"] + ["2c3c"] * 0, {}, ValueError, "2 to 10 players, got 1"),
        ([f"{v}c{v}d" for v in "23456789TJQ"], {}, ValueError, "2 to 10 players, got 11"),
        (["AcKd", "QhQs"], {"board": "2c3c"}, ValueError, "0, 3, 4 or 5"),
        (["AcKd", "KX"], {}, ValueError, "player 2: 'KX' at 0"),
    ],
)
def test_bad_input(players, kwargs, error, message):
    with pytest.raises(error, match=message):
        pp.equity(players, **kwargs)


def test_result_converts_to_columns_and_prints():
    result = pp.equity(["AcKd", "QhQs"], board="2c7d9h")
    columns = result.to_dict()
    assert columns["hand"] == ["AcKd", "QhQs"] and len(columns["equity"]) == 2
    assert "AcKd" in str(result) and "exact" in str(result)


def test_cli_equity(capsys):
    from pypoker.cli import main

    assert main(["equity", "AcKd", "QhQs"]) == 0
    assert "42.8352%" in capsys.readouterr().out
    assert main(["equity", "-g", "200K", "AcKd", "7h7s", "-", "8c", "4d", "7c"]) == 0
    printed = capsys.readouterr().out
    assert "Monte Carlo: 200,000 games, board [7c8c4d]" in printed
    assert main(["equity", "AcKd", "AcQs"]) == 2
    assert "dealt twice" in capsys.readouterr().err


def test_players_as_card_sets_and_ids_and_progress(capsys):
    by_text = pp.equity(["AcKd", "QhQs"])
    by_objects = pp.equity([pp.CardSet("AcKd"), pp.parse_cards("QhQs")])
    assert np.array_equal(by_text.equity, by_objects.equity)
    pp.equity(["AcKd", "QhQs"], exact=False, games=600_000, progress=True)
    assert "600,000 games, worst stderr" in capsys.readouterr().err


@pytest.mark.parametrize("board_cards", [0, 3, 4, 5])
def test_equities_rows_are_each_spots_equity_bit_for_bit(board_cards):
    rng = np.random.default_rng(board_cards)
    rows = 3 if board_cards == 0 else 40
    for players in (2, 3, 6):
        cards = np.array([rng.permutation(52)[: 2 * players + board_cards] for _ in range(rows)])
        holes = cards[:, : 2 * players].astype(np.uint8).reshape(rows, players, 2)
        boards = cards[:, 2 * players :].astype(np.uint8)
        batch = pp.equities(holes, boards, threads=2)
        assert batch.shape == (rows, players) and batch.dtype == np.float64
        for row in range(rows):
            hands = pp.format_cards(holes[row])
            one = pp.equity(hands, board=pp.format_cards(boards[row]) if board_cards else None)
            assert batch[row].tobytes() == one.equity.tobytes(), (players, row)


def test_equities_take_text_one_board_for_all_and_name_a_bad_card():
    texts = pp.equities(["AsKsQdQc", "AhAdKcKd"], "Jh7c2d")
    ids = pp.equities(pp.parse_cards(["AsKsQdQc", "AhAdKcKd"]).reshape(2, 2, 2),
                      np.repeat(pp.parse_cards("Jh7c2d")[None], 2, axis=0))  # fmt: skip
    assert texts.tobytes() == ids.tobytes()
    assert texts[0].tolist() == pp.equity(["AsKs", "QdQc"], board="Jh7c2d").equity.tolist()
    assert pp.equities(np.zeros((0, 2, 2), dtype=np.uint8)).shape == (0, 2)
    with pytest.raises(pp.InvalidHandError, match="row 1: player 2's card 1 is Jh, a card"):
        pp.equities(["AsKsQdQc", "AhAdJhKd"], "Jh7c2d")
    with pytest.raises(pp.ArgumentError, match="a board holds 0, 3, 4 or 5"):
        pp.equities(["AsKsQdQc"], "Jh7c")
    with pytest.raises(pp.ArgumentError, match="boards has 3 rows where holes has 2"):
        pp.equities(["AsKsQdQc", "AhAdKcKd"], ["Jh7c2d", "Jh7c3d", "Jh7c4d"])
