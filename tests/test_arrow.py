"""pp.arrow: every column type, slices, nulls, chunks, bad rows, zero copy, tables, streams,
files, the CLI, and the real DuckDB and Polars."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pypoker as pp
from pypoker.arrow import _columns as pa_columns

HANDS = pp.deal(5000, 7, seed=77)
EXPECTED = pp.rank(HANDS)
TEXTS = pp.format_cards(HANDS)
SETS = np.bitwise_or.reduce(np.left_shift(np.uint64(1), HANDS.astype(np.uint64)), axis=1)


def columns() -> dict[str, pa.Array]:
    ids = pa.array(HANDS.reshape(-1))
    lists = HANDS.tolist()
    return {
        "fixed_size_list": pa.FixedSizeListArray.from_arrays(ids, 7),
        "list": pa.array(lists, pa.list_(pa.uint8())),
        "large_list": pa.array(lists, pa.large_list(pa.uint8())),
        "uint64": pa.array(SETS),
        "string": pa.array(TEXTS, pa.string()),
        "large_string": pa.array(TEXTS, pa.large_string()),
        "string_view": pa.array(TEXTS, pa.string_view()),
        "dictionary": pa.array(TEXTS).dictionary_encode(),
        "spaced string": pa.array([" ".join(t[i : i + 2] for i in range(0, 14, 2)) for t in TEXTS]),
    }


@pytest.mark.parametrize("kind", list(columns()))
def test_every_column_type_ranks_like_numpy(kind, each_cpu):
    column = columns()[kind]
    ranks = pp.arrow.rank(column)
    assert ranks.type == pa.uint16() and ranks.null_count == 0
    assert np.array_equal(ranks.to_numpy(), EXPECTED)
    sliced = pp.arrow.rank(column.slice(1234, 777))
    assert np.array_equal(sliced.to_numpy(), EXPECTED[1234:2011])
    assert len(pp.arrow.rank(column.slice(0, 0))) == 0


@pytest.mark.parametrize("kind", list(columns()))
def test_nulls_in_nulls_out_and_chunks_stay_chunks(kind):
    column = columns()[kind]
    mask = np.zeros(len(column), dtype=bool)
    mask[[0, 17, 4999]] = True
    with_nulls = pc_with_nulls(column, mask)
    ranks = pp.arrow.rank(with_nulls)
    assert ranks.null_count == 3
    assert np.array_equal(ranks.is_null().to_numpy(zero_copy_only=False), mask)
    assert np.array_equal(ranks.to_numpy(zero_copy_only=False)[~mask], EXPECTED[~mask])
    chunked = pa.chunked_array([with_nulls.slice(0, 100), with_nulls.slice(100)])
    chunked_ranks = pp.arrow.rank(chunked)
    assert isinstance(chunked_ranks, pa.ChunkedArray) and chunked_ranks.num_chunks == 2
    assert chunked_ranks.combine_chunks().equals(ranks)


def pc_with_nulls(column: pa.Array, mask: np.ndarray) -> pa.Array:
    """The same column with nulls where `mask` is set (null rows keep no card bytes)."""
    values = [None if null else v for v, null in zip(column.to_pylist(), mask, strict=True)]
    return pa.array(values, type=column.type)


def test_bad_rows_raise_naming_row_and_card_across_chunks():
    bad = HANDS.copy()
    bad[3210, 4] = bad[3210, 1]
    chunked = pa.chunked_array(
        [pa.array(pp.format_cards(bad[:3000])), pa.array(pp.format_cards(bad[3000:]))]
    )
    name = pp.CARD_NAMES[bad[3210, 1]]
    with pytest.raises(pp.CardParseError, match=rf"row 3210: .*card {name} appears twice"):
        pp.arrow.rank(chunked)
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(bad.reshape(-1)), 7)
    with pytest.raises(pp.InvalidHandError, match=rf"row 3210: card {name} appears twice"):
        pp.arrow.rank(fixed)
    bad[4000, 0] = 77
    sets = pa.array([0x7F, 1 << 55, 0, 0xFF], pa.uint64())
    with pytest.raises(pp.InvalidHandError, match="row 1: bit 55 is set"):
        pp.arrow.rank(sets)
    lists = pa.array([[1, 2], [], [3, 3]], pa.list_(pa.uint8()))  # no cards: a hand
    with pytest.raises(pp.InvalidHandError, match="row 2: card 5s appears twice"):
        pp.arrow.rank(lists)


def test_errors_null_turns_bad_rows_into_nulls_and_counts_them(tmp_path):
    texts = ["AhKd", "Ax", None, "AhAh", "2c3c4c5c6c7c8c9c", "", "Ts 9s"]
    ranks = pp.arrow.rank(pa.array(texts), errors="null")
    empty = pp.EMPTY_HAND_RANK  # "" is the hand of no cards
    assert ranks.to_pylist() == [pp.rank("AhKd"), None, None, None, None, empty, pp.rank("Ts9s")]
    sets = pa.array([0x7F, 1 << 55, None, 0, 0xFF], pa.uint64())
    assert pp.arrow.rank(sets, errors="null").null_count == 3
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"cards": texts}), path)
    result = pp.arrow.rank_file(path, tmp_path / "out.parquet", "cards", errors="null")
    assert (result.rows, result.invalid) == (7, 3)
    with pytest.raises(ValueError, match="errors"):
        pp.arrow.rank(pa.array(texts), errors="ignore")


def test_unsupported_types_are_refused():
    for column in (pa.array([1, 2], pa.int64()), pa.array([[1]], pa.list_(pa.int32()))):
        with pytest.raises(TypeError, match="cannot rank a column"):
            pp.arrow.rank(column)
    with pytest.raises(TypeError, match="Arrow column"):
        pp.arrow.rank([1, 2, 3])


class RecordingLib:
    """Wraps the native library and records the input pointers each kernel receives."""

    def __init__(self, lib):
        self.lib, self.addresses = lib, []

    def __getattr__(self, name):
        function = getattr(self.lib, name)
        if not name.startswith("pp_rank"):
            return function

        def record(pointer, *args):
            self.addresses.append(int(pp._native.ffi.cast("uintptr_t", pointer)))
            return function(pointer, *args)

        return record


@pytest.mark.parametrize("kind", ["fixed_size_list", "list", "uint64", "string", "large_string"])
def test_card_buffers_are_never_copied(kind, monkeypatch):
    column = columns()[kind].slice(100, 2000)
    recording = RecordingLib(pa_columns._lib)
    monkeypatch.setattr(pa_columns, "_lib", recording)
    from pypoker import ranking

    monkeypatch.setattr(ranking, "lib", RecordingLib(ranking.lib))
    recording = ranking.lib if kind in ("fixed_size_list", "uint64") else recording
    pp.arrow.rank(column, threads=1)
    data = column.buffers()[-1]  # the card bytes, card sets or text: the last buffer
    if kind == "fixed_size_list":
        expected = data.address + (column.offset * 7 + column.values.offset)
    elif kind == "list":
        expected = data.address + column.values.offset
    elif kind == "uint64":
        expected = data.address + column.offset * 8
    else:  # text is addressed through the offsets, which stay Arrow's own
        expected = data.address
    assert recording.addresses == [expected]


def test_rank_table_tables_batches_and_readers():
    table = pa.table({"cards": TEXTS, "id": np.arange(len(TEXTS))})
    ranked = pp.arrow.rank_table(table, "cards", category=True, describe=True)
    assert ranked.column_names == ["cards", "id", "rank", "category", "describe"]
    assert np.array_equal(ranked["rank"].to_numpy(), EXPECTED)
    assert np.array_equal(ranked["category"].to_numpy(), EXPECTED >> 12)
    assert ranked["describe"][0].as_py() == pp.describe(int(EXPECTED[0]))
    batch = table.to_batches()[0]
    assert isinstance(pp.arrow.rank_table(batch, "cards"), pa.RecordBatch)
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=999))
    out = pp.arrow.rank_table(reader, "cards", into="r")
    assert isinstance(out, pa.RecordBatchReader)
    assert np.array_equal(out.read_all()["r"].to_numpy(), EXPECTED)
    with pytest.raises(ValueError, match="already has a column"):
        pp.arrow.rank_table(ranked, "cards")
    with pytest.raises(pp.PokerError, match="column"):
        pp.arrow.rank_table(table, "hands")


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".csv"])
def test_files_in_files_out(tmp_path, suffix):
    source = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"cards": TEXTS}), source, row_group_size=700)
    target = tmp_path / f"ranked{suffix}"
    result = pp.arrow.rank_file(source, target, "cards", category=True, batch_size=512)
    assert result.rows == len(TEXTS) and result.invalid == 0
    if suffix == ".parquet":
        back = pq.read_table(target)
    elif suffix == ".arrow":
        back = pa.ipc.open_file(target).read_all()
    else:
        import pyarrow.csv as csv

        back = csv.read_csv(target)
    assert np.array_equal(back["rank"].to_numpy(), EXPECTED)
    again = tmp_path / "again.parquet"
    pp.arrow.rank_file(target, again, "cards", into="rank2")
    assert np.array_equal(pq.read_table(again)["rank2"].to_numpy(), EXPECTED)


def test_a_failed_file_job_leaves_nothing(tmp_path):
    source = tmp_path / "hands.parquet"
    texts = list(TEXTS)
    texts[4321] = "AhAh"
    pq.write_table(pa.table({"cards": texts}), source, row_group_size=1000)
    with pytest.raises(pp.CardParseError, match="row 4321"):
        pp.arrow.rank_file(source, tmp_path / "out.parquet", "cards", batch_size=1000)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.parquet"]


def test_cli_ranks_files(tmp_path, capsys):
    from pypoker.cli import main

    source = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"hand": TEXTS}), source)
    target = tmp_path / "out.parquet"
    assert main(["rank", str(source), "-o", str(target), "--column", "hand", "--category"]) == 0
    assert "ranked 5,000 rows" in capsys.readouterr().out
    assert np.array_equal(pq.read_table(target)["rank"].to_numpy(), EXPECTED)
    assert main(["rank", str(source), "-o", str(tmp_path / "x.parquet"), "--column", "nope"]) == 2
    assert "no column 'nope'" in capsys.readouterr().err


def test_duckdb_sql_over_parquet(tmp_path):
    import duckdb

    path = tmp_path / "hands.parquet"
    ids = pa.array(HANDS.tolist(), pa.list_(pa.uint8()))
    pq.write_table(pa.table({"cards": TEXTS, "ids": ids, "set": SETS}), path)
    con = pp.arrow.register_duckdb(duckdb.connect())
    rows = con.sql(
        f"SELECT poker_rank(cards), poker_rank_ids(ids), poker_rank_set(set), "
        f"poker_category(poker_rank(cards)) FROM '{path}'"
    ).fetchall()
    got = np.array(rows, dtype=np.int64)
    assert np.array_equal(got[:, 0], EXPECTED)
    assert np.array_equal(got[:, 1], EXPECTED) and np.array_equal(got[:, 2], EXPECTED)
    assert np.array_equal(got[:, 3], EXPECTED >> 12)
    words = con.sql("SELECT poker_describe(poker_rank('KhKd9c9sAh'))").fetchall()[0][0]
    assert words == "Two Pair, Kings and Nines, Ace kicker"
    with pytest.raises(duckdb.Error, match="appears twice"):
        con.sql("SELECT poker_rank('AhAh')").fetchall()


def test_polars_in_polars_out():
    import polars as pl

    series = pl.Series("hands", TEXTS)
    ranks = pp.arrow.rank(series)
    assert isinstance(ranks, pl.Series) and ranks.dtype == pl.UInt16
    assert np.array_equal(ranks.to_numpy(), EXPECTED)
    frame = pl.DataFrame({"hands": TEXTS})
    ranked = pp.arrow.rank_table(frame, "hands", category=True)
    assert isinstance(ranked, pl.DataFrame)
    assert np.array_equal(ranked["rank"].to_numpy(), EXPECTED)
    ids = pl.Series("ids", HANDS.tolist(), dtype=pl.List(pl.UInt8))
    assert np.array_equal(pp.arrow.rank(ids).to_numpy(), EXPECTED)


def test_fourteen_byte_text_takes_the_fixed_width_road_and_still_reads_every_shape(each_cpu):
    rows = list(TEXTS[:1000])
    rows[10] = "Ah Kd 7c 2s 3s"  # five spaced cards, also 14 bytes
    rows[11] = "ah kd,7C 2s 3s"
    rows[12] = "AhAhKd7c2s3sQh"  # a repeated card
    rows[13] = "AhKd7c2s3sQhXx"  # not a card
    rows[500] = rows[500].lower()  # either case, in a block the vectors take whole
    rows[501] = rows[501].swapcase()
    rows[502] = rows[502].upper()
    ranks = pp.arrow.rank(pa.array(rows), errors="null")
    expected = pp.rank(rows[:10] + rows[14:]).tolist()
    got = ranks.to_pylist()
    assert got[:10] + got[14:] == expected
    assert got[14:] == EXPECTED[14:1000].tolist()
    assert got[10] == got[11] == pp.rank("AhKd7c2s3s")
    assert got[12] is None and got[13] is None
    with pytest.raises(pp.CardParseError, match='row 12: "AhAhKd7c2s3sQh": card Ah appears twice'):
        pp.arrow.rank(pa.array(rows))


def test_twenty_byte_spaced_text_takes_its_fixed_width_road_too(each_cpu):
    rows = [" ".join(t[i : i + 2] for i in range(0, 14, 2)) for t in TEXTS[:1000]]
    rows[3] = rows[3].replace(" ", ",")  # commas also separate
    rows[4] = rows[4].replace(" ", "\t", 1)  # a tab: another shape for the general parser
    rows[600] = rows[600].lower()
    rows[601] = "Ah Kd 7c 10s 3s Qh J"  # "10": 20 bytes, not seven cards
    rows[602] = "Ah Kd 7c 2s 3s Qh Ah"  # a repeated card
    ranks = pp.arrow.rank(pa.array(rows), errors="null").to_pylist()
    good = [r for r in range(1000) if r not in (601, 602)]
    assert [ranks[r] for r in good] == EXPECTED[good].tolist()
    assert ranks[601] is None and ranks[602] is None
    with pytest.raises(pp.CardParseError, match="row 601"):
        pp.arrow.rank(pa.array(rows))
