"""Labelled datasets: the schema, labels that agree with rank, reproducibility, files."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pypoker as pp


def columns(table: pa.Table, players: int) -> dict[str, np.ndarray]:
    def fixed(name: str, *shape: int) -> np.ndarray:
        flat = table[name].combine_chunks().flatten()
        while isinstance(flat, pa.FixedSizeListArray):
            flat = flat.flatten()
        return flat.to_numpy(zero_copy_only=False).reshape(table.num_rows, *shape)

    return {
        "flop": fixed("flop", 3),
        "turn": table["turn"].to_numpy(),
        "river": table["river"].to_numpy(),
        "holes": fixed("holes", players, 2),
        "rank": fixed("rank", players),
        "category": fixed("category", players),
        "winner": fixed("winner", players),
        "winners": table["winners"].to_numpy(),
    }


def test_labels_agree_with_ranking_each_player():
    players = 4
    table = pp.dataset(30_000, players, seed=3, chunk=7_000)
    assert table.num_rows == 30_000 and table.schema.metadata[b"pypoker.seed"] == b"3"
    assert table["deal"].to_numpy().tolist() == list(range(30_000))
    c = columns(table, players)
    board = np.concatenate([c["flop"], c["turn"][:, None], c["river"][:, None]], axis=1)
    for p in range(players):
        hands = np.concatenate([board, c["holes"][:, p, :]], axis=1)
        assert np.array_equal(c["rank"][:, p], pp.rank(hands))
    assert np.array_equal(c["category"], c["rank"] >> 12)
    best = c["rank"].max(axis=1, keepdims=True)
    assert np.array_equal(c["winner"], c["rank"] == best)
    assert np.array_equal(c["winners"], c["winner"].sum(axis=1))
    assert (c["winners"] > 1).any()  # split pots occur
    every_card = np.concatenate([board, c["holes"].reshape(-1, 2 * players)], axis=1)
    assert (np.diff(np.sort(every_card, axis=1).astype(np.int16), axis=1) > 0).all()


def test_rows_depend_only_on_the_seed():
    a = pp.dataset(10_000, 3, seed=11, chunk=10_000, threads=1)
    b = pp.dataset(10_000, 3, seed=11, chunk=1_234, threads=2)
    assert a.equals(b)
    assert not pp.dataset(100, 3, seed=12).equals(a.slice(0, 100))


def test_parquet_and_arrow_files(tmp_path):
    parquet = pp.dataset(50_000, 6, seed=5, path=tmp_path / "d.parquet", chunk=8192)
    arrow = pp.dataset(50_000, 6, seed=5, path=tmp_path / "d.arrow", chunk=8192)
    from_parquet = pq.read_table(parquet)
    from_arrow = pa.ipc.open_file(arrow).read_all()
    in_memory = pp.dataset(50_000, 6, seed=5)
    assert from_parquet.equals(in_memory) and from_arrow.equals(in_memory)
    assert pq.ParquetFile(parquet).metadata.num_row_groups == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.arrow", "d.parquet"]


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch):
    from pypoker import datasets

    calls = []

    def failing(start, count, *rest):
        calls.append(start)
        if len(calls) == 3:
            raise RuntimeError("disk on fire")
        return real(start, count, *rest)

    real = datasets.deal_batch
    monkeypatch.setattr(datasets, "deal_batch", failing)
    with pytest.raises(RuntimeError, match="disk on fire"):
        pp.dataset(10_000, 2, seed=1, path=tmp_path / "d.parquet", chunk=1000)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 1}, {"players": 11}, {"n": -1}, {"seed": -5}, {"chunk": 0}],
)
def test_bad_arguments(kwargs):
    args = {"n": 10, "players": 2, "seed": 1} | kwargs
    n = args.pop("n")
    with pytest.raises(ValueError):
        pp.dataset(n, **args)


def test_bad_path(tmp_path):
    with pytest.raises(ValueError, match="parquet"):
        pp.dataset(10, 2, seed=1, path=tmp_path / "d.csv")


def test_cli_deal_and_enumerate(tmp_path, capsys):
    from pypoker.cli import main

    out = tmp_path / "hands.parquet"
    assert main(["deal", "20K", "-p", "3", "-o", str(out), "--seed", "4"]) == 0
    assert "wrote 20,000 deals of 3 players" in capsys.readouterr().out
    assert pq.read_table(out).equals(pp.dataset(20_000, 3, seed=4, chunk=1 << 20))
    assert main(["enumerate", "5"]) == 0
    printed = capsys.readouterr().out
    assert "2,598,960" in printed and "1,302,540" in printed
    assert main(["deal", "10", "-p", "11", "-o", str(out)]) == 2
    assert "players must be a whole number 2..10, got 11" in capsys.readouterr().err


def test_equity_labels_are_each_streets_exact_equity(each_cpu):
    table = pp.dataset(300, 3, seed=8, equity=True)
    flop = np.array(table.column("equity_flop").to_pylist())
    turn = np.array(table.column("equity_turn").to_pylist())
    assert np.allclose(flop.sum(axis=1), 1, atol=1e-6) and np.allclose(
        turn.sum(axis=1), 1, atol=1e-6
    )
    for row in range(0, 300, 37):  # against pp.equity, one spot at a time
        holes = [pp.CardSet(pair) for pair in table.column("holes")[row].as_py()]
        board = table.column("flop")[row].as_py()
        on_flop = pp.equity(holes, board=pp.CardSet(board), exact=True)
        on_turn = pp.equity(holes, board=pp.CardSet(board + [table.column("turn")[row].as_py()]))
        assert np.allclose(flop[row], on_flop.equity, atol=1e-6)
        assert np.allclose(turn[row], on_turn.equity, atol=1e-6)
    plain = pp.dataset(300, 3, seed=8)
    assert table.select(plain.schema.names).equals(plain)  # the same rows, two more columns


def test_street_equities_name_a_bad_row():
    from pypoker.equity import street_equities

    cards = pp.deal(1000, 9, seed=3)
    boards, holes = cards[:, :5].copy(), cards[:, 5:].reshape(-1, 2, 2).copy()
    holes[700, 1, 0] = boards[700, 2]
    with pytest.raises(pp.InvalidHandError, match=r"row 700: card \w\w appears twice"):
        street_equities(boards, holes, threads=2)
    with pytest.raises(ValueError, match="boards must be"):
        street_equities(boards[:, :4], holes)
