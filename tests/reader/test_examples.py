"""The Range Reader's examples: the moments of every hand against a plain Python walk of its
history, the encoding's fields, generation (reproducible, resumable, atomic) and bad input
(an illegal action, a seat not in the hand, cards that collide) named by row."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pypoker as pp
from pypoker.arena import Arena
from pypoker.reader import DEFAULT, EXAMPLE_DTYPE, examples, generate, read, shards

STREET_CARDS = (0, 3, 4, 5)


@pytest.fixture(scope="module")
def history():
    return Arena(16, 6, seed=3).play(40, agents=list(DEFAULT.agents[:6]), record=True)


def moments(hand: dict) -> list[tuple]:
    """(seat, actions seen, street, moment) of every example of a hand, by a plain walk."""
    out, folded, board = [], set(), len(hand["board"])
    actions = hand["actions"]
    for i, action in enumerate(actions):
        seat = action["seat"]
        out.append((seat, i + 1, action["street"], 0))
        if action["kind"] == 0:
            folded.add(seat)
        street = action["street"]
        after = actions[i + 1]["street"] if i + 1 < len(actions) else None
        reached = (
            after if after is not None else [k for k in range(4) if STREET_CARDS[k] <= board][-1]
        )
        for k in range(street + 1, reached + 1):
            out += [(s, i + 1, k, 1) for s in range(hand["seats"]) if s not in folded]
    return out


def test_every_moment_of_every_hand(history):
    ex = examples(history)
    rows = history.to_pylist()
    expected = [(r, *m) for r, hand in enumerate(rows) for m in moments(hand)]
    got = list(zip(ex.data["hand_row"].tolist(), ex.data["seat"].tolist(),
                   ex.data["actions_seen"].tolist(), ex.data["street"].tolist(),
                   ex.data["moment"].tolist(), strict=True))  # fmt: skip
    assert got == expected
    # Labels: each read seat's hole cards, pp.COMBOS order.
    hole = np.array([rows[r]["hole_cards"][s] for r, s in zip(ex.data["hand_row"], ex.data["seat"],
                                                              strict=True)])  # fmt: skip
    assert (np.sort(pp.COMBOS[ex.labels], axis=1) == np.sort(hole, axis=1)).all()


def test_the_encoding_of_one_moment(history):
    ex = examples(history)
    hand = history.to_pylist()[0]
    e = ex.data[ex.data["hand_row"] == 0][0]  # the first actor, after its first action
    first = hand["actions"][0]
    assert e["seat"] == first["seat"] and e["last_kind"] == first["kind"]
    assert e["position"] == (first["seat"] - hand["button"] - 1) % 6
    assert e["action_kind"][0] == first["kind"] and (e["action_kind"][1:] == 255).all()
    assert e["pot"] == pytest.approx(1.5 + (first["amount"] / 2 if first["kind"] >= 2 else 0))
    assert e["action_pot"][0] == 1.5 and e["action_to_call"][0] == 1.0
    assert (e["board"] == 255).all() and e["stacks"].sum() > 0
    assert EXAMPLE_DTYPE.itemsize == 608


def test_arrow_and_parquet_round_trip(history, tmp_path):
    ex = examples(history[:5] if isinstance(history, list) else history.slice(0, 5))
    ex.to_parquet(tmp_path / "examples.parquet")
    table = pq.read_table(tmp_path / "examples.parquet")
    assert table.num_rows == len(ex)
    assert table.column("action_amount").to_pylist()[3] == ex.data["action_amount"][3].tolist()


def test_one_seat_and_fixed_styles(history):
    ex = examples(history, seat=2, styles=[0, 1, 2, 3, 4, 5])
    assert set(ex.data["seat"].tolist()) == {2} and set(ex.data["style"].tolist()) == {2}
    assert len(examples(history.slice(0, 0))) == 0


def _with_action(history, row: int, index: int, **change):
    rows = history.to_pylist()
    rows[row]["actions"][index].update(change)
    return pa.Table.from_pylist(rows, schema=history.schema)


def test_bad_input_is_named(history):
    rows = history.to_pylist()
    row = next(i for i, h in enumerate(rows) if h["actions"][1]["kind"] == 0)  # a fold
    bad = _with_action(history, row, 1, kind=1)  # a check facing the big blind
    with pytest.raises(
        pp.PokerError, match=rf"row {row}: action 1 \(check by seat \d\).*cannot check"
    ):
        examples(bad)
    bad = _with_action(history, row, 0, seat=(rows[row]["actions"][0]["seat"] + 1) % 6)
    with pytest.raises(pp.PokerError, match=rf"row {row}: action 0 .*seat \d is to act"):
        examples(bad)
    with pytest.raises(pp.PokerError, match="row 0: seat 7 is not in the hand"):
        examples(history, seat=7)
    rows = history.to_pylist()
    rows[4]["hole_cards"][2] = [rows[4]["board"][0] if rows[4]["board"] else 0, 51]
    rows[4]["board"] = rows[4]["board"] or []
    collide = pa.Table.from_pylist(rows, schema=history.schema)
    with pytest.raises(pp.PokerError, match="row 4: card .* is dealt twice"):
        examples(collide)
    with pytest.raises(pp.PokerError, match="not a hand history: no column 'actions'"):
        examples(history.drop_columns(["actions"]))


def test_generate_is_reproducible_resumable_and_read_back(tmp_path):
    first = generate(3000, tmp_path / "a", seed=5, shard_hands=1000, tables=16)
    again = generate(3000, tmp_path / "b", seed=5, shard_hands=1000, tables=16, threads=2)
    assert [p.name for p in first] == ["part-00000.parquet", "part-00001.parquet",
                                       "part-00002.parquet"]  # fmt: skip
    for a, b in zip(first, again, strict=True):
        assert pq.read_table(a).equals(pq.read_table(b))
    before = pq.read_table(first[1])
    first[1].unlink()
    assert generate(3000, tmp_path / "a", seed=5, shard_hands=1000, tables=16) == first
    assert pq.read_table(first[1]).equals(before)
    assert shards(tmp_path / "a") == first
    with pytest.raises(pp.PokerError, match="written by another run"):
        generate(3000, tmp_path / "a", seed=6, shard_hands=1000, tables=16)
    table = pq.read_table(first[0])
    styles = np.array(table.column("styles").to_pylist())
    assert styles.shape == (1000, 6) and set(np.unique(styles)) <= set(range(len(DEFAULT)))
    batches = list(read(tmp_path / "a", batch_hands=600))
    assert sum(len(b.hands) for b in batches) == 3000
    assert batches[0].population == DEFAULT
    assert (batches[0].data["style"] != 255).all()


def test_torch_dataset(tmp_path):
    why = "torch is not installed (PyPI's Linux wheel pulls gigabytes of CUDA libraries)"
    torch = pytest.importorskip("torch", reason=why)
    from pypoker.reader import torch_dataset

    generate(500, tmp_path, shard_hands=250, tables=8)
    loader = torch.utils.data.DataLoader(torch_dataset(tmp_path, batch_hands=100), batch_size=None)
    first = next(iter(loader))
    assert first["label"].dtype == torch.int32 and first["action_amount"].shape[1] == 32
