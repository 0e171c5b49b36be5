"""Cards as text and as ids: ``parse_cards`` and ``format_cards``.

A card id is ``suit * 13 + value``: value 0 = deuce … 12 = ace, suit 0..3 = ♠ s, ♣ c, ♥ h,
♦ d. Text is a value (``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``) then a suit,
case-insensitive, optionally separated by spaces or commas: ``"AhKd 7c"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._native import (
    CARD_NAMES,
    ArgumentError,
    CardParseError,
    InvalidHandError,
    check_parse,
    ffi,
    lib,
    new_error,
)

# Card ids' dtype. NumPy's uint8 dtype is one object, so `array.dtype is CARD_IDS` tests
# it at no cost (the one-hand and small-batch paths do).
CARD_IDS = np.dtype(np.uint8)

_NAME_BYTES = np.array([name.encode() for name in CARD_NAMES], dtype="S2")


def _parse_texts(texts: Sequence[str], single: bool) -> tuple[np.ndarray, np.ndarray]:
    """Parses many strings at once in Zig: flat card ids and each string's card count."""
    encoded = []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise ArgumentError(f"row {i}: expected a string of cards, got {type(text).__name__}")
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
        raise ArgumentError(f"expected a string or a list of strings, got {type(text).__name__}")
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
        raise ArgumentError(f"card ids must be integers, got {array.dtype}")
    if array.size and (int(array.min()) < 0 or int(array.max()) >= lib.PP_CARDS):
        flat = array.reshape(-1)
        bad = flat[(flat < 0) | (flat >= lib.PP_CARDS)][0]
        raise ArgumentError(f"card id {int(bad)} is not a card (ids are 0..51)")
    if array.ndim == 1:
        return b"".join(_NAME_BYTES[array].tolist()).decode()
    if array.ndim != 2:
        raise ArgumentError(f"expected a 1-D hand or an (N, k) array of hands, got {array.ndim}-D")
    n, k = array.shape
    if k == 0:
        return [""] * n
    names = np.ascontiguousarray(_NAME_BYTES[array]).view(f"S{2 * k}").reshape(n)
    return [b.decode() for b in names.tolist()]


def card_rows(cards, name: str) -> np.ndarray:
    """Card rows as a C-contiguous ``(N, k)`` uint8 array, from: such an array (a 1-D one is
    one row); card text (one string → one row, a list of strings → N rows); or an Arrow
    column (pyarrow, Polars, anything with ``__arrow_c_array__``/``__arrow_c_stream__``) of
    ``fixed_size_list<uint8>[k]``, lists of k uint8 card ids, or strings of card text.
    Fixed-size lists without nulls are viewed, not copied."""
    if isinstance(cards, str) or (
        isinstance(cards, (list, tuple)) and all(isinstance(c, str) for c in cards)
    ):
        rows = parse_cards(cards)
        return np.ascontiguousarray(rows.reshape(1, -1) if rows.ndim == 1 else rows)
    if not isinstance(cards, np.ndarray) and (
        type(cards).__module__.split(".")[0] in ("pyarrow", "polars")
        or hasattr(cards, "__arrow_c_array__")
        or hasattr(cards, "__arrow_c_stream__")
    ):
        return _arrow_rows(cards, name)
    if not isinstance(cards, np.ndarray):
        raise ArgumentError(
            f"{name} must be a uint8 numpy array, card text or an Arrow column, "
            f"got {type(cards).__name__}"
        )
    if cards.dtype != np.uint8:
        raise ArgumentError(f"{name} must be uint8 card ids, got {cards.dtype}")
    if cards.ndim == 1:
        cards = cards.reshape(1, -1)
    if cards.ndim != 2:
        raise ArgumentError(f"{name} must be 2-D (rows, cards), got shape {cards.shape}")
    return np.ascontiguousarray(cards)


def _arrow_rows(column, name: str) -> np.ndarray:
    import pyarrow as pa

    if hasattr(column, "to_arrow") and not isinstance(column, (pa.Array, pa.ChunkedArray)):
        column = column.to_arrow()  # a Polars Series
    elif not isinstance(column, (pa.Array, pa.ChunkedArray)):
        column = (
            pa.chunked_array(column) if hasattr(column, "__arrow_c_stream__") else pa.array(column)
        )
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if array.null_count:
        row = int(np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False))[0])
        raise InvalidHandError(f"{name}: row {row} is null", row)
    t = array.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return card_rows(array.to_pylist(), name)
    if pa.types.is_fixed_size_list(t) or pa.types.is_list(t) or pa.types.is_large_list(t):
        if t.value_type != pa.uint8():
            raise ArgumentError(f"{name}: lists of {t.value_type}; card ids are uint8")
        lengths = array.value_lengths().to_numpy(zero_copy_only=False)
        if len(lengths) and (lengths != lengths[0]).any():
            row = int(np.flatnonzero(lengths != lengths[0])[0])
            raise InvalidHandError(
                f"{name}: row {row} has {lengths[row]} cards where row 0 has {lengths[0]}", row
            )
        k = int(lengths[0]) if len(lengths) else 0
        values = array.flatten().to_numpy(zero_copy_only=False)
        return np.ascontiguousarray(values.reshape(len(array), k))
    raise ArgumentError(
        f"{name}: an Arrow column of {t}; use fixed_size_list<uint8>, lists of uint8 or strings"
    )
