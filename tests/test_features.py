"""Features: every hand against a range, HS/EHS/E[HS²]/potentials/histograms, street tables,
checked against brute force with pp.rank and against pp.equity."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

import pypoker as pp


def _live(cards) -> np.ndarray:
    """Combos sharing no card with ``cards``."""
    taken = np.zeros(52, dtype=bool)
    taken[np.asarray(cards)] = True
    return ~taken[pp.COMBOS].any(axis=1)


def _brute_river(board: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each combo's equity against the weighted range: every pair of combos ranked."""
    live = _live(board)
    ranks = np.zeros(len(pp.COMBOS), dtype=np.int64)
    cards = np.concatenate([pp.COMBOS[live], np.repeat(board[None], live.sum(), 0)], axis=1)
    ranks[live] = pp.rank(cards)
    c = pp.COMBOS
    disjoint = ~((c[:, None, 0] == c[None, :, 0]) | (c[:, None, 0] == c[None, :, 1])
                 | (c[:, None, 1] == c[None, :, 0]) | (c[:, None, 1] == c[None, :, 1]))  # fmt: skip
    opp = weights[None, :] * disjoint * live[None, :]
    win = (opp * (ranks[:, None] > ranks[None, :])).sum(1)
    tie = (opp * (ranks[:, None] == ranks[None, :])).sum(1)
    out = (win + tie / 2) / opp.sum(1)
    out[~live] = np.nan
    return out


def test_river_every_hand_against_a_weighted_range_matches_brute_force():
    rng = np.random.default_rng(4)
    boards = pp.deal(4, 5, seed=11)
    weights = rng.random((4, 1326)) * (rng.random((4, 1326)) < 0.3)
    got = pp.hand_vs_range(boards, weights)
    for b in range(4):
        want = _brute_river(boards[b], weights[b])
        assert np.array_equal(np.isnan(got[b]), np.isnan(want))
        assert np.allclose(got[b], want, atol=1e-12, equal_nan=True)
    uniform = pp.hand_vs_range(boards[:1])
    assert np.allclose(
        uniform[0], _brute_river(boards[0], np.ones(1326)), atol=1e-12, equal_nan=True
    )


def test_turn_and_flop_sum_their_runouts_exactly():
    """A range on the turn: the equity over rivers, each river's pairs weighted as dealt."""
    board = pp.parse_cards("Kh9h4c2d")
    weights = np.zeros(1326)
    weights[pp.COMBOS[:, 0] // 13 == 2] = 1.0  # any hand whose lower card is a heart
    got = pp.hand_vs_range(board[None], weights)[0]
    share = np.zeros(1326)
    total = np.zeros(1326)
    for river in np.flatnonzero(~np.isin(np.arange(52), board)):
        full = np.append(board, river).astype(np.uint8)
        eq = _brute_river(full, weights)
        live = _live(full)
        c = pp.COMBOS
        for h in np.flatnonzero(live):
            opp = weights * live * ~np.isin(c, c[h]).any(axis=1)
            share[h] += eq[h] * opp.sum()
            total[h] += opp.sum()
    want = np.where(total > 0, share / np.where(total > 0, total, 1), np.nan)
    assert np.allclose(got, want, atol=1e-12, equal_nan=True)


def test_range_text_blocked_combos_and_hs_now():
    eq = pp.hand_vs_range("AhKd7c", "QQ+,AKs")
    assert eq.shape == (1, 1326)
    blocked = ~_live(pp.parse_cards("AhKd7c"))
    assert np.isnan(eq[0, blocked]).all() and not np.isnan(eq[0, ~blocked]).any()
    now = pp.hand_vs_range("AhKd7c", to_river=False)
    aces = pp.COMBOS.tolist().index(sorted(pp.parse_cards("AsAc").tolist()))
    assert now[0, aces] == 1.0  # top set beats every hand on a rainbow board now


def test_features_agree_with_equity_and_with_each_other():
    rng = np.random.default_rng(9)
    for k in (3, 4, 5):
        cards = pp.deal(3, 2 + k, seed=int(rng.integers(1 << 30)))
        f = pp.hand_features(cards[:, :2], cards[:, 2:], bins=20)
        for row in range(3):
            hole = pp.format_cards(cards[row, :2])
            board = pp.format_cards(cards[row, 2:])
            exact = pp.equity([hole, "random"], board=board, exact=True).equity[0]
            assert f["ehs"][row] == pytest.approx(exact, abs=1e-12)
            assert f["histogram"][row].sum() == pytest.approx(1.0)
            centres = (np.arange(20) + 0.5) / 20
            assert abs((f["histogram"][row] * centres).sum() - f["ehs"][row]) <= 0.5 / 20 + 1e-12
            assert f["ehs2"][row] >= f["ehs"][row] ** 2 - 1e-12
        if k == 5:
            assert np.array_equal(f["ehs"], f["hs"]) and (f["ppot"] == 0).all()
    # Every hand on a board at once agrees with the per-row path.
    board = pp.parse_cards("Td9d2s")
    live = np.flatnonzero(_live(board))[::53]
    rows = pp.hand_features(pp.COMBOS[live], np.repeat(board[None], len(live), 0), bins=10)
    eq, sq, hist = pp.hand_vs_range(board[None], ehs2=True, bins=10)
    assert np.allclose(rows["ehs"], eq[0, live], atol=1e-12)
    assert np.allclose(rows["ehs2"], sq[0, live], atol=1e-12)
    assert np.allclose(rows["histogram"], hist[0, live], atol=1e-12)
    assert np.allclose(
        rows["hs"], pp.hand_vs_range(board[None], to_river=False)[0, live], atol=1e-12
    )


def test_potential_matches_billings_definition_by_brute_force():
    """Turn row: every (opponent, river) pair's state now and after, counted in Python."""
    hole, board = pp.parse_cards("8h7h"), pp.parse_cards("9hTc2s3d")
    f = pp.hand_features(hole[None], board[None])
    live = pp.COMBOS[_live(np.concatenate([hole, board]))]
    now_hero = pp.rank(np.concatenate([hole, board])[None])[0]
    now = pp.rank(np.concatenate([live, np.repeat(board[None], len(live), 0)], 1)).astype(int)
    state_now = np.sign(now_hero - now) + 1
    hp = np.zeros((3, 3))
    for river in np.flatnonzero(~np.isin(np.arange(52), np.concatenate([hole, board]))):
        full = np.append(board, river).astype(np.uint8)
        ok = ~(live == river).any(axis=1)
        hero = pp.rank(np.concatenate([hole, full])[None])[0]
        opp = pp.rank(np.concatenate([live[ok], np.repeat(full[None], ok.sum(), 0)], 1)).astype(int)
        np.add.at(hp, (state_now[ok], np.sign(hero - opp) + 1), 1)
    behind, tied, ahead = 0, 1, 2
    total = hp.sum(axis=1)
    ppot = (hp[behind, ahead] + hp[behind, tied] / 2 + hp[tied, ahead] / 2) / (
        total[behind] + total[tied] / 2
    )
    npot = (hp[ahead, behind] + hp[tied, behind] / 2 + hp[ahead, tied] / 2) / (
        total[ahead] + total[tied] / 2
    )
    assert f["ppot"][0] == pytest.approx(ppot, abs=1e-12)
    assert f["npot"][0] == pytest.approx(npot, abs=1e-12)
    assert f["ppot1"][0] == f["ppot"][0]  # one card ahead is the river on a turn


def test_hand_strength_on_every_street_and_histogram_shape():
    cards = pp.deal(5, 6, seed=2)
    ehs = pp.hand_strength(cards[:, :2], cards[:, 2:])
    assert np.array_equal(ehs, pp.hand_features(cards[:, :2], cards[:, 2:])["ehs"])
    hist = pp.equity_histogram(cards[:, :2], cards[:, 2:], bins=8)
    assert hist.shape == (5, 8) and np.allclose(hist.sum(1), 1)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: pp.hand_vs_range("AhKd"), pp.InvalidHandError, "boards of 2 cards"),
        (lambda: pp.hand_vs_range("AhKd7c2s3s4s"), pp.InvalidHandError, "boards of 6 cards"),
        (lambda: pp.hand_vs_range("AhKd7c", np.ones(100)), ValueError, r"shape \(1326,\)"),
        (lambda: pp.hand_vs_range("AhKd7c", -np.ones(1326)), ValueError, "combo 0 .* -1.0"),
        (lambda: pp.hand_vs_range("AhKd7c", np.full(1326, np.nan)), ValueError, "finite"),
        (
            lambda: pp.hand_vs_range(np.array([[1, 2, 60]], np.uint8)),
            pp.InvalidHandError,
            "row 0: card id 60",
        ),
        (
            lambda: pp.hand_features("AhKd", "Ah7c2d"),
            pp.InvalidHandError,
            "row 0: card Ah appears twice",
        ),
        (
            lambda: pp.hand_features(["AhKd", "QsQd"], ["2c3c4c", "Qs7c2d"]),
            pp.InvalidHandError,
            "row 1",
        ),
        (lambda: pp.hand_features("AhKd", "2c3c"), pp.InvalidHandError, "boards of 2"),
        (lambda: pp.equity_histogram("AhKd", "2c3c4c", bins=0), ValueError, "bins must .* 0"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_street_table_rows_are_the_canonical_hands_with_their_features(tmp_path):
    path = tmp_path / "river.parquet"
    start, count = 61_000_000, 3_000
    pp.street_table(
        "river", path, features=["hs", "ehs"], start=start, count=count, piece_rows=1_000
    )
    table = pq.read_table(path)
    assert table.num_rows == count
    index = table["index"].to_numpy()
    assert np.array_equal(index, np.arange(start, start + count))
    holes = np.stack(table["hole"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    boards = np.stack(table["board"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    assert np.array_equal(pp.hand_index(holes, boards), index)
    sample = np.arange(0, count, 97)
    want = pp.hand_features(holes[sample], boards[sample])["ehs"]
    assert np.allclose(table["ehs"].to_numpy()[sample], want, atol=1e-12)
    assert np.array_equal(table["hs"].to_numpy(), table["ehs"].to_numpy())
    assert not list(tmp_path.glob("*.partial"))


def test_arrow_and_polars_columns_are_taken_like_arrays():
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    cards = pp.deal(6, 6, seed=21)
    holes, boards = cards[:, :2], cards[:, 2:]
    want = pp.hand_strength(holes, boards)
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(holes.reshape(-1)), 2)
    text = pa.chunked_array([pp.format_cards(boards[:3]), pp.format_cards(boards[3:])])
    assert np.array_equal(pp.hand_strength(fixed, text), want)
    series = pl.Series([list(r) for r in boards], dtype=pl.List(pl.UInt8))
    assert np.array_equal(pp.hand_strength(pl.Series(pp.format_cards(holes)), series), want)
    assert np.array_equal(pp.hand_index(fixed, text), pp.hand_index(holes, boards))
    with pytest.raises(pp.InvalidHandError, match="holes: row 1 is null"):
        pp.hand_strength(pa.array(["AhKd", None]), pa.array(["2c3c4c"] * 2))
    with pytest.raises(pp.InvalidHandError, match="row 1 has 3 cards where row 0 has 4"):
        pp.hand_vs_range(pa.array([[1, 2, 3, 4], [5, 6, 7]], pa.list_(pa.uint8())))
    with pytest.raises(TypeError, match="card ids are uint8"):
        pp.hand_vs_range(pa.array([[1, 2, 3]], pa.list_(pa.int64())))


def test_street_table_per_street_rows():
    table = pp.street_table("turn", features=["ehs"], start=40_000_000, count=2_000,
                            per_street=True)  # fmt: skip
    holes = np.stack(table["hole"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    boards = np.stack(table["board"].to_numpy(zero_copy_only=False)).astype(np.uint8)
    index = table["index"].to_numpy()
    assert np.array_equal(pp.hand_index(holes, boards, per_street=True), index)
    assert np.array_equal(index, np.arange(40_000_000, 40_002_000))
    sample = slice(0, None, 101)
    want = pp.hand_features(holes[sample], boards[sample])["ehs"]
    assert np.allclose(table["ehs"].to_numpy()[sample], want, atol=1e-12)


def test_preflop_strength_is_the_exact_equity_against_a_random_hand():
    """The 169-class table (every canonical river, by its multiplicity) against the equity
    engine's own exact enumeration of a hand against "random", preflop."""
    hands = ["AsAh", "7c2d", "KhQh"]
    table = pp.hand_strength(hands)
    for hand, ehs in zip(hands, table, strict=True):
        assert ehs == pytest.approx(pp.equity([hand, "random"], exact=True).equity[0], abs=1e-12)
    # The same class for every suit pattern of it, and a histogram that sums to one.
    assert np.array_equal(pp.hand_strength(["AdAc", "7h2s"]), table[:2])
    hist = pp.equity_histogram(hands, bins=20)
    assert np.allclose(hist.sum(axis=1), 1)
    middles = (np.arange(20) + 0.5) / 20
    assert np.all(np.abs(hist @ middles - table) <= 0.5 / 20)


def _bin_on_edges_up(equity: np.ndarray, bins: int) -> np.ndarray:
    """The histogram rule: an equity on an edge (to rounding) in the bin above; 1 in the last."""
    scaled = equity * bins
    edge = np.round(scaled)
    bins_of = np.where(np.abs(scaled - edge) <= 1e-9, edge, np.floor(scaled))
    return np.minimum(bins_of, bins - 1).astype(int)


def test_histogram_edges_belong_to_the_bin_above_with_weighted_ranges():
    # The spot: some runouts give AA exactly 2/3 against AA, KhQh, T9s at 0.7, which
    # floor(2/3 * 6) put in bin 3. Brute force: every runout's river equities, binned by the
    # rule, each weighted by the opponent weight left on it.
    from itertools import combinations

    from pypoker.features import range_weights

    flop, rng, bins = pp.parse_cards("Qh7h2c"), "AA,KhQh,T9s:0.7", 6
    _, histogram = pp.hand_vs_range(flop, rng, bins=bins)
    weights = range_weights(rng)
    combo_sets = pp.COMBOS.astype(np.int64)
    blocks = (np.left_shift(1, combo_sets[:, 0]) | np.left_shift(1, combo_sets[:, 1]))[:, None]
    expected = np.zeros((pp.COMBOS.shape[0], bins))
    deck = [c for c in range(52) if c not in flop]
    edges_met = 0
    for turn, river in combinations(deck, 2):
        board = np.append(flop, [turn, river]).astype(np.uint8)
        equity = pp.hand_vs_range(board, weights, to_river=False)[0]
        board_set = sum(1 << int(c) for c in board)
        for hero in np.flatnonzero(np.isfinite(equity)):
            used = board_set | int(blocks[hero, 0])
            left = weights[(blocks[:, 0] & used) == 0].sum()
            expected[hero, _bin_on_edges_up(equity[hero : hero + 1], bins)[0]] += left
        scaled = equity[np.isfinite(equity)] * bins
        edges_met += int((np.abs(scaled - np.round(scaled)) <= 1e-9).sum())
    assert edges_met > 0  # the spot does put equities on edges
    played = expected.sum(axis=1) > 0
    shares = expected[played] / expected[played].sum(axis=1, keepdims=True)
    assert np.allclose(histogram[0][played], shares, rtol=0, atol=1e-12)
