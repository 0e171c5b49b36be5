"""Omaha ranking against an oracle written plainly (every two-and-three choice through the
Hold'em evaluator) on every CPU level, against phevaluator's Omaha evaluator, and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp


def oracle(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The best of all C(k, 2) x C(b, 3) five-card hands, each ranked by ``pp.rank``."""
    hands = [
        np.concatenate([holes[:, list(pair)], boards[:, list(triple)]], axis=1)
        for pair in itertools.combinations(range(holes.shape[1]), 2)
        for triple in itertools.combinations(range(boards.shape[1]), 3)
    ]
    return np.max([pp.rank(np.ascontiguousarray(h)) for h in hands], axis=0)


def deal_rows(n: int, hole_cards: int, board_cards: int, seed: int, suits: int = 4):
    """Random rows; with ``suits=2`` the cards come from two suits, so flushes abound."""
    cards = pp.deal(n, hole_cards + board_cards, seed=seed)
    if suits == 2:
        rng = np.random.default_rng(seed)
        deck = np.arange(26, dtype=np.uint8)
        cards = np.array([rng.permutation(deck)[: hole_cards + board_cards] for _ in range(n)])
    return np.ascontiguousarray(cards[:, :hole_cards]), np.ascontiguousarray(cards[:, hole_cards:])


@pytest.fixture(params=pp.supported_cpus())
def level(request):
    pp.select_cpu(request.param)
    yield request.param
    pp.select_cpu("auto")


@pytest.mark.parametrize("hole_cards", [4, 5, 6])
@pytest.mark.parametrize("board_cards", [3, 4, 5])
def test_equals_every_two_and_three_choice(level, hole_cards, board_cards):
    for suits, seed in ((4, 1), (2, 2)):
        holes, boards = deal_rows(4000, hole_cards, board_cards, seed, suits)
        np.testing.assert_array_equal(pp.rank_omaha(holes, boards), oracle(holes, boards))


def test_orders_hands_as_phevaluator_does():
    phevaluator = pytest.importorskip("phevaluator")
    holes, boards = deal_rows(200_000, 4, 5, seed=3)
    ours = pp.rank_omaha(holes, boards)
    names = np.array(pp.CARD_NAMES)
    theirs = np.array([
        phevaluator.evaluate_omaha_cards(*names[board], *names[hole])
        for hole, board in zip(holes.tolist(), boards.tolist(), strict=True)
    ])  # fmt: skip
    # Lower is better there: the same hands tie, and order is reversed.
    order = np.argsort(ours, kind="stable")
    assert np.all(np.diff(theirs[order]) <= 0)
    assert len(np.unique(ours)) == len(np.unique(theirs))


def test_known_hands():
    assert pp.describe(pp.rank_omaha("AhAsKhKs", "QhJhTh2c3d")) == [
        "Straight Flush, Ace high (Royal Flush)"
    ]
    # Four hearts on the board and one in the hand: no flush (two hole cards are a must);
    # the best is 2c3d with Ah4h5h, a five-high straight.
    assert pp.category(pp.rank_omaha("2c3dTsTh", "Ah4h5hKhQc"))[0] == 5
    # Three of a kind on the board and a pair in the hand is a full house, never quads.
    assert pp.category(pp.rank_omaha("KsKd2c3c", "AhAsAd7c8d"))[0] == 7


def test_text_and_arrays_agree():
    holes, boards = deal_rows(50, 5, 4, seed=4)
    text = pp.rank_omaha([pp.format_cards(h) for h in holes], [pp.format_cards(b) for b in boards])
    np.testing.assert_array_equal(text, pp.rank_omaha(holes, boards))


def test_one_hand_ranks_as_the_batch_does(level):
    # Two strings take the one-hand call (pp_rank_omaha_text); lists take the batch path.
    for hole_cards, board_cards in itertools.product((4, 5, 6), (3, 4, 5)):
        holes, boards = deal_rows(40, hole_cards, board_cards, seed=hole_cards * board_cards)
        batch = pp.rank_omaha(holes, boards)
        for row, (hole, board) in enumerate(zip(holes, boards, strict=True)):
            text = pp.format_cards(board)
            spaced = " ".join(text[i : i + 2] for i in range(0, len(text), 2))
            for one in (
                pp.rank_omaha(pp.format_cards(hole), spaced),
                pp.rank_omaha(hole, board),  # one-row arrays take pp_rank_omaha_hand
                pp.rank_omaha(hole[None], board[None]),
            ):
                assert one.dtype == np.uint16
                assert one.tolist() == [batch[row]]


def test_showdown_equals_each_player_alone():
    cards = pp.deal(3000, 5 + 3 * 6, seed=5)
    boards = np.ascontiguousarray(cards[:, :5])
    holes = np.ascontiguousarray(cards[:, 5:].reshape(3000, 3, 6))
    ranks = pp.rank_showdown_omaha(boards, holes)
    for p in range(3):
        np.testing.assert_array_equal(ranks[:, p], pp.rank_omaha(holes[:, p].copy(), boards))


def test_threads_give_the_same_ranks():
    holes, boards = deal_rows(100_000, 4, 5, seed=6)
    np.testing.assert_array_equal(
        pp.rank_omaha(holes, boards, threads=1), pp.rank_omaha(holes, boards, threads=2)
    )


@pytest.mark.parametrize(
    ("holes", "boards", "message"),
    [
        ("AhAsKh", "QhJhTh2c3d", "3 hole cards: Omaha has 4"),
        ("AhAsKhKdQsQdJs", "QhJhTh2c3d", "7 hole cards"),
        ("AhAsKhKs", "QhJh", "boards of 2 cards"),
        ("AhAsKhKs", "QhJhTh2c3d4d", "boards of 6 cards"),
        ("AhAsKhKs", "QhJhAh2c3d", "row 0: hole card 0 is Ah, a card already in the row"),
        ("AhAsKhKh", "QhJhTh2c3d", "card Kh appears twice"),
    ],
)
def test_bad_hands_are_named(holes, boards, message):
    with pytest.raises(pp.PokerError, match=message):
        pp.rank_omaha(holes, boards)
    # The same hand as one-row arrays: refused by the one-hand call, named by the batch path.
    with pytest.raises(pp.PokerError, match=message):
        pp.rank_omaha(pp.parse_cards(holes), pp.parse_cards(boards)[None])


def test_bad_rows_inside_a_vector_block_are_named(level):
    # 64 rows of one player: the vector levels rank them sixteen at a time (omaha_vector.zig).
    holes, boards = deal_rows(64, 4, 5, seed=9)
    holes[37, 2] = boards[37, 1]
    with pytest.raises(pp.InvalidHandError, match="row 37: ") as e:
        pp.rank_omaha(holes, boards)
    assert (e.value.row, e.value.card) == (37, boards[37, 1])
    holes, boards = deal_rows(64, 4, 5, seed=9)
    boards[20, 4] = 60
    with pytest.raises(pp.InvalidHandError, match="row 20: .*60, not a card"):
        pp.rank_omaha(holes, boards)


def test_bad_showdowns_are_named():
    boards = pp.parse_cards(["2c3c4c5c6c", "2c3c4c5c6c"])
    holes = pp.parse_cards(["AhAsKhKs", "QhQsJhJs", "AhAsKhKs", "QhQsJhAh"]).reshape(2, 2, 4)
    with pytest.raises(pp.InvalidHandError, match="row 1: player 1's hole card 3 is Ah") as e:
        pp.rank_showdown_omaha(boards, holes)
    assert (e.value.row, e.value.card) == (1, pp.parse_cards("Ah")[0])
    holes[1, 1, 3] = 60
    with pytest.raises(pp.InvalidHandError, match="row 1: player 1's hole card 3 is 60, not a"):
        pp.rank_showdown_omaha(boards, holes)
    too_many = np.zeros((1, 12, 4), dtype=np.uint8)
    with pytest.raises(ValueError, match="the deck holds at most 11 players"):
        pp.rank_showdown_omaha(boards[:1], too_many)


@pytest.mark.parametrize("game", ["plo4", "plo6"])
def test_datasets_deal_omaha_rows_ranked_as_omaha(game, tmp_path):
    k = pp.omaha.GAMES[game]
    path = pp.dataset(5_000, 3, seed=7, path=tmp_path / "plo.parquet", chunk=2_000, game=game)
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    assert table.schema.field("holes").type.list_size == 3
    assert table.schema.field("holes").type.value_type.list_size == k
    assert table.schema.metadata[b"pypoker.game"] == game.encode()
    holes = np.array(table.column("holes").to_pylist(), dtype=np.uint8)
    boards = np.column_stack([
        np.array(table.column("flop").to_pylist(), dtype=np.uint8),
        table.column("turn").to_numpy(), table.column("river").to_numpy(),
    ]).astype(np.uint8)  # fmt: skip
    ranks = np.array(table.column("rank").to_pylist())
    np.testing.assert_array_equal(ranks, pp.rank_showdown_omaha(boards, holes))
    winners = np.array(table.column("winner").to_pylist())
    np.testing.assert_array_equal(winners, ranks == ranks.max(axis=1, keepdims=True))
    # Every card of a row distinct: the deal is the seed's stream, k cards a player.
    cards = np.hstack([boards, holes.reshape(len(holes), -1)])
    assert all(len(set(row)) == cards.shape[1] for row in cards.tolist())


def test_datasets_refuse_what_omaha_cannot_deal():
    with pytest.raises(ValueError, match="8 players of PLO6: the deck deals 7"):
        pp.dataset(10, 8, seed=1, game="plo6")
    with pytest.raises(ValueError, match="equity labels are Hold'em's"):
        pp.dataset(10, 2, seed=1, game="plo4", equity=True)
    with pytest.raises(ValueError, match="game 'plo3'"):
        pp.dataset(10, 2, seed=1, game="plo3")
