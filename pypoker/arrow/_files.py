"""Files ranked in bounded memory: Parquet, Arrow IPC and CSV in and out, batch by batch,
the target written whole or not at all."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa

from .._atomic import atomic_target
from .._games import holdem_only
from .._native import ArgumentError
from ._columns import check_errors
from ._tables import rank_table


class RankResult:
    """What ``rank_file`` did: rows ranked, rows turned null, seconds taken."""

    def __init__(self, rows: int, invalid: int, seconds: float):
        self.rows, self.invalid, self.seconds = rows, invalid, seconds

    def __repr__(self) -> str:
        return f"RankResult(rows={self.rows}, invalid={self.invalid}, seconds={self.seconds:.3f})"


_FORMATS = {".parquet": "parquet", ".arrow": "ipc", ".feather": "ipc", ".ipc": "ipc",
            ".csv": "csv"}  # fmt: skip


def _format_of(path: Path) -> str:
    kind = _FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ArgumentError(f"{path}: use .parquet, .arrow / .feather / .ipc, or .csv")
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
    game: str = "holdem",
) -> RankResult:
    """Ranks ``source[column]`` into a new file ``target`` with the added columns, batch by
    batch in bounded memory whatever the file's size. Formats by extension: Parquet, Arrow
    IPC, CSV (in and out may differ). ``target`` appears only once complete."""
    holdem_only(game, "pp.arrow.rank_file")
    check_errors(errors)
    source, target = Path(source), Path(target)
    _format_of(target)  # an unknown format fails before any work
    if source.resolve() == target.resolve():
        raise ArgumentError("write to a new file: the source is read while the target is written")
    schema, batches = _open_batches(source, batch_size)
    reader = pa.RecordBatchReader.from_batches(schema, batches)
    ranked = rank_table(reader, column, into=into, category=category, describe=describe,
                        errors=errors, threads=threads)  # fmt: skip
    out_schema = ranked.schema
    if _format_of(target) == "csv":
        nested = [f"{f.name}: {f.type}" for f in out_schema if pa.types.is_nested(f.type)]
        if nested:
            raise ArgumentError(f"CSV cannot hold {', '.join(nested)}: write .parquet or .arrow")
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
