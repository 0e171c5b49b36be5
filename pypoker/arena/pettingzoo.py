"""A PettingZoo AEC environment on the arena (``pip install 'pypoker[rl]'``): one no-limit
hold'em table, every seat an agent (``player_0`` .. ``player_{seats-1}``, seat order).

``env(seats=2, ...)`` (wrapped as PettingZoo's classic games are) or ``raw_env``. An episode
is one hand: the agents act in the rules' order (``agent_selection`` is the seat to act);
when the hand ends every agent's reward is its net chips in big blinds and all terminate.
``reset(seed=s)`` deals hand 0 of seed ``s``, each later ``reset()`` the next hand (the
button moves). Observations are dicts: ``observation``, the float32 row
``pypoker.arena.gym`` documents (from that agent's seat: its own cards only), and
``action_mask`` (int8, 1 = legal; all zeros when it is not to act). Actions are
``Discrete(6)``: 0 fold, 1 check or call, 2 raise half the pot, 3 the pot, 4 twice the pot,
5 all in; an action the mask rules out raises ``IllegalActionError`` (nothing changes).
"""

from __future__ import annotations

import numpy as np

from .._extras import require

pettingzoo = require("pettingzoo")
require("gymnasium")

from gymnasium import spaces  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from ._learner import DISCRETE, Tables, column_bounds, column_names  # noqa: E402


def env(seats: int = 2, **settings):
    """``raw_env`` in PettingZoo's usual wrappers (actions in range, calls in order)."""
    wrapped = raw_env(seats, **settings)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(pettingzoo.AECEnv):  # noqa: N801 (PettingZoo's name for it)
    """One table of ``seats`` agents; ``history`` (actions each observation shows) and the
    table's settings (``stacks``, ``blinds``, ``ante``, ``bb_ante``, ``straddle``) as
    ``pypoker.arena.gym.NoLimitHoldemEnv`` takes them."""

    metadata = {"name": "pypoker_no_limit_holdem_v0", "render_modes": [],
                "is_parallelizable": False}  # fmt: skip

    def __init__(self, seats: int = 2, *, history: int = 16, render_mode=None, **table):
        super().__init__()
        self._tables = Tables(1, seats, 0, None, history=history, **table)
        self.possible_agents = [f"player_{seat}" for seat in range(seats)]
        self.agents = self.possible_agents[:]
        high = column_bounds(self._tables)
        observation = spaces.Dict({
            "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(DISCRETE),), np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(DISCRETE)) for a in self.possible_agents}
        self.columns = column_names(self._tables.layout, seats)
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        obs, mask = self._tables.observe(self.possible_agents.index(agent))
        return {"observation": obs[0], "action_mask": mask[0].view(np.int8)}

    def reset(self, seed=None, options=None):
        if seed is None and not self._tables.dealt:
            seed = int(np.random.default_rng().integers(1 << 63))
        self._tables.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._actor()

    def _actor(self) -> str:
        return self.possible_agents[int(self._tables.state["actor"][0])]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        out = self._tables.step(np.array([action]).reshape(1))
        self._cumulative_rewards[agent] = 0.0
        if out.terminated[0]:
            table = self._tables.state[0]
            net = (table["stack"].astype(np.int64) - table["start"])[: len(self.possible_agents)]
            self.rewards = {a: float(net[i]) / self._tables.big_blind
                            for i, a in enumerate(self.possible_agents)}  # fmt: skip
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            self.agent_selection = self._actor()
        self._accumulate_rewards()
        self._deads_step_first()

    def close(self):
        pass
