"""Equity over ranges and random players: Monte Carlo (importance-weighted) against exact
counts on spots where combos collide a lot, 2 to 10 players; exact per-combo breakdowns
against known hands; the method choice; bounded memory, progress and Ctrl-C; arguments."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import pypoker as pp
from pypoker import _equity_runs as runs


def within_four_errors(estimate, exact) -> bool:
    return bool((np.abs(estimate.equity - exact.equity) <= 4 * estimate.stderr + 1e-9).all())


@pytest.mark.parametrize(
    "players, board",
    [
        (["AA,KK", "AA,KK", "AK"], "2c7d9h"),
        (["AA,KK:0.3", "AA,KK", "AK,KQs:0.5"], "2c7dQh"),
        (["QQ+,AK", "QQ+", "AK,AQ", "random"], "2c7d9hTs"),
        (["Ah", "AA,AK", "random"], "Ac7d9h3s"),
        # 207,768 deals: a table past the caches' size, read with prefetches.
        (["22+,AJo+", "88+,AQ+", "A2s+,K9s+"], "Kc8d5h3s2d"),
    ],
)
def test_monte_carlo_lands_within_four_errors_of_exact_where_combos_collide(players, board):
    exact = pp.equity(players, board=board, exact=True)
    estimate = pp.equity(players, board=board, exact=False, games=400_000, seed=11)
    assert exact.exact and not estimate.exact and estimate.games == 400_000
    assert within_four_errors(estimate, exact), (estimate.equity, exact.equity, estimate.stderr)


@pytest.mark.parametrize(
    "players, board",
    [
        # Too many deals to tabulate (198^3 > 2^20): drawn by rejection (about 0.4 of the
        # tries keep their deal).
        (["A2+"] * 3, "Kc8d5h3s2d"),
        # Four ace-holders: about 0.1 of the tries keep their deal.
        (["A2+"] * 4, "Kc8d5h3s2d"),
        # Four players on the same two aces: about 1 try in 50 would keep its deal, so
        # games are dealt in turn and carry their weights.
        (["AcAd,AcKs,AdKs,AcKh,AdKh,AcQs,AdQs,AcQh,AdQh,A9+"] * 4, "Jc8d5h3s"),
        (["A2+:0.5,KK", "A2+", "AK,KQ", "A2+,K2+:0.3"], "Jc8d5h3s"),
    ],
)
def test_sequential_draws_land_within_four_errors_of_exact(players, board):
    exact = pp.equity(players, board=board, exact=True)
    estimate = pp.equity(players, board=board, exact=False, games=400_000, seed=12)
    assert within_four_errors(estimate, exact), (estimate.equity, exact.equity, estimate.stderr)


@pytest.mark.parametrize(
    "players, board",
    [
        # Equal weights (a try's draws in vectors) and unequal ones (alias coins), each
        # spot too big to tabulate its deals, so every game is drawn by rejection.
        (["A2+"] * 4, "Kc8d5h3s2d"),
        (["A2+:0.5,KK", "A2+", "AK:0.5,KQ,QQ:0.25", "A2+,K2+:0.3"], "Jc8d5h3s"),
    ],
)
def test_rejection_deals_each_combo_by_its_share_of_the_deals(players, board):
    """A chi-square of each player's combos dealt against their exact share (the weight of
    the deals holding them, from exact enumeration): the sampler keeps the distribution."""
    exact = pp.equity(players, board=board, exact=True)
    games = 300_000
    estimate = pp.equity(players, board=board, exact=False, games=games, seed=13)
    for player in range(len(players)):
        want, got = exact.by_combo(player), estimate.by_combo(player)
        shares = dict(zip(want["combo"], want["games"] / want["games"].sum(), strict=True))
        dealt = dict(zip(got["combo"], got["games"], strict=True))
        assert set(dealt) <= set(shares)
        expected = np.array([games * share for share in shares.values()])
        observed = np.array([dealt.get(combo, 0.0) for combo in shares])
        chi2 = float(((observed - expected) ** 2 / expected).sum())
        freedom = len(shares) - 1
        # About six standard deviations past the mean (a true sampler fails 1 in 10^8).
        assert chi2 < freedom + 6 * (2 * freedom) ** 0.5, (player, chi2, freedom)


def random_spot(players: int, seed: int) -> tuple[list[str], str]:
    """Each player 2 or 3 combos from a pool of 2 * players + 4 cards (so deals collide
    often), with weights; a river board from the other cards."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)
    pool, board = cards[: 2 * players + 4], cards[-5:]
    texts = []
    for _ in range(players):
        combos = set()
        while len(combos) < rng.integers(2, 4):
            a, b = rng.choice(pool, 2, replace=False)
            combos.add(pp.format_cards(np.array([a, b], dtype=np.uint8)))
        texts.append(",".join(f"{c}:{rng.choice([0.25, 0.5, 1.0])}" for c in combos))
    return texts, pp.format_cards(board.astype(np.uint8))


@pytest.mark.parametrize("players", range(2, 11))
def test_two_to_ten_players_monte_carlo_matches_exact(players):
    for seed in range(40):  # the first spot whose ranges leave some deal
        texts, board = random_spot(players, seed * 100 + players)
        try:
            exact = pp.equity(texts, board=board, exact=True)
        except ValueError:
            continue
        break
    estimate = pp.equity(texts, board=board, exact=False, games=200_000, seed=players)
    assert within_four_errors(estimate, exact), (texts, board)


def test_exact_by_combo_equals_each_combo_as_a_known_hand():
    board = "Kh7d2c"
    result = pp.equity(["QQ,AKs", "JJ,T9s"], board=board, exact=True)
    for player, other in ((0, "JJ,T9s"), (1, "QQ,AKs")):  # player 1 is counted: recounted
        table = result.by_combo(player)
        assert len(table["combo"]) == len(table["equity"]) == len(table["cards"])
        for combo, value in zip(table["combo"], table["equity"], strict=True):
            players = [combo, other] if player == 0 else [other, combo]
            alone = pp.equity(players, board=board, exact=True)
            assert value == pytest.approx(alone.equity[player], abs=1e-12), combo
    # Weighted by games, the combos' equities make up the player's.
    table = result.by_combo(0)
    mean = (table["equity"] * table["games"]).sum() / table["games"].sum()
    assert mean == pytest.approx(result.equity[0], abs=1e-12)


def test_monte_carlo_by_combo_carries_standard_errors():
    result = pp.equity(["AA,KK", "random"], exact=False, games=300_000, seed=2)
    table = result.by_combo(0)
    assert len(table["combo"]) == 12 and (table["stderr"] > 0).all()
    assert (np.abs(table["equity"] - 0.83) < 0.05).all()
    random_table = result.by_combo(1)  # every combo, each dealt about 300,000 / 1326 times
    assert len(random_table["combo"]) == len(pp.COMBOS) == 1326
    assert random_table["games"].sum() == 300_000
    assert set(result.to_dict()) >= {"hand", "equity", "stderr", "by_combo"}


def test_weighted_monte_carlo_is_the_same_for_any_thread_count():
    spot = (["AA,KK:0.5", "AA,KK", "AK"], "2c7d9h")
    one = pp.equity(spot[0], board=spot[1], exact=False, games=300_000, seed=3, threads=1)
    two = pp.equity(spot[0], board=spot[1], exact=False, games=300_000, seed=3, threads=2)
    assert np.array_equal(one.equity, two.equity) and np.array_equal(one.stderr, two.stderr)


def test_grouped_games_report_an_honest_standard_error():
    # Six players on 22+,A2+,K2+ keep one try in ten: each deal is played on four games
    # (monte_carlo.zig, `grouped_games_a_deal`), which share its holes, so they count as one
    # weighted game in the standard error. Players alike: each one's equity is 1/6 exactly,
    # so every seed's six errors (five free) measure the spread. Counted as independent
    # games, the reported stderr comes out ~1/1.13 of the spread (Vb/Vw ≈ 0.1): outside.
    seeds = 400
    errors, reported = np.empty((seeds, 6)), np.empty((seeds, 6))
    for i in range(seeds):
        result = pp.equity(["22+,A2+,K2+"] * 6, exact=False, games=25_000, seed=1000 + i)
        errors[i], reported[i] = result.equity - 1 / 6, result.stderr
    spread = np.sqrt(np.mean(errors**2) / np.mean(reported**2))
    assert 0.94 <= spread <= 1.06, spread  # 5 x 400 degrees of freedom: ±1.6% a sigma
    first = errors[:, 0].std(ddof=1) / reported[:, 0].mean()  # one player alone: ±3.5%
    assert 0.8 <= first <= 1.25, first


def test_random_players_are_dealt_from_the_deck():
    # Nine random players against AA: every game deals (no rejection), the equities of the
    # random players agree with each other, and AA's lands near its published 31.0%.
    result = pp.equity(["AA"] + ["random"] * 9, exact=False, games=300_000, seed=4)
    assert result.games == 300_000
    assert result.equity[0] == pytest.approx(0.31, abs=0.01)
    assert np.ptp(result.equity[1:]) < 0.01
    assert result.equity.sum() == pytest.approx(1.0)


def test_default_mode_chooses_by_cost_and_says_why():
    river = pp.equity(["KK", "random", "random"], board="8c4d7cTsQs")
    assert river.exact and river.reason.startswith("exact")
    preflop = pp.equity(["AA", "random", "random"], seconds=0.5)
    assert not preflop.exact and preflop.reason == "Monte Carlo, as asked"
    chosen = pp.equity(["AA", "random", "random", "random"], board="2c7d9h")
    assert not chosen.exact and "more than 1 s" in chosen.reason
    assert chosen.stderr.max() <= 0.0005 or chosen.seconds >= 10
    assert "Monte Carlo" in str(chosen) and chosen.reason in str(chosen)


def test_default_mode_at_a_full_table_estimates_without_enumerating():
    # Nine random players: exact would take about 6e15 years. Estimating that cost once
    # built the list of its calls (billions: 23 GB, then the machine's memory killed it).
    nine = pp.equity(["random"] * 9)
    assert not nine.exact and "years, more than 1 s" in nine.reason
    assert nine.stderr.max() <= 0.0005 or nine.seconds >= 10
    six = pp.equity(["22+,A2+,K2+"] * 6)
    assert not six.exact
    assert six.stderr.max() <= 0.0005 or six.seconds >= 10


def test_exact_calls_are_planned_lazily_whatever_the_spot():
    assert runs._grid_calls(10**15, 1e30) == 10**15
    assert runs._grid_calls(10**15, float("inf")) == 10**15
    assert runs._grid_calls(100, 0.001) == 1 and runs._grid_calls(100, 1.0) >= 8
    first = next(runs._grid(10**15, 1e30))  # one call made, not 10**15 of them
    assert first == (0, 1)
    grid = list(runs._grid(1000, 5.0))
    assert sum(items for _, items in grid) == 1000 and grid[0][0] == 0
    assert all(a + n == b for (a, n), (b, _) in zip(grid, grid[1:], strict=False))


def test_exact_known_winners_are_exact():
    # KK vs two random hands on a river, counted: the random players are symmetric.
    result = pp.equity(["KK", "random", "random"], board="8c4d7cTsQs", exact=True)
    assert result.equity[1] == pytest.approx(result.equity[2], abs=1e-12)
    assert result.equity.sum() == pytest.approx(1.0, abs=1e-12)


RUN_EXACT = textwrap.dedent(
    """
    import resource, sys, pypoker as pp
    try:
        pp.equity(["AA", "random", "random"], exact=True, threads=2, progress=True)
    except KeyboardInterrupt:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"interrupted, peak rss {rss} KiB", flush=True)
        sys.exit(3)
    """
)


def test_exact_preflop_with_random_players_is_bounded_shows_progress_and_stops_on_ctrl_c():
    process = subprocess.Popen(
        [sys.executable, "-c", RUN_EXACT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    time.sleep(4)
    assert process.poll() is None  # minutes of work: still running
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    stopped = time.perf_counter() - sent
    assert process.returncode == 3, err
    assert stopped < 1.5  # a call lasts about 50 ms; the interpreter's exit adds the rest
    assert "left" in err  # progress with the time left
    rss_kib = int(out.split("peak rss ")[1].split()[0])
    assert rss_kib < 1_000_000


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"seconds": float("nan")}, ValueError, "seconds must be a finite number"),
        ({"seconds": -1}, ValueError, "seconds"),
        ({"stderr": 0}, ValueError, "stderr"),
        ({"seed": -1}, ValueError, r"seed must be a whole number 0..2\*\*64-1, got -1"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"seed": 1.5}, TypeError, "seed must be a whole number"),
        ({"games": 2.5}, TypeError, "games must be a whole number"),
        ({"games": 0}, ValueError, "games must be a whole number 1.."),
        ({"exact": "yes"}, TypeError, "exact must be"),
        ({"threads": 0}, ValueError, "threads"),
    ],
)
def test_arguments_are_checked(kwargs, error, message):
    with pytest.raises(error, match=message):
        pp.equity(["AA", "KK"], **kwargs)


def test_range_spot_errors_name_the_card():
    with pytest.raises(pp.PokerError, match="the dead cards: card 7c is dealt twice"):
        pp.equity(["AA", "KK"], board="AhKd7c", dead="7c", exact=False)
    with pytest.raises(pp.PokerError, match="player 2: card Ah is dealt twice"):
        pp.equity(["QQ", "AhKd"], board="Ah7c2d", exact=False)
    with pytest.raises(ValueError, match="no deal"):  # every deal shares a card
        pp.equity(["AsAh,AsAc", "AhAc,AsAd"], board="2c7d9h", exact=True)
    with pytest.raises(ValueError, match="no deal"):
        pp.equity(["AsAh,AsAc", "AhAc,AsAd"], board="2c7d9h", exact=False)
    with pytest.raises(pp.PokerError, match="player 2: no combination is left"):
        pp.equity(["AsAh", "AA,AsKd"], board="2c7d9h", dead="AcAd")


def test_range_grid_numbers_and_png(tmp_path):
    result = pp.equity(["QQ+,AKs,AJo:0.5", "random"], board="Kh7d2c")
    grid = pp.range_grid(result, 0)
    assert grid["combos"][0, 0] == 6 and grid["combos"][0, 1] == 3  # AA; AKs without AhKh
    assert grid["combos"][3, 0] == 12 and grid["weight"][3, 0] == 0.5  # AJo, below
    assert np.isnan(grid["equity"][12, 12])  # 22 is not in the range
    assert grid["equity"][1, 1] > grid["equity"][2, 2]  # KK (a set) over QQ
    path = tmp_path / "grid.png"
    pp.plot_range_grid(result, 0, path)
    import matplotlib.image

    image = matplotlib.image.imread(path)
    assert image.shape[:2] == (900, 900)
    assert len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 20  # cells differ


def test_cli_combos_grid_and_method(capsys, tmp_path):
    from pypoker.cli import main

    path = tmp_path / "g.png"
    assert main(["equity", "QQ+", "random", "-", "Kh", "7d", "2c", "--combos",
                 "--grid", str(path)]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    assert "(exact: about" in printed and "equity per combo" in printed
    assert "QhQs" in printed and path.stat().st_size > 10_000
    assert main(["equity", "AA", "KK", "--seed", "-1", "-g", "1000"]) == 2
    assert "seed must be" in capsys.readouterr().err
