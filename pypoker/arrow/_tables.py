"""Tables, record batches and streams: the rank column and its category / describe columns
added beside the hands."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._games import holdem_only
from .._native import ArgumentError
from ..ranking import CATEGORY_SHIFT, category, describe
from ._columns import check_errors, is_polars, rank_column


def _added_columns(
    ranks: pa.Array | pa.ChunkedArray, into: str, category: str | None, words: str | None
) -> list[tuple[str, pa.Array | pa.ChunkedArray]]:
    columns = [(into, ranks)]
    if category:
        columns.append((category, pc.cast(pc.shift_right(ranks, CATEGORY_SHIFT), pa.uint8())))
    if words:
        columns.append((words, describe_column(ranks)))
    return columns


def describe_column(ranks: pa.Array | pa.ChunkedArray):
    """Descriptions as a dictionary-encoded string column: one string per distinct rank."""
    if isinstance(ranks, pa.ChunkedArray):
        return pa.chunked_array([describe_column(c) for c in ranks.chunks])
    valid = ranks.is_valid().to_numpy(zero_copy_only=False)
    values = ranks.to_numpy(zero_copy_only=False)
    unique, codes = np.unique(np.where(valid, values, 0), return_inverse=True)
    held = set(np.unique(values[valid]).tolist())  # a rank of 0 that is there is refused
    words = [describe(int(r)) if r in held else None for r in unique.tolist()]
    indices = pa.array(codes.astype(np.int32), mask=~valid)
    return pa.DictionaryArray.from_arrays(indices, pa.array(words, pa.string()))


def category_column(ranks: pa.Array | pa.ChunkedArray):
    """Categories of a rank column, refusing what is not a rank as ``pp.category`` does."""
    valid = pc.drop_null(ranks).to_numpy(zero_copy_only=False)
    category(valid.astype(np.uint16))  # raises for a value no hand ranks
    return pc.cast(pc.shift_right(ranks, CATEGORY_SHIFT), pa.uint8())


def _with_columns(table, added):
    for name, values in added:
        if name in table.column_names:
            raise ArgumentError(f"the table already has a column {name!r}: pick another `into`")
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
    game: str = "holdem",
):
    """Adds a ``rank`` column (and optionally ``category`` and ``describe`` columns) ranking
    ``table[column]``. A Table or RecordBatch gives the same back; a RecordBatchReader gives a
    RecordBatchReader that ranks batch by batch; a Polars DataFrame gives a Polars DataFrame.
    """
    holdem_only(game, "pp.arrow.rank_table")
    check_errors(errors)
    category_name = "category" if category is True else (category or None)
    words_name = "describe" if describe is True else (describe or None)
    if isinstance(table, pa.RecordBatchReader):
        return _rank_reader(table, column, into, category_name, words_name, errors, threads)
    polars_in = is_polars(table)
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        if hasattr(table, "__arrow_c_stream__"):
            table = pa.table(table)
        else:
            raise ArgumentError(
                f"expected a Table, RecordBatch or reader, got {type(table).__name__}"
            )
    if column not in table.column_names:
        raise ArgumentError(f"no column {column!r}; the table has {table.column_names}")
    ranks, _ = rank_column(table[column], errors, threads)
    result = _with_columns(table, _added_columns(ranks, into, category_name, words_name))
    if polars_in:
        import polars

        return polars.from_arrow(result)
    return result


def _rank_reader(reader, column, into, category, words, errors, threads):
    schema = reader.schema
    if column not in schema.names:
        raise ArgumentError(f"no column {column!r}; the stream has {schema.names}")
    fields = [pa.field(into, pa.uint16())]
    if category:
        fields.append(pa.field(category, pa.uint8()))
    if words:
        fields.append(pa.field(words, pa.dictionary(pa.int32(), pa.string())))
    out_schema = pa.schema(list(schema) + fields, metadata=schema.metadata)

    def batches() -> Iterator[pa.RecordBatch]:
        row = 0
        for batch in reader:
            ranks, _ = rank_column(batch.column(column), errors, threads, row)
            added = _added_columns(ranks, into, category, words)
            columns = list(batch.columns) + [values for _, values in added]
            yield pa.RecordBatch.from_arrays(columns, schema=out_schema)
            row += batch.num_rows

    return pa.RecordBatchReader.from_batches(out_schema, batches())
