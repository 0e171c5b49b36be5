"""Real hands (PHH files) for the Range Reader, reads by name, and one hand read for a person."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyarrow")

import pypoker as pp  # noqa: E402
from pypoker import reader  # noqa: E402
from pypoker.arena._config import ALL_IN, CALL, FOLD, RAISE  # noqa: E402
from pypoker.range_grid import class_grid  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "real"
PLURIBUS = DATA / "pluribus.phhs"
HANDHQ = DATA / "handhq.phhs"

HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AhKh', 'd dh p2 7c7d', 'd dh p3 QsJs', {actions}]
"""


def write(tmp_path, actions: str, name="hand.phh") -> Path:
    path = tmp_path / name
    path.write_text(HAND.format(actions=actions))
    return path


@pytest.fixture(scope="module")
def pluribus():
    return reader.real_hands(PLURIBUS)


def test_the_samples_read_as_arena_histories(pluribus):
    assert pluribus.num_rows == 200
    assert pluribus.column("hand_id").to_pylist() == list(range(200))
    hole = np.array(pluribus.column("hole_cards").to_pylist())
    assert (hole < 52).all()  # Pluribus shows every seat
    handhq = reader.real_hands(HANDHQ)
    assert handhq.num_rows == 15
    both = reader.real_hands([PLURIBUS, DATA])  # a file and a folder: its two files
    assert both.num_rows == 200 + 200 + 15


def test_all_ins_are_named_as_the_agents_name_them(tmp_path):
    path = write(tmp_path, "'p3 cbr 10000', 'p1 cc', 'p2 f'")
    actions = reader.real_hands(path).column("actions").to_pylist()[0]
    assert [a["kind"] for a in actions] == [RAISE, CALL, FOLD]
    assert [a["amount"] for a in actions[:2]] == [10000, 10000]
    kinds = {a["kind"] for row in reader.real_hands(PLURIBUS).column("actions").to_pylist()
             for a in row}  # fmt: skip
    assert ALL_IN not in kinds


def test_examples_are_labelled_where_the_cards_are_known(pluribus):
    ex = reader.examples(pluribus)
    assert len(ex) > 2000 and set(np.unique(ex.data["seats"])) <= {2, 3, 4, 5, 6}
    handhq = reader.examples(reader.real_hands(HANDHQ))
    hands = reader.real_hands(HANDHQ).to_pylist()
    for row in np.unique(handhq.data["hand_row"]):
        seats = set(handhq.data["seat"][handhq.data["hand_row"] == row].tolist())
        shown = {s for s, cards in enumerate(hands[row]["hole_cards"]) if cards[0] < 52}
        assert seats == shown  # only the seats that showed are read


def test_probabilities_by_name_and_by_model(pluribus):
    ex = reader.examples(pluribus.slice(0, 20))
    prior = reader.probabilities(ex, "prior")
    np.testing.assert_array_equal(prior, reader.prior(ex))
    post = reader.probabilities(ex, "posterior")
    assert post.shape == (len(ex), 1326)
    np.testing.assert_allclose(post.sum(1), 1)
    assert (post[prior == 0] == 0).all()  # nothing on the board's combos

    class Model:
        def predict(self, examples):
            return np.full((len(examples), 1326), 1 / 1326)

    assert reader.probabilities(ex, Model()).shape == (len(ex), 1326)
    shipped = reader.probabilities(ex, "model")  # Reader.pretrained(), styles hidden
    np.testing.assert_allclose(shipped.sum(1), 1, rtol=1e-5)
    assert (shipped[prior == 0] == 0).all()
    with pytest.raises(pp.PokerError, match="using must be one of 'prior', 'posterior', 'model'"):
        reader.probabilities(ex, "oracle")
    # Generated hands: the examples' own population, styles known, as posterior() gives.
    played = reader.examples(_generated(), population="default")
    np.testing.assert_array_equal(reader.probabilities(played[:50], "posterior"),
                                  reader.posterior(played[:50]))  # fmt: skip


def _generated():
    import tempfile

    import pyarrow.parquet as pq

    folder = tempfile.mkdtemp()
    paths = reader.generate(40, folder, seats=2, seed=3)
    return pq.read_table(paths[0])


def test_an_illegal_action_names_the_file_and_the_hand(tmp_path):
    path = write(tmp_path, "'p3 cbr 150', 'p1 f', 'p2 f'")  # a raise below the minimum
    with pytest.raises(pp.PokerError, match=r"hand\.phh: hand \[1\]: .*raise"):
        reader.real_hands(path)


def test_a_card_that_collides_with_the_board_is_refused(tmp_path):
    path = write(tmp_path, "'p3 cc', 'p1 cc', 'p2 cc', 'd db AhQcJc', 'p1 cc', 'p2 cc', "
                 "'p3 cc', 'd db 2c', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 3c', 'p1 cc', "
                 "'p2 cc', 'p3 cc'")  # fmt: skip
    with pytest.raises(pp.PokerError, match=r"hand \[1\]: card Ah is dealt twice"):
        reader.real_hands(path)


def test_the_read_of_one_hand(tmp_path):
    found = reader.read_hand(PLURIBUS, "p5", hand=198)
    assert found.seat == 4 and found.cards == "TdTc"
    assert found.top(1)[0][0][0] == "J" and found.rank() == 7
    grid = found.grid()
    assert grid.shape == (13, 13) and grid.sum() == pytest.approx(1)
    assert found.describe().splitlines()[-1].startswith("held TdTc")
    hidden = reader.read_hand(HANDHQ, "p3", hand=2)  # mucked: read all the same
    assert hidden.cards is None and hidden.rank() is None
    assert hidden.probabilities.sum() == pytest.approx(1)
    with pytest.raises(pp.PokerError, match=r"seat 7 is not in the hand \(players: p1 = seat 0"):
        reader.read_hand(PLURIBUS, 7, hand=198)
    with pytest.raises(pp.PokerError, match="seat 'p9' is not in the hand"):
        reader.read_hand(PLURIBUS, "p9", hand=198)
    with pytest.raises(pp.PokerError, match="hand: .* holds hands 1..200"):
        reader.read_hand(PLURIBUS, 0, hand=201)


def test_the_read_of_a_generated_hand_by_its_id(tmp_path):
    paths = reader.generate(300, tmp_path / "data", seats=2, shard_hands=100, seed=5)
    import pyarrow.parquet as pq

    table = pq.read_table(paths[2])
    hand_id = table.column("hand_id")[7].as_py()
    found = reader.read_hand(tmp_path / "data", 1, hand_id=hand_id)
    ex = reader.examples(table.slice(7, 1), seat=1, population="default")
    np.testing.assert_allclose(found.probabilities, reader.posterior(ex)[-1])
    with pytest.raises(pp.PokerError, match="no hand with hand_id"):
        reader.read_hand(tmp_path / "data", 1, hand_id=12345678901)
    with pytest.raises(pp.PokerError, match="give hand_id"):
        reader.read_hand(tmp_path / "data", 1)
    from pypoker.cli import main

    folder = str(tmp_path / "data")
    assert main(["reader", "read", folder, "--hand-id", str(hand_id), "--seat", "1"]) == 0


def test_the_command_writes_the_grid(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from pypoker.cli import main

    grid = tmp_path / "read.png"
    code = main(["reader", "read", str(PLURIBUS), "--hand", "198", "--seat", "p5", "--grid",
                 str(grid), "--top", "3"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and grid.stat().st_size > 10_000
    assert "  1  Js" in out and "held TdTc" in out
    assert main(["reader", "read", str(PLURIBUS), "--hand", "198", "--seat", "p8"]) != 0


def test_class_grid_folds_combos_into_the_13x13_layout():
    values = np.zeros(1326)
    aces = np.flatnonzero((pp.COMBOS % 13 == 12).all(1))
    values[aces] = 1
    grid = class_grid(values)
    assert grid[0, 0] == 6 and grid.sum() == 6
    suited_ak = np.flatnonzero(((pp.COMBOS % 13) == [11, 12]).all(1)
                               & (pp.COMBOS[:, 0] // 13 == pp.COMBOS[:, 1] // 13))  # fmt: skip
    values[:] = 0
    values[suited_ak] = 1
    assert class_grid(values)[0, 1] == 4  # AKs above the diagonal


def test_a_hand_typed_as_phh_text(monkeypatch, capsys):
    import io

    from pypoker.cli import main

    text = HAND.format(actions="'p3 cbr 300', 'p1 cc', 'p2 f', 'd db 2c7h9s', 'p1 cc', "
                       "'p3 cbr 400', 'p1 f'")  # fmt: skip
    found = reader.read_hand(text, "p3")
    assert found.cards == "QsJs" and found.probabilities.sum() == pytest.approx(1)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["reader", "read", "-", "--seat", "p1", "--top", "2"]) == 0
    assert "held AhKh" in capsys.readouterr().out
    with pytest.raises(pp.PokerError, match=r"the PHH text: hand \[1\]: .*raise"):
        reader.read_hand(HAND.format(actions="'p3 cbr 150', 'p1 f', 'p2 f'"), "p1")
