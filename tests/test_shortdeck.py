"""Short deck (6+) hold'em: ``game="shortdeck"`` (trips beat straights) and
``game="shortdeck-straights"`` (straights beat trips, pokerkit's ``ShortDeckHoldemHand``)
through rank, category, describe, rank_showdown, deal, equity, datasets and the CLI; the
exhaustive proof over every 5- and 7-card hand is the Zig suite's
(zsrc/rank/shortdeck_exhaustive.zig)."""

from __future__ import annotations

import functools
import itertools
import subprocess
import sys

import numpy as np
import pytest

import pypoker as pp
from pypoker._games import GAMES, game_of

SHORT = ("shortdeck", "shortdeck-straights")
LOW = "".join(v + s for v in "2345" for s in "shcd")


def deal_short(n: int, k: int, seed: int) -> np.ndarray:
    return pp.deal(n, k, seed=seed, game="shortdeck")


def sets_of(hands: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)


# ------------------------------------------------------------------------- the rules


@pytest.mark.parametrize("game", SHORT)
def test_named_hands(game):
    rank = functools.partial(pp.rank, game=game)
    flush, full_house = rank("6s8s9sJsKsAhAd"), rank("TsThTdAcAs6s7h")
    assert flush > full_house  # fewer cards of a suit: a flush is rarer
    assert pp.describe(flush, game=game) == "Flush, King-Jack-Nine-Eight-Six"
    wheel, six_high = rank("As6h7d8c9s"), rank("6s7h8d9cTs")
    assert wheel < six_high and pp.describe(wheel, game=game) == "Straight, Nine high"
    assert pp.category(wheel, game=game) == 5  # Hold'em's number: CATEGORY_NAMES names it
    assert rank("As6s7s8s9s") == (9 << 12) | 1  # the lowest straight flush
    trips, straight = rank("TsThTd9c8sAhKh"), rank("6s7h8d9cTsJhQh")
    assert (trips > straight) == (game == "shortdeck")
    assert pp.category(np.array([trips, straight], np.uint16), game=game).tolist() == [4, 5]


def test_the_rules_differ_only_between_trips_and_straights():
    hands = deal_short(200_000, 7, seed=5)
    a = pp.rank(hands, game="shortdeck")
    b = pp.rank(hands, game="shortdeck-straights")
    ca, cb = pp.category(a, game="shortdeck"), pp.category(b, game="shortdeck-straights")
    same = ~np.isin(ca, (4, 5)) & ~np.isin(cb, (4, 5))
    assert np.array_equal(a[same], b[same])
    assert np.array_equal(ca[same], cb[same])
    # A hand holding both trips and a straight is trips under one rule, a straight under the other.
    assert np.any((ca == 4) & (cb == 5))


def test_ranks_hold_the_hold_em_format():
    hands = deal_short(100_000, 7, seed=1)
    for game in SHORT:
        ranks = pp.rank(hands, game=game)
        assert ranks.min() > 0 and (ranks >> 12).max() <= 9
        assert set(np.unique(pp.category(ranks, game=game))) <= set(range(1, 10))


# ------------------------------------------------------------- pokerkit, same order and ties


def _pokerkit_order(hands: np.ndarray, pokerkit_hand):
    """Indices of hands sorted by pokerkit, and pokerkit's equal-to-next flags."""
    made = [pokerkit_hand(pp.format_cards(h)) for h in hands]

    def compare(i, j):
        return -1 if made[i] < made[j] else (1 if made[j] < made[i] else 0)

    order = sorted(range(len(made)), key=functools.cmp_to_key(compare))
    ties = [made[order[i]] == made[order[i + 1]] for i in range(len(order) - 1)]
    labels = [made[i].entry.label.name for i in order]
    return np.array(order), np.array(ties), labels


@pytest.mark.parametrize("k", [5, 6, 7])
def test_pokerkit_short_deck_hand_same_order_same_ties(k):
    pokerkit = pytest.importorskip("pokerkit")

    def hand(text: str):
        if k == 5:
            return pokerkit.ShortDeckHoldemHand(text)
        return pokerkit.ShortDeckHoldemHand.from_game(text[:4], text[4:])

    hands = deal_short(1500, k, seed=10 + k)
    # Add hands that meet at the rules' edges: wheels, flush vs full house, trips vs straight.
    extra = ["As6h7d8c9s", "6s7h8d9cTs", "TsThTdAcAs", "6s8s9sJsKs", "TsThTd9c8s", "As6s7s8s9s"]
    extra = [e + "".join(c for c in ("Kd", "Qc")[: k - 5]) for e in extra]
    hands = np.concatenate([hands, pp.parse_cards(extra)])
    order, ties, labels = _pokerkit_order(hands, hand)
    # pokerkit ranks straights above trips: "shortdeck-straights" must match it exactly.
    ranks = pp.rank(hands, game="shortdeck-straights")[order]
    assert np.all(np.diff(ranks.astype(np.int64)) >= 0)
    assert np.array_equal(ranks[1:] == ranks[:-1], ties)
    # "shortdeck" matches it wherever trips do not meet a straight: between two hands neither
    # of which holds both (pokerkit's label is then the same category), not trips vs straight.
    both = pp.rank(hands, game="shortdeck")[order]
    plain = pp.category(both, game="shortdeck") == pp.category(ranks, game="shortdeck-straights")
    kept = np.flatnonzero(plain)
    for i, j in itertools.pairwise(kept):
        if {labels[i], labels[j]} == {"THREE_OF_A_KIND", "STRAIGHT"}:
            continue
        assert both[i] <= both[j], (labels[i], labels[j])
        assert (both[i] == both[j]) == (ranks[i] == ranks[j])


# ------------------------------------------------------------------------ every form


@pytest.mark.parametrize("game", SHORT)
def test_forms_agree(game):
    hands = deal_short(5000, 7, seed=2)
    ranks = pp.rank(hands, game=game)
    assert np.array_equal(pp.rank(sets_of(hands), game=game), ranks)
    texts = [pp.format_cards(h) for h in hands[:300]]
    assert np.array_equal(pp.rank(texts, game=game), ranks[:300])
    assert pp.rank(texts[0], game=game) == ranks[0]
    assert pp.rank(hands[0], game=game) == ranks[0]
    assert pp.rank(hands[0].tolist(), game=game) == ranks[0]
    assert pp.rank(sets_of(hands)[0], game=game) == ranks[0]
    ragged = [texts[0], texts[1][:10], ""]
    expected = [pp.rank(t, game=game) for t in ragged]
    assert pp.rank(ragged, game=game).tolist() == expected
    out = np.zeros(len(hands), np.uint16)
    assert pp.rank(hands, game=game, out=out, threads=2) is out
    assert np.array_equal(out, ranks)
    # Not C-contiguous: copied once, same ranks.
    assert np.array_equal(pp.rank(np.asfortranarray(hands), game=game), ranks)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 5, 6, 7])
def test_every_hand_size_as_the_sets_path(k):
    hands = deal_short(3000, k, seed=k) if k else np.zeros((3, 0), np.uint8)
    ranks = pp.rank(hands, game="shortdeck")
    assert np.array_equal(pp.rank(sets_of(hands) if k else np.zeros(3, np.uint64),
                                  game="shortdeck"), ranks)  # fmt: skip
    if k:
        assert pp.rank(hands[:1, :1], game="shortdeck")[0] < pp.rank("Ah", game="shortdeck") + 1


def test_cpu_levels_agree():
    hands = deal_short(20_000, 7, seed=4)
    script = (
        "import numpy as np, pypoker as pp, sys;"
        "h = pp.deal(20000, 7, seed=4, game='shortdeck');"
        "r = pp.rank(h, game='shortdeck').astype(np.int64);"
        "sys.stdout.write(pp.cpu() + ' ' + str(int(r.sum())))"
    )
    expected = int(pp.rank(hands, game="shortdeck").astype(np.int64).sum())
    import os

    for level in ("baseline", "avx2"):
        env = {**os.environ, "PYPOKER_CPU": level}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.split()[1]) == expected


# -------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("game", SHORT)
def test_a_deuce_to_five_names_row_and_card(game):
    hands = deal_short(1000, 7, seed=3)
    hands[637, 4] = pp.parse_cards("4d")[0]
    out = np.ones(1000, np.uint16)
    with pytest.raises(
        pp.InvalidHandError, match=r"row 637: card 4d at position 4 is not in the short deck"
    ):
        pp.rank(hands, game=game, out=out)
    assert not out.any()  # no partial ranks left behind
    with pytest.raises(ValueError, match="row 0: card 2c"):
        pp.rank("AsKs2c", game=game)
    sets = sets_of(hands)
    with pytest.raises(ValueError, match="row 637: card 4d is not in the short deck"):
        pp.rank(sets, game=game)
    # A card that is not a card, or a card twice, is named first, as in Hold'em.
    hands[2, 0] = 60
    with pytest.raises(ValueError, match="row 2: card id 60"):
        pp.rank(hands, game=game)


def test_unknown_game_names_the_argument_and_the_choices():
    for call in (
        lambda: pp.rank("AsKs", game="short"),
        lambda: pp.deal(1, 2, seed=0, game="6plus"),
        lambda: pp.rank_showdown(
            np.zeros((1, 0), np.uint8), np.zeros((1, 2, 2), np.uint8), game="x"
        ),
        lambda: pp.describe(4097, game="shortdek"),
    ):
        with pytest.raises(
            ValueError, match=r"game=.* is not a game here: use one of 'holdem', 'shortdeck'"
        ):
            call()
    with pytest.raises(ValueError, match="is not a game here"):
        pp.equity(["AhKh", "QsQd"], game="short")
    assert game_of("ShortDeck") is GAMES["shortdeck"]


def test_paths_not_wired_refuse_short_deck():
    pa = pytest.importorskip("pyarrow")
    column = pa.array(["AhKhQhJhTh"])
    with pytest.raises(ValueError, match="pp.arrow.rank ranks Hold'em only"):
        pp.arrow.rank(column, game="shortdeck")
    with pytest.raises(ValueError, match="pp.arrow.rank_table ranks Hold'em only"):
        pp.arrow.rank_table(pa.table({"cards": column}), "cards", game="shortdeck")
    with pytest.raises(ValueError, match="pp.hand_strength ranks Hold'em only"):
        pp.hand_strength(pp.parse_cards(["AhKh"]), game="shortdeck")
    with pytest.raises(ValueError, match="accumulators rank Hold'em only"):
        pp.rank(pp.accumulate(pp.parse_cards(["AhKhQhJhTh"])), game="shortdeck")
    assert pp.arrow.rank(column, game="holdem").to_pylist() == [pp.rank("AhKhQhJhTh")]


# ------------------------------------------------------------------- showdown, deal


def test_deal_uses_the_36_card_deck():
    hands = pp.deal(50_000, 9, seed=7, game="shortdeck")
    assert set(np.unique(hands % 13).tolist()) == set(range(4, 13))
    assert np.array_equal(hands, pp.deal(50_000, 9, seed=7, exclude=LOW))
    assert np.all(np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1])
    with pytest.raises(ValueError):
        pp.deal(1, 37, seed=0, game="shortdeck")


@pytest.mark.parametrize("game", SHORT)
def test_showdown_ranks_board_and_holes_as_one_hand(game):
    cards = deal_short(4000, 5 + 2 * 4, seed=8)
    boards, holes = cards[:, :5].copy(), cards[:, 5:].reshape(4000, 4, 2).copy()
    ranks = pp.rank_showdown(boards, holes, game=game)
    for p in range(4):
        own = np.concatenate([boards, holes[:, p]], axis=1)
        assert np.array_equal(ranks[:, p], pp.rank(own, game=game))
    holes[9, 2, 1] = holes[9, 0, 0]
    with pytest.raises(ValueError, match="row 9: card .* appears twice"):
        pp.rank_showdown(boards, holes, game=game)
    holes[9, 2, 1] = 1
    with pytest.raises(ValueError, match="row 9: player 3: card 3s"):
        pp.rank_showdown(boards, holes, game=game)


# ---------------------------------------------------------------------------- equity


def _brute_force(hands: list[str], board: str, game: str) -> np.ndarray:
    """Every runout, one Python hand at a time: the slow, plain reference."""
    used = pp.parse_cards("".join(hands) + board).tolist()
    deck = [c for c in range(52) if c % 13 >= 4 and c not in used]
    shares = np.zeros(len(hands))
    count = 0
    for runout in itertools.combinations(deck, 5 - len(board) // 2):
        full = board + pp.format_cards(np.array(runout, np.uint8))
        ranks = [pp.rank(h + full, game=game) for h in hands]
        best = max(ranks)
        winners = [r == best for r in ranks]
        shares += np.array(winners) / sum(winners)
        count += 1
    return shares / count


@pytest.mark.parametrize("game", SHORT)
def test_exact_equity_against_brute_force(game):
    hands = ["AhKh", "TsTd", "7c6c"]
    result = pp.equity(hands, board="8h9dJs", game=game)
    assert result.exact and result.games == 351
    assert np.allclose(result.equity, _brute_force(hands, "8h9dJs", game))
    assert np.isclose(result.equity.sum(), 1.0)


def test_monte_carlo_equity_converges_to_exact_and_is_reproducible():
    exact = pp.equity(["AhKh", "TsTd"], game="shortdeck")
    assert exact.exact and exact.games == 201_376
    mc = pp.equity(["AhKh", "TsTd"], game="shortdeck", exact=False, games=300_000, seed=3)
    assert not mc.exact and mc.games == 300_000
    assert np.all(np.abs(mc.equity - exact.equity) < 5 * mc.stderr + 1e-9)
    again = pp.equity(["AhKh", "TsTd"], game="shortdeck", exact=False, games=300_000, seed=3)
    assert np.array_equal(mc.equity, again.equity)
    random = pp.equity(["AhAd", "random"], game="shortdeck", stderr=0.002, seed=1)
    assert not random.exact and random.stderr.max() <= 0.002 and random.equity[0] > 0.6


def test_equity_on_a_river_and_with_partial_hands():
    river = pp.equity(["AhKh", "TsTd"], board="6s7s8d9cJh", game="shortdeck")
    assert river.exact and river.games == 1 and river.equity.tolist() == [0.0, 1.0]
    again = pp.equity(["AhKh", "TsTd"], board="6s7s8d9cJh", game="shortdeck", games=10)
    assert again.equity.tolist() == [0.0, 1.0]
    partial = pp.equity(["Ah", "KsKd", "random"], board="6s7s8s", dead="9c", game="shortdeck",
                        games=50_000, seed=2)  # fmt: skip
    assert partial.hands == ["Ah?", "KsKd", "random"] and partial.games == 50_000
    assert np.isclose(partial.equity.sum(), 1.0)
    with pytest.raises(ValueError, match="needs every hole card known"):
        pp.equity(["Ah", "KsKd"], game="shortdeck", exact=True)


def test_range_equity_by_monte_carlo_matches_the_combos_exact_average():
    result = pp.equity(["AhKh", "QQ+,AKs"], game="shortdeck", stderr=0.002, seed=1)
    assert not result.exact and result.hands == ["AhKh", "QQ+,AKs"]
    combos = [c for c in ("QsQh", "QsQd", "QsQc", "QhQd", "QhQc", "QdQc", "KsKd", "KsKc",
                          "KdKc", "AsAd", "AsAc", "AdAc", "AsKs", "AdKd", "AcKc")]  # fmt: skip
    exact = np.mean([pp.equity(["AhKh", c], game="shortdeck").equity[0] for c in combos])
    assert abs(result.equity[0] - exact) < 5 * result.stderr[0]
    again = pp.equity(["AhKh", "QQ+,AKs"], game="shortdeck", stderr=0.002, seed=1)
    assert np.array_equal(result.equity, again.equity)
    with pytest.raises(ValueError, match="range '22-55' has no combo left in the short deck"):
        pp.equity(["AhKh", "22-55"], game="shortdeck")
    with pytest.raises(ValueError, match="needs every hole card known"):
        pp.equity(["AhKh", "QQ+"], game="shortdeck", exact=True)


def test_equity_refuses_cards_outside_the_short_deck():
    with pytest.raises(ValueError, match="card 2s is not in the short deck"):
        pp.equity(["AhKh", "2s2d"], game="shortdeck")
    with pytest.raises(ValueError, match="board: card 5c is not in the short deck"):
        pp.equity(["AhKh", "QsQd"], board="5c6c7c", game="shortdeck")


# ------------------------------------------------------------------ datasets, the CLI


def test_dataset_and_cli(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = pp.dataset(2000, 3, seed=4, path=tmp_path / "sd.parquet", game="shortdeck")
    table = pq.read_table(path)
    holes = np.array(table["holes"].to_pylist(), np.uint8)
    assert set(np.unique(holes % 13).tolist()) <= set(range(4, 13))
    flop = np.array(table["flop"].to_pylist(), np.uint8)
    turn = np.array(table["turn"].to_pylist(), np.uint8)[:, None]
    river = np.array(table["river"].to_pylist(), np.uint8)[:, None]
    board = np.concatenate([flop, turn, river], axis=1)
    ranks = pp.rank_showdown(board, holes, game="shortdeck")
    assert np.array_equal(np.array(table["rank"].to_pylist()), ranks)
    assert np.array_equal(np.array(table["category"].to_pylist()),
                          pp.category(ranks, game="shortdeck"))  # fmt: skip
    assert table.schema.metadata[b"pypoker.game"] == b"shortdeck"
    with pytest.raises(ValueError, match="equity labels are Hold'em's"):
        pp.dataset(10, 2, seed=0, path=tmp_path / "x.parquet", game="shortdeck", equity=True)

    run = functools.partial(subprocess.run, capture_output=True, text=True, check=True)
    done = run([sys.executable, "-m", "pypoker", "rank", "--game", "shortdeck", "TsThTd9c8sAhKh"])
    assert "Three of a Kind, Tens" in done.stdout
    done = run([sys.executable, "-m", "pypoker", "equity", "--game", "shortdeck", "AhKh", "TsTd"])
    assert "49.2591%" in done.stdout and "50.7409%" in done.stdout
    command = [sys.executable, "-m", "pypoker", "rank", "--game", "shortdeck", "2s3s4s5s6s"]
    failed = subprocess.run(command, capture_output=True, text=True)
    assert failed.returncode != 0 and "not in the short deck" in failed.stderr
