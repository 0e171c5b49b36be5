"""Table files, the one switch: a file's extension names its format (Parquet, Arrow IPC or
CSV); ``open_batches`` reads one batch by batch and ``writing`` writes one whole or not at
all (``_atomic.atomic_target``). Every module that reads or writes tables in files
(``pp.arrow.rank_file``, datasets, street tables, arena histories, the Reader's shards)
comes here, so a format is added, or worded, once.

pyarrow is imported when a file is opened: the core needs NumPy and cffi alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from ._atomic import atomic_target
from ._extras import require
from ._native import ArgumentError

FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "ipc",
    ".feather": "ipc",
    ".ipc": "ipc",
    ".csv": "csv",
}
# How an error names each format's extensions.
_SPELLED = {"parquet": ".parquet", "ipc": ".arrow / .feather / .ipc", "csv": ".csv"}


def format_of(path: Path, kinds: tuple[str, ...] = ("parquet", "ipc", "csv")) -> str:
    """``"parquet"``, ``"ipc"`` or ``"csv"``, by ``path``'s extension; an ``ArgumentError``
    naming the path and the extensions allowed when it is not one of ``kinds``."""
    kind = FORMATS.get(Path(path).suffix.lower())
    if kind not in kinds:
        allowed = ", ".join(_SPELLED[k] for k in kinds)
        raise ArgumentError(f"{path}: write or read a table file ending in {allowed}")
    return kind


def open_batches(path: Path, batch_size: int):
    """(schema, iterator of record batches) of a table file, read a batch at a time."""
    pa = require("pyarrow")
    kind = format_of(path)
    if kind == "parquet":
        pq = require("pyarrow.parquet")
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
    csv = require("pyarrow.csv")
    # An empty line is a row (an empty hand), not nothing: every input row has an output row
    # and rows keep the numbers they have in the file.
    stream = csv.open_csv(
        path,
        read_options=csv.ReadOptions(block_size=1 << 24),
        parse_options=csv.ParseOptions(ignore_empty_lines=False),
    )
    return stream.schema, iter(stream)


class Writer:
    """A table file being written: ``write(batch or table)``; Parquet row groups of at most
    ``row_group_size`` rows (None: pyarrow's choice)."""

    def __init__(self, path: Path, schema, kind: str, row_group_size: int | None, **options):
        pa = require("pyarrow")
        self.row_group_size = row_group_size
        if kind == "parquet":
            self.file = require("pyarrow.parquet").ParquetWriter(str(path), schema, **options)
        elif kind == "ipc":
            self.file = pa.ipc.new_file(str(path), schema)
        else:
            self.file = require("pyarrow.csv").CSVWriter(str(path), schema)
        self.parquet = kind == "parquet"

    def write(self, data) -> None:
        """Writes a record batch or a table."""
        if self.parquet and self.row_group_size is not None:
            self.file.write(data, row_group_size=self.row_group_size)
        else:
            self.file.write(data)

    def close(self) -> None:
        self.file.close()


@contextlib.contextmanager
def writing(target: Path, schema, *, kinds: tuple[str, ...] = ("parquet", "ipc", "csv"),
            row_group_size: int | None = None, **parquet_options) -> Iterator[Writer]:  # fmt: skip
    """A ``Writer`` of ``target`` in the format its extension names (one of ``kinds``),
    written to a temporary file that becomes ``target`` when the block ends without error
    and is removed otherwise. ``parquet_options``: ``pyarrow.parquet.ParquetWriter``'s
    (compression, use_dictionary, …)."""
    kind = format_of(target, kinds)
    with atomic_target(Path(target)) as partial:
        writer = Writer(partial, schema, kind, row_group_size, **parquet_options)
        try:
            yield writer
        finally:
            writer.close()
