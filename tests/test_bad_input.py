"""Bad input raises a clear error naming the row and the card; nothing looks like a result."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp


def hands_with(row: int, position: int, card: int, n: int = 5000, k: int = 7) -> np.ndarray:
    cards = pp.deal(n, k, seed=11)
    cards[row, position] = card
    return cards


def test_card_id_out_of_range_names_row_and_card(each_cpu):
    cards = hands_with(1834, 3, 52)
    with pytest.raises(pp.InvalidHandError, match=r"row 1834: card id 52 at position 3") as e:
        pp.rank(cards)
    assert e.value.row == 1834 and e.value.card == 52
    assert isinstance(e.value, ValueError)


def test_duplicate_card_names_row_and_card(each_cpu):
    cards = pp.deal(5000, 7, seed=11)
    cards[1834, 6] = cards[1834, 2]
    name = pp.CARD_NAMES[cards[1834, 2]]
    with pytest.raises(pp.InvalidHandError, match=rf"row 1834: card {name} appears twice"):
        pp.rank(cards)


def test_first_bad_row_is_reported_across_threads():
    cards = pp.deal(400_000, 7, seed=12)
    cards[399_000, 0] = 200
    cards[250_000, 1] = 99
    for threads in (1, 2, 4):
        with pytest.raises(pp.InvalidHandError, match="row 250000: card id 99"):
            pp.rank(cards, threads=threads)


def test_failed_call_leaves_no_ranks_in_out():
    cards = hands_with(4000, 0, 77)
    out = np.full(5000, 0xFFFF, dtype=np.uint16)
    with pytest.raises(pp.InvalidHandError):
        pp.rank(cards, out=out)
    assert not out.any()


@pytest.mark.parametrize(
    "sets, message",
    [
        (np.array([0x7F, 1 << 52], dtype=np.uint64), "row 1: bit 52 is set"),
        (np.array([0x7F, 0, 0xFF], dtype=np.uint64), "row 2: more than 7 cards"),
        (np.array([0xFF], dtype=np.uint64), "row 0: more than 7 cards"),
    ],
)
def test_bad_card_sets(sets, message, each_cpu):
    with pytest.raises(pp.InvalidHandError, match=message):
        pp.rank(sets)


@pytest.mark.parametrize("k", [8, 10])
def test_hand_sizes_over_seven(k):
    with pytest.raises(pp.InvalidHandError, match="a hand has 0 to 7"):
        pp.rank(np.zeros((3, k), dtype=np.uint8))


@pytest.mark.parametrize(
    "array", [np.zeros((4, 7), dtype=np.int64), np.zeros((4, 7), dtype=np.int8),
              np.zeros(4, dtype=np.int64), np.zeros((4, 7), dtype=np.float32)],
)  # fmt: skip
def test_wrong_dtypes_are_refused_never_reinterpreted(array):
    with pytest.raises(TypeError, match="dtype"):
        pp.rank(array)


def test_python_ints_and_other_objects_are_refused():
    with pytest.raises(TypeError):
        pp.rank(12345)
    with pytest.raises(TypeError):
        pp.rank([[1, 2, 3]])


@pytest.mark.parametrize(
    "out, error",
    [
        (np.zeros(10, dtype=np.uint32), TypeError),
        (np.zeros(9, dtype=np.uint16), ValueError),
        (np.zeros(20, dtype=np.uint16)[::2], ValueError),
        ([0] * 10, TypeError),
    ],
)
def test_wrong_out(out, error):
    with pytest.raises(error):
        pp.rank(pp.deal(10, 7, seed=1), out=out)


def test_read_only_out():
    out = np.zeros(10, dtype=np.uint16)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        pp.rank(pp.deal(10, 7, seed=1), out=out)


@pytest.mark.parametrize(
    "text, message",
    [
        ("Ax", r'"Ax": \'x\' at position 1 is not a suit'),
        ("1h", r'"1h": \'1\' at position 0 is not a card value'),
        ("AhAh", r'"AhAh": card Ah appears twice'),
        ("Kd A", r'"Kd A": \'end of text\' at position 4 is not a suit'),
        ("Zs", r"is not a card value"),
        ("Ah♠Kd", r"'♠' at position 2 is not a card value"),
    ],
)
def test_malformed_strings(text, message):
    with pytest.raises(pp.CardParseError, match=message):
        pp.parse_cards(text)
    with pytest.raises(pp.CardParseError):
        pp.rank(text)


def test_malformed_string_in_a_list_names_its_row():
    with pytest.raises(pp.CardParseError, match=r'row 2: "AhKx"'):
        pp.rank(["AhKd", "2c3c", "AhKx"])
    with pytest.raises(TypeError, match="row 1"):
        pp.rank(["AhKd", 7])


def test_ragged_list_bad_sizes():
    with pytest.raises(pp.InvalidHandError, match="row 1: more than 7 cards"):
        pp.rank(["AhKd", "2c3c4c5c6c7c8c9c"])
    with pytest.raises(pp.InvalidHandError, match="row 2: more than 7 cards"):
        pp.rank(["AhKd", "", "2c3c4c5c6c7c8c9c"])  # no cards is a hand: the lowest
    with pytest.raises(pp.CardParseError, match="row 1: 3 cards where row 0 has 2"):
        pp.parse_cards(["AhKd", "2c3c4c"])


def test_describe_and_category_refuse_non_ranks():
    for bad in (0, 0xA000, 0x1FFF):
        with pytest.raises(ValueError):
            pp.describe(bad)
    with pytest.raises(ValueError):
        pp.category(0)
    with pytest.raises(TypeError):
        pp.category(np.zeros(3, dtype=np.int32))


def test_format_cards_refuses_non_cards():
    with pytest.raises(ValueError, match="card id 52"):
        pp.format_cards(np.array([1, 52]))
