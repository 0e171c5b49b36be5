"""The range language (seed 003's list, weights, partial hands, random) and range equity."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import pypoker as pp
from pypoker.ranges import RangeSyntaxError, parse_range


@pytest.mark.parametrize(
    "text, combos",
    [
        ("AhAd", 1), ("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("QQ-99", 24),
        ("T7s-T3s", 20), ("T7o-T3o", 60), ("T7-T3", 80), ("KJs-86s", 24), ("J8-52", 112),
        ("QQ+", 18), ("T6s+", 16), ("T6o+", 48), ("T6+", 64), ("random", 1326), ("Ac", 51),
        ("[AQs+,TT+]", 38), ("AKs,AK", 16), ("kqs", 4), ("AJo-63o", 108),
    ],
)  # fmt: skip
def test_every_form_expands_to_its_combos(text, combos):
    r = parse_range(text)
    assert len(r) == combos
    sets = r.sets()
    assert len(np.unique(sets)) == combos  # each combo once
    assert all(bin(int(s)).count("1") == 2 for s in sets)


def test_groups_hold_the_right_hands():
    hands = set(pp.format_cards(parse_range("T7s-T5s").cards))
    assert hands == {f"{v}{s}T{s}" for s in "schd" for v in "765"}
    suited = parse_range("KJs-86s").cards
    values = {tuple(sorted((c % 13 for c in combo), reverse=True)) for combo in suited}
    assert values == {(11, 9), (10, 8), (9, 7), (8, 6), (7, 5), (6, 4)}


def test_weights():
    r = parse_range("AKs:0.5,QQ")
    assert sorted(r.weights.tolist()) == [0.5] * 4 + [1.0] * 6
    assert parse_range("AK:0.25,AKs").weights.max() == 1.0  # the larger weight wins


@pytest.mark.parametrize(
    "text, position",
    [("AX", 0), ("AA,,KK", 3), ("QQ,AKs:2", 3), ("AKs-QJo", 0), ("QQ,99-TT+", 3), ("AKx", 0)],
)
def test_syntax_errors_point_at_the_item(text, position):
    with pytest.raises(RangeSyntaxError) as error:
        parse_range(text)
    assert error.value.position == position
    assert f"at {position}" in str(error.value)


@pytest.mark.parametrize(
    "hero, villain, percent",
    [("AA", "KK", 81.9461), ("AKs", "QQ", 46.0485), ("AKo", "QQ", 43.2423), ("72o", "AA", 11.8004)],
)
def test_known_matchups_exactly(hero, villain, percent):
    result = pp.equity([hero, villain])
    assert result.exact
    assert round(result.equity[0] * 100, 4) == percent


def test_aa_vs_kk_as_a_fraction():
    result = pp.equity(["AA", "KK"])
    assert result.equity[0] == pytest.approx(255121 / 311328, abs=1e-12)


@pytest.mark.parametrize(
    "players, board",
    [(["QQ+,AKs", "JJ-99,AQs+"], None), (["Ac", "KK", "random"], "2c7d9h"),
     (["AKs:0.5,QQ", "T9s"], "Ts9h2c4d")],
)  # fmt: skip
def test_monte_carlo_over_ranges_lands_within_four_standard_errors(players, board):
    exact = pp.equity(players, board=board, exact=True)
    estimate = pp.equity(players, board=board, exact=False, games=300_000, seed=3)
    assert (np.abs(estimate.equity - exact.equity) <= 4 * estimate.stderr + 1e-9).all()


def test_partial_hands_and_card_removal_agree_with_listing_the_hands():
    board = "Ac7d2h9s"
    as_partial = pp.equity(["Ah", "KK"], board=board)
    # Ah and any card not on the board and not one of the other player's combos' cards...
    listed = ",".join(
        "Ah" + name for name in pp.CARD_NAMES if name not in ("Ah", "Ac", "7d", "2h", "9s")
    )
    as_list = pp.equity([listed, "KK"], board=board)
    assert np.allclose(as_partial.equity, as_list.equity, atol=1e-12)
    assert as_partial.exact and as_list.exact


def test_ranges_reproducible_for_any_thread_count():
    a = pp.equity(["QQ+,AKs", "random"], exact=False, games=200_000, seed=4, threads=1)
    b = pp.equity(["QQ+,AKs", "random"], exact=False, games=200_000, seed=4, threads=2)
    assert np.array_equal(a.equity, b.equity)


@pytest.mark.parametrize(
    "players, kwargs, message",
    [
        (["AA", "KK"], {"board": "AcAdAh"}, "player 1: no combination of 'AA' is left"),
        (["AA", "QQ+"], {}, None),
        (["AX", "KK"], {}, "player 1: 'AX' at 0"),
        (["AhAd", "AA"], {"board": "AcAs2d"}, "player 2: card Ah is dealt twice"),
    ],
)
def test_range_input_errors(players, kwargs, message):
    if message is None:
        assert pp.equity(players, **kwargs).games > 0  # overlapping ranges are fine
        return
    with pytest.raises(ValueError, match=message):
        pp.equity(players, **kwargs)


def test_cli_ranges(capsys):
    from pypoker.cli import main

    assert main(["equity", "AA", "KK"]) == 0
    assert "81.9461%" in capsys.readouterr().out
    assert main(["equity", "-g", "100K", "-t", "2", "3d", "[AQs+,TT+]", "AK"]) == 0
    assert "Monte Carlo: 100,000 games" in capsys.readouterr().out
    assert main(["equity", "-p", "3", "-g", "100K", "KK", "-", "8c", "4d", "7c", "Ts", "Qs"]) == 0
    printed = capsys.readouterr().out
    assert "board [TsQs7c8c4d]" in printed and printed.count("random") == 2


@pytest.mark.parametrize(
    "players, board, dead",
    [(["QQ+,AKs", "JJ-99,AQs+"], None, None), (["AKs,QQ", "JJ,T9s"], "Kc8h2d", "3s"),
     (["AA,KK", "QQ", "AKs"], "2c7c9d", None), (["Ah", "KsKd,QQ"], "Ac7d2h9s", "Tc")],
)  # fmt: skip
def test_range_exact_equals_the_weighted_sum_over_listed_deals(players, board, dead):
    """Exact range equity (counted by runouts, or by suit classes of deals preflop) must
    equal every deal of combos listed here, each ranked exactly as known hands and
    weighted by its number of boards."""
    out = pp.CardSet(board).bits | pp.CardSet(dead).bits
    combos = [[(s, w) for s, w in zip(r.sets().tolist(), r.weights, strict=True) if not s & out]
              for r in map(parse_range, players)]  # fmt: skip
    result = pp.equity(players, board=board, dead=dead, exact=True)
    shares, total = np.zeros(len(players)), 0.0
    for deal in itertools.product(*combos):
        sets = [s for s, _ in deal]
        if len(set(sets)) < len(sets) or bin(np.bitwise_or.reduce(sets)).count("1") < 2 * len(sets):
            continue
        weight = float(np.prod([w for _, w in deal]))
        known = pp.equity([pp.CardSet(s) for s in sets], board=board, dead=dead, exact=True)
        shares += weight * known.games * known.equity
        total += weight * known.games
    assert np.allclose(result.equity, shares / total, rtol=0, atol=1e-12)


def test_a_range_is_parsed_once_and_cannot_be_changed_under_its_sharers():
    first, again = parse_range("QQ+,AKs:0.5"), parse_range("QQ+,AKs:0.5")
    assert first is again and len(first) == 22
    with pytest.raises(ValueError, match="read-only"):
        first.weights[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        first.cards[0, 0] = 51
    assert parse_range("random").without(0b11).cards.flags.writeable  # a copy: its own
