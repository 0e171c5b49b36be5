"""The arena's Python face: settings checked, observe/step on batches, illegal actions refused
with nothing changed, state saved and restored, native play, histories and replays."""

from __future__ import annotations

import time

import numpy as np
import pyarrow.parquet as pq
import pytest

from pypoker import PokerError
from pypoker.arena import (
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    NO_CARD,
    RAISE,
    TABLE_DTYPE,
    Arena,
    IllegalActionError,
    random_player,
)


def test_the_table_struct_is_240_bytes():
    assert TABLE_DTYPE.itemsize == 240
    assert Arena(3, 10).state.nbytes == 3 * 240


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        (dict(tables=0, seats=6), ValueError, "tables"),
        (dict(tables=2, seats=1), ValueError, "seats"),
        (dict(tables=2, seats=11), ValueError, "seats"),
        (dict(tables=2, seats=6, stacks=-5), ValueError, "stacks[0]"),
        (dict(tables=2, seats=6, stacks=100.5), TypeError, "stacks[0]"),
        (dict(tables=2, seats=3, stacks=[100, 100]), ValueError, "stacks"),
        (dict(tables=2, seats=6, stacks=1, blinds=(1, 2)), ValueError, "stacks[0]"),
        (dict(tables=2, seats=6, blinds=(2, 1)), ValueError, "blinds[1]"),
        (dict(tables=2, seats=6, blinds=(1,)), ValueError, "blinds"),
        (dict(tables=2, seats=6, straddle=3), ValueError, "straddle"),
        (dict(tables=2, seats=6, seed=-1), ValueError, "seed"),
        (dict(tables=2, seats=6, button=6), ValueError, "button"),
        (dict(tables="2", seats=6), TypeError, "tables"),
    ],
)
def test_bad_settings_name_the_argument(kwargs, error, named):
    with pytest.raises(error, match=named.replace("[", r"\[").replace("]", r"\]")):
        Arena(**kwargs)


def test_observe_one_row_a_table_with_views_of_the_state():
    arena = Arena(5, 6, stacks=100, blinds=(1, 2))
    seen = arena.observe()
    assert seen.actor.tolist() == [3] * 5  # button 0, blinds 1 and 2, seat 3 first
    assert seen.pot.tolist() == [3] * 5
    assert seen.stacks.shape == (5, 6) and seen.bets.shape == (5, 6)
    assert not seen.stacks.flags.writeable
    assert seen.bets[0].tolist() == [0, 1, 2, 0, 0, 0]
    assert (seen.board == NO_CARD).all()
    assert seen.legal.dtype == bool and seen.legal[0].tolist() == [True, False, True, True, True]
    assert seen.to_call.tolist() == [2] * 5
    assert seen.min_raise_to.tolist() == [4] * 5 and seen.max_raise_to.tolist() == [100] * 5
    arena.step(np.full(5, CALL))
    assert seen.bets[0].tolist() == [0, 1, 2, 2, 0, 0]  # a view: it follows the state


def test_an_illegal_action_names_the_table_and_range_and_changes_nothing():
    arena = Arena(4, 6, stacks=200)
    before = arena.state
    kinds = np.array([CALL, CALL, RAISE, CALL])
    amounts = np.array([0, 0, 3, 0])
    with pytest.raises(IllegalActionError, match=r"table 2: raise to 3 is below the minimum "
                       r"raise 4 \(legal raise-to: 4..200\)") as caught:  # fmt: skip
        arena.step(kinds, amounts)
    assert caught.value.row == 2
    assert arena.state.tobytes() == before.tobytes()
    with pytest.raises(IllegalActionError, match="table 0: seat 3 cannot check"):
        arena.step(np.full(4, CHECK))
    assert arena.state.tobytes() == before.tobytes()


@pytest.mark.parametrize(
    ("kinds", "amounts", "error", "text"),
    [
        ([1, 1], None, ValueError, "shape"),
        ([1, 1, 7], None, ValueError, r"kinds\[2\] is 7"),
        ([1.0, 1.0, 1.0], None, TypeError, "kinds must be integers"),
        ([2, 2, 2], [0.5, 0, 0], TypeError, "amounts must be integers"),
        ([2, 2, 2], [0, 0], ValueError, "amounts must have shape"),
    ],
)
def test_bad_step_arguments_name_the_argument(kinds, amounts, error, text):
    arena = Arena(3, 2)
    before = arena.state
    with pytest.raises(error, match=text):
        arena.step(kinds, amounts)
    assert arena.state.tobytes() == before.tobytes()


def test_a_finished_hand_pays_and_deals_the_next():
    arena = Arena(2, 2, stacks=100)  # heads-up: the button (seat 0) acts first
    result = arena.step([RAISE, FOLD], [10, 0])
    assert result.finished.tolist() == [False, True]
    assert result.winnings[1].tolist() == [-1, 1]  # the button folded its small blind
    assert arena.state["hand"].tolist() == [0, 1]
    result = arena.step([FOLD, CALL])
    assert result.finished.tolist() == [True, False]
    assert result.winnings[0].tolist() == [2, -2]


def test_state_round_trips_and_restored_arenas_play_the_same():
    arena = Arena(6, 4, stacks=[50, 100, 150, 200], carry=True, seed=3)
    arena.play(20, threads=1)
    saved = arena.state
    twin = Arena.from_state(saved, **arena.settings)
    assert twin.state.tobytes() == saved.tobytes()
    first = arena.play(30, record=True, threads=1)
    second = twin.play(30, record=True, threads=1)
    assert first.equals(second)


def test_from_state_refuses_a_state_the_rules_cannot_play():
    state = Arena(3, 6).state
    state["in_hand"][1] = 0xFFFF  # seats that do not exist
    with pytest.raises(PokerError, match="state row 1"):
        Arena.from_state(state)
    with pytest.raises(TypeError, match="TABLE_DTYPE"):
        Arena.from_state(np.zeros(3))


def test_cards_do_not_depend_on_the_batch():
    small, large = Arena(3, 6, seed=11), Arena(50, 6, seed=11)
    assert (small.state["hole"] == large.state["hole"][:3]).all()
    assert (small.state["board"] == large.state["board"][:3]).all()
    assert not (large.state["hole"][0] == large.state["hole"][1]).all()


def test_histories_are_the_same_for_any_thread_count(tmp_path):
    one = Arena(40, 6, seed=5).play(50, record=True, threads=1)
    two = Arena(40, 6, seed=5).play(50, record=True, threads=2)
    assert one.num_rows == 2000 and one.equals(two)
    path = tmp_path / "history.parquet"
    Arena(40, 6, seed=5).play(50, parquet=path, threads=2)
    assert pq.read_table(path).equals(one)
    assert [p.name for p in tmp_path.iterdir()] == ["history.parquet"]


def test_history_rows_add_up():
    history = Arena(30, 6, ante=1, straddle=4, seed=9).play(40, record=True).to_pylist()
    for row in history:
        assert sum(row["winnings"]) == 0
        assert len(row["board"]) in (0, 3, 4, 5)
        paid = sum(p["amount"] for p in row["pots"])
        gained = sum(w for w in row["winnings"] if w > 0)
        assert paid >= gained
        assert all(a["kind"] in (FOLD, CHECK, CALL, RAISE, ALL_IN) for a in row["actions"])


def test_the_python_twin_of_the_random_player_plays_as_the_native_one():
    seed = 21
    native = Arena(1, 6, seed=seed).play(30, record=True, threads=1).to_pylist()
    arena = Arena(1, 6, seed=seed)
    decision, hand, actions = 0, 0, []
    while hand < 30:
        seen = arena.observe()
        kind, amount = random_player.choose(seed, 0, hand, decision, int(seen.to_call[0]),
                                            bool(seen.legal[0, RAISE]), int(seen.min_raise_to[0]),
                                            int(seen.max_raise_to[0]))  # fmt: skip
        actions.append((int(seen.actor[0]), kind))
        result = arena.step([kind], [amount])
        decision += 1
        if result.finished[0]:
            recorded = [(a["seat"], a["kind"]) for a in native[hand]["actions"]]
            assert actions == recorded, f"hand {hand}"
            assert result.winnings[0].tolist() == native[hand]["winnings"]
            decision, hand, actions = 0, hand + 1, []


def _with_unknown_seat_1() -> Arena:
    arena = Arena(1, 3, stacks=100)  # button 0 acts first, SB 1, BB 2
    hole = arena.state["hole"][:, :3].copy()
    hole[0, 1] = NO_CARD  # seat 1's cards are unknown (a replayed hand)
    arena.set_cards(hole=hole)
    return arena


def test_unknown_hole_cards_replay_when_the_seat_folds():
    arena = _with_unknown_seat_1()
    arena.step([CALL])
    arena.step([FOLD])
    for _ in range(7):  # BB checks preflop; the flop, turn and river are checked down
        result = arena.step([CHECK])
    assert result.finished[0] and result.winnings[0, 1] == -1


def test_unknown_hole_cards_cannot_reach_a_showdown():
    arena = _with_unknown_seat_1()
    arena.step([ALL_IN])
    arena.step([CALL])
    before = arena.state
    with pytest.raises(IllegalActionError, match="table 0: call would bring a seat whose cards "
                       "are unknown"):  # fmt: skip
        arena.step([CALL])
    assert arena.state.tobytes() == before.tobytes()
    with pytest.raises(ValueError, match="not a card id"):
        arena.set_cards(board=[[1, 2, 3, 4, 60]])


def test_ctrl_c_stops_a_long_play_quickly():
    arena = Arena(64, 6)
    started = []

    def progress(done, total):
        started.append(time.perf_counter())
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        arena.play(1 << 30, threads=2, progress=progress)
    assert time.perf_counter() - started[0] < 0.2
    arena.step(np.where(arena.observe().legal[:, CHECK], CHECK, CALL))  # tables still play


def test_ctrl_c_leaves_no_parquet_file(tmp_path):
    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Arena(64, 6).play(1 << 20, parquet=tmp_path / "h.parquet", progress=progress)
    assert list(tmp_path.iterdir()) == []


def test_play_reports_progress_and_checks_hands():
    seen = []
    Arena(8, 6).play(3000, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (24_000, 24_000)
    with pytest.raises(ValueError, match="hands"):
        Arena(2, 6).play(-1)
    with pytest.raises(TypeError, match="hands"):
        Arena(2, 6).play(1.5)


def test_chips_beyond_a_table_are_refused():
    with pytest.raises(ValueError, match="stacks add up"):
        Arena(1, 2, stacks=[2**31 - 10, 100])


def test_deal_starts_hands_from_given_stacks_short_ones_too():
    arena = Arena(2, 3, stacks=100, blinds=(5, 10))
    result = arena.deal([[3, 50, 40], [0, 30, 30]], button=[0, 1])
    assert not result.finished.any()
    state = arena.state
    # Table 0: button 0, SB seat 1 posts 5, BB seat 2 posts 10; table 1: heads-up, the
    # button (seat 1) posts the small blind.
    assert state["bet"][0][:3].tolist() == [0, 5, 10]
    assert state["bet"][1][:3].tolist() == [0, 5, 10]
    assert state["start"][0][:3].tolist() == [3, 50, 40]
    seen = arena.observe()
    assert seen.actor.tolist() == [0, 1] and seen.to_call.tolist() == [3, 5]
    with pytest.raises(PokerError, match=r"stacks\[1\]"):
        arena.deal([[3, 50, 40], [0, 30, 0]])
    assert arena.state.tobytes() == state.tobytes()
    # Everyone all in on the blinds: the hand plays out at once.
    result = arena.deal([[5, 5, 0], [0, 4, 9]], button=0)
    assert result.finished.all() and (result.winnings.sum(axis=1) == 0).all()


def test_state_survives_np_save_and_load(tmp_path):
    arena = Arena(5, 7, seed=4)
    arena.play(10, threads=1)
    np.save(tmp_path / "state.npy", arena.state)
    restored = Arena.from_state(np.load(tmp_path / "state.npy"), **arena.settings)
    assert restored.state.tobytes() == arena.state.tobytes()
    assert restored.play(5, record=True).equals(arena.play(5, record=True))


def test_play_batches_streams_the_same_history():
    whole = Arena(700, 6, seed=8).play(200, record=True, threads=2)
    reader = Arena(700, 6, seed=8).play_batches(200, threads=2)
    streamed = reader.read_all()
    assert streamed.equals(whole) and streamed.num_rows == 140_000
