"""PHH export/import (pypoker.arena.phh) against pokerkit's HandHistory, the reference reader.

Rows come from hands played in the pokerkit oracle (random and all-in-heavy players, 2/3/6/9
seats, antes, big-blind antes, straddles), so these tests need no engine; the engine replay
of PHH rows is in test_phh_replay.py."""

from __future__ import annotations

import random
import warnings
from decimal import Decimal
from pathlib import Path

import pytest

pytest.importorskip("pokerkit")
pa = pytest.importorskip("pyarrow")

from pokerkit import HandHistory  # noqa: E402
from pokerkit_oracle import PLAYERS, oracle_divmod, play_row, random_spec, spec_stacks  # noqa: E402

from pypoker._native import PokerError  # noqa: E402
from pypoker.arena import ALL_IN, CALL, RAISE, phh  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"


def oracle_rows(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        style = ("random", "all_in")[i % 2]
        spec = random_spec(rng, rng.choice([2, 3, 6, 9]), style)
        rows.append(play_row(spec, PLAYERS[style], rng, table=seed, hand=i))
    return rows


def pokerkit_final(text: str) -> list:
    """pokerkit's final stacks (player order) for a PHH text, odd chips the spec's way."""
    history = HandHistory.loads(text, divmod=oracle_divmod())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pokerkit warns where it repairs a history
        states = list(history)
    state = states[-1]
    assert not state.status, "pokerkit did not reach the end of the hand"
    return spec_stacks(state)


def betting(actions: list[str]) -> list[tuple]:
    """The players' betting actions of a PHH action list, amounts as numbers."""
    out = []
    for action in actions:
        words = action.split("#")[0].split()
        if words and words[0] != "d" and words[1] != "sm":
            out.append((*words[:2], *(Decimal(w).normalize() for w in words[2:])))
    return out


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return oracle_rows(400, seed=11)


def test_pokerkit_reads_the_export_and_gets_the_same_final_stacks(rows):
    for row, text in zip(rows, phh.to_phh(rows), strict=True):
        players = phh.dealt_in(row)
        want = [row["starting_stacks"][s] + row["winnings"][s] for s in players]
        assert pokerkit_final(text) == want, text


def test_short_forced_bets_export_as_pokerkit_reads_them():
    """Stacks below the blinds or ante: every seat posts what it has, the bet to call is the
    largest posted (pokerkit's rule), and the round trip still holds."""
    rng = random.Random(12)
    rows = []
    for i in range(200):
        spec = random_spec(rng, rng.choice([2, 3, 6, 9]), "all_in", covered=False)
        rows.append(play_row(spec, PLAYERS["all_in"], rng, hand=i))
    short = [r for r in rows if min(r["starting_stacks"]) < r["ante"] + r["big_blind"]]
    assert len(short) > 20
    for row, text in zip(rows, phh.to_phh(rows), strict=True):
        want = [row["starting_stacks"][s] + row["winnings"][s] for s in phh.dealt_in(row)]
        assert pokerkit_final(text) == want, text
    assert phh.from_phh(phh.to_phh(rows)).to_pylist() == rows


def test_round_trip_through_pokerkit_gives_the_same_hand(rows):
    texts = [HandHistory.loads(text).dumps() for text in phh.to_phh(rows)]
    back = phh.from_phh(texts)
    assert back.schema.equals(phh.SCHEMA)
    assert back.to_pylist() == rows


def test_phhs_round_trip_and_arrow_input(rows):
    table = pa.Table.from_pylist(rows[:50], schema=phh.SCHEMA)
    text = phh.dumps(table)
    assert text.startswith("[1]\n") and "\n[50]\n" in text
    each = [HandHistory.loads(t) for t in phh.to_phh(rows[:50])]
    together = list(HandHistory.loads_all(text))
    assert [(h.starting_stacks, h.antes, h.actions) for h in together] == [
        (h.starting_stacks, h.antes, h.actions) for h in each
    ]
    assert phh.loads(text).to_pylist() == rows[:50]


def test_files_are_written_whole_and_read_back(rows, tmp_path):
    path = tmp_path / "hands.phhs"
    phh.write(rows[:20], path)
    assert phh.read(path).to_pylist() == rows[:20]
    assert [p.name for p in tmp_path.iterdir()] == ["hands.phhs"]
    assert phh.read(DATA / "pluribus-100-0.phh").num_rows == 1


def test_decimals_scale_to_whole_units_and_back():
    text = (DATA / "handhq-abs-2009-07-100nl-sample.phhs").read_text()
    table = phh.loads(text)
    assert table.schema.metadata[phh.SCALE_KEY] == b"100"
    first = table.to_pylist()[1]  # section [9]: antes 0.25, stacks like 130.79
    assert (first["ante"], first["small_blind"], first["big_blind"]) == (25, 50, 100)
    assert sorted(first["starting_stacks"]) == [5285, 13079, 19057, 22605]
    for original, exported in zip(HandHistory.loads_all(text), phh.to_phh(table), strict=True):
        again = HandHistory.loads(exported)
        assert again.starting_stacks == original.starting_stacks
        assert again.antes == original.antes
        assert betting(again.actions) == betting(original.actions)
        if original.finishing_stacks is not None:
            # The WSOP hand's bb ante is dead money: pokerkit replays the export (trimming off)
            # to the published finishing stacks, the original file (trimming on) it does not.
            assert pokerkit_final(exported) == original.finishing_stacks
    assert phh.loads(phh.dumps(table)).to_pylist() == table.to_pylist()


def test_explicit_scale_divides_amounts(rows):
    text = phh.to_phh(rows[:1], scale=100)[0]
    history = HandHistory.loads(text)
    assert history.min_bet == Decimal(rows[0]["big_blind"]) / 100
    assert phh.loads(text).schema.metadata[phh.SCALE_KEY] == b"100"
    with pytest.raises(PokerError, match="power of ten"):
        phh.to_phh(rows[:1], scale=3)


def test_table_seats_and_button_come_from_seats_and_seat_count():
    text = (DATA / "pluribus-100-0.phh").read_text()
    text += "\nseats = [4, 6, 8, 1, 2, 3]\nseat_count = 9\n"
    row = phh.loads(text).to_pylist()[0]
    assert (row["seats"], row["button"]) == (9, 2)
    assert row["starting_stacks"] == [10000, 10000, 10000, 10000, 0, 10000, 0, 10000, 0]
    assert row["actions"][0] == {"seat": 7, "street": 0, "kind": 0, "amount": 0}  # p3 folds
    # Without seat_count (online logs), players sit at seats 0..n-1 with the button last.
    compact = phh.loads((DATA / "handhq-abs-2009-07-100nl-sample.phhs").read_text())
    assert compact.column("button").to_pylist() == [2, 3, 5, 4]


def test_unknown_and_shown_cards():
    row = phh.loads((DATA / "dwan-ivey-2009.phh").read_text()).to_pylist()[0]
    assert row["hole_cards"][1] == [0xFF, 0xFF]  # Antonius folded unseen
    assert row["showed_down"] == [True, False, True]
    assert len(row["board"]) == 5 and row["actions"][-1]["street"] == 2
    muck = phh.loads((DATA / "pluribus-100-11.phh").read_text()).to_pylist()[0]
    assert muck["showed_down"] == [True, False, False, False, False, False]  # "p2 sm": mucked


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("variant = 'NT'", "variant = 'PO'"), "variant 'PO'"),
        (("min_bet = 100\n", ""), "required field 'min_bet'"),
        (("'p3 f'", "'p3 fold'"), "is not PHH"),
        (("'p3 f'", "'p9 f'"), "there is no player p9"),
        (("d dh p1 TcQc", "d dh p1 TcQx"), "is not 2 cards"),
        (("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, 5]"), "neither equal nor"),
        (("[50, 100, 0, 0, 0, 0]", "[50, 100, 200, 400, 0, 0]"), "only one straddle"),
        (("min_bet = 100", "min_bet = 50"), "is not the big blind"),
        (("[10000, 10000, 10000, 10000, 10000, 10000]", "[inf, 1, 1, 1, 1, 1]"), "not a finite"),
        (("'p4 cbr 210'", "'p4 cbr 20000'"), "does not fit"),
        (("variant = 'NT'", "variant = 'NT"), "not TOML"),
    ],
)
def test_bad_phh_is_refused_by_name(change, message):
    text = (DATA / "pluribus-100-0.phh").read_text().replace(*change)
    with pytest.raises(PokerError, match=message):
        phh.from_phh([text])


def test_more_than_ten_players_is_refused():
    n = 11
    text = (
        f"variant = 'NT'\nantes = {[0] * n}\nblinds_or_straddles = {[1, 2] + [0] * (n - 2)}\n"
        f"min_bet = 2\nstarting_stacks = {[100] * n}\nactions = []\n"
    )
    with pytest.raises(PokerError, match="at most 10 seats"):
        phh.from_phh([text])


@pytest.mark.parametrize("path", sorted(DATA.glob("*.phh*")), ids=lambda p: p.name)
def test_dataset_sample_imports_like_pokerkit_reads_it(path):
    """Every sample hand: the rows' forced bets, stacks and actions give back, exported, the
    hand pokerkit reads from the original file, and pokerkit replays the export to the file's
    finishing stacks."""
    text = path.read_text()
    originals = list(HandHistory.loads_all(text)) if path.suffix == ".phhs" else [None]
    table = phh.loads(text)
    for k, exported in enumerate(phh.to_phh(table)):
        original = originals[k] if path.suffix == ".phhs" else HandHistory.loads(text)
        again = HandHistory.loads(exported)
        assert again.starting_stacks == original.starting_stacks
        assert again.blinds_or_straddles == original.blinds_or_straddles
        assert betting(again.actions) == betting(original.actions)


def test_the_cli_writes_a_match_as_phh_that_pokerkit_reads(tmp_path):
    """``pypoker arena --phh``: pokerkit plays every hand of the file to the chips the match
    recorded, and reading the file back gives the recorded hands (pots aside: PHH has none;
    the rotation is a ``_pypoker_rotation`` field)."""
    import pyarrow.parquet as pq

    from pypoker.cli import main

    out, text = tmp_path / "hands.parquet", tmp_path / "hands.phhs"
    assert main(["arena", "--agents", "equity,chart,call,random,raise,equity", "--hands", "240",
                 "--duplicate", "--out", str(out), "--phh", str(text)]) == 0  # fmt: skip
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 240 and {row["rotation"] for row in rows} == set(range(6))
    histories = list(HandHistory.loads_all(text.read_text()))
    assert len(histories) == len(rows)
    for row, history in zip(rows, histories, strict=True):
        players = phh.dealt_in(row)
        want = [row["starting_stacks"][s] + row["winnings"][s] for s in players]
        assert pokerkit_final(history.dumps()) == want
        assert history.user_defined_fields["_pypoker_rotation"] == row["rotation"]
    back = phh.read(text).to_pylist()
    for row, again in zip(rows, back, strict=True):
        skip = ("pots", "rotation", "actions")
        assert {k: v for k, v in again.items() if k not in skip} == {
            k: v for k, v in row.items() if k not in skip
        }
        for played, read in zip(row["actions"], again["actions"], strict=True):
            # PHH has no all-in: a call or raise of the last chip reads back as ALL_IN.
            if read["kind"] == ALL_IN:
                read["kind"] = played["kind"] if played["kind"] in (CALL, RAISE) else ALL_IN
            assert read == played
