"""Issue #16's bars: Omaha ranking against 7-card Hold'em ranking of the same count, in one
run, one thread; and phevaluator's Python call for PLO4. Issue #51's hi-lo bar: the high and
the low of a batch (one pass) against the high alone, on the same batch, timed in turn.

python bench/bench_omaha.py [--runs 7] [--hilo: the hi-lo figures alone]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import pypoker as pp
from pypoker.benchmark import machine

BARS = {4: 10, 5: 15, 6: 20}  # the most a PLOk river rank may cost, in 7-card ranks


def median_ns(call, n: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return float(np.median(times)) / n * 1e9


def ranking(runs: int) -> None:
    n = 1 << 21
    out = np.empty(n, dtype=np.uint16)
    hands = pp.deal(n, 7, seed=1)
    holdem = median_ns(lambda: pp.rank(hands, out=out, threads=1), n, runs)
    print(f"Hold'em 7-card rank: {holdem:.2f} ns/hand (1 thread, median of {runs})")
    for k in (4, 5, 6):
        cards = pp.deal(n, k + 5, seed=k)
        holes, boards = np.ascontiguousarray(cards[:, :k]), np.ascontiguousarray(cards[:, k:])
        ns = median_ns(lambda: pp.rank_omaha(holes, boards, threads=1), n, runs)  # noqa: B023
        print(f"PLO{k} river rank: {ns:.1f} ns/hand = {ns / holdem:.1f}x a 7-card rank "
              f"(bar <= {BARS[k]}x)")  # fmt: skip


def equity(runs: int) -> None:
    hands = ["AhAsKhKs", "9c8c7d6d"]
    pp.equity(hands, board="2h3cTs", game="plo4", threads=1)  # the pool and caches, once
    seconds = [pp.equity(hands, board="2h3cTs", game="plo4", threads=1).seconds
               for _ in range(runs)]  # fmt: skip
    print(f"exact PLO4 heads-up on the flop 2h3cTs: {np.median(seconds) * 1e3:.2f} ms "
          f"(1 thread, median of {runs}; bar <= 5 ms)")  # fmt: skip
    games = 2_000_000
    rates = []
    for seed in range(runs):
        result = pp.equity(hands, game="plo4", games=games, threads=1, seed=seed)
        rates.append(games / result.seconds / 1e6)
    print(f"Monte Carlo PLO4 heads-up preflop: {np.median(rates):.1f} M games/s "
          f"(1 thread, median of {runs}; bar >= 10)")  # fmt: skip


def hilo(runs: int) -> None:
    """Batch rank of hi-lo (high + low, one pass) against Omaha high on the same batch; the
    three calls taken in turn each run, so a busy machine slows them alike; medians."""
    n = 1 << 21
    for k in (4, 5):
        cards = pp.deal(n, k + 5, seed=k)
        boards = np.ascontiguousarray(cards[:, k:])
        holes = np.ascontiguousarray(cards[:, :k]).reshape(n, 1, k)
        calls = {
            "high": lambda: pp.rank_showdown_omaha(boards, holes, threads=1),  # noqa: B023
            "low": lambda: pp.rank_low_omaha(holes[:, 0], boards, threads=1),  # noqa: B023
            "high+low": lambda: pp.rank_showdown_omaha(boards, holes, threads=1, low=True),  # noqa: B023
        }
        times = {name: [] for name in calls}
        for _ in range(runs):
            for name, call in calls.items():
                started = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - started)
        ns = {name: float(np.median(t)) / n * 1e9 for name, t in times.items()}
        high, low, both = ns["high"], ns["low"], ns["high+low"]
        print(f"PLO{k}-8 river batch (1 thread, median of {runs}): high {high:.1f} ns/hand, "
              f"low alone {low:.1f} ({low / high:.2f}x), high+low {both:.1f} "
              f"({both / high:.2f}x the high; bar <= 1.5x)")  # fmt: skip
    hands = ["AhAd2h3c", "KdKc8h9s"]
    for game in ("plo4", "plo4-8"):
        pp.equity(hands, board="4h5cTs", game=game, threads=1)  # the pool and caches, once
        exact = [pp.equity(hands, board="4h5cTs", game=game, threads=1).seconds
                 for _ in range(runs)]  # fmt: skip
        rates = [2_000_000 / pp.equity(hands, game=game, games=2_000_000, threads=1,
                                       seed=s).seconds / 1e6 for s in range(runs)]  # fmt: skip
        rate = np.median(rates)
        print(f"{game} heads-up: exact on 4h5cTs {np.median(exact) * 1e3:.2f} ms, Monte "
              f"Carlo preflop {rate:.1f} M games/s (1 thread, medians of {runs})")  # fmt: skip


def phevaluator_call(runs: int) -> None:
    try:
        from phevaluator import evaluate_omaha_cards
    except ImportError:
        print("phevaluator is not installed: pip install phevaluator")
        return
    n = 20_000
    cards = pp.deal(n, 9, seed=9)
    names = np.array(pp.CARD_NAMES)[cards].tolist()
    ns = median_ns(lambda: [evaluate_omaha_cards(*row[4:], *row[:4]) for row in names], n, runs)
    holes, boards = cards[:1000, :4].copy(), cards[:1000, 4:].copy()
    texts = [("".join(row[:4]), "".join(row[4:])) for row in names[:1000]]
    rows = list(zip(holes, boards, strict=True))
    ids = median_ns(lambda: [pp.rank_omaha(h, b) for h, b in rows], 1000, runs)
    text = median_ns(lambda: [pp.rank_omaha(h, b) for h, b in texts], 1000, runs)
    print(f"phevaluator evaluate_omaha_cards: {ns:.0f} ns/hand (one call per hand); "
          f"pp.rank_omaha of one hand: {ids:.0f} ns (id arrays), {text:.0f} ns (text)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--hilo", action="store_true", help="the hi-lo figures alone")
    args = parser.parse_args()
    print(machine())
    hilo(args.runs)
    if args.hilo:
        return
    ranking(args.runs)
    equity(args.runs)
    phevaluator_call(args.runs)


if __name__ == "__main__":
    main()
