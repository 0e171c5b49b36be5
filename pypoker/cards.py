"""Cards as text and as ids: ``parse_cards`` and ``format_cards``.

A card id is ``suit * 13 + value``: value 0 = deuce … 12 = ace, suit 0..3 = ♠ s, ♣ c, ♥ h,
♦ d. Text is a value (``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``) then a suit,
case-insensitive, optionally separated by spaces or commas: ``"AhKd 7c"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._names import CARD_NAMES
from ._native import CardParseError, check_parse, ffi, lib, new_error

_NAME_BYTES = np.array([name.encode() for name in CARD_NAMES], dtype="S2")


def _parse_texts(texts: Sequence[str], single: bool) -> tuple[np.ndarray, np.ndarray]:
    """Parses many strings at once in Zig: flat card ids and each string's card count."""
    encoded = []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"row {i}: expected a string of cards, got {type(text).__name__}")
        encoded.append(text.encode("utf-8"))
    n = len(encoded)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    blob = b"".join(encoded)
    capacity = len(blob) // 2 + 1  # every card takes at least two bytes
    ids = np.empty(capacity, dtype=np.uint8)
    counts = np.empty(n, dtype=np.uint32)
    err = new_error()
    status = lib.pp_parse_cards(
        ffi.from_buffer("uint8_t[]", blob),
        ffi.from_buffer("int64_t[]", offsets),
        n,
        ffi.from_buffer("uint8_t[]", ids, require_writable=True),
        capacity,
        ffi.from_buffer("uint32_t[]", counts, require_writable=True),
        err,
    )
    check_parse(status, err, encoded, single)
    return ids[: int(counts.sum())], counts


def parse_cards(text: str | Sequence[str]) -> np.ndarray:
    """Card text → card ids.

    ``parse_cards("AhKd 7c")`` → ``array([38, 50, 18], dtype=uint8)``; a list of strings with
    the same number of cards each → an ``(N, k)`` uint8 array. Raises ``CardParseError``
    naming the string and the position of a bad token or a repeated card.
    """
    if isinstance(text, str):
        ids, _ = _parse_texts([text], single=True)
        return ids
    if isinstance(text, np.ndarray):
        text = text.tolist()
    if not isinstance(text, Sequence):
        raise TypeError(f"expected a string or a list of strings, got {type(text).__name__}")
    ids, counts = _parse_texts(text, single=False)
    if len(counts) == 0:
        return np.empty((0, 0), dtype=np.uint8)
    k = int(counts[0])
    if not np.all(counts == k):
        row = int(np.flatnonzero(counts != k)[0])
        raise CardParseError(
            f"row {row}: {int(counts[row])} cards where row 0 has {k}; parse_cards needs "
            "the same number of cards in every string (pp.rank takes ragged lists)",
            row,
        )
    return ids.reshape(len(counts), k)


def parse_ragged(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Like ``parse_cards`` on a list, for strings of any card counts: flat ids and counts."""
    return _parse_texts(texts, single=False)


def format_cards(cards: np.ndarray | Sequence[int]) -> str | list[str]:
    """Card ids → text: a 1-D array → ``"AhKd7c"``; an ``(N, k)`` array → a list of strings."""
    array = np.asarray(cards)
    if array.dtype.kind not in "iu":
        raise TypeError(f"card ids must be integers, got {array.dtype}")
    if array.size and (int(array.min()) < 0 or int(array.max()) >= 52):
        bad = array.reshape(-1)[(array.reshape(-1) < 0) | (array.reshape(-1) >= 52)][0]
        raise ValueError(f"card id {int(bad)} is not a card (ids are 0..51)")
    if array.ndim == 1:
        return b"".join(_NAME_BYTES[array].tolist()).decode()
    if array.ndim != 2:
        raise ValueError(f"expected a 1-D hand or an (N, k) array of hands, got {array.ndim}-D")
    n, k = array.shape
    if k == 0:
        return [""] * n
    names = np.ascontiguousarray(_NAME_BYTES[array]).view(f"S{2 * k}").reshape(n)
    return [b.decode() for b in names.tolist()]
