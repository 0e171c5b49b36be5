"""Arena histories (Arrow, ``pypoker.arena.history.SCHEMA``) back into the records the
engine wrote (``pp_hand_record``, ``pp_action_record``), without a Python loop over hands:
how the reader's native kernels take a batch of hands. Only the columns a replay needs are
read (``table``, ``hand``, the settings, ``starting_stacks``, ``hole_cards``, ``board``,
``actions``) and ``styles`` when present; the pots and winnings are not."""

from __future__ import annotations

import numpy as np

from .._native import PokerError, lib
from ..arena.history import ACTION_DTYPE, HAND_DTYPE

SEATS_MAX = lib.PP_ARENA_SEATS_MAX
NONE = lib.PP_READER_NONE
NEEDED = ("table", "hand", "seats", "button", "small_blind", "big_blind", "ante", "bb_ante",
          "straddle", "starting_stacks", "hole_cards", "board", "actions")  # fmt: skip


def _column(table, name: str):
    """A column as one Arrow array (a Table's chunks combined)."""
    import pyarrow as pa

    column = table.column(name)
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if column.null_count:
        row = int(np.flatnonzero(~column.is_valid().to_numpy(zero_copy_only=False))[0])
        raise PokerError(f"row {row}: {name} is null", row)
    return column


def _numbers(table, name: str, low: int, high: int) -> np.ndarray:
    values = _column(table, name).to_numpy(zero_copy_only=False).astype(np.int64)
    bad = np.flatnonzero((values < low) | (values > high))
    if bad.size:
        raise PokerError(f"row {bad[0]}: {name} is {values[bad[0]]}, outside {low}..{high}",
                         int(bad[0]))  # fmt: skip
    return values


def _lists(table, name: str, seats: np.ndarray | None, width: int, fill: int, high: int):
    """A list column as (rows, width) (each row's values, ``fill`` past them), checked to
    hold ``seats[i]`` values a row (or at most ``width``) within 0..high."""
    import pyarrow.compute as pc

    column = _column(table, name)
    lengths = pc.list_value_length(column).to_numpy(zero_copy_only=False).astype(np.int64)
    wrong = lengths != seats if seats is not None else lengths > width
    if wrong.any():
        row = int(np.flatnonzero(wrong)[0])
        want = f"{seats[row]} (one a seat)" if seats is not None else f"at most {width}"
        raise PokerError(f"row {row}: {name} holds {lengths[row]} values, not {want}", row)
    values = column.flatten()
    if name == "hole_cards":
        values = values.flatten()
        lengths = lengths * 2
        width *= 2
    flat = values.to_numpy(zero_copy_only=False).astype(np.int64)
    bad = np.flatnonzero((flat < 0) | (flat > high))
    if bad.size:
        row = int(np.searchsorted(np.cumsum(lengths), bad[0], side="right"))
        raise PokerError(f"row {row}: {name} holds {flat[bad[0]]}, outside 0..{high}", row)
    out = np.full((len(lengths), width), fill, np.int64)
    rows = np.repeat(np.arange(len(lengths)), lengths)
    starts = np.cumsum(lengths) - lengths
    out[rows, np.arange(len(flat)) - starts[rows]] = flat
    return out, lengths


def to_records(table) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(hands, actions, styles)`` of an Arrow table or record batch of hand histories:
    ``HAND_DTYPE`` records (each hand's actions at ``action_first`` in ``actions``),
    ``ACTION_DTYPE`` records, and each seat's style (N, 10) uint8 (``NONE`` past a hand's
    seats) when the table has a ``styles`` column, else None."""
    missing = [name for name in NEEDED if name not in table.column_names]
    if missing:
        raise PokerError(f"not a hand history: no column {', '.join(map(repr, missing))} (see "
                         "pypoker.arena.history.SCHEMA)")  # fmt: skip
    n = table.num_rows
    hands = np.zeros(n, HAND_DTYPE)
    chips = lib.PP_ARENA_CHIPS_MAX
    seats = _numbers(table, "seats", lib.PP_ARENA_SEATS_MIN, SEATS_MAX)
    hands["seats"] = seats
    hands["button"] = _numbers(table, "button", 0, SEATS_MAX - 1)
    for name in ("table", "hand"):
        hands[name] = _numbers(table, name, 0, (1 << 32) - 1)
    for name in ("small_blind", "big_blind", "ante", "straddle"):
        hands[name] = _numbers(table, name, 0, chips)
    hands["bb_ante"] = _column(table, "bb_ante").to_numpy(zero_copy_only=False)
    hands["start"] = _lists(table, "starting_stacks", seats, SEATS_MAX, 0, chips)[0]
    hole = _lists(table, "hole_cards", seats, SEATS_MAX, NONE, NONE)[0]
    hands["hole"] = hole.reshape(n, SEATS_MAX, 2)
    board, board_counts = _lists(table, "board", None, 5, NONE, NONE)
    hands["board"], hands["board_count"] = board, board_counts
    actions, counts = _actions(table)
    hands["action_count"] = counts
    hands["action_first"] = np.cumsum(counts) - counts
    styles = None
    if "styles" in table.column_names:
        styles = _lists(table, "styles", seats, SEATS_MAX, NONE, NONE)[0].astype(np.uint8)
    return hands, actions, styles


def _actions(table) -> tuple[np.ndarray, np.ndarray]:
    import pyarrow.compute as pc

    column = _column(table, "actions")
    counts = pc.list_value_length(column).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = column.flatten()
    out = np.zeros(len(flat), ACTION_DTYPE)
    limits = {"seat": SEATS_MAX - 1, "street": 3, "kind": 255, "amount": (1 << 32) - 1}
    for name, high in limits.items():
        values = flat.field(name).to_numpy(zero_copy_only=False).astype(np.int64)
        bad = np.flatnonzero((values < 0) | (values > high))
        if bad.size:
            row = int(np.searchsorted(np.cumsum(counts), bad[0], side="right"))
            action = int(bad[0] - (np.cumsum(counts) - counts)[row])
            raise PokerError(f"row {row}: action {action}: {name} {values[bad[0]]} is outside "
                             f"0..{high}", row)  # fmt: skip
        out[name] = values
    return out, counts
