"""The arena's vocabulary: action kinds and limits (from the header), the table dtype, the
observation and step result types, checking an arena's settings, and wording refusals."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._arguments import whole
from .._native import ArgumentError, PokerError, check_call, ffi, lib

ACTIONS = ("fold", "check", "call", "raise", "all_in")
FOLD, CHECK, CALL, RAISE, ALL_IN = (lib.PP_ACTION_FOLD, lib.PP_ACTION_CHECK, lib.PP_ACTION_CALL,
                                    lib.PP_ACTION_RAISE, lib.PP_ACTION_ALL_IN)  # fmt: skip
SEATS_MAX = lib.PP_ARENA_SEATS_MAX
SEATS_MIN = lib.PP_ARENA_SEATS_MIN
NO_CARD = lib.PP_NO_CARD
STREET_OVER = lib.PP_STREET_OVER
# The streets' names, the one place they are spelled, by the header's numbers (a table's
# `street`; zsrc/arena/table.zig `Street`): STREETS[number] is its name.
_STREET_NUMBERS = {"preflop": lib.PP_STREET_PREFLOP, "flop": lib.PP_STREET_FLOP,
                   "turn": lib.PP_STREET_TURN, "river": lib.PP_STREET_RIVER,
                   "over": lib.PP_STREET_OVER}  # fmt: skip
STREETS = tuple(sorted(_STREET_NUMBERS, key=_STREET_NUMBERS.__getitem__))
# Board cards seen on each street, by number (zsrc/arena/table.zig `board_shown`, built from
# the same header sizes): none preflop, the flop's three, one more on the turn, all after.
BOARD_SHOWN = (0, lib.PP_BOARD_CARDS_MIN, lib.PP_BOARD_CARDS_MIN + 1, lib.PP_BOARD_CARDS_MAX,
               lib.PP_BOARD_CARDS_MAX)  # fmt: skip
assert len(BOARD_SHOWN) == len(STREETS) == lib.PP_STREETS
_CHIPS_MAX = lib.PP_ARENA_CHIPS_MAX
_SEED_MAX = (1 << 64) - 1


def struct_dtype(name: str) -> np.dtype:
    """The NumPy dtype of a header struct with array fields (``pp_table``, records): each
    field at the header's offset, arrays as sub-array fields, structs as nested dtypes."""
    kinds = {"uint64_t": "<u8", "int64_t": "<i8", "uint32_t": "<u4", "int32_t": "<i4",
             "uint16_t": "<u2", "uint8_t": "u1", "int8_t": "i1", "float": "<f4",
             "double": "<f8"}  # fmt: skip
    struct = ffi.typeof(name)

    def numpy_type(ctype):
        shape = []
        while ctype.kind == "array":
            shape.append(ctype.length)
            ctype = ctype.item
        item = struct_dtype(ctype.cname) if ctype.kind == "struct" else kinds[ctype.cname]
        return (item, tuple(shape)) if shape else item

    return np.dtype({
        "names": [field for field, _ in struct.fields],
        "formats": [numpy_type(info.type) for _, info in struct.fields],
        "offsets": [info.offset for _, info in struct.fields],
        "itemsize": ffi.sizeof(struct),
    })  # fmt: skip


TABLE_DTYPE = struct_dtype("pp_table")


class IllegalActionError(PokerError):
    """An action the rules refuse; ``row`` is the table. Nothing in the batch changed."""


class Observation(NamedTuple):
    """What each table shows, one row a table. ``stacks`` and ``bets`` are read-only views
    of the state (they change as the arena steps); the rest are fresh arrays."""

    actor: np.ndarray  # int8, the seat to act, -1 none
    street: np.ndarray  # uint8: 0 preflop, 1 flop, 2 turn, 3 river, 4 hand over
    pot: np.ndarray  # int64, every chip in the middle (antes and all bets)
    stacks: np.ndarray  # (N, seats) uint32 chips behind
    bets: np.ndarray  # (N, seats) uint32 chips bet on this street
    board: np.ndarray  # (N, 5) uint8, cards not yet shown 0xFF
    hole: np.ndarray  # (N, 2) uint8, the actor's hole cards
    to_call: np.ndarray  # int64, chips a call puts in (capped at the stack)
    min_raise_to: np.ndarray  # int64, 0 when no raise is legal
    max_raise_to: np.ndarray  # int64
    legal: np.ndarray  # (N, 5) bool, in ACTIONS order


class StepResult(NamedTuple):
    finished: np.ndarray  # (N,) bool: the table's hand ended (the next is dealt)
    winnings: np.ndarray  # (N, seats) int64: net chips of the hand(s) that ended


def _stacks(stacks, seats: int) -> list[int]:
    """One stack a seat, from a number (every seat) or a sequence (``seats`` long)."""
    values = np.asarray(stacks)
    if values.ndim == 0:
        values = np.full(seats, stacks, dtype=object)
    if values.shape != (seats,):
        raise ArgumentError(
            f"stacks must be a number or one per seat ({seats}), got shape {values.shape}"
        )
    return [whole(f"stacks[{i}]", value, 1, _CHIPS_MAX) for i, value in enumerate(values.tolist())]


def make_config(tables, seats, stacks, blinds, ante, bb_ante, straddle, seed, carry, button):
    """Checks every setting (an error names the argument) → (a ``pp_arena_config``, the
    settings as keyword arguments of ``Arena``)."""
    tables = whole("tables", tables, 1, 1 << 32)
    seats = whole("seats", seats, SEATS_MIN, SEATS_MAX)
    stacks = _stacks(stacks, seats)
    if not isinstance(blinds, (tuple, list)) or len(blinds) != 2:
        raise ArgumentError(f"blinds must be a pair (small, big), got {blinds!r}")
    small = whole("blinds[0] (the small blind)", blinds[0], 1, _CHIPS_MAX)
    big = whole("blinds[1] (the big blind)", blinds[1], small, _CHIPS_MAX)
    ante = whole("ante", ante, 0, _CHIPS_MAX)
    straddle = whole("straddle", straddle, 0, _CHIPS_MAX)
    if straddle and straddle < 2 * big:
        raise ArgumentError(
            f"straddle must be 0 or at least twice the big blind ({2 * big}), got {straddle}"
        )
    forced = ante + max(big, straddle)
    short = [i for i, stack in enumerate(stacks) if stack < forced]
    if short:
        raise ArgumentError(
            f"stacks[{short[0]}] is {stacks[short[0]]}, below the forced bets it may owe "
            f"(ante {ante} + {max(big, straddle)}): blinds, ante and straddle must fit every stack"
        )
    if sum(stacks) > _CHIPS_MAX:
        raise ArgumentError(f"stacks add up to {sum(stacks)}: a table holds at most {_CHIPS_MAX}")
    seed = whole("seed", seed, 0, _SEED_MAX)
    button = whole("button", button, 0, seats - 1)
    config = ffi.new("pp_arena_config*")
    config.seed, config.seats, config.stacks[0:seats] = seed, seats, stacks
    config.small_blind, config.big_blind, config.ante, config.straddle = small, big, ante, straddle
    config.bb_ante, config.carry, config.button = bool(bb_ante), bool(carry), button
    settings = dict(seats=seats, stacks=stacks, blinds=(small, big), ante=ante,
                    bb_ante=bool(bb_ante), straddle=straddle, seed=seed, carry=bool(carry),
                    button=button)  # fmt: skip
    return tables, config, settings


def refusal_text(refusal: int, kind: int, amount: int, seat_view) -> str:
    """Why an action is refused, in words, with the legal range."""
    actor, to_call, low, high, legal = seat_view
    name = ACTIONS[kind] if 0 <= kind < len(ACTIONS) else f"kind {kind}"
    allowed = [ACTIONS[k] + (f" to {low}..{high}" if k == RAISE else "")
               for k in range(len(ACTIONS)) if legal[k]]  # fmt: skip
    legal_text = f"(legal: {', '.join(allowed)})" if allowed else ""
    reasons = {
        lib.PP_REFUSED_NO_ACTOR: "no seat is to act at this table (its hand is over)",
        lib.PP_REFUSED_UNKNOWN_KIND: f"{kind} is not an action kind (0..4: {', '.join(ACTIONS)})",
        lib.PP_REFUSED_FOLD_WITHOUT_BET: f"seat {actor} cannot fold: there is no bet to call",
        lib.PP_REFUSED_CHECK_FACING_BET: f"seat {actor} cannot check: it faces a bet ({to_call} "
        "to call)",
        lib.PP_REFUSED_CALL_WITHOUT_BET: f"seat {actor} cannot call: there is no bet to call",
        lib.PP_REFUSED_RAISE_CLOSED: f"seat {actor} may not raise now",
        lib.PP_REFUSED_RAISE_BELOW_MIN: f"raise to {amount} is below the minimum raise {low} "
        f"(legal raise-to: {low}..{high})",
        lib.PP_REFUSED_RAISE_ABOVE_MAX: f"raise to {amount} is above the maximum {high} "
        f"(legal raise-to: {low}..{high})",
        lib.PP_REFUSED_ALL_IN_CLOSED: f"seat {actor} may not go all in now (it may call)",
        lib.PP_REFUSED_UNKNOWN_CARD_AT_SHOWDOWN: f"{name} would bring a seat whose cards are "
        "unknown (0xFF) to a showdown",
    }
    reason = reasons.get(refusal, f"{name} is refused")
    if refusal in (lib.PP_REFUSED_RAISE_BELOW_MIN, lib.PP_REFUSED_RAISE_ABOVE_MAX):
        return reason
    return f"{reason} {legal_text}".strip()


def check_status(status: int, err, what: str = "table") -> None:
    """Raises for a failed arena call."""
    if status == lib.PP_OK:
        return
    if status == lib.PP_BAD_ARGUMENT:
        row = int(ffi.cast("int64_t", err.row)) if err is not None else -1
        if row >= 0:
            raise PokerError(f"{what} {row}: not a state the rules can play (seat count, masks "
                             "or chips inconsistent)", row)  # fmt: skip
        raise ArgumentError("the arena's settings are not ones the rules can play")
    check_call(status)
