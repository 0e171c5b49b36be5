"""Hand isomorphism: one dense index per hand up to the relabelling of suits.

The indices are Waugh's (2013, "A Fast and Optimal Hand Isomorphism Algorithm", the
``hand_index_last`` of his reference library), so tables keyed by them are interchangeable
with tables built elsewhere. Two layouts are common and both are served:

- ``per_street=False`` (default): the hole cards, then the board as one set. Sizes 169,
  1,286,792, 13,960,050 and 123,156,254 on the preflop, flop, turn and river.
- ``per_street=True``: flop, turn and river are rounds of their own (the order the board
  came in matters). Turn 55,190,538, river 2,428,287,420; preflop and flop as above.

``holes=None`` indexes boards alone (1,755 flops, 16,432 turns, 134,459 rivers).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._native import ArgumentError, InvalidHandError, check_slices, ffi, lib, new_error
from ._out import check_out
from ._parallel import run_sliced, thread_count
from .cards import card_rows

_FLOP = lib.PP_BOARD_CARDS_MIN
STREETS = {"preflop": 0, "flop": _FLOP, "turn": _FLOP + 1, "river": lib.PP_BOARD_CARDS_MAX}


def _street_cards(street: str | int) -> int:
    if isinstance(street, str) and street in STREETS:
        return STREETS[street]
    if (
        isinstance(street, (int, np.integer))
        and not isinstance(street, bool)
        and street in (0, 3, 4, 5)
    ):
        return int(street)
    raise ArgumentError(
        f"street {street!r}: use preflop, flop, turn, river (or 0, 3, 4, 5 board cards)"
    )


def _layout(
    holes: np.ndarray | None, boards: np.ndarray | None, per_street: bool
) -> tuple[int, int, int]:
    hole = 0 if holes is None else holes.shape[1]
    board = 0 if boards is None else boards.shape[1]
    if hole not in (0, 2):
        raise InvalidHandError(f"holes of {hole} cards: a Hold'em hand has 2 hole cards")
    if board not in (0, 3, 4, 5):
        raise InvalidHandError(f"boards of {board} cards: a board has 0, 3, 4 or 5")
    if hole == 0 and board == 0:
        raise ArgumentError("nothing to index: give hole cards, a board, or both")
    return hole, board, int(bool(per_street))


def hand_index_size(
    street: str | int, *, per_street: bool = False, board_only: bool = False
) -> int:
    """How many canonical hands a street has: ``hand_index_size("river")`` → 123156254.
    ``board_only=True`` counts canonical boards (``"flop"`` → 1755)."""
    board = _street_cards(street)
    hole = 0 if board_only else 2
    if hole == 0 and board == 0:
        raise ArgumentError("a board-only index needs a flop, turn or river")
    return int(lib.pp_hand_index_size(hole, board, int(bool(per_street))))


def hand_index(
    holes: np.ndarray | str | Sequence[str] | None,
    boards: np.ndarray | str | Sequence[str] | None = None,
    *,
    per_street: bool = False,
    out: np.ndarray | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """The canonical index of each hand: holes ``(N, 2)`` and boards ``(N, 0|3|4|5)`` uint8
    card ids (or card text) → ``(N,)`` uint64, dense in ``0 .. hand_index_size(street)``.

    Hands that differ only by a relabelling of suits share an index. With ``per_street``
    the board's columns are the flop (0-2), the turn (3) and the river (4) in that order.
    A card that is not a card, or that appears twice in a row, raises naming the row.
    ``out``: a uint64 ``(N,)`` array to write into (as ``pp.rank``'s ``out``).
    """
    holes = None if holes is None else card_rows(holes, "holes")
    boards = None if boards is None else card_rows(boards, "boards")
    if holes is not None and boards is not None and holes.shape[0] != boards.shape[0]:
        raise ArgumentError(f"{holes.shape[0]} hole rows but {boards.shape[0]} board rows")
    hole, board, streets = _layout(holes, boards, per_street)
    n = (holes if holes is not None else boards).shape[0]
    out = check_out(out, (n,), np.uint64, (holes, boards), "cards it would index")
    if n == 0:
        return out
    holes_buffer = ffi.from_buffer("uint8_t[]", holes) if hole else ffi.NULL
    boards_buffer = ffi.from_buffer("uint8_t[]", boards) if board else ffi.NULL
    out_buffer = ffi.from_buffer("uint64_t[]", out, require_writable=True)

    def call(start: int, stop: int):
        err = new_error()
        status = lib.pp_hand_index(
            holes_buffer + start * hole if hole else ffi.NULL,
            hole,
            boards_buffer + start * board if board else ffi.NULL,
            board,
            streets,
            stop - start,
            out_buffer + start,
            err,
        )
        return status, err, start

    check_slices(run_sliced(n, thread_count(threads, n), call))
    return out


def hand_unindex(
    street: str | int,
    indices: np.ndarray | Sequence[int] | int,
    *,
    per_street: bool = False,
    board_only: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The canonical hand of each index → ``(holes (N, 2), boards (N, b))`` uint8, each
    round's cards in increasing order (holes ``(N, 0)`` with ``board_only``).
    ``hand_index(*hand_unindex(street, i)) == i`` for every valid index."""
    board = _street_cards(street)
    hole = 0 if board_only else 2
    streets = int(bool(per_street))
    size = int(lib.pp_hand_index_size(hole, board, streets))
    if size == 0:
        raise ArgumentError("a board-only index needs a flop, turn or river")
    values = np.ascontiguousarray(np.atleast_1d(np.asarray(indices)))
    if values.ndim != 1 or not (np.issubdtype(values.dtype, np.integer) or values.size == 0):
        raise ArgumentError(
            f"indices must be a 1-D array of integers, got {values.dtype} {values.shape}"
        )
    if values.size and (values.min() < 0 or values.max() >= size):
        row = int(np.flatnonzero((values < 0) | (values >= size))[0])
        raise ArgumentError(
            f"row {row}: index {int(values[row])} is outside 0..{size - 1} of the {street} layout"
        )
    values = values.astype(np.uint64, copy=False)
    n = values.size
    holes = np.empty((n, hole), dtype=np.uint8)
    boards = np.empty((n, board), dtype=np.uint8)
    if n == 0:
        return holes, boards
    values_in = ffi.from_buffer("uint64_t[]", values)
    holes_out = ffi.from_buffer("uint8_t[]", holes, require_writable=True) if hole else None
    boards_out = ffi.from_buffer("uint8_t[]", boards, require_writable=True) if board else None

    def call(start: int, stop: int):
        err = new_error()
        status = lib.pp_hand_unindex(
            hole, board, streets, values_in + start, stop - start,
            holes_out + start * hole if hole else ffi.NULL,
            boards_out + start * board if board else ffi.NULL,
            err,
        )  # fmt: skip
        return status, err, start

    check_slices(run_sliced(n, 1, call, item_ns=100))
    return holes, boards
