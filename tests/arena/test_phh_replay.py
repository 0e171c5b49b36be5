"""PHH hands replayed in the engine (pypoker.arena.replay): the public sample, the engine's
own histories through PHH and pokerkit and back, and the errors a bad row must raise."""

from __future__ import annotations

import copy
import os
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pokerkit")
pytest.importorskip("pyarrow")

from pokerkit import HandHistory  # noqa: E402
from pokerkit_oracle import ALL_IN, CALL, RAISE, oracle_divmod, spec_stacks  # noqa: E402

from pypoker._native import PokerError  # noqa: E402
from pypoker.arena import phh  # noqa: E402
from pypoker.arena.replay import replay, replay_row  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"


def pokerkit_winnings(history: HandHistory, row: dict) -> list[int]:
    """pokerkit's net winnings per table seat of one PHH hand (scaled to the row's units)."""
    history.divmod = oracle_divmod()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(history)
    final = spec_stacks(states[-1])
    scale = row["_scale"]
    out = [0] * row["seats"]
    for k, seat in enumerate(phh.dealt_in(row)):
        out[seat] = int(final[k] * scale) - row["starting_stacks"][seat]
    return out


def sample(name: str) -> tuple[list[HandHistory], list[dict]]:
    text = (DATA / name).read_text()
    table = phh.loads(text)
    scale = int(table.schema.metadata[phh.SCALE_KEY])
    rows = [{**row, "_scale": scale} for row in table.to_pylist()]
    if name.endswith(".phhs"):
        return list(HandHistory.loads_all(text)), rows
    return [HandHistory.loads(text)], rows


@pytest.mark.parametrize("path", sorted(DATA.glob("*.phh*")), ids=lambda p: p.name)
def test_dataset_sample_replays_to_pokerkits_stacks(path):
    histories, rows = sample(path.name)
    for history, row in zip(histories, rows, strict=True):
        # repair: the WSOP file leaves out the button's fold, as pokerkit allows. The
        # replay checks the file's finishing stacks where it has them.
        winnings = replay_row(row, repair=True)["winnings"]
        if path.name.startswith("wsop"):
            # pokerkit refunds this file's big-blind ante (ante_trimming_status = true);
            # the published finishing stacks, which replay_row checked, keep it dead.
            history.ante_trimming_status = False
        assert winnings == pokerkit_winnings(history, row)


def test_replay_returns_rows_with_the_engines_winnings():
    table = phh.loads((DATA / "handhq-abs-2009-07-100nl-sample.phhs").read_text())
    replayed = replay(table)
    assert replayed.schema.metadata == table.schema.metadata
    winnings = replayed.column("winnings").to_pylist()
    assert all(sum(w) == 0 for w in winnings)
    # [1]: p3 (the button) folds, p1 (small blind) raises, p2 (big blind) folds.
    assert winnings[0] == [100, -100, 0]


def test_unknown_card_at_showdown_is_refused():
    text = (DATA / "pluribus-100-11.phh").read_text().replace("'d dh p2 Ah6s'", "'d dh p2 ????'")
    row = phh.loads(text).to_pylist()[0]
    assert row["hole_cards"][1] == [0xFF, 0xFF]
    with pytest.raises(PokerError, match=r"row 0: action \d+ .*unknown \(0xFF\) to a showdown"):
        replay_row(row)


def test_unknown_cards_of_a_seat_that_folds_are_fine():
    row = phh.loads((DATA / "dwan-ivey-2009.phh").read_text()).to_pylist()[0]
    # Antonius (the big blind, cards unknown) folds: ante and blind lost.
    assert replay_row(row)["winnings"] == [572100 - 1125600, -2500, 1109500 - 553500]


@pytest.fixture
def row() -> dict:
    return phh.loads((DATA / "pluribus-100-0.phh").read_text()).to_pylist()[0]


def test_wrong_actor_is_refused(row):
    bad = copy.deepcopy(row)
    bad["actions"][0]["seat"] = 4
    with pytest.raises(PokerError, match=r"row 0: action 0 \(fold by seat 4\): seat 2 is to act"):
        replay_row(bad)


def test_illegal_raise_is_refused_with_the_engines_reason(row):
    bad = copy.deepcopy(row)
    bad["actions"][1] = {**bad["actions"][1], "kind": RAISE, "amount": 150}
    with pytest.raises(PokerError, match=r"row 0: action 1 \(raise by seat 3\)"):
        replay_row(bad)


def test_actions_must_end_with_the_hand(row):
    short = copy.deepcopy(row)
    short["actions"] = short["actions"][:-1]
    with pytest.raises(PokerError, match="end before the hand does"):
        replay_row(short)
    long = copy.deepcopy(row)
    long["actions"].append({"seat": 0, "street": 3, "kind": CALL, "amount": 0})
    with pytest.raises(PokerError, match="ended with actions left over"):
        replay_row(long)


def test_winnings_that_differ_are_reported(row):
    bad = copy.deepcopy(row)
    bad["winnings"] = [0] * 6
    with pytest.raises(PokerError, match="engine's winnings .* differ"):
        replay_row(bad)
    assert replay_row(bad, check=False)["winnings"] == row["winnings"]


def test_engine_histories_round_trip_through_pokerkit():
    """pypoker -> PHH -> pokerkit (parses and replays it to the same stacks) -> PHH ->
    pypoker: the same hands, and the engine replays them to the same winnings."""
    from pypoker.arena import Arena

    arena = Arena(8, 6, stacks=[150, 40, 300, 90, 200, 60], blinds=(1, 2), ante=1,
                  straddle=4, seed=7, carry=True)  # fmt: skip
    history = arena.play(40, record=True)
    rows = history.to_pylist()
    texts = phh.to_phh(history)
    again = []
    for row, text in zip(rows, texts, strict=True):
        parsed = HandHistory.loads(text)
        assert pokerkit_winnings(parsed, {**row, "_scale": 1}) == row["winnings"]
        again.append(parsed.dumps())
    back = phh.from_phh(again).to_pylist()
    for original, imported in zip(rows, back, strict=True):
        assert comparable(imported) == comparable(original)
    # A fresh arena needs every stack to cover the forced bets; carried stacks may not (the
    # engine has no way yet to start a hand from such stacks), and replay says so.
    covered = [r for r in back if min(r["starting_stacks"][s] for s in phh.dealt_in(r))
               >= r["ante"] + max(r["big_blind"], r["straddle"])]  # fmt: skip
    assert 10 < len(covered) < len(back)
    assert replay(covered).column("winnings").to_pylist() == [r["winnings"] for r in covered]
    short = next(r for r in back if r not in covered)
    with pytest.raises(PokerError, match="below the forced bets"):
        replay_row(short)


def comparable(row: dict) -> dict:
    """A row without what PHH does not carry: pots, and the CALL/RAISE/ALL_IN distinction
    (PHH writes an all-in as the raise or call it is; the amount says which)."""
    out = {k: v for k, v in row.items() if k != "pots"}
    dealt = set(phh.dealt_in(row))  # a seat sitting out is dealt cards it never uses
    out["hole_cards"] = [h if s in dealt else [0xFF, 0xFF] for s, h in enumerate(row["hole_cards"])]
    out["actions"] = [
        {**a, "kind": CALL if a["kind"] in (CALL, RAISE, ALL_IN) else a["kind"]}
        for a in row["actions"]
    ]
    return out


# Replays every hand of a PHH collection, e.g. the 10,000 Pluribus hands of uoftcprg/phh-dataset
# (all replay to their finishing stacks): PYPOKER_PHH_DIR=/path/to/phh-files.
PHH_DIR = os.environ.get("PYPOKER_PHH_DIR")
UNSUPPORTED = ("below the forced bets", "unknown (0xFF) to a showdown", "is not 'NT'")


@pytest.mark.skipif(not PHH_DIR, reason="set PYPOKER_PHH_DIR to a folder of .phh/.phhs files")
def test_phh_collection_replays():
    paths = sorted(p for p in Path(PHH_DIR).rglob("*") if p.suffix in (".phh", ".phhs"))
    replayed, unsupported, problems = 0, 0, []
    for path in paths:
        try:
            rows = phh.read(path).to_pylist()
        except PokerError as error:
            unsupported += any(u in str(error) for u in UNSUPPORTED)
            problems += [] if any(u in str(error) for u in UNSUPPORTED) else [f"{path}: {error}"]
            continue
        for row in rows:
            try:
                replay_row(row, repair=True)
                replayed += 1
            except PokerError as error:
                if any(u in str(error) for u in UNSUPPORTED):
                    unsupported += 1
                else:
                    problems.append(f"{path}: {error}")
    print(f"{replayed} hands replayed, {unsupported} unsupported, {len(problems)} problems")
    assert replayed and not problems, problems[:5]
