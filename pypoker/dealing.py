"""Dealing random hands: ``deal``.

Each row is dealt from the deck minus ``exclude`` with one random draw per card (the n-th
card still in the deck, found by BMI2 PDEP where the CPU has it). The stream is
counter-based: row ``i`` depends only on ``(seed, i)``, so any batch size, start row or
thread count yields the same cards, and ``deal(n, k, seed=s, start=m)`` is rows ``m..m+n``
of the same stream.
"""

from __future__ import annotations

import numpy as np

from ._arguments import whole
from ._games import game_of
from ._native import ArgumentError, check_call, ffi, lib
from ._out import check_out
from ._parallel import run_sliced, thread_count
from .cardset import bits_of

_SEED_MAX = (1 << 64) - 1


def card_set(cards) -> int:
    """Cards in any accepted form (text, ids, a uint64 set, a CardSet) → a card-set int."""
    return bits_of(cards)


def deal(
    n: int,
    k: int,
    *,
    seed: int,
    exclude=None,
    start: int = 0,
    threads: int | None = None,
    out: np.ndarray | None = None,
    game: str = "holdem",
) -> np.ndarray:
    """Deals ``n`` rows of ``k`` distinct cards each, none of them in ``exclude``.

    Returns an ``(n, k)`` uint8 array of card ids, ``out`` if given (uint8, ``(n, k)``,
    C-contiguous, writable: one buffer reused over many deals). ``exclude`` takes text
    (``"AhKd"``), ids or a uint64 card set. Reproducible from ``seed`` whatever ``threads``
    is. ``game="shortdeck"`` (or ``"shortdeck-straights"``) deals from the 36-card deck,
    sixes to aces: the same rows as ``exclude`` holding every deuce to five.
    """
    missing = game_of(game).missing if game != "holdem" else 0
    n = whole("n", n, 0)
    seed = whole("seed", seed, 0, _SEED_MAX)
    start = whole("start", start, 0, _SEED_MAX)
    if start + n > _SEED_MAX + 1:  # rows are numbered by u64: never wrap round
        raise ArgumentError(f"start + n must be at most 2**64 (rows are numbered 0..2**64-1), "
                         f"got start={start!r}, n={n!r}")  # fmt: skip
    dead = card_set(exclude) | missing
    deck_size = 52 - bin(dead).count("1")
    k = whole(f"k (cards a row, from the {deck_size} left in the deck)", k, 1, deck_size)
    out = check_out(out, (n, k), np.uint8)
    if n == 0:
        return out
    buffer = ffi.from_buffer("uint8_t[]", out, require_writable=True)

    def call(first: int, stop: int):
        return lib.pp_deal(seed, start + first, stop - first, k, dead, buffer + first * k)

    for status in run_sliced(n, thread_count(threads, n), call, item_ns=k):
        if status != lib.PP_OK:
            out[...] = 0  # no half-dealt rows left in a given out: 0 rows never pass as deals
            check_call(status)
    return out
