"""``examples``: arena hand histories → the Range Reader's labelled examples, replayed and
encoded natively (zsrc/reader/examples.zig).

One example per (hand, read seat, moment the read can change): right after each of the
seat's own actions (its fold too), and right after each street's board cards come while it
is still in the hand. It holds what a spectator sees at that moment, in one fixed-size
record (``EXAMPLE_DTYPE``, 608 bytes; ``Examples.data``), and its label: the read seat's two
cards as a combo index 0..1325 in ``pp.COMBOS`` order, for every seat dealt in (folded ones
too; a seat whose cards the history does not know is not read). Examples of a hand come in
the order the moments happen.

The encoding, field by field (chips in big blinds as float32; "by position" means index 0 is
the first seat to act after the flop (the small blind; heads-up the big blind), counting
dealt seats only, and ``seats - 1`` the button; 255 marks "none" in every byte field)::

    hand_id          uint64        (table << 32) | hand, as the history's
    hand_row         uint32        the hand's row in the batch given to examples()
    actions_seen     uint32        public actions of the hand so far (all, past 32 too)
    label            uint16        the read seat's cards: combo 0..1325 (pp.COMBOS order)
    seat             uint8         the read seat's number at the table
    position         uint8         the read seat's position
    seats            uint8         seats dealt into the hand (2..10)
    style            uint8         the read seat's style in the population (255 unknown)
    street           uint8         0 preflop, 1 flop, 2 turn, 3 river: the board shown
    moment           uint8         0 after the read seat's action, 1 after board cards came
    last_kind        uint8         the read seat's latest action kind (FOLD 0 .. ALL_IN 4),
                                   255 before its first
    board            uint8[5]      card ids shown, 255 past them
    in_hand          uint8[10]     by position: 1 still in the hand, 0 folded or no seat
    pot              float32       every chip in the middle, antes included
    stacks           float32[10]   by position: chips behind
    committed        float32[10]   by position: chips put in this hand (antes aside)
    action_position  uint8[32]     the last 32 public actions, oldest first, padded at the
    action_street    uint8[32]       end (kind 255): the actor's position, the street, the
    action_kind      uint8[32]       kind, the actor's total bet on the street after it
    action_amount    float32[32]     ("raise to"; 0 for fold and check), the pot before it,
    action_pot       float32[32]     and what the actor had to call before it
    action_to_call   float32[32]

The state after an action is the engine's (bets gathered and an uncalled bet returned once a
street ends); after the hand's last action it is the table before the pots are paid.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._native import ArgumentError, PokerError, ffi, lib, thread_error
from .._parallel import run_sliced, workers
from ..arena._config import struct_dtype
from ._records import NONE, SEATS_MAX, to_records

EXAMPLE_DTYPE = struct_dtype("pp_example")
ACTIONS_MAX = lib.PP_READER_ACTIONS_MAX
MOMENTS = ("action", "board")


@dataclasses.dataclass
class Examples:
    """Examples (``data``: ``EXAMPLE_DTYPE`` records, one a row) and the hands they were read
    from (``hands``, ``actions``: the engine's records; ``styles``: each seat's style (H, 10),
    or None), which the exact posterior replays. ``population``: the population the hands
    were played by, when known (``posterior`` and ``evaluate`` take it as their default)."""

    data: np.ndarray
    hands: np.ndarray
    actions: np.ndarray
    styles: np.ndarray | None = None
    population: object = None

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index) -> Examples:
        """The examples at ``index`` (a slice, a mask or indices), of the same hands."""
        data = self.data[index]
        if data.ndim != 1:
            raise ArgumentError("index examples with a slice, a boolean mask or indices")
        return dataclasses.replace(self, data=np.ascontiguousarray(data))

    @property
    def labels(self) -> np.ndarray:
        """Each example's true combo (int64), ``pp.COMBOS`` order."""
        return self.data["label"].astype(np.int64)

    def arrays(self) -> dict[str, np.ndarray]:
        """The encoding as one array a field (views of ``data``): what a model trains on."""
        return {name: self.data[name] for name in EXAMPLE_DTYPE.names}

    def to_arrow(self):
        """The examples as a pyarrow RecordBatch: a column a field, arrays as fixed-size
        lists."""
        import pyarrow as pa

        columns = {}
        for name in EXAMPLE_DTYPE.names:
            values = np.ascontiguousarray(self.data[name])
            if values.ndim == 1:
                columns[name] = pa.array(values)
            else:
                flat = pa.array(values.reshape(-1))
                columns[name] = pa.FixedSizeListArray.from_arrays(flat, values.shape[1])
        return pa.RecordBatch.from_pydict(columns)

    def to_parquet(self, path) -> None:
        """Writes ``to_arrow()`` to a Parquet file that appears whole or not at all."""
        import pyarrow.parquet as pq

        from .._atomic import atomic_target

        with atomic_target(path) as target:
            pq.write_table(_table(self.to_arrow()), target)


def _table(batch):
    import pyarrow as pa

    return pa.Table.from_batches([batch])


def examples(hands, *, seat=None, styles=None, population=None, threads=None) -> Examples:
    """The examples of ``hands``: an arena history (a pyarrow Table or RecordBatch of
    ``pypoker.arena.history.SCHEMA``; with a ``styles`` column, each seat's style, as
    ``generate`` writes). ``seat``: read only that seat of every hand (an error names a hand
    it is not dealt into); default every seat. ``styles``: one style index a seat, for
    histories of a fixed lineup. ``population``: what played the hands (kept for
    ``posterior`` and ``evaluate``). A hand the rules would not have played (an illegal
    action, a card dealt twice, ...) raises a ``PokerError`` naming its row and action."""
    hands_array, actions, found = to_records(hands)
    read = NONE if seat is None else _seat(seat)
    styles = _styles(styles, found, hands_array)
    threads = workers(threads)
    counts = np.zeros(len(hands_array), np.uint32)
    count_examples(hands, hands_array, actions, read, counts, threads)
    offsets = np.cumsum(counts, dtype=np.uint64) - counts
    data = np.zeros(int(counts.sum()), EXAMPLE_DTYPE)
    _fill(hands, hands_array, actions, styles, read, offsets, counts, data, threads)
    return Examples(data, hands_array, actions, styles, population)


def _seat(seat) -> int:
    from .._arguments import whole

    return whole("seat", seat, 0, SEATS_MAX - 1)


def _styles(styles, found, hands_array) -> np.ndarray | None:
    if styles is None:
        return found
    values = np.asarray(styles)
    if values.ndim != 1 or not np.issubdtype(values.dtype, np.integer) or len(values) > SEATS_MAX:
        raise ArgumentError(f"styles must be one style index a seat (integers), got {styles!r}")
    if (values < 0).any() or (values >= NONE).any():
        raise ArgumentError(f"styles must be style indexes 0..{NONE - 1}, got {styles!r}")
    out = np.full((len(hands_array), SEATS_MAX), NONE, np.uint8)
    out[:, : len(values)] = values
    return out


def count_examples(table, hands_array, actions, read, counts, threads) -> None:
    def call(start: int, stop: int) -> None:
        err = thread_error()
        status = lib.pp_reader_count(
            ffi.from_buffer("pp_hand_record[]", hands_array[start:]), stop - start,
            ffi.from_buffer("pp_action_record[]", actions), len(actions), read,
            ffi.from_buffer("uint32_t[]", counts[start:]), err,
        )  # fmt: skip
        _check(status, err, start, table)

    if len(hands_array):
        run_sliced(len(hands_array), threads, call, item_ns=400)


def _fill(table, hands_array, actions, styles, read, offsets, counts, data, threads) -> None:
    def call(start: int, stop: int) -> None:
        err = thread_error()
        status = lib.pp_reader_examples(
            ffi.from_buffer("pp_hand_record[]", hands_array[start:]), stop - start,
            ffi.from_buffer("pp_action_record[]", actions), len(actions),
            ffi.from_buffer("uint8_t[]", styles[start:]) if styles is not None else ffi.NULL,
            read, ffi.from_buffer("uint64_t[]", offsets[start:]),
            ffi.from_buffer("uint32_t[]", counts[start:]), start,
            ffi.from_buffer("pp_example[]", data, require_writable=True), len(data), err,
        )  # fmt: skip
        _check(status, err, start, table)

    if len(data):
        # About 14 examples a hand, their 8.5 KB of fresh pages faulted in as they are written.
        run_sliced(len(hands_array), threads, call, item_ns=6000)


def _check(status: int, err, start: int, table) -> None:
    if status == lib.PP_OK:
        return
    if status != lib.PP_BAD_ARGUMENT:
        raise PokerError(f"the reader failed with status {status}")
    row = start + int(err.row)
    raise PokerError(hand_problem(table, row, int(err.card), int(err.position)), row)


def hand_problem(table, row: int, fault: int, where: int) -> str:
    """Why hand ``row`` of ``table`` cannot be read, in words (the replay's own words for
    actions the rules refuse)."""
    from ..cards import format_cards

    if fault in (lib.PP_READER_FAULT_ACTOR, lib.PP_READER_FAULT_ILLEGAL, lib.PP_READER_FAULT_OVER,
                 lib.PP_READER_FAULT_SHORT):  # fmt: skip
        from ..arena.replay import replay_row

        try:
            replay_row(table.slice(row, 1).to_pylist()[0], index=row, check=False)
        except PokerError as error:
            return str(error)
    words = {
        lib.PP_READER_FAULT_SETTINGS: "seats, button, blinds, ante, straddle or starting stacks "
        "the rules cannot deal (two seats with chips at least, the button among them)",
        lib.PP_READER_FAULT_CARDS: "a seat has one card known and one not (0xFF)"
        if where == NONE else f"card {format_cards([where]) if where < 52 else where} is dealt "
        "twice or is not a card (a hole card that collides with the board, or with another "
        "seat's)",
        lib.PP_READER_FAULT_STREET: f"action {where} is recorded on a street the hand was not on",
        lib.PP_READER_FAULT_AMOUNT: f"action {where}: its amount is not the seat's bet after "
        "the call or all-in the rules make",
        lib.PP_READER_FAULT_BOARD: "the board holds more or fewer cards than the streets the "
        "hand reached",
        lib.PP_READER_FAULT_SEAT: f"seat {where} is not in the hand (no seat of that number, "
        "or it was not dealt in)",
        lib.PP_READER_FAULT_ILLEGAL: f"action {where} is refused by the rules",
    }  # fmt: skip
    return f"row {row}: {words.get(fault, f'the hand cannot be read (fault {fault})')}"
