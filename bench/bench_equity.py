"""Equity engine against the bars of the equity issues, all in one run.

    python bench/bench_equity.py [--runs 5] [--games 4M] [--quick] [--calibrate]

Monte Carlo rates (one thread unless said) of known hands, random players and ranges, each
with the bar it answers to (a ratio to a known-hands rate measured in the same run); exact
times of range spots; the default mode on AA vs two random players; two threads against
one. ``--calibrate`` times exact counts on spots of several shapes and prints the cost
model's constants (pypoker/_equity_runs.py) fitted to this machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import pypoker as pp
from pypoker import _equity_runs as runs
from pypoker._parallel import cpu_count
from pypoker.benchmark import machine, median_ns, paired
from pypoker.cli import parse_count

KNOWN_2 = ["AcKd", "QhQs"]
THREE_RANGES = ["22+,A2s+,K9s+", "22+,AJo+", "88+,AQ+"]
KNOWN_10 = ["AcKd", "QhQs", "JsTs", "9h9d", "8c7c", "6s6h", "5d4d", "3c3h", "2s2d", "AhQd"]


def mc(players, games: int, threads: int = 1, **kwargs):
    """One Monte Carlo run of exactly ``games`` games, as a call to time."""
    return lambda: pp.equity(players, exact=False, games=games, threads=threads, **kwargs)


def rate(players, games: int, runs_: int, threads: int = 1, **kwargs) -> float:
    """Median M games/s of Monte Carlo with exactly `games` games."""
    return games / median_ns(mc(players, games, threads, **kwargs), runs_) * 1e3


def seconds(call, runs_: int) -> float:
    return median_ns(call, runs_) / 1e9


def verdict(ok: bool) -> str:
    return "meets the bar" if ok else "MISSES the bar"


def monte_carlo_rows(games: int, runs_: int) -> None:
    known_2 = rate(KNOWN_2, games, runs_)
    known_10 = rate(KNOWN_10, games // 4, runs_)
    print("Monte Carlo, 1 thread (M games/s; OMPEval figures from the issue, its machine)")
    print(f"  AcKd vs QhQs (known)                  {known_2:7.1f}")
    print(f"  10 known hands                        {known_10:7.1f}")
    rows = [
        ("random vs random", ["random", "random"], known_2, 0.8, 18.6),
        ("QQ+,AKs vs JJ-99,AQs+", ["QQ+,AKs", "JJ-99,AQs+"], known_2, 0.8, 22.1),
        ("AA vs 2 random", ["AA", "random", "random"], None, None, None),
        ("AA vs 5 random", ["AA"] + ["random"] * 5, None, None, None),
        ("AA vs 9 random", ["AA"] + ["random"] * 9, known_10, 0.5, None),
        ("AA,KK vs AA,KK vs AK (flop 2c7d9h)", ["AA,KK", "AA,KK", "AK"], None, None, None),
        # Three or more ranges: a table of every deal (a few MB) where it fits, else
        # sequential draws weighted by what each range has left.
        ("3 ranges vs random", THREE_RANGES + ["random"], None, None, None),
        ("6 x 22+,A2+,K2+", ["22+,A2+,K2+"] * 6, None, None, None),
    ]
    for name, players, base, bar, ompeval in rows:
        board = "2c7d9h" if "flop" in name else None
        n = games // (2 if len(players) > 4 else 1)
        if base is None:
            line = f"  {name:<38}{rate(players, n, runs_, board=board):7.1f}"
        else:  # the bar's ratio, from runs in turn with its known-hands spot
            known = KNOWN_2 if base is known_2 else KNOWN_10
            _, taken, slower = paired(mc(known, n), mc(players, n, board=board), runs_)
            ratio = 1 / slower
            line = f"  {name:<38}{n / taken / 1e6:7.1f}"
            line += f"   {ratio:.2f}x the known rate (in turn), bar {bar}x: {verdict(ratio >= bar)}"
        if ompeval:
            line += f"; OMPEval {ompeval}"
        print(line)


def exact_rows(runs_: int) -> None:
    print("\nexact, 1 thread (median seconds)")
    spots = [
        (
            "KK vs random vs random, river 8c4d7cTsQs",
            ["KK", "random", "random"],
            "8c4d7cTsQs",
            0.02,
        ),
        ("KK vs random vs random, flop 8c4d7c", ["KK", "random", "random"], "8c4d7c", 2.0),
        ("QQ+,AKs vs JJ-99,AQs+ preflop", ["QQ+,AKs", "JJ-99,AQs+"], None, 0.02),
        ("AA,KK vs AA,KK vs AK, flop 2c7d9h", ["AA,KK", "AA,KK", "AK"], "2c7d9h", None),
        ("AcKd vs QhQs preflop (known)", KNOWN_2, None, None),
    ]
    for name, players, board, bar in spots:
        taken = seconds(lambda p=players, b=board: pp.equity(p, board=b, exact=True, threads=1),
                        runs_ if bar is None or bar < 1 else 1)  # fmt: skip
        line = f"  {name:<44}{taken:9.4f} s"
        if bar is not None:
            line += f"   bar {bar} s: {verdict(taken <= bar)}"
        print(line)


def default_mode_row() -> None:
    started = time.perf_counter()
    result = pp.equity(["AA", "random", "random"])
    taken = time.perf_counter() - started
    worst = float(result.stderr.max()) if result.stderr is not None else 0.0
    ok = taken <= 12 and worst <= 0.0005
    print(f"\ndefault mode, AA vs random vs random: {taken:.2f} s, {result.games:,} games, "
          f"worst stderr {worst:.5f} ({result.reason});\n  bar 12 s and 0.0005: "
          f"{verdict(ok)}")  # fmt: skip


def thread_rows(games: int, runs_: int) -> None:
    threads = cpu_count()
    if threads < 2:
        return
    print(f"\n{threads} threads against 1 (Monte Carlo, same games)")
    for name, players in (("AcKd vs QhQs", KNOWN_2), ("random vs random", ["random", "random"]),
                          ("QQ+,AKs vs JJ-99,AQs+", ["QQ+,AKs", "JJ-99,AQs+"])):  # fmt: skip
        one, both, slower = paired(mc(players, games), mc(players, games, threads), runs_)
        speedup = 1 / slower  # pair by pair, in turn
        rates = f"{games / one / 1e6:7.1f} -> {games / both / 1e6:7.1f} M games/s"
        print(f"  {name:<28}{rates}: {speedup:.2f}x "
              f"(bar 1.8x on an idle machine: {verdict(speedup >= 1.8)})")  # fmt: skip
    one = seconds(lambda: pp.equity(["KK", "random", "random"], board="8c4d7c", threads=1), 1)
    both = seconds(
        lambda: pp.equity(["KK", "random", "random"], board="8c4d7c", threads=threads), 1
    )
    print(f"  exact KK vs 2 random, flop  {one:.3f} -> {both:.3f} s: {one / both:.2f}x")


def calibrate() -> None:
    """Fits COUNT_* (seconds per runout, per combo ranked, per deal settled) by least squares
    over exact counts of several shapes, and DEAL_SECONDS by players."""
    from pypoker._spot import Spot, combo_index
    from pypoker.cardset import bits_of
    from pypoker.ranges import parse_range

    spots = [
        (["KK", "random", "random"], "8c4d7c"), (["AA,KK", "AA,KK", "AK"], "2c7d9h"),
        (["QQ+,AKs", "JJ-99,AQs+"], "2c7d9h"), (["AcKd", "random"], "2c7d9h"),
        (["22+", "random"], "2c7d9hTs"), (["AA", "KK", "QQ", "random"], "2c7d9h"),
        (["AKs", "random", "random", "random"], "2c7d9hTs"), (["AcKd", "QhQs"], "2c7d9hTs"),
    ]  # fmt: skip
    rows, times = [], []
    for players, board in spots:
        weights = np.zeros((len(players), 1326))
        for p, text in enumerate(players):
            r = parse_range(text)
            weights[p, combo_index(r.cards)] = r.weights
        spot = Spot(weights, [t == "random" for t in players], int(bits_of(board)), 0)
        order = runs.count_order(spot)
        deck = 52 - spot.board_cards
        live = (deck - 2 * (5 - spot.board_cards)) / deck
        deals = np.prod([spot.supports[p] * live for p in order[:-1]]) * (len(order) - 1)
        combos = min(sum(spot.supports), 1326)
        taken = seconds(
            lambda s=spot, o=order: runs.count(s, o, 0.0, 1, runs.Progress(False, "")), 3
        )
        rows.append([spot.runouts, spot.runouts * combos, spot.runouts * deals])
        times.append(taken)
        print(f"  {' vs '.join(players):<36} {board:<10} {taken:8.4f} s")
    # Least squares on relative errors (each row over its time), as the spots span 1000x;
    # a term that fits negative is dropped and the rest refitted.
    a = np.array(rows, dtype=float) / np.array(times)[:, None]
    keep = [0, 1, 2]
    while True:
        fit_kept, *_ = np.linalg.lstsq(a[:, keep], np.ones(len(times)), rcond=None)
        if (fit_kept >= 0).all():
            break
        keep.pop(int(np.argmin(fit_kept)))
    fit = np.zeros(3)
    fit[keep] = fit_kept
    predicted = np.array(rows, dtype=float) @ fit
    ratios = (f"{p / t:.2f}" for p, t in zip(predicted, times, strict=True))
    print("  predicted / measured: " + ", ".join(ratios))
    print(f"COUNT_RUNOUT_SECONDS = {fit[0]:.2e}\nCOUNT_COMBO_SECONDS = {fit[1]:.2e}\n"
          f"COUNT_DEAL_SECONDS = {fit[2]:.2e}")  # fmt: skip
    for players in range(2, 7):
        hands = KNOWN_10[:players]
        per_deal = seconds(lambda h=hands: pp.equity(h, exact=True, threads=1), 3)
        print(f"DEAL_SECONDS[{players}] = {per_deal:.2e}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=parse_count, default=4_000_000)
    parser.add_argument("--quick", action="store_true", help="Monte Carlo and exact rows only")
    parser.add_argument("--calibrate", action="store_true", help="fit the exact cost model")
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; kernels: {pp.cpu()}")
    if args.calibrate:
        calibrate()
        return 0
    print(f"median of {args.runs} runs\n")
    monte_carlo_rows(args.games, args.runs)
    exact_rows(args.runs)
    if not args.quick:
        default_mode_row()
        thread_rows(4 * args.games, args.runs)  # long enough that starting threads is noise
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
