"""Agents for the arena: native ones (played inside the library, no Python per decision) and
Python ones (any object with ``act``), mixed at one table by ``play``.

Native agents (zsrc/arena/agents/, one file each, with its exact policy in its doc):

- ``fold``: folds to any bet, checks when free.
- ``call``: the calling station: calls every bet, never raises.
- ``raise``: always the largest bet (raises all in whenever raising is open).
- ``random``: the arena's reference random player, exactly (``pypoker.arena.random_player``).
- ``chart``: a preflop opening/calling chart: plays the top ``1 - tightness`` of the 169
  starting-hand classes by exact preflop EHS, raises the top ``aggression`` share of those,
  then checks/folds after the flop.
- ``equity``: bets, raises, calls or folds by its hand's exact equity on the current street
  against a uniform random hand (preflop EHS; HS on the board after the flop), as its chance
  ``e ** opponents`` compares with pot odds and a fair share.

Every native agent takes ``tightness`` and ``aggression`` (0..1), ``bet`` (a first bet as a
fraction of the pot), ``raise_`` (a raise above the current bet as a fraction of the pot
after calling) and ``temperature`` (0: its choice outright; more mixes its choices). Each
reports its ``policy``: the probability of each action kind for each of the 1,326 combos
it might hold, in any state; the action it plays is drawn from exactly that policy with one
uniform word a decision (zsrc/arena/agents/policy.zig says how).

A Python agent is any object with ``act(observation) -> (kinds, amounts)``: ``observation``
an ``AgentObservation`` of the tables where it is to act (rows in table order, ``tables``
their indices in the arena), ``kinds`` and ``amounts`` one action per row as ``Arena.step``
takes them. ``play`` runs natively until some tables wait on a Python agent, calls that agent
once for all of them, and goes on.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple, Protocol

import numpy as np

from .._native import ArgumentError, PokerError, ffi, lib, thread_error
from ._config import ACTIONS, TABLE_DTYPE, IllegalActionError, Observation, refusal_text

AGENTS = ("fold", "call", "raise", "random", "chart", "equity")
"""The native agents, in their native numbering (``pp_agent.kind``)."""
_KIND = {name: getattr(lib, f"PP_AGENT_{name.upper()}") for name in AGENTS}
PARAMETERS = ("tightness", "aggression", "bet", "raise_", "temperature")
_DEFAULTS = {
    "chart": dict(tightness=0.7, aggression=0.5),
    "equity": dict(tightness=0.2, aggression=0.6),
}
_BOUNDS = {"tightness": (0, 1), "aggression": (0, 1), "bet": (0, lib.PP_AGENT_SIZE_MAX),
           "raise_": (0, lib.PP_AGENT_SIZE_MAX),
           "temperature": (0, lib.PP_AGENT_TEMPERATURE_MAX)}  # fmt: skip


class AgentError(PokerError):
    """An agent that cannot play: a bad name or parameter, or a Python agent whose answer is
    not one action per table (``row``: the table, when one is to blame)."""


class Policy(NamedTuple):
    """An agent's policy at one decision, one row per combo (``pp.COMBOS`` order)."""

    prob: np.ndarray  # (1326, 5) float64 per action kind (ACTIONS order); 0 where impossible
    raise_to: np.ndarray  # (1326,) int64: a RAISE's total bet (0: it never raises there)
    raise_uniform: np.ndarray  # (1326,) bool: the raise is to any legal amount, uniformly


@dataclasses.dataclass(frozen=True)
class Agent:
    """A native agent: ``kind`` one of ``AGENTS`` and its parameters (see the module doc)."""

    kind: str
    tightness: float = 0.5
    aggression: float = 0.5
    bet: float = 0.75
    raise_: float = 1.0
    temperature: float = 0.0

    def __post_init__(self):
        if self.kind not in _KIND:
            raise AgentError(f"unknown agent {self.kind!r}: native agents are "
                             f"{', '.join(AGENTS)} (or a Python object with act())")  # fmt: skip
        for name in PARAMETERS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
                raise AgentError(f"agent {self.kind!r}: {name} must be a number, got "
                                 f"{value!r}")  # fmt: skip
            low, high = _BOUNDS[name]
            positive = name in ("bet", "raise_")
            if not (low < value if positive else low <= value) or not value <= high:
                side = "above" if positive else "in"
                raise AgentError(f"agent {self.kind!r}: {name} must be {side} {low}..{high}, "
                                 f"got {value!r}")  # fmt: skip

    @property
    def name(self) -> str:
        return self.kind

    def native(self):
        """This agent as a ``pp_agent``."""
        out = ffi.new("pp_agent*")
        out.kind = _KIND[self.kind]
        out.tightness, out.aggression = self.tightness, self.aggression
        out.bet, out.temperature = self.bet, self.temperature
        setattr(out, "raise", self.raise_)
        return out

    def policy(self, state, table: int = 0) -> Policy:
        """The policy for the seat to act at ``table`` of ``state`` (an ``Arena``, or an
        ``Arena.state`` array), for each combo the seat might hold. Only the public state
        and the combo enter it, never the table's hole cards."""
        tables = state.state if hasattr(state, "observe") else np.asarray(state)
        if tables.dtype != TABLE_DTYPE:
            raise ArgumentError(f"state must be an Arena or an Arena.state, got {type(state)}")
        row = np.ascontiguousarray(tables.reshape(-1)[table : table + 1])
        if len(row) != 1:
            raise ArgumentError(f"table {table} is not in a state of {tables.size} tables")
        prob = np.empty((lib.PP_POLICY_COMBOS, len(ACTIONS)))
        raise_to = np.empty(lib.PP_POLICY_COMBOS, np.uint32)
        uniform = np.empty(lib.PP_POLICY_COMBOS, np.uint8)
        err = thread_error()
        status = lib.pp_agent_policy(self.native(), ffi.from_buffer("pp_table[]", row),
                                     ffi.from_buffer("double[]", prob),
                                     ffi.from_buffer("uint32_t[]", raise_to),
                                     ffi.from_buffer("uint8_t[]", uniform), err)  # fmt: skip
        if status == lib.PP_BAD_ARGUMENT:
            raise PokerError(f"table {table}: no seat is to act (the hand is over), or not a "
                             "state the rules can play", table)  # fmt: skip
        if status != lib.PP_OK:
            raise PokerError(f"policy failed with status {status}")
        return Policy(prob, raise_to.astype(np.int64), uniform.view(bool))


def agent(spec, **params) -> Agent:
    """A native agent from its name and parameters: ``agent("equity", aggression=0.8)``, or
    text ``"equity:aggression=0.8:temperature=0.1"`` (the CLI's form). ``raise`` may be
    spelled ``raise`` in text."""
    if isinstance(spec, Agent):
        return dataclasses.replace(spec, **params) if params else spec
    if not isinstance(spec, str):
        raise AgentError(f"an agent is a name ({', '.join(AGENTS)}), an Agent or an object "
                         f"with act(observation), got {spec!r}")  # fmt: skip
    name, *pairs = spec.strip().split(":")
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = "raise_" if key.strip() == "raise" else key.strip()
        if not sep or key not in PARAMETERS:
            raise AgentError(f"agent {spec!r}: {pair!r} is not parameter=value (parameters: "
                             f"{', '.join(PARAMETERS)})")  # fmt: skip
        try:
            params[key] = float(value)
        except ValueError:
            raise AgentError(f"agent {spec!r}: {key} must be a number, got {value!r}") from None
    name = name.strip().lower()
    return Agent(name, **{**_DEFAULTS.get(name, {}), **params})


class PythonAgent(Protocol):
    """What ``play`` asks of a Python agent."""

    def act(self, observation: AgentObservation) -> tuple:
        """One action per row of ``observation``: ``(kinds, amounts)``, two integer arrays of
        its length (``amounts``: a RAISE's total bet on the street; ignored otherwise)."""


class AgentObservation(NamedTuple):
    """``Observation``'s rows of the tables where one agent is to act, and their indices."""

    tables: np.ndarray  # int64 (M,): each row's table in the arena
    actor: np.ndarray
    street: np.ndarray
    pot: np.ndarray
    stacks: np.ndarray
    bets: np.ndarray
    board: np.ndarray
    hole: np.ndarray
    to_call: np.ndarray
    min_raise_to: np.ndarray
    max_raise_to: np.ndarray
    legal: np.ndarray

    @classmethod
    def of(cls, seen: Observation, rows: np.ndarray) -> AgentObservation:
        return cls(rows, *(np.ascontiguousarray(field[rows]) for field in seen))


def is_python_agent(candidate) -> bool:
    return not isinstance(candidate, (Agent, str)) and callable(getattr(candidate, "act", None))


def label(candidate) -> str:
    if isinstance(candidate, Agent):
        return candidate.name
    if isinstance(candidate, str):
        return candidate.split(":")[0].strip().lower()
    return getattr(candidate, "name", None) or type(candidate).__name__


class Lineup:
    """One agent a seat: native ones as ``pp_agent``s (Python seats marked external), the
    Python agents by seat, and each seat's label."""

    def __init__(self, agents, seats: int):
        agents = list(agents) if not isinstance(agents, (str, Agent)) else [agents]
        if len(agents) == 1:
            agents = agents * seats
        if len(agents) != seats:
            raise AgentError(f"{len(agents)} agents for {seats} seats: give one a seat (or one "
                             "for every seat)")  # fmt: skip
        self.python = {s: a for s, a in enumerate(agents) if is_python_agent(a)}
        self.native = [None if s in self.python else agent(a) for s, a in enumerate(agents)]
        self.labels = [label(a) for a in agents]
        self.array = ffi.new("pp_agent[]", seats)
        for seat, native in enumerate(self.native):
            self.array[seat] = native.native()[0] if native else _external()
        err = thread_error()
        if lib.pp_agents_check(self.array, seats, err) != lib.PP_OK:  # the Python checks agree
            raise AgentError(f"seat {err.row}: agent {self.labels[err.row]!r} has a bad "
                             f"parameter (fault {err.card})", int(err.row))  # fmt: skip


def _external():
    out = ffi.new("pp_agent*")
    out.kind, out.bet, out.temperature = lib.PP_AGENT_EXTERNAL, 1, 0
    setattr(out, "raise", 1)
    return out[0]


def illegal_answer(arena, lineup: Lineup, table: int, refusal: int, kind: int, amount: int):
    """The error for a refused answer: names the agent, the table and the legal range."""
    seen = arena.observe()
    actor = int(seen.actor[table])
    view = (actor, int(seen.to_call[table]), int(seen.min_raise_to[table]),
            int(seen.max_raise_to[table]), seen.legal[table])  # fmt: skip
    return IllegalActionError(f"agent {lineup.labels[actor]!r} (seat {actor}), table {table}: "
                              f"{refusal_text(refusal, kind, amount, view)}", table)  # fmt: skip


def ask(candidate, name: str, observation: AgentObservation) -> tuple[np.ndarray, np.ndarray]:
    """A Python agent's answer for the rows of ``observation``, checked for shape and kinds."""
    m = len(observation.tables)
    answer = candidate.act(observation)
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise AgentError(f"agent {name!r}: act() must return (kinds, amounts), got "
                         f"{type(answer).__name__}")  # fmt: skip
    out = []
    for what, values in zip(("kinds", "amounts"), answer, strict=True):
        array = np.asarray(values)
        if array.shape != (m,):
            raise AgentError(f"agent {name!r}: act() returned {what} of shape {array.shape} "
                             f"for {m} tables (expected ({m},))")  # fmt: skip
        if m and (array.dtype == bool or not np.issubdtype(array.dtype, np.integer)):
            raise AgentError(f"agent {name!r}: act() returned {what} of dtype {array.dtype}: "
                             "integers expected")  # fmt: skip
        out.append(array.astype(np.int64))
    bad = np.flatnonzero((out[0] < 0) | (out[0] >= len(ACTIONS)))
    if bad.size:
        table = int(observation.tables[bad[0]])
        raise AgentError(f"agent {name!r}, table {table}: kind {out[0][bad[0]]} is not an "
                         f"action (0..4: {', '.join(ACTIONS)})", table)  # fmt: skip
    if m and (np.abs(out[1]) > 1 << 62).any():
        raise AgentError(f"agent {name!r}: act() returned amounts out of any table's range")
    return out[0].astype(np.uint8), out[1]
