"""The one switch from a file's extension to its table format (pypoker/_table_files.py)."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from pypoker._native import ArgumentError  # noqa: E402
from pypoker._table_files import FORMATS, format_of, open_batches, writing  # noqa: E402

SCHEMA = pa.schema([("hand", pa.string()), ("rank", pa.uint16())])


def batch(start: int, rows: int) -> pa.RecordBatch:
    return pa.record_batch(
        [pa.array([f"h{i}" for i in range(start, start + rows)]),
         pa.array(range(start, start + rows), pa.uint16())],
        schema=SCHEMA,
    )  # fmt: skip


@pytest.mark.parametrize("suffix", sorted(FORMATS))
def test_every_format_round_trips(tmp_path, suffix):
    target = tmp_path / f"t{suffix.upper() if suffix == '.csv' else suffix}"
    with writing(target, SCHEMA) as writer:
        writer.write(batch(0, 3))
        writer.write(pa.Table.from_batches([batch(3, 2)]))
    schema, batches = open_batches(target, batch_size=2)
    table = pa.Table.from_batches(list(batches), schema=schema)
    assert table.column("hand").to_pylist() == [f"h{i}" for i in range(5)]
    assert table.column("rank").to_pylist() == list(range(5))


def test_an_unknown_extension_names_the_path_and_the_ones_allowed(tmp_path):
    with pytest.raises(ArgumentError, match=r"t\.json: .*\.parquet, \.arrow / \.feather / \.ipc"):
        format_of(tmp_path / "t.json")
    with pytest.raises(ArgumentError, match=r"t\.csv: .*ending in \.parquet$"):
        with writing(tmp_path / "t.csv", SCHEMA, kinds=("parquet",)):
            pass
    assert not (tmp_path / "t.csv").exists()


def test_a_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "t.parquet"
    with pytest.raises(RuntimeError, match="stop"):
        with writing(target, SCHEMA) as writer:
            writer.write(batch(0, 3))
            raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []


def test_parquet_row_groups_of_the_size_asked(tmp_path):
    target = tmp_path / "t.parquet"
    with writing(target, SCHEMA, row_group_size=4, compression="zstd") as writer:
        writer.write(batch(0, 10))
    file = pq.ParquetFile(target)
    assert [file.metadata.row_group(i).num_rows for i in range(file.num_row_groups)] == [4, 4, 2]
    assert file.metadata.row_group(0).column(0).compression == "ZSTD"
