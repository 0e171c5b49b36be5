"""Hand histories as Arrow: one row per finished hand, built from the engine's records
(``pp_hand_record``, ``pp_action_record``) without a Python loop over hands.

The schema (``SCHEMA``)::

    hand_id          uint64   (table << 32) | hand
    table            uint32
    hand             uint32
    seats            uint8
    button           uint8
    small_blind      int64
    big_blind        int64
    ante             int64
    bb_ante          bool
    straddle         int64
    starting_stacks  list<int64>                       one per seat
    hole_cards       list<fixed_size_list<uint8, 2>>   one pair per seat, 0xFF unknown
    board            list<uint8>                       cards dealt (0, 3, 4 or 5)
    actions          list<struct<seat: uint8, street: uint8, kind: uint8, amount: int64>>
    pots             list<struct<amount: int64, winners: list<uint8>>>   main pot first
    winnings         list<int64>                       net chips per seat (end - start)
    showed_down      list<bool>                        per seat: showed at a showdown

An action's ``kind`` is FOLD 0, CHECK 1, CALL 2, RAISE 3, ALL_IN 4; its ``amount`` the
seat's total bet on the street after it (0 for FOLD and CHECK). Forced bets are not
actions: they follow from the blinds, ante and straddle. Pots are counted after uncalled
bets went back; when everyone folds, the one pot is every chip in the middle.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
import pyarrow as pa

from .._table_files import writing
from ._config import struct_dtype

HAND_DTYPE = struct_dtype("pp_hand_record")
ACTION_DTYPE = struct_dtype("pp_action_record")

ACTION_TYPE = pa.struct([("seat", pa.uint8()), ("street", pa.uint8()), ("kind", pa.uint8()),
                         ("amount", pa.int64())])  # fmt: skip
POT_TYPE = pa.struct([("amount", pa.int64()), ("winners", pa.list_(pa.uint8()))])
SCHEMA = pa.schema([
    ("hand_id", pa.uint64()), ("table", pa.uint32()), ("hand", pa.uint32()),
    ("seats", pa.uint8()), ("button", pa.uint8()), ("small_blind", pa.int64()),
    ("big_blind", pa.int64()), ("ante", pa.int64()), ("bb_ante", pa.bool_()),
    ("straddle", pa.int64()), ("starting_stacks", pa.list_(pa.int64())),
    ("hole_cards", pa.list_(pa.list_(pa.uint8(), 2))), ("board", pa.list_(pa.uint8())),
    ("actions", pa.list_(ACTION_TYPE)), ("pots", pa.list_(POT_TYPE)),
    ("winnings", pa.list_(pa.int64())), ("showed_down", pa.list_(pa.bool_())),
])  # fmt: skip


def _lists(values: pa.Array, counts: np.ndarray) -> pa.Array:
    offsets = np.zeros(len(counts) + 1, np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), values)


def _per_seat(matrix: np.ndarray, seats: np.ndarray, arrow_type) -> pa.Array:
    """A (N, 10, ...) field cut to each row's seats, as list<arrow_type>."""
    keep = np.arange(matrix.shape[1])[None, :] < seats[:, None]
    values = matrix[keep]
    if values.ndim == 2:  # hole cards: pairs
        flat = pa.array(values.ravel(), pa.uint8())
        return _lists(pa.FixedSizeListArray.from_arrays(flat, 2), seats)
    return _lists(pa.array(values, arrow_type), seats)


def _pots(hands: np.ndarray) -> pa.Array:
    counts = hands["pot_count"].astype(np.int64)
    keep = np.arange(10)[None, :] < counts[:, None]
    amounts = hands["pots"][keep].astype(np.int64)
    masks = hands["pot_winners"][keep]
    winners = (masks[:, None] >> np.arange(16, dtype=np.uint16)) & 1  # (pots, 16)
    pot_of, seat = np.nonzero(winners)
    per_pot = np.bincount(pot_of, minlength=len(masks))
    winner_lists = _lists(pa.array(seat.astype(np.uint8)), per_pot)
    pots = pa.StructArray.from_arrays([pa.array(amounts), winner_lists], fields=list(POT_TYPE))
    return _lists(pots, counts)


def _actions(hands: np.ndarray, actions: np.ndarray, action_base: int) -> pa.Array:
    counts = hands["action_count"].astype(np.int64)
    if len(hands):
        first = int(hands["action_first"][0]) - action_base
        assert first >= 0 and first + counts.sum() <= len(actions)
        actions = actions[first : first + counts.sum()]
    else:
        actions = actions[:0]
    fields = [pa.array(actions[name]) for name in ("seat", "street", "kind")]
    fields.append(pa.array(actions["amount"].astype(np.int64)))
    return _lists(pa.StructArray.from_arrays(fields, fields=list(ACTION_TYPE)), counts)


def record_batch(hands: np.ndarray, actions: np.ndarray, action_base: int = 0) -> pa.RecordBatch:
    """The history rows of ``hands`` (``HAND_DTYPE`` records, in order, their actions
    contiguous in ``actions`` from the first hand's ``action_first - action_base``)."""
    seats = hands["seats"].astype(np.int64)
    showed = (hands["showed"][:, None] >> np.arange(10, dtype=np.uint16)) & 1
    board_counts = hands["board_count"].astype(np.int64)
    board = hands["board"][np.arange(5)[None, :] < board_counts[:, None]]
    table, hand = hands["table"].astype(np.uint64), hands["hand"].astype(np.uint64)
    columns = [
        pa.array(table << np.uint64(32) | hand), pa.array(hands["table"]), pa.array(hands["hand"]),
        pa.array(hands["seats"]), pa.array(hands["button"]),
        *(pa.array(hands[name].astype(np.int64)) for name in ("small_blind", "big_blind", "ante")),
        pa.array(hands["bb_ante"].astype(bool)), pa.array(hands["straddle"].astype(np.int64)),
        _per_seat(hands["start"].astype(np.int64), seats, pa.int64()),
        _per_seat(hands["hole"], seats, pa.uint8()),
        _lists(pa.array(board, pa.uint8()), board_counts),
        _actions(hands, actions, action_base), _pots(hands),
        _per_seat(hands["winnings"].astype(np.int64), seats, pa.int64()),
        _per_seat(showed.astype(bool), seats, pa.bool_()),
    ]  # fmt: skip
    return pa.RecordBatch.from_arrays(columns, schema=SCHEMA)


class ParquetSink:
    """Record batches streamed into a Parquet file that appears whole when closed without
    error, and not at all otherwise (``_table_files.writing``)."""

    def __init__(self, path):
        self._file = contextlib.ExitStack()
        self._writer = self._file.enter_context(writing(Path(path), SCHEMA, kinds=("parquet",)))

    def write(self, batch: pa.RecordBatch) -> None:
        self._writer.write(batch)

    def close(self, error: BaseException | None = None) -> None:
        if error is None:
            self._file.close()
        else:
            self._file.__exit__(type(error), error, error.__traceback__)
