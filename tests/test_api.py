"""The public surface: forms of input, outputs, threads, text in and out, descriptions."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import to_sets

import pypoker as pp


def test_parse_and_format_round_trip():
    assert pp.parse_cards("AhKd 7c").tolist() == [38, 50, 18]
    assert pp.parse_cards("ah,KD,7C").tolist() == [38, 50, 18]
    assert pp.parse_cards("10s Ts".replace(" Ts", "")).tolist() == [8]
    assert pp.format_cards(pp.parse_cards("AhKd7c")) == "AhKd7c"
    hands = pp.parse_cards(["AhKd", "2s3c"])
    assert hands.shape == (2, 2) and hands.dtype == np.uint8
    assert pp.format_cards(hands) == ["AhKd", "2s3c"]
    all_cards = np.arange(52, dtype=np.uint8)
    assert pp.parse_cards(pp.format_cards(all_cards)).tolist() == list(range(52))
    assert pp.CARD_NAMES[0] == "2s" and pp.CARD_NAMES[51] == "Ad"


def test_rank_forms_agree():
    texts = ["AhAdKcKs9h2c3d", "7s8s9sTsJs2h2d", "2c3d4h5s7c9dJh"]
    cards = pp.parse_cards(texts)
    from_cards = pp.rank(cards)
    assert from_cards.dtype == np.uint16 and from_cards.shape == (3,)
    assert np.array_equal(pp.rank(to_sets(cards)), from_cards)
    assert np.array_equal(pp.rank(texts), from_cards)
    assert [pp.rank(t) for t in texts] == from_cards.tolist()
    assert pp.rank(cards[1]) == from_cards[1]
    assert pp.rank(to_sets(cards)[0]) == from_cards[0]
    assert isinstance(pp.rank(texts[0]), int)


def test_rank_ragged_text_and_every_hand_size():
    texts = ["Ah", "AhKd", "AhAd", "AhAdKs", "AhAdAsKs", "AhKhQhJhTh", "2c2d2h3s3c4d", "As"]
    ranks = pp.rank(texts)
    assert pp.category(ranks).tolist() == [1, 1, 2, 2, 4, 9, 7, 1]
    assert ranks[0] == ranks[7]  # suits never matter outside flushes
    # K < KQJT8 < A < AK, as OMPEval states the order of short hands.
    k, kqjt8, a, ak = pp.rank(["Kh", "KhQdJcTs8h", "Ah", "AhKd"])
    assert k < kqjt8 < a < ak


def test_out_is_filled_and_returned():
    cards = pp.deal(1000, 7, seed=3)
    out = np.zeros(1000, dtype=np.uint16)
    assert pp.rank(cards, out=out) is out
    assert np.array_equal(out, pp.rank(cards))


def test_non_contiguous_input_is_copied_not_misread():
    cards = pp.deal(1000, 7, seed=4)
    wide = np.zeros((1000, 14), dtype=np.uint8)
    wide[:, ::2] = cards
    strided = wide[:, ::2]
    assert not strided.flags.c_contiguous
    assert np.array_equal(pp.rank(strided), pp.rank(cards))
    every_other = pp.rank(cards[::2])
    assert np.array_equal(every_other, pp.rank(cards)[::2])


def test_results_identical_for_any_thread_count():
    cards = pp.deal(300_000, 7, seed=5)
    sets = to_sets(cards)
    one = pp.rank(cards, threads=1)
    for threads in (2, 3, 7, None):
        assert np.array_equal(pp.rank(cards, threads=threads), one)
        assert np.array_equal(pp.rank(sets, threads=threads), one)


def test_many_python_threads_at_once():
    cards = pp.deal(200_000, 7, seed=6)
    expected = pp.rank(cards, threads=1)
    failures = []

    def worker(i: int):
        for _ in range(5):
            if not np.array_equal(pp.rank(cards, threads=1 + i % 2), expected):
                failures.append(i)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_empty_batches():
    assert pp.rank(np.empty((0, 7), dtype=np.uint8)).shape == (0,)
    assert pp.rank(np.empty(0, dtype=np.uint64)).shape == (0,)
    assert pp.rank([]).shape == (0,)


@pytest.mark.parametrize(
    "hand, words",
    [
        ("KhKd9c9sAh", "Two Pair, Kings and Nines, Ace kicker"),
        ("AsKsQsJsTs", "Straight Flush, Ace high (Royal Flush)"),
        ("5d4d3d2dAd", "Straight Flush, Five high"),
        ("AhAdAcAs2h", "Four of a Kind, Aces, Two kicker"),
        ("6h6d6cKsKh", "Full House, Sixes full of Kings"),
        ("2h7h9hJhKh", "Flush, King-Jack-Nine-Seven-Two"),
        ("Ah2d3c4s5h", "Straight, Five high"),
        ("7h7d7cAsKh", "Three of a Kind, Sevens, Ace-King kickers"),
        ("QhQd9c5s3h", "Pair, Queens, Nine-Five-Three kickers"),
        ("AhJd9c5s3h", "High Card, Ace-Jack-Nine-Five-Three"),
        ("QhQd", "Pair, Queens"),
        ("AhAdKcKsQhQd2c", "Two Pair, Aces and Kings, Queen kicker"),
    ],
)
def test_describe(hand, words):
    assert pp.describe(pp.rank(hand)) == words


def test_describe_arrays_and_every_five_card_class(all_five_card_hands):
    ranks = np.unique(pp.rank(all_five_card_hands))
    words = pp.describe(ranks)
    assert words.shape == ranks.shape
    assert len(set(words.tolist())) == 7462  # the words tell every class apart
    for rank, text in zip(ranks.tolist(), words.tolist(), strict=True):
        assert text.startswith(pp.CATEGORY_NAMES[rank >> 12])


def test_category_and_names():
    ranks = pp.rank(["AhAd", "2c7d9hJsKc"])
    assert pp.category(ranks).tolist() == [2, 1]
    assert pp.category(ranks).dtype == np.uint8
    assert pp.CATEGORY_NAMES[pp.category(int(ranks[0]))] == "Pair"


def test_cpu_reports_the_kernels():
    assert pp.cpu() in ("avx512", "avx2", "baseline")
    # By default, the best this CPU runs.
    assert pp.cpu() == pp.supported_cpus()[-1]


def test_cli_ranks_random_and_given_hands(capsys):
    from pypoker.cli import main

    assert main(["rank", "--random", "200K", "--seed", "1"]) == 0
    printed = capsys.readouterr().out
    assert "ns/hand" in printed and "Straight Flush" in printed and "High Card" in printed
    assert main(["rank", "KhKd9c9sAh"]) == 0
    assert "Two Pair, Kings and Nines, Ace kicker" in capsys.readouterr().out
    assert main(["rank", "AhAh"]) == 2
    assert "appears twice" in capsys.readouterr().err
