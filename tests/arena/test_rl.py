"""The RL environments against the real packages: Gymnasium's env checker and vector API,
PettingZoo's api_test; rewards against the engine's own chip ledger, masks against its legal
actions, seeds, autoreset, and bad input."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import pypoker as pp  # noqa: E402
import pypoker.arena.gym  # noqa: E402, F401
from pypoker.arena import ALL_IN, CALL, CHECK, FOLD, RAISE, Arena, IllegalActionError  # noqa: E402
from pypoker.arena import pettingzoo as pz  # noqa: E402
from pypoker.arena.agents import AgentError  # noqa: E402
from pypoker.arena.gym import ENV_ID, NoLimitHoldemEnv, NoLimitHoldemVectorEnv  # noqa: E402

LEARNER = 2
OPPONENTS = ["random", "call", "equity", "chart", "raise"]
FOLDERS = ["fold", "chart", "fold", "equity", "fold"]  # walks to the learner's big blind


def random_legal(rng, mask: np.ndarray) -> np.ndarray:
    """A NumPy policy: a uniform legal action per row (any action where none is legal)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("actions", ["discrete", "continuous"])
def test_gymnasium_env_checker_passes(actions):
    for seats in (2, 6):
        env = gymnasium.make(ENV_ID, seats=seats, actions=actions, illegal="nearest")
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", ".*For Box action spaces")  # raise-to is in bb
            check_env(env.unwrapped)
        env.close()


def test_make_and_make_vec_find_the_environments():
    assert isinstance(gymnasium.make(ENV_ID).unwrapped, NoLimitHoldemEnv)
    vector = gymnasium.make_vec(ENV_ID, num_envs=3, seats=4)
    assert isinstance(vector, NoLimitHoldemVectorEnv)
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    code = ("import gymnasium; e = gymnasium.make('pypoker.arena.gym:pypoker/NoLimitHoldem-v0');"
            "print(type(e.unwrapped).__name__)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "NoLimitHoldemEnv", done.stderr


def test_vector_env_follows_the_vector_api_and_autoresets_on_the_next_step():
    env = gymnasium.make_vec(ENV_ID, num_envs=16, seats=3, opponents="random")
    obs, info = env.reset(seed=3)
    assert obs in env.observation_space and obs.dtype == np.float32
    assert info["action_mask"].dtype == np.int8 and info["_action_mask"].all()
    rng = np.random.default_rng(0)
    ended = np.zeros(16, bool)
    for _ in range(60):
        actions = random_legal(rng, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space and not truncated.any()
        assert (reward[~terminated] == 0).all()
        # The step after an end deals the next hand: reward 0, not over, the action ignored.
        assert (reward[ended] == 0).all() and not terminated[ended].any()
        street_over = obs[:, env.unwrapped.columns.index("street_over")] == 1
        np.testing.assert_array_equal(street_over, terminated)
        assert not info["action_mask"][terminated].any()
        ended = terminated
    # Gymnasium's own episode statistics read the autoreset as it is declared.
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        gymnasium.make_vec(ENV_ID, num_envs=8, seats=2)
    )
    _, info = stats.reset(seed=1)
    total, returns = 0.0, []
    for _ in range(40):
        _, reward, _, _, info = stats.step(random_legal(rng, info["action_mask"]))
        total += reward.sum()
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]])
    assert len(returns) > 8 and sum(returns) == pytest.approx(total, abs=1e-3)


def test_vector_table_zero_is_the_single_env_step_for_step():
    single = NoLimitHoldemEnv(seats=4, seat=1, opponents=["equity", "call", "random"])
    vector = NoLimitHoldemVectorEnv(5, seats=4, seat=1, opponents=["equity", "call", "random"])
    one, info = single.reset(seed=9)
    many, infos = vector.reset(seed=9)
    rng = np.random.default_rng(1)
    for _ in range(200):
        np.testing.assert_array_equal(one, many[0])
        np.testing.assert_array_equal(info["action_mask"], infos["action_mask"][0])
        actions = random_legal(rng, infos["action_mask"])
        if single._over:
            one, info = single.reset()
            many, _, _, _, infos = vector.step(actions)
            continue
        one, r, done, _, info = single.step(int(actions[0]))
        many, rewards, dones, _, infos = vector.step(actions)
        assert (r, done) == (rewards[0], dones[0])


def _pot_raise(seen, rows):
    """The discrete 'pot' raise (index 3) in engine terms, for an AgentObservation."""
    actor = seen.actor[rows]
    current = seen.bets[rows].max(axis=1).astype(np.int64)
    owed = current - seen.bets[rows, actor]
    return np.clip(current + seen.pot[rows] + owed, seen.min_raise_to[rows],
                   seen.max_raise_to[rows])  # fmt: skip


def _choose(hole: np.ndarray, facing: np.ndarray, may_raise: np.ndarray, all_in: np.ndarray):
    """A deterministic policy of the cards and the legal kinds, as env action indices:
    pairs go all in, suited hands raise the pot, weak hands fold to a bet, else check/call."""
    values, suits = hole % 13, hole // 13
    index = np.ones(len(hole), np.int64)
    index[facing & (values.sum(axis=1) < 12)] = 0
    index[(suits[:, 0] == suits[:, 1]) & may_raise] = 3
    index[(values[:, 0] == values[:, 1]) & all_in] = 5
    return index


class Replayer:
    """A Python agent for Arena.play playing ``_choose`` as the environment's learner does."""

    def act(self, seen):
        rows = np.arange(len(seen.tables))
        index = _choose(seen.hole.astype(np.int64), seen.legal[:, FOLD], seen.legal[:, RAISE],
                        seen.legal[:, ALL_IN])  # fmt: skip
        passive = np.where(seen.legal[:, CHECK], CHECK, CALL)
        kinds = np.select([index == 0, index == 3, index == 5], [FOLD, RAISE, ALL_IN], passive)
        amounts = np.where(index == 3, _pot_raise(seen, rows), 0)
        return kinds, amounts


def test_rewards_add_up_to_the_chips_the_engine_counts():
    """The learner's rewards and skipped hands, table by table, against the net chips of
    the same hands played by Arena.play with a Python agent in the learner's seat."""
    tables, seats, hands = 12, 6, 30
    env = NoLimitHoldemVectorEnv(tables, seats=seats, seat=LEARNER, opponents=FOLDERS)
    obs, info = env.reset(seed=21)
    hole_columns = slice(0, 52)
    won = info["skipped_bb"].astype(np.float64)  # hand 0 may be a walk to the big blind
    walks = (won != 0).sum()
    done_at = np.full(tables, -1)
    while (done_at < 0).any():
        mask = info["action_mask"].astype(bool)
        hole = np.sort(np.argsort(-obs[:, hole_columns], axis=1)[:, :2], axis=1)
        actions = _choose(hole, mask[:, 0], mask[:, 2], mask[:, 5])
        obs, reward, terminated, _, info = env.step(actions)
        live = done_at < 0
        won[live] += reward[live] + info["skipped_bb"][live]
        walks += (info["skipped_bb"][live] != 0).sum()
        hand = env._tables.state["hand"]
        done_at[live & ~terminated & (hand >= hands)] = hand[live & ~terminated & (hand >= hands)]
    net = np.zeros((tables, hands + seats + 2, seats), np.int32)
    assert walks > 10
    lineup = FOLDERS[:LEARNER] + [Replayer()] + FOLDERS[LEARNER:]
    Arena(tables, seats, seed=21).play(hands + seats + 2, agents=lineup, net=net)
    for t in range(tables):
        chips = net[t, : done_at[t], LEARNER].sum()
        assert won[t] * 2 == pytest.approx(chips, abs=1e-3), t


def test_the_mask_is_the_engine_s_legal_actions():
    env = NoLimitHoldemVectorEnv(64, seats=6, seat=0, opponents=OPPONENTS)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(30):
        mask = info["action_mask"].astype(bool)
        state = env._tables.state
        live = state["street"] != pp.arena.STREET_OVER
        legal = Arena.from_state(state, seed=5).observe().legal
        np.testing.assert_array_equal(mask[live, 0], legal[live, FOLD])
        assert mask[live, 1].all()
        for index in (2, 3, 4):
            np.testing.assert_array_equal(mask[live, index], legal[live, RAISE])
        np.testing.assert_array_equal(mask[live, 5], legal[live, ALL_IN])
        assert not mask[~live].any()
        _, _, _, _, info = env.step(random_legal(rng, info["action_mask"]))


def test_seeds_reproduce_and_differ():
    runs = []
    for seed in (4, 4, 5):
        env = NoLimitHoldemVectorEnv(8, seats=3, opponents="equity:temperature=0.5")
        obs, info = env.reset(seed=seed)
        rng, trace = np.random.default_rng(0), [obs]
        for _ in range(50):
            obs, reward, _, _, info = env.step(random_legal(rng, info["action_mask"]))
            trace += [obs, reward]
        runs.append(np.concatenate([np.ravel(x) for x in trace]))
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])
    single = NoLimitHoldemEnv()
    first, _ = single.reset(seed=11)
    single.reset()
    again, _ = single.reset(seed=11)
    np.testing.assert_array_equal(first, again)


def test_continuous_raise_to_is_in_big_blinds_within_the_legal_range():
    env = NoLimitHoldemVectorEnv(2, seats=2, seat=0, opponents="call", actions="continuous")
    obs, info = env.reset(seed=1)
    assert env.single_action_space[1].shape == (1,)
    assert (info["action_mask"][:, 2] == 1).all()
    obs, *_ = env.step((np.array([2, 2]), np.array([[5.0], [1e9]], np.float32)))
    amount = env.columns.index("action1_amount")  # the learner's raise, before the call
    np.testing.assert_array_equal(obs[:, amount], [5.0, 100.0])


def test_columns_name_every_observation_column():
    env = NoLimitHoldemEnv(seats=3, history=4)
    obs, _ = env.reset(seed=2)
    assert len(env.columns) == obs.shape[0] == env.observation_space.shape[0]
    hole = env.unwrapped._tables.state["hole"][0, 0]
    shown = {name for name, x in zip(env.columns, obs, strict=True) if x and "hole_" in name}
    assert shown == {f"hole_{pp.CARD_NAMES[c]}" for c in hole}


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pz.env(), num_cycles=200)
        api_test(pz.env(seats=6, stacks=[200, 300, 200, 100, 200, 400]), num_cycles=200)


def test_pettingzoo_rewards_are_each_seat_s_net_and_sum_to_zero():
    env = pz.env(seats=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(20):
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            action = None if terminated else int(random_legal(rng, obs["action_mask"][None])[0])
            env.step(action)
        env.reset()
    assert abs(sum(totals.values())) < 1e-6 and any(totals.values())


def test_pettingzoo_refuses_a_masked_action_by_name():
    env = pz.env(seats=3)
    env.reset(seed=0)
    while env.last()[0]["action_mask"][0]:  # call until the seat to act faces no bet
        env.step(1)
    seat = env.agent_selection.split("_")[1]
    refused = rf"table 0: action 0 \(fold\) refused: seat {seat} cannot fold"
    with pytest.raises(IllegalActionError, match=refused + r".*\(legal actions: 1 check/call, 2"):
        env.step(0)


def test_bad_input_names_the_table_and_the_legal_range():
    env = NoLimitHoldemVectorEnv(4, seats=6, seat=3, opponents="random")
    _, info = env.reset(seed=1)
    before = env._tables.state.tobytes()
    with pytest.raises(pp.ArgumentError, match=r"table 2: action 6 is not an action index \(0..5"):
        env.step(np.array([1, 1, 6, 1]))
    with pytest.raises(pp.ArgumentError, match=r"must be 4 action indices.*\(3,\)"):
        env.step(np.array([1, 1, 1]))
    with pytest.raises(pp.ArgumentError, match="must be 4 action indices"):
        env.step(np.ones(4))
    assert env._tables.state.tobytes() == before
    while True:  # check or call until some table's learner may not fold
        _, _, _, _, info = env.step(np.ones(4, np.int64))
        free = np.flatnonzero((info["action_mask"][:, 1] == 1) & (info["action_mask"][:, 0] == 0))
        if free.size:
            break
    before, table = env._tables.state.tobytes(), int(free[0])
    answers = np.ones(4, np.int64)
    answers[table] = 0
    with pytest.raises(IllegalActionError, match=rf"table {table}: action 0 \(fold\) refused: "
                       r"seat 3 cannot fold.*\(legal actions: 1 check/call"):  # fmt: skip
        env.step(answers)
    assert env._tables.state.tobytes() == before
    one = NoLimitHoldemEnv(seats=2, seat=0, opponents="call")
    one.reset(seed=0)
    one.step(1)  # the button calls the big blind; the big blind checks: the flop, nothing to call
    refused = r"table 0: action 0 \(fold\) refused: seat 0 cannot fold: there is no bet to call"
    with pytest.raises(IllegalActionError, match=refused + r" \(legal actions: 1 check/call"):
        one.step(0)
    with pytest.raises(pp.ArgumentError, match="not an action index"):
        one.step(-1)


def test_bad_settings_are_named():
    with pytest.raises(AgentError, match="unknown agent 'bogus'"):
        NoLimitHoldemEnv(opponents="bogus")
    with pytest.raises(AgentError, match="2 opponents for 5 seats"):
        NoLimitHoldemEnv(opponents=["call", "fold"])

    class Mine:
        def act(self, observation):
            return observation.actor, observation.actor

    with pytest.raises(AgentError, match="opponents are native agents"):
        NoLimitHoldemEnv(seats=2, opponents=Mine())
    for settings, message in [
        (dict(seat=6), "seat must be"), (dict(actions="box"), "actions 'box'"),
        (dict(illegal="ignore"), "illegal 'ignore'"), (dict(history=33), "history must be"),
        (dict(stacks=2), "stacks must exceed the forced bets"), (dict(seats=11), "seats must be"),
    ]:  # fmt: skip
        with pytest.raises(pp.ArgumentError, match=message):
            NoLimitHoldemEnv(**settings)
    with pytest.raises(pp.ArgumentError, match="one whole number for every table"):
        NoLimitHoldemVectorEnv(2).reset(seed=[1, 2])
    env = NoLimitHoldemEnv(seats=2, opponents="raise")
    env.reset(seed=1)
    while not env.step(5)[2]:
        pass
    with pytest.raises(pp.ArgumentError, match="the hand is over"):
        env.step(1)


@pytest.mark.parametrize("module", ["gymnasium", "pettingzoo"])
def test_without_the_rl_extra_the_import_names_it(module):
    code = (f"import sys; sys.modules['{module}'] = None\n"
            "try:\n    import pypoker.arena.gym, pypoker.arena.pettingzoo\n"
            "except ImportError as e:\n    print(e)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == (f"this needs {module}, which is not installed: "
                                   "pip install 'pypoker[rl]'"), done.stderr  # fmt: skip
