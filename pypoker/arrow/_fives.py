"""``pp.arrow.best_five``: a column of hands in, a ``fixed_size_list<uint8>[5]`` column of
the five cards making each hand out (pypoker/five_cards.py), nulls kept as nulls."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .._native import ArgumentError, PokerError
from ..five_cards import FIVE, best_five_ragged, ids_of_sets
from ._columns import is_polars, to_arrow_column

FIVES = pa.list_(pa.uint8(), FIVE)


def best_five(column, *, threads: int | None = None):
    """The best five of each hand of a column (``fixed_size_list<uint8>[k]``, ``list`` /
    ``large_list<uint8>`` of 5 to 7 card ids, ``uint64`` card sets or card text) →
    ``fixed_size_list<uint8>[5]``, ordered as ``pp.best_five`` orders. ChunkedArray in →
    ChunkedArray out; a Polars Series in → a Polars Series out. Null inputs emit null; a bad
    row raises naming it."""
    arrow = to_arrow_column(column)
    if isinstance(arrow, pa.ChunkedArray):
        chunks, row = [], 0
        for chunk in arrow.chunks:
            chunks.append(_fives_of_chunk(chunk, threads, row))
            row += len(chunk)
        fives = pa.chunked_array(chunks, type=FIVES)
    else:
        fives = _fives_of_chunk(arrow, threads, 0)
    if is_polars(column):
        import polars

        return polars.Series(getattr(column, "name", "best_five"), fives)
    return fives


def _fives_of_chunk(array: pa.Array, threads: int | None, first_row: int) -> pa.Array:
    if pa.types.is_dictionary(array.type) or pa.types.is_string_view(array.type):
        array = array.cast(pa.large_string())
    valid = np.ones(len(array), dtype=bool)
    if array.null_count:
        valid = array.is_valid().to_numpy(zero_copy_only=False)
        array = array.filter(pa.array(valid))
    rows = np.flatnonzero(valid)
    try:
        values = _fives_of_rows(array, threads)
    except PokerError as error:
        if error.row is None:
            raise
        raise error.renumbered(first_row + int(rows[error.row])) from None
    if len(rows) == len(valid):  # no nulls: the fives are the column, with no copy
        return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), FIVE)
    out = np.zeros((len(valid), FIVE), dtype=np.uint8)
    out[rows] = values
    mask = pa.array(~valid)
    return pa.FixedSizeListArray.from_arrays(pa.array(out.reshape(-1)), FIVE, mask=mask)


def _fives_of_rows(array: pa.Array, threads: int | None) -> np.ndarray:
    """The five of each row of a chunk with no nulls."""
    t = array.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return best_five_ragged(*_text_cards(array.to_pylist()), threads)
    if pa.types.is_uint64(t):
        return best_five_ragged(*ids_of_sets(array.to_numpy(zero_copy_only=False)), threads)
    if pa.types.is_fixed_size_list(t) or pa.types.is_list(t) or pa.types.is_large_list(t):
        if t.value_type != pa.uint8():
            raise ArgumentError(f"lists of {t.value_type}; card ids are uint8")
        counts = array.value_lengths().to_numpy(zero_copy_only=False).astype(np.int64)
        ids = array.flatten().to_numpy(zero_copy_only=False)
        return best_five_ragged(ids, counts, threads)
    raise ArgumentError(f"a column of {t}: best_five takes lists of card ids, sets or text")


def _text_cards(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    from ..cards import parse_ragged

    return parse_ragged(texts)
