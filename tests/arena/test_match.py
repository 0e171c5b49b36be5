"""Matches: results, reproducibility, duplicate mode."""

import numpy as np
import pytest

from pypoker.arena import match
from pypoker.arena.agents import AgentError


def test_match_is_reproducible_and_zero_sum():
    first = match(["call", "random", "chart"], 3000, seed=7)
    again = match(["call", "random", "chart"], 3000, seed=7)
    np.testing.assert_array_equal(first.bb_per_100, again.bb_per_100)
    assert abs(first.bb_per_100.sum()) < 1e-6
    assert first.hands >= 3000 and first.agents == ["call", "random", "chart"]


def test_duplicate_plays_every_deal_in_every_rotation():
    result = match(["equity", "call"], 4000, seed=1, duplicate=True, record=True)
    history = result.history
    assert set(history["rotation"].to_pylist()) == {0, 1}
    assert result.variance_cut is not None and (result.variance_cut < 1).all()
    # The same deals in both rotations, the hole cards moved one seat; boards and buttons kept.
    by_rotation = [history.filter(np.asarray(history["rotation"]) == r) for r in (0, 1)]
    holes = [np.array(t["hole_cards"].to_pylist()) for t in by_rotation]
    np.testing.assert_array_equal(holes[1], np.roll(holes[0], -1, axis=1))
    for column in ("board", "button", "hand_id"):
        assert by_rotation[0][column].to_pylist() == by_rotation[1][column].to_pylist()


def test_duplicate_cancels_the_cards_luck_of_call_against_random():
    plain = match(["call", "random"], 20_000, seed=4)
    duplicate = match(["call", "random"], 20_000, seed=4, duplicate=True)
    assert duplicate.stderr[0] < 0.5 * plain.stderr[0]


def test_equity_beats_the_fixed_agents_heads_up():
    for opponent in ("random", "call", "raise"):
        result = match(["equity", opponent], 20_000, seed=2, duplicate=True)
        assert result.interval[0, 0] > 0, (opponent, str(result))


def test_labels_and_errors():
    result = match(["equity", "equity", "call"], 600)
    assert result.agents == ["equity", "equity#2", "call"]
    with pytest.raises(AgentError, match="2..10 agents"):
        match(["call"], 10)


def test_cli_plays_a_match_writes_the_hands_and_shows_one(tmp_path, capsys):
    from pypoker.cli import main

    out = tmp_path / "hands.parquet"
    assert main(["arena", "--agents", "equity,call", "--hands", "2K", "--duplicate",
                 "--out", str(out)]) == 0  # fmt: skip
    table = capsys.readouterr().out
    assert "equity" in table and "call" in table and "duplicate" in table
    assert main(["arena", "show", str(out), "--hand", "3"]) == 0
    shown = capsys.readouterr().out
    assert "seat 0:" in shown and "net:" in shown
    assert main(["arena", "--agents", "equity,eqity", "--hands", "10"]) == 2
    assert "unknown agent 'eqity'" in capsys.readouterr().err
