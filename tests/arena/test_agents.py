"""Native agents' policies, Python agents mixed into play, and bad input."""

import numpy as np
import pytest

from pypoker.arena import CALL, CHECK, FOLD, RAISE, Arena, IllegalActionError
from pypoker.arena.agents import AGENTS, Agent, AgentError, agent

LINEUP = ["equity", "chart", "call", "random", "raise", "fold"]


@pytest.mark.parametrize("name", AGENTS)
def test_policy_is_a_distribution_over_legal_kinds_for_every_combo(name):
    arena = Arena(3, 6, seed=2)
    arena.play(7, agents=LINEUP)  # states mid-hand, any street
    seen = arena.observe()
    for table in range(3):
        policy = agent(name, temperature=0.3).policy(arena, table)
        live = policy.prob.sum(axis=1) > 0
        np.testing.assert_allclose(policy.prob[live].sum(axis=1), 1, atol=1e-12)
        assert not policy.prob[:, ~seen.legal[table]].any()
        raising = live & (policy.prob[:, RAISE] > 0) & ~policy.raise_uniform
        assert (policy.raise_to[raising] >= seen.min_raise_to[table]).all()
        assert (policy.raise_to[raising] <= seen.max_raise_to[table]).all()


def test_policy_ignores_the_other_seats_cards():
    arena = Arena(1, 6, seed=4)
    before = agent("equity").policy(arena)
    state = arena.state
    actor = int(state["actor"][0])
    for seat in range(6):
        if seat != actor:
            state["hole"][0, seat] = 0xFF
    after = agent("equity").policy(state)
    np.testing.assert_array_equal(before.prob, after.prob)


def test_python_agent_playing_like_call_matches_the_native_call():
    class Caller:
        def act(self, observation):
            kinds = np.where(observation.legal[:, CALL], CALL, CHECK)
            return kinds, np.zeros(len(kinds), np.int64)

    nets = []
    for seat0 in (Caller(), "call"):
        arena = Arena(8, 6, seed=1)
        net = np.zeros((8, 150, 6), np.int32)
        arena.play(150, agents=[seat0, *LINEUP[1:]], net=net)
        nets.append(net)
        assert (net.sum(axis=2) == 0).all()
    np.testing.assert_array_equal(nets[0], nets[1])


def test_one_python_agent_is_asked_once_for_all_its_waiting_tables():
    calls = []

    class Folder:
        def act(self, observation):
            calls.append(len(observation.tables))
            kinds = np.where(observation.legal[:, FOLD], FOLD, CHECK)
            return kinds, np.zeros(len(kinds), np.int64)

    folder = Folder()
    Arena(16, 3, seed=3).play(20, agents=[folder, folder, "call"])
    assert max(calls) > 1 and sum(calls) >= 16 * 20 // 2


def test_native_play_is_reproducible_and_threads_agree():
    nets = []
    for threads in (1, 2):
        net = np.zeros((6, 100, 6), np.int32)
        Arena(6, 6, seed=9).play(100, agents=LINEUP, net=net, threads=threads)
        nets.append(net)
    np.testing.assert_array_equal(*nets)


def test_bad_agents_get_clear_errors():
    with pytest.raises(AgentError, match="unknown agent 'eqity'"):
        agent("eqity")
    with pytest.raises(AgentError, match="tightness must be in 0..1"):
        agent("chart", tightness=1.5)
    with pytest.raises(AgentError, match="aggression must be a number"):
        Agent("equity", aggression="high")
    with pytest.raises(AgentError, match="3 agents for 6 seats"):
        Arena(1, 6).play(1, agents=["call"] * 3)


def test_python_agent_answers_are_checked():
    class Wrong:
        def __init__(self, answer):
            self.answer = answer
            self.name = "wrong"

        def act(self, observation):
            return self.answer(len(observation.tables))

    shapes = Wrong(lambda m: (np.zeros(m + 1, np.int64), np.zeros(m, np.int64)))
    with pytest.raises(AgentError, match="agent 'wrong': act\\(\\) returned kinds of shape"):
        Arena(2, 2).play(3, agents=[shapes, "call"])
    illegal = Wrong(lambda m: (np.full(m, RAISE), np.ones(m, np.int64)))
    with pytest.raises(
        IllegalActionError, match="agent 'wrong' \\(seat 0\\), table 0: raise to 1 is below"
    ):
        Arena(2, 2).play(3, agents=[illegal, "call"])

    class Broken:
        def act(self, observation):
            raise RuntimeError("boom")

    arena = Arena(2, 2)
    with pytest.raises(RuntimeError, match="boom"):
        arena.play(3, agents=[Broken(), "call"])
