"""pp.ray on a real local Ray cluster: rows equal to the single-process results."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pypoker as pp

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module", autouse=True)
def local_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def collect(ds) -> pa.Table:
    return pa.concat_tables([ray.get(ref) for ref in ds.to_arrow_refs()])


def test_rank_a_multi_file_parquet_dataset_like_one_process(tmp_path):
    source = tmp_path / "hands"
    source.mkdir()
    hands = pp.deal(30_000, 7, seed=8)
    texts = pp.format_cards(hands)
    for part in range(3):
        rows = slice(part * 10_000, (part + 1) * 10_000)
        table = pa.table({"id": np.arange(30_000)[rows], "cards": texts[rows]})
        pq.write_table(table, source / f"part-{part}.parquet")
    target = tmp_path / "ranked"
    pp.ray.rank_parquet(str(source), str(target), "cards", category=True)
    distributed = pq.read_table(target).sort_by("id")
    local = pp.arrow.rank_table(
        pa.table({"id": np.arange(30_000), "cards": texts}), "cards", category=True
    )
    assert distributed.num_rows == 30_000
    assert distributed.select(["id", "cards", "rank", "category"]).equals(
        local.select(["id", "cards", "rank", "category"])
    )


def test_distributed_generator_equals_the_local_one():
    distributed = collect(pp.ray.dataset(40_000, 4, seed=3, chunk=6_000)).sort_by("deal")
    local = pp.dataset(40_000, 4, seed=3).replace_schema_metadata(None)
    assert distributed.replace_schema_metadata(None).equals(local)


def test_bad_rows_in_a_worker_are_reported_like_local_ones(tmp_path):
    texts = pp.format_cards(pp.deal(1000, 7, seed=9))
    texts[700] = "AhAhKd7c2s3sQh"
    ds = ray.data.from_arrow(pa.table({"cards": texts}))
    with pytest.raises(Exception) as caught:
        collect(pp.ray.rank_dataset(ds, "cards"))
    error = pp.ray.pypoker_error(caught.value)
    assert isinstance(error, pp.CardParseError)
    assert str(error) == 'row 700: "AhAhKd7c2s3sQh": card Ah appears twice'
    assert error.row == 700
    source = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"cards": texts}), source)
    with pytest.raises(pp.CardParseError, match="card Ah appears twice"):
        pp.ray.rank_parquet(str(source), str(tmp_path / "out"), "cards")
    nulls = collect(pp.ray.rank_dataset(ds, "cards", errors="null"))
    assert nulls["rank"].null_count == 1
    local = pp.arrow.rank(pa.array(texts), errors="null")
    assert nulls["rank"].combine_chunks().equals(local)


def test_street_table_parts_on_the_workers_equal_one_process(tmp_path):
    folder = tmp_path / "flop"
    start, count = 400_000, 5_000
    parts = pp.ray.street_table("flop", folder, rows_per_part=2_000, features=["ehs", "ehs2"],
                                start=start, count=count)  # fmt: skip
    assert [p.name for p in parts] == [f"part-{i:07d}.parquet" for i in (400_000, 402_000, 404_000)]
    distributed = pq.read_table(folder).sort_by("index")
    local = pp.street_table("flop", features=["ehs", "ehs2"], start=start, count=count)
    assert distributed.equals(local)
    # A rerun keeps what is there: a part removed is the only one made again.
    kept = parts[0].stat().st_mtime_ns
    parts[1].unlink()
    pp.ray.street_table("flop", folder, rows_per_part=2_000, features=["ehs", "ehs2"],
                        start=start, count=count)  # fmt: skip
    assert parts[0].stat().st_mtime_ns == kept and parts[1].exists()
    assert pq.read_table(folder).sort_by("index").equals(local)


def test_reader_shards_on_the_workers_equal_the_local_run(tmp_path):
    from pypoker import reader

    settings = {"seats": 3, "shard_hands": 400, "tables": 8}
    paths = pp.ray.reader_generate(1_000, tmp_path / "ray", population="default", seed=4,
                                   **settings)  # fmt: skip
    local = reader.generate(1_000, tmp_path / "local", "default", 4, **settings)
    assert [p.name for p in paths] == [p.name for p in local]
    for mine, theirs in zip(paths, local, strict=True):
        assert pq.read_table(mine).equals(pq.read_table(theirs))
    assert pq.read_schema(paths[0]).metadata == pq.read_schema(local[0]).metadata
    # Resumable: a shard removed is the only one written again.
    kept = paths[0].stat().st_mtime_ns
    paths[1].unlink()
    pp.ray.reader_generate(1_000, tmp_path / "ray", population="default", seed=4, **settings)
    assert paths[0].stat().st_mtime_ns == kept and pq.read_table(paths[1]).equals(
        pq.read_table(local[1])
    )
    # Read back as a Ray Dataset: the same hands, and examples as the local ones.
    hands = collect(pp.ray.reader_hands(tmp_path / "ray")).sort_by("hand_id")
    both = pq.read_table(tmp_path / "local").sort_by("hand_id")
    assert hands.num_rows == 1_000 and hands.select(["hand_id", "styles"]).equals(
        both.select(["hand_id", "styles"])
    )
    with pytest.raises(pp.PokerError, match="written by another run"):
        pp.ray.reader_generate(1_000, tmp_path / "ray", seed=5, **settings)
    # The plan both run: every shard written now.
    assert all(s.written for s in reader.plan(1_000, tmp_path / "ray", seed=4, **settings))
