"""One hand at a time: every one-hand form ranks as the batch path does, and a bad hand
raises the batch path's error (same type, same message)."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp


@pytest.mark.parametrize("k", range(1, 8))
def test_every_one_hand_form_ranks_as_the_batch(k):
    cards = pp.deal(300, k, seed=k)
    batch = pp.rank(cards)
    texts = pp.format_cards(cards)
    for i, row in enumerate(cards):
        want = int(batch[i])
        assert pp.rank(row.tolist()) == want
        assert pp.rank(tuple(row.tolist())) == want
        assert pp.rank(row) == want
        assert pp.rank(texts[i]) == want
        one_row = pp.rank(row[None, :])
        assert one_row.dtype == np.uint16 and one_row.tolist() == [want]


def _error(call):
    with pytest.raises(Exception) as caught:
        call()
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize(
    "hand",
    [[1, 1, 2], [1, 2, 60], [0, 52], [5, 300], [3] * 8, [1, 2, 3, 4, 5, 6, 7, 8]],
)
def test_a_bad_hand_of_ids_raises_the_batch_error(hand):
    kind, message = _error(lambda: pp.rank(hand))
    if max(hand) <= 255:
        batch = _error(lambda: pp.rank(np.array([hand], dtype=np.uint8)))
        assert issubclass(kind, pp.InvalidHandError)
        assert message == batch[1] or len(hand) > 7
        assert _error(lambda: pp.rank(np.array(hand, dtype=np.uint8))) == (kind, message)
    else:
        assert kind is pp.InvalidHandError and "card id 300 at position 1 is not a card" in message


def test_bad_text_and_odd_lists():
    for text in ("AhAh", "AhKx", "Zh", "AhKdQcJsTs9h8h7h"):
        kind, _ = _error(lambda text=text: pp.rank(text))
        assert issubclass(kind, (pp.CardParseError, pp.InvalidHandError))
    with pytest.raises(TypeError, match="position 1 holds str"):
        pp.rank([1, "Ah"])
    with pytest.raises(pp.InvalidHandError, match="card id -1 at position 0"):
        pp.rank([-1, 2])
    assert pp.rank([np.uint8(3), np.uint8(4)]) == pp.rank(np.array([3, 4], dtype=np.uint8))


@pytest.mark.parametrize("k", range(1, 8))
def test_small_batches_rank_and_fail_as_the_general_path(k):
    # Up to SMALL_BATCH_BYTES of ids, pp.rank takes one call with the hands passed as bytes;
    # threads= takes the general path.
    cards = pp.deal(500, k, seed=10 + k)
    assert cards.nbytes <= pp.ranking.SMALL_BATCH_BYTES
    small = pp.rank(cards)
    np.testing.assert_array_equal(small, pp.rank(cards, threads=1))
    np.testing.assert_array_equal(small, pp.rank(cards, threads=2))
    out = np.zeros(500, dtype=np.uint16)
    assert pp.rank(cards, out=out) is out
    np.testing.assert_array_equal(out, small)
    bad = cards.copy()
    bad[321, k - 1] = 60
    assert _error(lambda: pp.rank(bad)) == _error(lambda: pp.rank(bad, threads=1))
    assert _error(lambda: pp.rank(bad, out=out)) == _error(lambda: pp.rank(bad, threads=1))
    assert not out.any()  # a failed call leaves no ranks behind
    wide = np.zeros((3, 8), dtype=np.uint8)
    assert _error(lambda: pp.rank(wide)) == _error(lambda: pp.rank(wide, threads=1))
    hands = np.array([[0, 1]] * 4, dtype=np.uint8)
    with pytest.raises(ValueError, match="overlaps"):
        pp.rank(hands, out=hands.view(np.uint16).reshape(4))
