"""Enumerating card subsets and counting every hand: ``combinations``, ``iter_combinations``,
``category_counts``.

Subsets come out of Gosper's hack over the deck's slots, deposited onto the deck's cards with
PDEP (seed 001), as uint64 card sets. ``category_counts`` walks every hand by copy-and-extend
on all cores, never materialising them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from ._arguments import whole
from ._native import ArgumentError, check_call, ffi, lib
from ._parallel import PIECE_NS, run_sliced, workers
from .cardset import FULL_DECK, bits_of

# Above this many subsets, `combinations` refuses (8 bytes each) and points to the iterator.
COMBINATIONS_MAX = 1 << 28
COMBINATIONS_A_CALL = 1 << 23  # card sets written by one native call (~10 ms)


def _deck_and_count(k: int, exclude) -> tuple[int, int]:
    deck = FULL_DECK & ~bits_of(exclude)
    size = bin(deck).count("1")
    k = whole(f"k (cards a hand, from the {size} left in the deck)", k, 1, size)
    return deck, math.comb(size, k)


def iter_combinations(
    k: int, *, exclude=None, chunk: int = 1 << 20, reuse: bool = False
) -> Iterator[np.ndarray]:
    """Every k-card subset of the deck minus ``exclude``, as uint64 card-set arrays of up to
    ``chunk`` sets each, in Gosper order; memory stays at one chunk whatever the count.

    ``reuse=True`` refills one buffer for every chunk (no allocation per chunk): each array
    yielded is then overwritten by the next, so copy what you keep."""
    deck, _ = _deck_and_count(k, exclude)
    chunk = whole("chunk (card sets an array)", chunk, 1, COMBINATIONS_MAX)
    state = ffi.new("uint64_t*", 0)
    written = ffi.new("uint64_t*", 0)
    buffer = np.empty(chunk, dtype=np.uint64) if reuse else None
    while True:
        out = buffer if reuse else np.empty(chunk, dtype=np.uint64)
        status = lib.pp_combinations(
            deck, k, state, ffi.from_buffer("uint64_t[]", out, require_writable=True), chunk,
            written,
        )  # fmt: skip
        check_call(status)
        if written[0]:
            yield out[: written[0]]
        if written[0] < chunk:
            return


def combinations(k: int, *, exclude=None) -> np.ndarray:
    """All C(n, k) k-card subsets of the n cards outside ``exclude``: a uint64 array of card
    sets, each subset exactly once. For counts above 2**28 use ``iter_combinations``."""
    deck, count = _deck_and_count(k, exclude)
    if count > COMBINATIONS_MAX:
        raise ArgumentError(
            f"{count:,} subsets would take {count * 8 / 2**30:.1f} GiB: "
            "use pp.iter_combinations(k, chunk=…) to stream them"
        )
    out = np.empty(count, dtype=np.uint64)
    state = ffi.new("uint64_t*", 0)
    written = ffi.new("uint64_t*", 0)
    buffer = ffi.from_buffer("uint64_t[]", out, require_writable=True)
    done = 0
    while done < count:  # in calls of bounded length, so Ctrl-C is seen between them
        piece = min(count - done, COMBINATIONS_A_CALL)
        check_call(lib.pp_combinations(deck, k, state, buffer + done, piece, written))
        assert written[0] == piece
        done += piece
    return out


def category_counts(k: int, *, exclude=None, threads: int | None = None) -> np.ndarray:
    """Category histogram of every k-card hand (k = 1..7) from the deck minus ``exclude``:
    an int64 array of 10 (index = category, 0 unused). All C(52, 7) = 133,784,560 seven-card
    hands in well under a second on two cores."""
    k = whole("k (cards a hand)", k, 1, lib.PP_HAND_CARDS_MAX)
    deck, _ = _deck_and_count(k, exclude)
    # One call a first card (slot s of the deck): the heaviest, slot 0 of seven cards, counts
    # C(51, 6) = 18M hands, short enough for Ctrl-C; threads take the next slot when free.
    slots = lib.PP_CARDS

    def call(first: int, stop: int):
        counts = np.zeros(16, dtype=np.uint64)
        buffer = ffi.from_buffer("uint64_t[]", counts, require_writable=True)
        for slot in range(first, stop):
            check_call(lib.pp_category_counts(deck, k, slot, slots, buffer))
        return counts

    total = sum(run_sliced(slots, workers(threads), call, item_ns=PIECE_NS))
    return total[:10].astype(np.int64)
