"""``Tables``: the RL environments' batch of tables, one native call a step (gym.py and
pettingzoo.py wrap it; it needs neither package).

At every table one seat is the caller's (the learner's; every seat for PettingZoo) and the
others are native agents (``pypoker.arena.agent`` names, specs or ``Agent``s), which play
inside the library between the caller's decisions (zsrc/arena/agents/learner.zig). A step
answers every table at once; a hand that ends reports the learner's net chips in big
blinds and stays over until the next step, which deals the next hand (Gymnasium's
next-step autoreset). Observations are float32 rows (``columns`` names each; layout in
zsrc/arena/agents/observation.zig), action masks uint8 rows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._arguments import choice, whole
from .._native import CARD_NAMES, ArgumentError, ffi, lib, thread_error
from ._config import (
    ACTIONS,
    STREET_OVER,
    STREETS,
    TABLE_DTYPE,
    IllegalActionError,
    make_config,
    refusal_text,
    struct_dtype,
)
from .agents import AgentError, agent, is_python_agent

DISCRETE = ("fold", "check/call", "raise half pot", "raise pot", "raise 2x pot", "all in")
CONTINUOUS = ("fold", "check/call", "raise to")
SLOT_DTYPE = struct_dtype("pp_rl_slot")
_SEAT_COLUMNS = ("stack", "bet", "put_in", "in_hand", "all_in", "button", "to_act")
_NUMBERS = ("pot", "current_bet", "to_call", "min_raise_to", "max_raise_to")
_CHIP_COLUMNS = ("stack", "bet", "put_in", "pot", "to_call", "raise_to", "amount")


class Step(NamedTuple):
    """One call's outputs, one row a table (fresh arrays)."""

    obs: np.ndarray  # (N, columns) float32
    mask: np.ndarray  # (N, actions) uint8: 1 where the action is legal
    reward: np.ndarray  # (N,) float32: the learner's net big blinds of a hand that ended
    terminated: np.ndarray  # (N,) bool: the hand ended (the next step deals the next)
    skipped: np.ndarray  # (N,) float32: big blinds of hands dealt past (see Tables.step)


class Tables:
    """``tables`` tables of ``seats`` seats; the caller plays ``seat`` (and every seat when
    ``opponents`` is None), ``opponents`` the others: one agent for all, or one a seat in
    seat order without the learner's. ``actions``: "discrete" (``DISCRETE``) or
    "continuous" (``CONTINUOUS``, the raise to an amount in big blinds); ``illegal``:
    "raise" (an error naming the table and the legal actions) or "nearest" (a refused
    answer plays as check or call); ``history``: the hand's actions each observation
    shows. The rest are ``Arena``'s settings; every stack must exceed the forced bets."""

    def __init__(self, tables: int, seats: int = 6, seat: int = 0, opponents="random", *,
                 actions: str = "discrete", illegal: str = "raise", history: int = 16,
                 stacks=200, blinds=(1, 2), ante: int = 0, bb_ante: bool = False,
                 straddle: int = 0, seed: int = 0):  # fmt: skip
        try:
            count, self._config, self.table_settings = make_config(
                tables, seats, stacks, blinds, ante, bb_ante, straddle, seed, False, 0
            )
        except (TypeError, ValueError) as error:
            raise ArgumentError(str(error)) from None
        self.seats, self.seat = self.table_settings["seats"], whole("seat", seat, 0, seats - 1)
        forced = ante + max(self.table_settings["blinds"][1], straddle)
        if min(self.table_settings["stacks"]) <= forced:
            raise ArgumentError(f"stacks must exceed the forced bets ({forced}), so that every "
                                "seat but the big blind decides in every hand")  # fmt: skip
        self.scheme = choice("actions", actions, ("discrete", "continuous"))
        self.actions = DISCRETE if actions == "discrete" else CONTINUOUS
        self._settings = ffi.new("pp_rl_settings*")
        self._settings.seat, self._settings.history = self.seat, whole(
            "history", history, 0, lib.PP_RL_HISTORY_MAX)  # fmt: skip
        self._settings.scheme = (lib.PP_RL_SCHEME_DISCRETE if actions == "discrete"
                                 else lib.PP_RL_SCHEME_CONTINUOUS)  # fmt: skip
        self._settings.nearest = choice("illegal", illegal, ("raise", "nearest")) == "nearest"
        self.labels, self._lineup = _lineup(opponents, self.seats, self.seat)
        layout = ffi.new("pp_rl_layout*")
        assert lib.pp_rl_observation_layout(self.seats, self._settings.history, layout) == 0
        self.layout = {name: getattr(layout, name) for name, _ in ffi.typeof(layout[0]).fields}
        self.columns = self.layout["columns"]
        self._tables, self._slots = np.zeros(count, TABLE_DTYPE), np.zeros(count, SLOT_DTYPE)
        self._table_pointer = ffi.from_buffer("pp_table[]", self._tables, require_writable=True)
        self._slot_pointer = ffi.from_buffer("pp_rl_slot[]", self._slots, require_writable=True)
        self._dealt = False

    def __len__(self) -> int:
        return len(self._tables)

    @property
    def dealt(self) -> bool:
        """Whether a reset has dealt the tables."""
        return self._dealt

    @property
    def big_blind(self) -> int:
        return self.table_settings["blinds"][1]

    @property
    def state(self) -> np.ndarray:
        """The tables (``TABLE_DTYPE``), read-only: they change as the tables step."""
        view = self._tables.view()
        view.flags.writeable = False
        return view

    def reset(self, seed=None) -> Step:
        """Deals every table a hand and plays to the caller's decision: hand 0 of each
        table on the first reset or with ``seed`` (a new seed: hand ``h`` of table ``t``
        is a pure function of (seed, t, h)), else each table's next hand."""
        first = seed is not None or not self._dealt
        if seed is not None:
            self._config.seed = whole("seed", seed, 0, (1 << 64) - 1)
            self.table_settings["seed"] = int(seed)
        out = self._outputs()
        err = thread_error()
        status = lib.pp_rl_reset(self._config, self._lineup, self._settings,
                                 self._table_pointer, self._slot_pointer, len(self), first,
                                 *self._pointers(out[:2]), _pointer("float*", out.skipped),
                                 err)  # fmt: skip
        _check(status, err)
        self._dealt = True
        return out

    def step(self, actions, raise_to=None) -> Step:
        """One answer a table (an index of ``self.actions``; ``raise_to`` in big blinds for
        the continuous scheme's raise), for the caller's seat to act; ignored at a table
        whose hand ended at the last step, which deals its next hand instead. Nothing
        changes when an answer is refused. ``skipped``: the learner's net big blinds in
        hands dealt past because it had no decision in them (everyone folded to its big
        blind)."""
        if not self._dealt:
            raise ArgumentError("step() before reset(): reset the tables first")
        actions, raise_to = self._answers(actions, raise_to)
        out = self._outputs()
        err = thread_error()
        status = lib.pp_rl_step(self._config, self._lineup, self._settings, self._table_pointer,
                                self._slot_pointer, len(self), _pointer("uint8_t*", actions),
                                _pointer("float*", raise_to), *self._pointers(out[:2]),
                                _pointer("float*", out.reward),
                                _pointer("uint8_t*", out.terminated),
                                _pointer("float*", out.skipped), err)  # fmt: skip
        if status == lib.PP_ILLEGAL_ACTION:
            raise self._illegal(int(err.row), int(err.card), int(err.position), raise_to)
        _check(status, err)
        return out

    def observe(self, viewer: int) -> tuple[np.ndarray, np.ndarray]:
        """Every table's observation and action mask from seat ``viewer``."""
        out = self._outputs()
        viewer = whole("viewer", viewer, 0, self.seats - 1)
        status = lib.pp_rl_observe(self._settings, self._table_pointer, self._slot_pointer,
                                   len(self), viewer, *self._pointers(out[:2]))  # fmt: skip
        _check(status, None)
        return out.obs, out.mask

    def _outputs(self) -> Step:
        n = len(self)
        return Step(np.empty((n, self.columns), np.float32),
                    np.empty((n, len(self.actions)), np.uint8), np.empty(n, np.float32),
                    np.empty(n, np.bool_), np.empty(n, np.float32))  # fmt: skip

    @staticmethod
    def _pointers(arrays) -> list:
        return [_pointer("float*", arrays[0]), _pointer("uint8_t*", arrays[1])]

    def _answers(self, actions, raise_to):
        n = len(self)
        actions = np.asarray(actions)
        if (
            actions.shape != (n,)
            or actions.dtype == bool
            or not np.issubdtype(actions.dtype, np.integer)
        ):
            raise ArgumentError(f"actions must be {n} action indices (integers, shape ({n},)), "
                                f"got {actions.dtype} {actions.shape}")  # fmt: skip
        bad = np.flatnonzero((actions < 0) | (actions >= len(self.actions)))
        if bad.size:
            t = int(bad[0])
            raise ArgumentError(f"table {t}: action {actions[t]} is not an action index (0.."
                                f"{len(self.actions) - 1}: {self._named()})", t)  # fmt: skip
        actions = np.ascontiguousarray(actions, np.uint8)
        if self.scheme == "discrete":
            return actions, None
        raise_to = np.zeros(n) if raise_to is None else np.asarray(raise_to)
        if raise_to.shape not in ((n,), (n, 1)) or not np.issubdtype(raise_to.dtype, np.number):
            raise ArgumentError(f"raise_to must be {n} amounts in big blinds (shape ({n},)), "
                                f"got {raise_to.dtype} {raise_to.shape}")  # fmt: skip
        return actions, np.ascontiguousarray(raise_to.reshape(n), np.float32)

    def _named(self, allowed=None) -> str:
        return ", ".join(f"{i} {name}" for i, name in enumerate(self.actions)
                         if allowed is None or allowed[i])  # fmt: skip

    def _illegal(self, table: int, refusal: int, index: int, raise_to) -> IllegalActionError:
        """The error for a refused answer: the table, the answer, why and what is legal."""
        row = np.ascontiguousarray(self._tables[table : table + 1])
        seen = _observe_one(row)
        _, mask = self.observe(seen[0])  # the seat to act
        low, high = seen[2] / self.big_blind, seen[3] / self.big_blind
        amount = f" {raise_to[table]:g} bb" if raise_to is not None and index == 2 else ""
        reason = refusal_text(refusal, _KIND_OF.get((self.scheme, index), 0), 0, seen)
        legal = self._named(mask[table])
        span = f"; raise to {low:g}..{high:g} big blinds" if seen[4][3] else ""
        return IllegalActionError(f"table {table}: action {index} ({self.actions[index]}{amount})"
                                  f" refused: {reason.split(' (legal')[0]} (legal actions: "
                                  f"{legal}{span})", table)  # fmt: skip


_KIND_OF = {("discrete", 0): 0, ("discrete", 2): 3, ("discrete", 3): 3, ("discrete", 4): 3,
            ("discrete", 5): 4, ("continuous", 0): 0, ("continuous", 2): 3}  # fmt: skip


def _lineup(opponents, seats: int, seat: int):
    """Labels and the ``pp_agent`` lineup: the caller's seats external."""
    if opponents is None:
        chosen = [None] * seats
    else:
        given = [opponents] if isinstance(opponents, str) or not hasattr(opponents, "__len__") \
            else list(opponents)  # fmt: skip
        if len(given) == 1:
            given = given * (seats - 1)
        if len(given) != seats - 1:
            raise AgentError(f"{len(given)} opponents for {seats - 1} seats: give one agent for "
                             f"all of them or one a seat (seats other than {seat})")  # fmt: skip
        for candidate in given:
            if is_python_agent(candidate):
                raise AgentError(f"opponent {candidate!r}: opponents are native agents (names, "
                                 "specs or Agents) that play inside the library")  # fmt: skip
        chosen = [agent(a) for a in given]
        chosen.insert(seat, None)
    lineup = ffi.new("pp_agent[]", seats)
    for i, native in enumerate(chosen):
        if native is None:
            lineup[i].kind, lineup[i].bet, lineup[i].temperature = lib.PP_AGENT_EXTERNAL, 1, 0
            setattr(lineup[i], "raise", 1)
        else:
            lineup[i] = native.native()[0]
    labels = ["caller" if a is None else a.name for a in chosen]
    return labels, lineup


def _pointer(kind: str, array):
    return ffi.NULL if array is None else ffi.cast(kind, ffi.from_buffer(array))


def _observe_one(row: np.ndarray):
    """(actor, to_call, min_to, max_to, legal) of one table, as ``refusal_text`` takes."""
    numbers = np.empty(4, np.int64)
    actor, street = np.empty(1, np.int8), np.empty(1, np.uint8)
    legal, board, hole = np.empty(5, np.uint8), np.empty(5, np.uint8), np.empty(2, np.uint8)
    cast = [("int8_t*", actor), ("uint8_t*", street)] + [("int64_t*", numbers[i : i + 1])
                                                        for i in range(4)]  # fmt: skip
    cast += [("uint8_t*", legal), ("uint8_t*", board), ("uint8_t*", hole)]
    status = lib.pp_arena_observe(ffi.from_buffer("pp_table[]", row), 1,
                                  *(_pointer(k, a) for k, a in cast))  # fmt: skip
    _check(status, None)
    return int(actor[0]), int(numbers[1]), int(numbers[2]), int(numbers[3]), legal.view(bool)


def _check(status: int, err) -> None:
    if status == lib.PP_OK:
        return
    from .._native import check_call

    check_call(status)


def column_names(layout: dict, seats: int) -> list[str]:
    """The name of each observation column (observation.zig's layout)."""
    names = [f"hole_{c}" for c in CARD_NAMES] + [f"board_{c}" for c in CARD_NAMES]
    names += [f"street_{s}" for s in STREETS] + [f"position_{p}" for p in range(seats)]
    names += [f"seat{r}_{c}" for r in range(seats) for c in _SEAT_COLUMNS] + list(_NUMBERS)
    for i in range((layout["columns"] - layout["history"]) // layout["action_columns"]):
        names += [f"action{i}_present"] + [f"action{i}_seat{r}" for r in range(seats)]
        names += [f"action{i}_{s}" for s in STREETS[:STREET_OVER]] + [
            f"action{i}_{k}" for k in ACTIONS
        ]
        names.append(f"action{i}_amount")
    assert len(names) == layout["columns"], "observation.zig's layout and these names differ"
    return names


def column_bounds(tables: Tables) -> np.ndarray:
    """Each observation column's largest value: 1 for the one-hots and flags, every chip at
    the table in big blinds for the chip columns (the observation space's ``high``)."""
    names = column_names(tables.layout, tables.seats)
    top = sum(tables.table_settings["stacks"]) / tables.big_blind
    return np.array([top if name.endswith(_CHIP_COLUMNS) else 1.0 for name in names], np.float32)
