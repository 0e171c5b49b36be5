"""Files ranked in bounded memory: Parquet, Arrow IPC and CSV in and out, batch by batch,
the target written whole or not at all."""

from __future__ import annotations

import time
from pathlib import Path

import pyarrow as pa

from .._games import holdem_only
from .._native import ArgumentError
from .._progress import reporter
from .._table_files import format_of, open_batches, writing
from ._columns import check_errors
from ._tables import rank_table


class RankResult:
    """What ``rank_file`` did: rows ranked, rows turned null, seconds taken."""

    def __init__(self, rows: int, invalid: int, seconds: float):
        self.rows, self.invalid, self.seconds = rows, invalid, seconds

    def __repr__(self) -> str:
        return f"RankResult(rows={self.rows}, invalid={self.invalid}, seconds={self.seconds:.3f})"


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
    game: str = "holdem",
) -> RankResult:
    """Ranks ``source[column]`` into a new file ``target`` with the added columns, batch by
    batch in bounded memory whatever the file's size. Formats by extension: Parquet, Arrow
    IPC, CSV (in and out may differ). ``target`` appears only once complete."""
    holdem_only(game, "pp.arrow.rank_file")
    check_errors(errors)
    source, target = Path(source), Path(target)
    kind = format_of(target)  # an unknown format fails before any work
    if source.resolve() == target.resolve():
        raise ArgumentError("write to a new file: the source is read while the target is written")
    schema, batches = open_batches(source, batch_size)
    reader = pa.RecordBatchReader.from_batches(schema, batches)
    ranked = rank_table(reader, column, into=into, category=category, describe=describe,
                        errors=errors, threads=threads)  # fmt: skip
    out_schema = ranked.schema
    if kind == "csv":
        nested = [f"{f.name}: {f.type}" for f in out_schema if pa.types.is_nested(f.type)]
        if nested:
            raise ArgumentError(f"CSV cannot hold {', '.join(nested)}: write .parquet or .arrow")
        out_schema = _plain_strings(out_schema)
    started = time.perf_counter()
    rows = invalid = 0
    report = reporter(progress, "rank_file", "rows")
    try:
        with writing(target, out_schema, compression="zstd") as writer:
            for batch in ranked:
                if out_schema is not ranked.schema:
                    batch = batch.cast(out_schema)
                writer.write(batch)
                rows += batch.num_rows
                invalid += batch.column(into).null_count - batch.column(column).null_count
                report(rows, None)
    finally:
        report(None, None)
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
