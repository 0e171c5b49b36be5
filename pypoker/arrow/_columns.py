"""Arrow arrays, one layout at a time, into ranks: the layouts ranked in place, the column
kernels (a rank and a status byte per row), nulls, and the strict API's words for a bad row."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import _native
from .._games import holdem_only
from .._native import HAND_CARDS_MAX, ArgumentError, InvalidHandError, PokerError, ffi
from .._parallel import run_sliced, thread_count
from ..ranking import rank_card_rows, rank_set_rows

ERRORS = ("raise", "null")

# The library, looked up at call time (tests wrap it to see which pointers reach it).
_lib = _native.lib


def is_polars(obj) -> bool:
    return type(obj).__module__.split(".")[0] == "polars"


def to_arrow_column(column) -> pa.Array | pa.ChunkedArray:
    if isinstance(column, (pa.Array, pa.ChunkedArray)):
        return column
    if hasattr(column, "__arrow_c_array__"):
        return pa.array(column)
    if hasattr(column, "__arrow_c_stream__"):
        return pa.chunked_array(column)
    raise ArgumentError(
        "expected an Arrow column: a pyarrow Array or ChunkedArray, or an object with "
        f"__arrow_c_array__ / __arrow_c_stream__ (Polars, DuckDB, nanoarrow); got "
        f"{type(column).__name__}"
    )


def check_errors(errors: str) -> None:
    if errors not in ERRORS:
        raise ArgumentError(f"errors must be 'raise' or 'null', got {errors!r}")


def _address(buffer: pa.Buffer | None, byte_offset: int = 0):
    """A cffi pointer to a buffer's bytes (the buffer itself, never a copy)."""
    if buffer is None:
        return ffi.NULL
    return ffi.cast("uint8_t *", buffer.address + byte_offset)


def _normalise(array: pa.Array) -> pa.Array:
    """Layouts ranked in place pass through; string_view and dictionaries are decoded."""
    t = array.type
    if pa.types.is_dictionary(t):
        array = array.dictionary_decode()
        t = array.type
    if pa.types.is_string_view(t) or pa.types.is_binary_view(t):
        return pc.cast(array, pa.large_string())
    return array


def _run_rows(n: int, threads: int | None, call):
    """Ranks rows [0, n) in slices on threads; ``call(start, stop, err)`` handles one slice.
    The first slice's failure that names a row (status, record, first row), or None."""

    def sliced(start, stop):
        err = _native.new_error()
        return call(start, stop, err), err, start

    for status, err, start in run_sliced(n, thread_count(threads, n), sliced):
        if status in _native.FAILURES:
            return status, err, start
        _native.check_call(status)
    return None


def _rank_status(array: pa.Array, threads: int | None):
    """Ranks and a status byte (0 good, 1 bad) for every row of one Arrow array, and the
    first bad row that is not null as the library names it (status, record, slice start) or
    None."""
    n = len(array)
    t = array.type
    out = np.zeros(n, dtype=np.uint16)
    status = np.zeros(n, dtype=np.uint8)
    if n == 0:
        return out, status, None
    out_p = ffi.from_buffer("uint16_t[]", out, require_writable=True)
    status_p = ffi.from_buffer("uint8_t[]", status, require_writable=True)
    buffers = array.buffers()
    valid = _address(buffers[0])  # Arrow's validity bitmap, or NULL when no row is null

    if pa.types.is_fixed_size_list(t) and t.value_type == pa.uint8():
        k = t.list_size
        if k > HAND_CARDS_MAX:
            raise InvalidHandError(f"hands of {k} cards: a hand has 0 to {HAND_CARDS_MAX} cards")
        child = array.values
        cards = _address(buffers[2], child.offset + array.offset * k)

        def call(start, stop, err):
            return _lib.pp_rank_cards_status(
                cards + start * k, stop - start, k, out_p + start, status_p + start,
                valid, array.offset + start, err,
            )  # fmt: skip

    elif (pa.types.is_list(t) or pa.types.is_large_list(t)) and t.value_type == pa.uint8():
        width = 4 if pa.types.is_list(t) else 8
        child = array.values
        values = _address(child.buffers()[1], child.offset)
        call = _offsets_call(_lib.pp_rank_lists_status, values, width, out_p, status_p, array)

    elif t == pa.uint64():
        sets = ffi.cast("uint64_t *", buffers[1].address + array.offset * 8)

        def call(start, stop, err):
            return _lib.pp_rank_sets_status(
                sets + start, stop - start, out_p + start, status_p + start,
                valid, array.offset + start, err,
            )  # fmt: skip

    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        width = 4 if pa.types.is_string(t) else 8
        text = _address(buffers[2])
        # Rows of 14 bytes (seven compact cards) take a fixed-width road inside the kernel.
        call = _offsets_call(_lib.pp_rank_strings_status, text, width, out_p, status_p, array)

    else:
        raise ArgumentError(
            f"cannot rank a column of {t}: use fixed_size_list<uint8>[k], list<uint8>, "
            "large_list<uint8>, uint64 card sets, or strings of card text"
        )
    failure = _run_rows(n, threads, call)
    if (pa.types.is_fixed_size_list(t) or pa.types.is_list(t) or pa.types.is_large_list(t)) and (
        array.values.null_count
    ):
        status |= _rows_with_null_cards(array)
    return out, status, failure


def _offsets_call(kernel, data, width: int, out_p, status_p, array: pa.Array):
    """A slice call for a kernel over Arrow offsets (lists and strings alike)."""
    buffers = array.buffers()
    valid, offsets = _address(buffers[0]), _address(buffers[1], array.offset * width)

    def call(start: int, stop: int, err):
        return kernel(
            data, offsets + start * width, width, stop - start, out_p + start, status_p + start,
            valid, array.offset + start, err,
        )  # fmt: skip

    return call


def _rows_with_null_cards(array: pa.Array) -> np.ndarray:
    """Rows holding a null card id (whose byte is undefined): bad rows. Read from the
    offsets themselves, so a null row that still spans values keeps rows and values in step
    (its own mark does not matter: the row is null)."""
    if pa.types.is_fixed_size_list(array.type):
        size = array.type.list_size
        starts = (np.arange(len(array) + 1) + array.offset) * size
    else:
        starts = array.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    lengths = np.diff(starts)
    values = array.values.slice(int(starts[0]), int(starts[-1] - starts[0]))
    null_values = pc.is_null(values).to_numpy(zero_copy_only=False)
    row_of_value = np.repeat(np.arange(len(array)), lengths)
    bad = np.zeros(len(array), dtype=np.uint8)
    bad[row_of_value[null_values]] = 1
    return bad


def _holds_ids(array: pa.Array) -> bool:
    t = array.type
    return pa.types.is_fixed_size_list(t) or pa.types.is_list(t) or pa.types.is_large_list(t)


def _is_text(array: pa.Array) -> bool:
    return pa.types.is_string(array.type) or pa.types.is_large_string(array.type)


def _raise_bad_row(array: pa.Array, status: np.ndarray, failure, first_row: int):
    """Raises for the first bad row that is not null: a row holding a null card id (found
    here), or the one the library named (``failure``: its status, record and slice start),
    in the library's words; the row numbered as the caller counts it."""
    bad = status.view(np.bool_)
    if array.null_count:
        bad = bad & array.is_valid().to_numpy(zero_copy_only=False)
    row = int(np.flatnonzero(bad)[0])
    named = None if failure is None else failure[2] + int(failure[1].row)
    if row != named or (_holds_ids(array) and None in array[row].as_py()):
        row += first_row
        raise InvalidHandError(f"row {row}: a card id is null", row)
    code, err, start = failure
    rows = "text" if _is_text(array) else "hands"
    try:
        _native.raise_failure(
            code, err, rows, row_offset=start, text_of=lambda r: array[r].as_py().encode()
        )
    except PokerError as error:
        raise error.renumbered(first_row + error.row) from None


def _rank_strict(array: pa.Array, threads: int | None, first_row: int) -> pa.Array | None:
    """Without nulls, with errors="raise", card ids and card sets take the NumPy path itself:
    the same kernels, on the Arrow buffer viewed in place. None for any other column."""
    if array.null_count:
        return None
    t = array.type
    buffers = array.buffers()
    n = len(array)
    if (
        pa.types.is_fixed_size_list(t)
        and t.value_type == pa.uint8()
        and t.list_size <= HAND_CARDS_MAX
    ):
        if array.values.null_count:
            return None
        k = t.list_size
        start = array.values.offset + array.offset * k
        cards = np.frombuffer(buffers[2], dtype=np.uint8, count=n * k, offset=start)
        rank_rows, hands = rank_card_rows, cards.reshape(n, k)
    elif t == pa.uint64():
        hands = np.frombuffer(buffers[1], dtype=np.uint64, count=n, offset=array.offset * 8)
        rank_rows = rank_set_rows
    else:
        return None
    try:
        out = rank_rows(hands, None, threads)
    except PokerError as error:
        # The caller's row number (this chunk may start anywhere).
        raise error.renumbered(first_row + error.row) from None
    return pa.Array.from_buffers(pa.uint16(), n, [None, pa.py_buffer(out)])


def _rank_one(
    array: pa.Array, errors: str, threads: int | None, first_row: int
) -> tuple[pa.Array, int]:
    """One Arrow array → (uint16 ranks, rows turned null)."""
    array = _normalise(array)
    if errors == "raise":
        strict = _rank_strict(array, threads, first_row)
        if strict is not None:
            return strict, 0
    n = len(array)
    out, status, failure = _rank_status(array, threads)
    bad = status.view(np.bool_)
    valid = None
    if array.null_count:
        valid = array.is_valid().to_numpy(zero_copy_only=False)
        bad &= valid
    invalid = int(np.count_nonzero(bad))
    if invalid and errors == "raise":
        _raise_bad_row(array, status, failure, first_row)
    if invalid:
        valid = ~bad if valid is None else valid & ~bad
    if valid is None:
        return pa.Array.from_buffers(pa.uint16(), n, [None, pa.py_buffer(out)]), 0
    out[~valid] = 0
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = n - int(np.count_nonzero(valid))
    return pa.Array.from_buffers(pa.uint16(), n, [bitmap, pa.py_buffer(out)], nulls), invalid


def rank_column(
    column: pa.Array | pa.ChunkedArray, errors: str, threads: int | None, first_row: int = 0
) -> tuple[pa.Array | pa.ChunkedArray, int]:
    if isinstance(column, pa.ChunkedArray):
        chunks, invalid, row = [], 0, first_row
        for chunk in column.chunks:
            ranks, bad = _rank_one(chunk, errors, threads, row)
            chunks.append(ranks)
            invalid += bad
            row += len(chunk)
        return pa.chunked_array(chunks, type=pa.uint16()), invalid
    return _rank_one(column, errors, threads, first_row)


def rank(column, *, errors: str = "raise", threads: int | None = None, game: str = "holdem"):
    """Ranks a column of hands: → ``pyarrow.UInt16Array`` (ChunkedArray in → ChunkedArray
    out; a Polars Series in → a Polars Series out). Null inputs emit null."""
    holdem_only(game, "pp.arrow.rank")
    check_errors(errors)
    ranks, _ = rank_column(to_arrow_column(column), errors, threads)
    if is_polars(column):
        import polars

        return polars.Series(getattr(column, "name", "rank"), ranks)
    return ranks
