"""Hands as 16-byte accumulators: ``pp.accumulate``, ``pp.merge`` and ``pp.rank`` of them.

An accumulator is a hand as the sum of its cards (``zsrc/cards/encoding.zig``): ``key`` sums
each card's rank multiplier (a fingerprint of the values) and counts each suit in a 4-bit
field; ``mask`` is its card set. Two accumulators with no card in common merge into the hand of
both, so a board is tallied once and merged with each player's cards, and ranking a merged hand
is a flush test and a table lookup. Every call checks that a key is the one its cards make: an
accumulator edited by hand cannot pass for a hand it is not."""

from __future__ import annotations

import numpy as np

from ._native import (
    HAND_CARDS_MAX,
    ArgumentError,
    check_slices,
    ffi,
    lib,
    new_error,
    struct_dtype,
)
from ._parallel import run_sliced

ACCUMULATOR = struct_dtype("pp_accumulator")
"""The accumulator record: ``key`` then ``mask``, 16 bytes (``pp_accumulator`` in C)."""


def accumulate(hands: np.ndarray) -> np.ndarray:
    """The accumulators of hands of 0 to 7 cards: an ``(N, k)`` uint8 array of card ids or
    an ``(N,)`` uint64 array of card sets → ``(N,)`` array of ``pp.ACCUMULATOR``. Raises
    ``InvalidHandError`` naming the row and the card, as ``pp.rank`` does."""
    if not isinstance(hands, np.ndarray):
        raise ArgumentError(f"hands must be a numpy array; got {type(hands).__name__}")
    if hands.dtype == np.uint8 and hands.ndim == 2:
        n, k = hands.shape
        if k > HAND_CARDS_MAX:
            raise ArgumentError(f"hands of {k} cards: a hand has 0 to {HAND_CARDS_MAX} cards")
        cards = np.ascontiguousarray(hands)
        out = np.zeros(n, dtype=ACCUMULATOR)
        cards_in, out_p = _in(cards, "uint8_t[]"), _out(out)
        _sliced(n, lambda a, b, err: lib.pp_accumulate_cards(cards_in + a * k, b - a, k,
                                                             out_p + a, err))  # fmt: skip
        return out
    if hands.dtype == np.uint64 and hands.ndim == 1:
        sets = np.ascontiguousarray(hands)
        out = np.zeros(len(sets), dtype=ACCUMULATOR)
        sets_in, out_p = _in(sets, "uint64_t[]"), _out(out)
        _sliced(len(sets), lambda a, b, err: lib.pp_accumulate_sets(sets_in + a, b - a,
                                                                    out_p + a, err))  # fmt: skip
        return out
    raise ArgumentError(
        f"hands of dtype {hands.dtype} and shape {hands.shape}: pass uint8 card ids (N, k) "
        "or uint64 card sets (N,)"
    )


def merge(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a`` and ``b`` together, row by row: arrays of ``pp.ACCUMULATOR`` of equal length, or
    one of them a single accumulator (shape ``()`` or ``(1,)``, e.g. a board) merged with
    every row of the other. Raises ``InvalidHandError`` naming the row for a card in both
    (naming it), more than 7 cards in all, or a key its cards do not make."""
    a, b = _accumulators(a, "a"), _accumulators(b, "b")
    n = max(len(a), len(b))
    if len(a) not in (1, n) or len(b) not in (1, n):
        raise ArgumentError(
            f"merge takes arrays of one length (or one accumulator); got {len(a)} and {len(b)}"
        )
    a = np.ascontiguousarray(np.broadcast_to(a, (n,)))
    b = np.ascontiguousarray(np.broadcast_to(b, (n,)))
    out = np.zeros(n, dtype=ACCUMULATOR)
    a_in, b_in, out_p = _in(a, "pp_accumulator[]"), _in(b, "pp_accumulator[]"), _out(out)
    _sliced(n, lambda s, t, err: lib.pp_merge_accumulators(a_in + s, b_in + s, t - s,
                                                           out_p + s, err))  # fmt: skip
    return out


def _sliced(n: int, call) -> None:
    """``call(start, stop, err)`` over rows [0, n) in calls short enough for Ctrl-C; raises
    for the first failed row, numbered as the caller numbers it."""
    if n == 0:
        return

    def piece(start: int, stop: int):
        err = new_error()
        return call(start, stop, err), err, start

    check_slices(run_sliced(n, 1, piece, item_ns=10))


def _accumulators(value: np.ndarray, name: str) -> np.ndarray:
    if isinstance(value, np.void):  # one record, as indexing an array gives
        value = np.asarray(value)
    if not isinstance(value, np.ndarray) or value.dtype != ACCUMULATOR:
        raise ArgumentError(f"{name} must be an array of pp.ACCUMULATOR (see pp.accumulate)")
    if value.ndim > 1:
        raise ArgumentError(f"{name} must be 0- or 1-D; got shape {value.shape}")
    return value.reshape(-1)


def _in(array: np.ndarray, ctype: str):
    return ffi.from_buffer(ctype, array)


def _out(array: np.ndarray):
    return ffi.from_buffer("pp_accumulator[]", array, require_writable=True)
