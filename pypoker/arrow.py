"""Arrow columns, tables, streams and files, ranked in place: ``pp.arrow``.

A column of hands in, a column of ranks out, whatever produced it. Accepted columns:

- ``fixed_size_list<uint8>[k]`` (k = 1..7) and ``list`` / ``large_list<uint8>`` of card ids;
- ``uint64`` card sets (bit n = card n);
- ``string`` / ``large_string`` of card text (``"AhKd7c…"``, spaces optional); also
  ``string_view`` and dictionary-encoded strings, which are converted first (a copy).

Anything that exports the Arrow PyCapsule interface (``__arrow_c_array__`` or
``__arrow_c_stream__``: Polars, DuckDB, nanoarrow, …) is accepted too; Polars in gives
Polars out. The card buffers are read where they lie — never copied where Arrow's layout
allows — with offsets and slices honoured. Nulls in give nulls out; a ChunkedArray in gives a
ChunkedArray out. A bad row (a card that is not a card, a card twice, not 1..7 cards,
unreadable text) raises ``InvalidHandError``/``CardParseError`` naming the row, or with
``errors="null"`` becomes a null.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _native
from ._atomic import atomic_target
from ._native import InvalidHandError, PokerError, ffi
from ._parallel import run_sliced, thread_count
from .ranking import CATEGORY_SHIFT, category, describe

ERRORS = ("raise", "null")

# The library, looked up at call time (tests wrap it to see which pointers reach it).
_lib = _native.lib


class RankResult:
    """What ``rank_file`` did: rows ranked, rows turned null, seconds taken."""

    def __init__(self, rows: int, invalid: int, seconds: float):
        self.rows, self.invalid, self.seconds = rows, invalid, seconds

    def __repr__(self) -> str:
        return f"RankResult(rows={self.rows}, invalid={self.invalid}, seconds={self.seconds:.3f})"


def _is_polars(obj) -> bool:
    return type(obj).__module__.split(".")[0] == "polars"


def _to_arrow_column(column) -> pa.Array | pa.ChunkedArray:
    if isinstance(column, (pa.Array, pa.ChunkedArray)):
        return column
    if hasattr(column, "__arrow_c_array__"):
        return pa.array(column)
    if hasattr(column, "__arrow_c_stream__"):
        return pa.chunked_array(column)
    raise TypeError(
        "expected an Arrow column: a pyarrow Array or ChunkedArray, or an object with "
        f"__arrow_c_array__ / __arrow_c_stream__ (Polars, DuckDB, nanoarrow); got "
        f"{type(column).__name__}"
    )


def _check_errors(errors: str) -> None:
    if errors not in ERRORS:
        raise ValueError(f"errors must be 'raise' or 'null', got {errors!r}")


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


def _run_rows(n: int, threads: int | None, call) -> None:
    """Ranks rows [0, n) in slices on threads; `call(start, stop)` handles one slice."""
    for status in run_sliced(n, thread_count(threads, n), call):
        _native.check_call(status)


def _rank_status(array: pa.Array, threads: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Ranks and a status byte (0 good, 1 bad) for every row of one Arrow array."""
    n = len(array)
    t = array.type
    out = np.zeros(n, dtype=np.uint16)
    status = np.zeros(n, dtype=np.uint8)
    if n == 0:
        return out, status
    out_p = ffi.from_buffer("uint16_t[]", out, require_writable=True)
    status_p = ffi.from_buffer("uint8_t[]", status, require_writable=True)
    buffers = array.buffers()

    if pa.types.is_fixed_size_list(t) and t.value_type == pa.uint8():
        k = t.list_size
        if not 1 <= k <= 7:
            raise InvalidHandError(f"hands of {k} cards: a hand has 1 to 7 cards")
        child = array.values
        cards = _address(buffers[2], child.offset + array.offset * k)

        def call(start, stop):
            return _lib.pp_rank_cards_status(
                cards + start * k, stop - start, k, out_p + start, status_p + start
            )

    elif (pa.types.is_list(t) or pa.types.is_large_list(t)) and t.value_type == pa.uint8():
        width = 4 if pa.types.is_list(t) else 8
        child = array.values
        values = _address(child.buffers()[1], child.offset)
        offsets = _address(buffers[1], array.offset * width)
        call = _offsets_call(_lib.pp_rank_lists_status, values, offsets, width, out_p, status_p)

    elif t == pa.uint64():
        sets = ffi.cast("uint64_t *", buffers[1].address + array.offset * 8)

        def call(start, stop):
            return _lib.pp_rank_sets_status(
                sets + start, stop - start, out_p + start, status_p + start
            )

    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        width = 4 if pa.types.is_string(t) else 8
        text = _address(buffers[2])
        offsets = _address(buffers[1], array.offset * width)
        # Rows of 14 bytes (seven compact cards) take a fixed-width road inside the kernel.
        call = _offsets_call(_lib.pp_rank_strings_status, text, offsets, width, out_p, status_p)

    else:
        raise TypeError(
            f"cannot rank a column of {t}: use fixed_size_list<uint8>[k], list<uint8>, "
            "large_list<uint8>, uint64 card sets, or strings of card text"
        )
    _run_rows(n, threads, call)
    if (pa.types.is_fixed_size_list(t) or pa.types.is_list(t) or pa.types.is_large_list(t)) and (
        array.values.null_count
    ):
        status |= _rows_with_null_cards(array)
    return out, status


def _offsets_call(kernel, data, offsets, width, out_p, status_p):
    """A slice call for a kernel over Arrow offsets (lists and strings alike)."""

    def call(start: int, stop: int):
        return kernel(
            data, offsets + start * width, width, stop - start, out_p + start, status_p + start
        )

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


def _explain(array: pa.Array, row: int, global_row: int) -> PokerError:
    """The strict API's own words for one bad row, with the row numbered as the caller's."""
    from .ranking import rank

    value = array[row].as_py()
    try:
        if isinstance(value, str):
            rank(value)
        elif isinstance(value, int):
            rank(np.array([value], dtype=np.uint64))
        elif value is not None and None in value:
            return InvalidHandError(f"row {global_row}: a card id is null", global_row)
        else:
            ids = np.asarray(value, dtype=np.int64)
            if ids.size and (ids.min() < 0 or ids.max() > 255):
                bad = int(ids[(ids < 0) | (ids > 255)][0])
                return InvalidHandError(f"row {global_row}: card id {bad} is not a card")
            rank(ids.astype(np.uint8)[None, :] if 1 <= ids.size <= 7 else ids.astype(np.uint8))
    except PokerError as error:
        message = str(error)
        message = message.removeprefix("row 0: ")
        return type(error)(f"row {global_row}: {message}", global_row, error.card)
    return InvalidHandError(f"row {global_row}: not a hand of 1 to 7 distinct cards", global_row)


def _rank_strict(array: pa.Array, threads: int | None, first_row: int) -> pa.Array | None:
    """Without nulls, with errors="raise", card ids and card sets take the NumPy path itself:
    the same kernels, on the Arrow buffer viewed in place. None for any other column."""
    from .ranking import _rank_card_rows, _rank_set_rows

    if array.null_count:
        return None
    t = array.type
    buffers = array.buffers()
    n = len(array)
    if pa.types.is_fixed_size_list(t) and t.value_type == pa.uint8() and 1 <= t.list_size <= 7:
        if array.values.null_count:
            return None
        k = t.list_size
        start = array.values.offset + array.offset * k
        cards = np.frombuffer(buffers[2], dtype=np.uint8, count=n * k, offset=start)
        rank_rows, hands = _rank_card_rows, cards.reshape(n, k)
    elif t == pa.uint64():
        hands = np.frombuffer(buffers[1], dtype=np.uint64, count=n, offset=array.offset * 8)
        rank_rows = _rank_set_rows
    else:
        return None
    try:
        out = rank_rows(hands, None, threads)
    except PokerError as error:
        # Re-word with the caller's row number (this chunk may start anywhere).
        raise _explain(array, error.row, first_row + error.row) from None
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
    out, status = _rank_status(array, threads)
    bad = status.view(np.bool_)
    valid = None
    if array.null_count:
        valid = array.is_valid().to_numpy(zero_copy_only=False)
        bad &= valid
    invalid = int(np.count_nonzero(bad))
    if invalid and errors == "raise":
        row = int(np.flatnonzero(bad)[0])
        raise _explain(array, row, first_row + row)
    if invalid:
        valid = ~bad if valid is None else valid & ~bad
    if valid is None:
        return pa.Array.from_buffers(pa.uint16(), n, [None, pa.py_buffer(out)]), 0
    out[~valid] = 0
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = n - int(np.count_nonzero(valid))
    return pa.Array.from_buffers(pa.uint16(), n, [bitmap, pa.py_buffer(out)], nulls), invalid


def _rank_column(
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


def rank(column, *, errors: str = "raise", threads: int | None = None):
    """Ranks a column of hands: → ``pyarrow.UInt16Array`` (ChunkedArray in → ChunkedArray
    out; a Polars Series in → a Polars Series out). Null inputs emit null."""
    _check_errors(errors)
    ranks, _ = _rank_column(_to_arrow_column(column), errors, threads)
    if _is_polars(column):
        import polars

        return polars.Series(getattr(column, "name", "rank"), ranks)
    return ranks


def _added_columns(
    ranks: pa.Array | pa.ChunkedArray, into: str, category: str | None, words: str | None
) -> list[tuple[str, pa.Array | pa.ChunkedArray]]:
    columns = [(into, ranks)]
    if category:
        columns.append((category, pc.cast(pc.shift_right(ranks, 12), pa.uint8())))
    if words:
        columns.append((words, _describe_column(ranks)))
    return columns


def _describe_column(ranks: pa.Array | pa.ChunkedArray):
    """Descriptions as a dictionary-encoded string column: one string per distinct rank."""
    if isinstance(ranks, pa.ChunkedArray):
        return pa.chunked_array([_describe_column(c) for c in ranks.chunks])
    valid = ranks.is_valid().to_numpy(zero_copy_only=False)
    values = ranks.to_numpy(zero_copy_only=False)
    unique, codes = np.unique(np.where(valid, values, 0), return_inverse=True)
    held = set(np.unique(values[valid]).tolist())  # a rank of 0 that is there is refused
    words = [describe(int(r)) if r in held else None for r in unique.tolist()]
    indices = pa.array(codes.astype(np.int32), mask=~valid)
    return pa.DictionaryArray.from_arrays(indices, pa.array(words, pa.string()))


def _category_column(ranks: pa.Array | pa.ChunkedArray):
    """Categories of a rank column, refusing what is not a rank as ``pp.category`` does."""
    valid = pc.drop_null(ranks).to_numpy(zero_copy_only=False)
    category(valid.astype(np.uint16))  # raises for a value no hand ranks
    return pc.cast(pc.shift_right(ranks, CATEGORY_SHIFT), pa.uint8())


def _with_columns(table, added):
    for name, values in added:
        if name in table.column_names:
            raise ValueError(f"the table already has a column {name!r}: pick another `into`")
        table = table.append_column(name, values)
    return table


def rank_table(
    table,
    column: str,
    *,
    into: str = "rank",
    category: str | bool | None = None,
    describe: str | bool | None = None,
    errors: str = "raise",
    threads: int | None = None,
):
    """Adds a ``rank`` column (and optionally ``category`` and ``describe`` columns) ranking
    ``table[column]``. A Table or RecordBatch gives the same back; a RecordBatchReader gives a
    RecordBatchReader that ranks batch by batch; a Polars DataFrame gives a Polars DataFrame.
    """
    _check_errors(errors)
    category_name = "category" if category is True else (category or None)
    words_name = "describe" if describe is True else (describe or None)
    if isinstance(table, pa.RecordBatchReader):
        return _rank_reader(table, column, into, category_name, words_name, errors, threads)
    polars_in = _is_polars(table)
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        if hasattr(table, "__arrow_c_stream__"):
            table = pa.table(table)
        else:
            raise TypeError(f"expected a Table, RecordBatch or reader, got {type(table).__name__}")
    if column not in table.column_names:
        raise KeyError(f"no column {column!r}; the table has {table.column_names}")
    ranks, _ = _rank_column(table[column], errors, threads)
    result = _with_columns(table, _added_columns(ranks, into, category_name, words_name))
    if polars_in:
        import polars

        return polars.from_arrow(result)
    return result


def _rank_reader(reader, column, into, category, words, errors, threads):
    schema = reader.schema
    if column not in schema.names:
        raise KeyError(f"no column {column!r}; the stream has {schema.names}")
    fields = [pa.field(into, pa.uint16())]
    if category:
        fields.append(pa.field(category, pa.uint8()))
    if words:
        fields.append(pa.field(words, pa.dictionary(pa.int32(), pa.string())))
    out_schema = pa.schema(list(schema) + fields, metadata=schema.metadata)

    def batches() -> Iterator[pa.RecordBatch]:
        row = 0
        for batch in reader:
            ranks, _ = _rank_column(batch.column(column), errors, threads, row)
            added = _added_columns(ranks, into, category, words)
            columns = list(batch.columns) + [values for _, values in added]
            yield pa.RecordBatch.from_arrays(columns, schema=out_schema)
            row += batch.num_rows

    return pa.RecordBatchReader.from_batches(out_schema, batches())


_FORMATS = {".parquet": "parquet", ".arrow": "ipc", ".feather": "ipc", ".ipc": "ipc",
            ".csv": "csv"}  # fmt: skip


def _format_of(path: Path) -> str:
    kind = _FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ValueError(f"{path}: use .parquet, .arrow / .feather / .ipc, or .csv")
    return kind


def _open_batches(path: Path, batch_size: int) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
    kind = _format_of(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        # pre_buffer would keep every row group's bytes it has read: memory would grow with
        # the file. Without it, reading stays at about one row group.
        source = pq.ParquetFile(path, pre_buffer=False)
        return source.schema_arrow, source.iter_batches(batch_size=batch_size)
    if kind == "ipc":
        try:
            reader = pa.ipc.open_file(path)
            batches = (reader.get_batch(i) for i in range(reader.num_record_batches))
            return reader.schema, batches
        except pa.ArrowInvalid:
            stream = pa.ipc.open_stream(path)
            return stream.schema, iter(stream)
    import pyarrow.csv as csv

    # An empty line is a row (an empty hand), not nothing: every input row has an output row
    # and rows keep the numbers they have in the file.
    stream = csv.open_csv(
        path,
        read_options=csv.ReadOptions(block_size=1 << 24),
        parse_options=csv.ParseOptions(ignore_empty_lines=False),
    )
    return stream.schema, iter(stream)


def _open_writer(path: Path, schema: pa.Schema, kind: str):
    if kind == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetWriter(path, schema, compression="zstd")
    if kind == "ipc":
        return pa.ipc.new_file(path, schema)
    import pyarrow.csv as csv

    return csv.CSVWriter(path, schema)


def rank_file(
    source: str | Path,
    target: str | Path,
    column: str,
    *,
    into: str = "rank",
    category: str | bool | None = None,
    describe: str | bool | None = None,
    errors: str = "raise",
    threads: int | None = None,
    batch_size: int = 1 << 20,
    progress: bool = False,
) -> RankResult:
    """Ranks ``source[column]`` into a new file ``target`` with the added columns, batch by
    batch in bounded memory whatever the file's size. Formats by extension: Parquet, Arrow
    IPC, CSV (in and out may differ). ``target`` appears only once complete."""
    _check_errors(errors)
    source, target = Path(source), Path(target)
    _format_of(target)  # an unknown format fails before any work
    if source.resolve() == target.resolve():
        raise ValueError("write to a new file: the source is read while the target is written")
    schema, batches = _open_batches(source, batch_size)
    reader = pa.RecordBatchReader.from_batches(schema, batches)
    ranked = rank_table(reader, column, into=into, category=category, describe=describe,
                        errors=errors, threads=threads)  # fmt: skip
    out_schema = ranked.schema
    if _format_of(target) == "csv":
        nested = [f"{f.name}: {f.type}" for f in out_schema if pa.types.is_nested(f.type)]
        if nested:
            raise ValueError(f"CSV cannot hold {', '.join(nested)}: write .parquet or .arrow")
        out_schema = _plain_strings(out_schema)
    started = time.perf_counter()
    rows = invalid = 0
    try:
        with (
            atomic_target(target) as partial,
            _open_writer(partial, out_schema, _format_of(target)) as writer,
        ):
            for batch in ranked:
                if out_schema is not ranked.schema:
                    batch = batch.cast(out_schema)
                writer.write_batch(batch)
                rows += batch.num_rows
                invalid += batch.column(into).null_count - batch.column(column).null_count
                if progress:
                    rate = rows / max(time.perf_counter() - started, 1e-9)
                    print(f"\r{rows:,} rows ranked, {rate / 1e6:.2f} M rows/s", end="",
                          file=sys.stderr, flush=True)  # fmt: skip
    finally:
        if progress:
            print(file=sys.stderr)
    return RankResult(rows, invalid, time.perf_counter() - started)


def _plain_strings(schema: pa.Schema) -> pa.Schema:
    """CSV cannot hold dictionaries: their columns are written as plain strings."""
    return pa.schema(
        [
            pa.field(f.name, f.type.value_type) if pa.types.is_dictionary(f.type) else f
            for f in schema
        ],
        metadata=schema.metadata,
    )


def _in_query(error: PokerError, column) -> PokerError:
    """A bad row in a query: DuckDB hands over chunks, so the row number in a chunk would
    mislead; the message names the value instead."""
    reason = re.sub(r"^row \d+: ", "", str(error))
    value = column[error.row].as_py() if error.row is not None else None
    return type(error)(f"bad hand {value!r}: {reason}", None, error.card)


def register_duckdb(connection, name: str = "poker_rank"):
    """Registers vectorised pypoker functions with a DuckDB connection, over Arrow:

    - ``poker_rank(VARCHAR)`` ranks card text;
    - ``poker_rank_ids(UTINYINT[])`` ranks lists of card ids;
    - ``poker_rank_set(UBIGINT)`` ranks card sets;
    - ``poker_category(USMALLINT)`` and ``poker_describe(USMALLINT)`` read ranks.

    so ``SELECT poker_rank(cards) FROM 'hands.parquet'`` works. Bad rows raise (the query
    fails naming the row); returns the connection.
    """
    import duckdb
    from duckdb import sqltypes as types

    def arrow_function(function_name, function, parameter, result):
        connection.create_function(
            function_name, function, [parameter], result, type="arrow", side_effects=False,
            null_handling="special",
        )  # fmt: skip

    def rank_arrow(column):
        try:
            return rank(column)
        except PokerError as error:
            raise _in_query(error, column) from None

    arrow_function(name, rank_arrow, types.VARCHAR, types.USMALLINT)
    arrow_function(f"{name}_ids", rank_arrow, duckdb.list_type(types.UTINYINT), types.USMALLINT)
    arrow_function(f"{name}_set", rank_arrow, types.UBIGINT, types.USMALLINT)
    arrow_function("poker_category", _category_column, types.USMALLINT, types.UTINYINT)
    arrow_function(
        "poker_describe",
        lambda ranks: pc.cast(_describe_column(ranks), pa.string()),
        types.USMALLINT,
        types.VARCHAR,
    )
    return connection


__all__ = ["RankResult", "rank", "rank_file", "rank_table", "register_duckdb"]
