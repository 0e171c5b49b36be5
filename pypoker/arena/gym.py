"""Gymnasium environments on the arena (``pip install 'pypoker[rl]'``).

``pypoker/NoLimitHoldem-v0``: one no-limit hold'em table; the learner plays ``seat``, native
agents the other seats (``opponents``: one for all or one a seat, as
``pypoker.arena.agent`` takes them). Importing this module registers it, so
``gymnasium.make("pypoker/NoLimitHoldem-v0")`` works after ``import pypoker.arena.gym``
(Gymnasium 1.x loads no plugins by itself), and ``gymnasium.make(
"pypoker.arena.gym:pypoker/NoLimitHoldem-v0")`` imports it on the way.
``gymnasium.make_vec(..., num_envs=N)`` makes ``NoLimitHoldemVectorEnv``: N tables stepped
in one native call, the opponents' turns played inside the library.

- An episode is one hand in which the learner decides; its reward (float, big blinds) is 0
  at every step but the last, which gives the learner's net chips of the hand. Hands the
  learner has no decision in (everyone folds to its big blind) are played out between
  episodes; their net big blinds are in ``info["skipped_bb"]`` of the next observation, so
  rewards plus skipped add up to the chips won. Stacks start every hand at ``stacks``.
- Actions (``actions="discrete"``): ``Discrete(6)``: 0 fold, 1 check or call, 2 raise half
  the pot, 3 the pot, 4 twice the pot (to current bet + x * (pot + the call); at least the
  minimum raise, at most all in), 5 all in. ``actions="continuous"``: ``Tuple(Discrete(3),
  Box(0, max, (1,)))``: 0 fold, 1 check or call, 2 raise to the Box's amount in big blinds
  (brought into the legal range). ``info["action_mask"]`` (int8, 1 = legal; also
  ``action_masks()``) marks what the rules take: fold only facing a bet, raises while
  raising is open, all in when allowed. A masked action raises ``IllegalActionError``
  naming the table and the legal actions (nothing changes), or with ``illegal="nearest"``
  plays as check or call.
- Observations: float32 rows, ``env.columns`` names each column; the layout, block by
  block (S seats, H = ``history``): hole cards (52, one-hot by card id), board cards shown
  (52), street (5: preflop, flop, turn, river, over), position (S: seats from the button
  to the learner), each seat clockwise from the learner (S x 7: stack, bet this street,
  chips put in this hand, in hand, all in, button, to act), pot, current bet, to call, min
  and max raise-to, then the hand's last H actions newest first (H x (S + 11): present,
  seat, street, kind: fold, check, call, raise, all in, amount). Chips are in big blinds.
- Seeds: ``reset(seed=s)`` deals hand 0 of seed ``s``; each later reset the next hand.
  Table ``t``'s hand ``h`` is a pure function of (seed, t, h) and the opponents draw from
  the seed's stream, so a seed and the learner's actions replay an episode exactly.
- The vector env autoresets on the next step (``AutoresetMode.NEXT_STEP``, Gymnasium's
  default): the step after a table's hand ends ignores its action and deals its next
  hand, returning reward 0 and not terminated.
"""

from __future__ import annotations

import numpy as np

from .._extras import require

gymnasium = require("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from .._native import ArgumentError  # noqa: E402
from ._learner import Tables, column_bounds, column_names  # noqa: E402

ENV_ID = "pypoker/NoLimitHoldem-v0"


def _spaces(tables: Tables):
    """The observation space (one-hot columns in 0..1, chips in 0..the table's chips) and
    the action space of one table."""
    high = column_bounds(tables)
    observation = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
    if tables.scheme == "discrete":
        return observation, spaces.Discrete(len(tables.actions))
    amount = spaces.Box(0.0, high.max(), (1,), np.float32)
    return observation, spaces.Tuple((spaces.Discrete(len(tables.actions)), amount))


class NoLimitHoldemEnv(gymnasium.Env):
    """One table; see the module doc. ``seats`` (2-10), ``seat`` (the learner's),
    ``opponents``, ``actions`` ("discrete" or "continuous"), ``illegal`` ("raise" or
    "nearest"), ``history`` (actions shown, 0-32); ``stacks``, ``blinds``, ``ante``,
    ``bb_ante`` and ``straddle`` as ``Arena`` takes them."""

    metadata = {"render_modes": []}

    def __init__(self, seats: int = 6, seat: int = 0, opponents="random", *,
                 actions: str = "discrete", illegal: str = "raise", history: int = 16,
                 render_mode=None, **table):  # fmt: skip
        self._tables = Tables(1, seats, seat, opponents, actions=actions, illegal=illegal,
                              history=history, **table)  # fmt: skip
        self.observation_space, self.action_space = _spaces(self._tables)
        self.columns = column_names(self._tables.layout, self._tables.seats)
        self.render_mode = render_mode
        self._mask, self._over = None, True

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None and not self._tables.dealt:
            seed = int(self.np_random.integers(1 << 63))
        out = self._tables.reset(seed)
        self._over = False
        return out.obs[0], self._info(out)

    def step(self, action):
        if self._over:
            raise ArgumentError("table 0: the hand is over (or not dealt): call reset()")
        kinds, raise_to = _one_action(action, self._tables.scheme)
        out = self._tables.step(kinds, raise_to)
        self._over = bool(out.terminated[0])
        return out.obs[0], float(out.reward[0]), self._over, False, self._info(out)

    def _info(self, out) -> dict:
        self._mask = out.mask[0].view(np.int8)
        return {"action_mask": self._mask.copy(), "skipped_bb": float(out.skipped[0])}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as bools (sb3-contrib's MaskablePPO asks for this); none
        before ``reset``."""
        if self._mask is None:
            return np.zeros(self.action_space[0].n if isinstance(self.action_space, spaces.Tuple)
                            else self.action_space.n, bool)  # fmt: skip
        return self._mask.astype(bool)


def _one_action(action, scheme: str):
    if scheme == "discrete":
        return np.reshape(np.asarray(action), (1,)) if np.size(action) == 1 else action, None
    if not isinstance(action, (tuple, list)) or len(action) != 2:
        raise ArgumentError("table 0: a continuous action is (kind, raise_to): kind 0 fold, 1 "
                            "check or call, 2 raise to raise_to big blinds; got "
                            f"{action!r}")  # fmt: skip
    return np.reshape(np.asarray(action[0]), (-1,)), np.reshape(np.asarray(action[1]), (-1,))


class NoLimitHoldemVectorEnv(VectorEnv):
    """``num_envs`` tables stepped in one native call; see the module doc. Arguments as
    ``NoLimitHoldemEnv``'s; ``seed`` is the tables' one seed until ``reset`` gives one."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, seats: int = 6, seat: int = 0, opponents="random", *,
                 actions: str = "discrete", illegal: str = "raise", history: int = 16,
                 render_mode=None, **table):  # fmt: skip
        self._tables = Tables(num_envs, seats, seat, opponents, actions=actions,
                              illegal=illegal, history=history, **table)  # fmt: skip
        self.num_envs = len(self._tables)
        self.single_observation_space, self.single_action_space = _spaces(self._tables)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.columns = column_names(self._tables.layout, self._tables.seats)
        self.render_mode = render_mode

    def reset(self, *, seed=None, options=None):
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ArgumentError(f"seed must be one whole number for every table (table t's "
                                f"hands come from (seed, t, hand)), got {seed!r}")  # fmt: skip
        super().reset(seed=seed)
        if seed is None and not self._tables.dealt:
            seed = int(self.np_random.integers(1 << 63))
        out = self._tables.reset(seed)
        return out.obs, self._info(out)

    def step(self, actions):
        if self._tables.scheme == "discrete":
            out = self._tables.step(actions)
        else:
            if not isinstance(actions, (tuple, list)) or len(actions) != 2:
                raise ArgumentError("continuous actions are (kinds, raise_to): two arrays of "
                                    f"{self.num_envs} rows")  # fmt: skip
            out = self._tables.step(*actions)
        truncated = np.zeros(self.num_envs, np.bool_)
        return out.obs, out.reward, out.terminated, truncated, self._info(out)

    def _info(self, out) -> dict:
        every = np.ones(self.num_envs, np.bool_)
        return {"action_mask": out.mask.view(np.int8), "_action_mask": every,
                "skipped_bb": out.skipped, "_skipped_bb": every.copy()}  # fmt: skip


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="pypoker.arena.gym:NoLimitHoldemEnv",
                       vector_entry_point="pypoker.arena.gym:NoLimitHoldemVectorEnv")  # fmt: skip
