"""The ``pypoker`` command line.

``pypoker rank --random 16M``   deal and rank 16 million random 7-card hands: ns/hand and the
                                category histogram
``pypoker rank AhKd7c2s3s …``   rank and describe the hands given
``pypoker rank IN -o OUT --column cards``   rank a Parquet / Arrow / CSV file into a new one
``pypoker deal 10M -p 6 -o hands.parquet``   a labelled dataset of dealt showdowns
``pypoker enumerate 7``         category counts of every 7-card hand
``pypoker bench``               ns/hand of every form against the peers, in one run
``pypoker equity AcKd 7h7s [- 8c 4d 7c]``   equity of hands and ranges, exact or Monte Carlo
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

import numpy as np

from . import (
    CATEGORY_NAMES,
    PokerError,
    category,
    category_counts,
    cpu,
    dataset,
    deal,
    describe,
    rank,
)
from ._parallel import cpu_count, thread_count

_SUFFIXES = {"k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9}


# Counts above this are refused at once (2**63 - 1: the rows of any array pypoker makes).
COUNT_MAX = 2**63 - 1


def parse_count(text: str) -> int:
    """``"16M"`` → 16_000_000; also ``150K``, ``2G``, plain integers and ``1_000``."""
    cleaned = text.strip().replace("_", "").lower()
    scale = _SUFFIXES.get(cleaned[-1:], 1)
    number = cleaned[:-1] if scale != 1 else cleaned
    try:
        value = float(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count: {text!r} (try 10000, 150K, 16M)") from None
    if not math.isfinite(value) or value < 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"not a positive whole count: {text!r}")
    if value > COUNT_MAX:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {COUNT_MAX:,}")
    return int(value)


def _rank_random(count: int, seed: int, threads: int | None, hand_cards: int) -> int:
    used = thread_count(threads, count)
    print(f"pypoker: dealing {count:,} random {hand_cards}-card hands (seed {seed}) ...")
    hands = deal(count, hand_cards, seed=seed, threads=threads)
    out = np.zeros(count, dtype=np.uint16)
    out.fill(0)  # fault the output's pages in now, so the timing below is the ranking alone
    rank(hands[: min(count, 1 << 16)], out=out[: min(count, 1 << 16)])  # warm the tables
    started = time.perf_counter()
    rank(hands, out=out, threads=threads)
    seconds = time.perf_counter() - started
    print(
        f"ranked {count:,} hands in {seconds * 1e3:.1f} ms: "
        f"{seconds * 1e9 / count:.2f} ns/hand on {used} thread(s) "
        f"[{cpu()} kernels, {platform.machine()}, {cpu_count()} cores]"
    )
    _print_histogram(np.bincount(category(out), minlength=10), count)
    best = int(out.max())
    print(f"\nbest hand dealt: {describe(best)}")
    return 0


def _rank_file(args) -> int:
    from . import arrow

    if len(args.hands) != 1:
        raise ValueError("with -o, give exactly one input file")
    result = arrow.rank_file(
        args.hands[0], args.output, args.column, into=args.into, category=args.category,
        describe=args.describe, errors=args.errors, threads=args.threads,
        batch_size=args.batch_size, progress=sys.stderr.isatty(),
    )  # fmt: skip
    print(
        f"ranked {result.rows:,} rows of {args.hands[0]} into {args.output} in "
        f"{result.seconds:.2f} s ({result.rows / max(result.seconds, 1e-9) / 1e6:.2f} M rows/s)"
        + (f"; {result.invalid:,} invalid rows written as null" if args.errors == "null" else "")
    )
    return 0


def _rank_given(hands: list[str]) -> int:
    ranks = rank(hands)
    for text, r in zip(hands, ranks.tolist(), strict=True):
        print(f"{text:<24} {r:>6}  {describe(r)}")
    return 0


def _print_histogram(counts, total: int) -> None:
    print(f"\n{'category':<16} {'hands':>14} {'share':>9}")
    for c in range(9, 0, -1):
        print(f"{CATEGORY_NAMES[c]:<16} {int(counts[c]):>14,} {counts[c] / total * 100:>8.4f}%")


def _enumerate(k: int, exclude: str | None, threads: int | None) -> int:
    started = time.perf_counter()
    counts = category_counts(k, exclude=exclude, threads=threads)
    seconds = time.perf_counter() - started
    total = int(counts.sum())
    print(
        f"every {k}-card hand: {total:,} in {seconds:.3f} s ({seconds * 1e9 / total:.2f} ns/hand)"
    )
    _print_histogram(counts, total)
    return 0


def _deal(count: int, players: int, output: str, seed: int, chunk: int, threads,
          equity: bool, game: str = "holdem") -> int:  # fmt: skip
    started = time.perf_counter()
    path = dataset(count, players, seed=seed, path=output, chunk=chunk, threads=threads,
                   progress=sys.stderr.isatty(), equity=equity, game=game)  # fmt: skip
    seconds = time.perf_counter() - started
    print(
        f"wrote {count:,} deals of {players} players to {path} in {seconds:.2f} s "
        f"({count / seconds / 1e6:.2f} M deals/s)"
    )
    return 0


def _equity(args) -> int:
    from .equity import equity

    hands, board_cards = args.cards, list(args.board or [])
    if "-" in hands:  # Poker bits' form: hands, then "-", then the board's cards
        split = hands.index("-")
        hands, board_cards = hands[:split], board_cards + hands[split + 1 :]
    if args.players is not None:  # -p N: the players not given hold random hands
        if args.players < len(hands):
            raise ValueError(f"-p {args.players} but {len(hands)} players are given")
        hands = hands + ["random"] * (args.players - len(hands))
    monte_carlo = args.games is not None or args.stderr is not None or args.seconds is not None
    if args.exact and monte_carlo:
        raise ValueError("-e enumerates; -g, --stderr and --seconds are for Monte Carlo")
    result = equity(
        hands, board="".join(board_cards) or None, dead=args.dead,
        exact=True if args.exact else (False if monte_carlo else None), games=args.games,
        stderr=args.stderr, seconds=args.seconds, threads=args.threads, seed=args.seed,
        progress=sys.stderr.isatty(), game=args.game,
    )  # fmt: skip
    print(result)
    if not result.exact:
        rate = result.games / max(result.seconds, 1e-9) / 1e6
        print(f"{rate:.1f} M games/s")
    if args.combos:
        for player in range(len(hands)):
            if len(result.by_combo(player)["combo"]) > 1:
                print("\n" + result.combos_table(player))
    if args.grid:
        from .range_grid import plot_range_grid

        player = args.grid_player - 1
        if not 0 <= player < len(hands):
            raise ValueError(f"--grid-player {args.grid_player}: players are 1..{len(hands)}")
        plot_range_grid(result, player, args.grid)
        print(f"range grid of player {args.grid_player} written to {args.grid}")
    return 0


def _features(args) -> int:
    from .street_tables import street_table

    started = time.perf_counter()
    path = street_table(
        args.street, args.output, features=args.features.split(","), bins=args.bins,
        start=args.start, count=args.count, per_street=args.per_street, threads=args.threads,
        progress=sys.stderr.isatty(),
    )  # fmt: skip
    rows = pq_rows(path)
    print(f"{rows:,} canonical {args.street} hands written to {path} "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    return 0


def pq_rows(path) -> int:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pypoker", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rank_parser = commands.add_parser("rank", help="rank hands: given, or random (--random N)")
    rank_parser.add_argument("hands", nargs="*", help='hands as text, e.g. "AhKd7c2s3s"')
    rank_parser.add_argument("--random", type=parse_count, metavar="N", help="deal N hands")
    rank_parser.add_argument("--cards", type=int, default=7, help="cards per random hand (7)")
    rank_parser.add_argument("--seed", type=int, default=2024, help="dealing seed (2024)")
    rank_parser.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    rank_parser.add_argument("-o", "--output", help="rank the input FILE into this new file")
    rank_parser.add_argument("--column", default="cards", help="column of hands (cards)")
    rank_parser.add_argument("--into", default="rank", help="name of the rank column (rank)")
    rank_parser.add_argument("--category", action="store_true", help="add a category column")
    rank_parser.add_argument("--describe", action="store_true", help="add a describe column")
    rank_parser.add_argument(
        "--errors", choices=["raise", "null"], default="raise", help="bad rows: fail or null"
    )
    rank_parser.add_argument("--batch-size", type=parse_count, default=1 << 20, help="rows")
    deal_parser = commands.add_parser("deal", help="write a labelled dataset of showdowns")
    deal_parser.add_argument("count", type=parse_count, help="deals, e.g. 10M")
    deal_parser.add_argument("-p", "--players", type=int, default=6, help="2..10 (6)")
    deal_parser.add_argument("-o", "--output", required=True, help=".parquet or .arrow")
    deal_parser.add_argument("--seed", type=int, default=2024, help="dealing seed (2024)")
    deal_parser.add_argument("--chunk", type=parse_count, default=1 << 20, help="rows a batch")
    deal_parser.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    deal_parser.add_argument(
        "--equity", action="store_true", help="add each player's flop and turn equity"
    )
    deal_parser.add_argument(
        "--game", choices=["holdem", "plo4", "plo5", "plo6"], default="holdem",
        help="Texas Hold'em (default) or Omaha with 4, 5 or 6 hole cards",
    )  # fmt: skip
    enum_parser = commands.add_parser("enumerate", help="category counts of every k-card hand")
    enum_parser.add_argument("k", type=int, help="cards per hand, 1..7")
    enum_parser.add_argument("--exclude", help='dead cards, e.g. "AhKd"')
    enum_parser.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    bench_parser = commands.add_parser("bench", help="ns/hand of every form and the peers")
    bench_parser.add_argument("--hands", type=parse_count, default=16_000_000)
    bench_parser.add_argument("--runs", type=int, default=5, help="timings per figure (>= 5)")
    bench_parser.add_argument("--seed", type=int, default=1)
    bench_parser.add_argument("--no-peers", action="store_true", help="skip the other libraries")
    bench_parser.add_argument("-o", "--output", help="folder for rank.json and rank.png")
    bench_parser.add_argument(
        "--latency", action="store_true", help="µs a call: one hand in each form, small batches"
    )
    equity_parser = commands.add_parser(
        "equity", help="equity of hands and ranges: pypoker equity AcKd 7h7s [- 8c 4d 7c]"
    )
    equity_parser.add_argument(
        "cards", nargs="+", help="hands or ranges (AcKd, QQ+, [AQs+,TT+], Ac, random), then - board"
    )
    equity_parser.add_argument("-p", "--players", type=int, help="players; extra ones random")
    equity_parser.add_argument("-b", "--board", nargs="+", help="board cards (0, 3, 4 or 5)")
    equity_parser.add_argument("-d", "--dead", help='dead cards, e.g. "2c3d"')
    equity_parser.add_argument("-e", "--exact", action="store_true", help="enumerate (default)")
    equity_parser.add_argument("-g", "--games", type=parse_count, help="Monte Carlo games")
    equity_parser.add_argument("--stderr", type=float, help="Monte Carlo: stop at this stderr")
    equity_parser.add_argument("--seconds", type=float, help="Monte Carlo: stop after this")
    equity_parser.add_argument(
        "--game", choices=["holdem", "plo4", "plo5", "plo6"], default="holdem",
        help="Texas Hold'em (default) or Omaha with 4, 5 or 6 hole cards",
    )  # fmt: skip
    equity_parser.add_argument("-t", "--threads", type=int, default=None)
    equity_parser.add_argument("--seed", type=int, default=0)
    equity_parser.add_argument(
        "--combos", action="store_true", help="each range player's equity per combo"
    )
    equity_parser.add_argument("--grid", metavar="PNG", help="draw a 13x13 range grid (PNG)")
    equity_parser.add_argument(
        "--grid-player", type=int, default=1, metavar="N", help="whose grid (1)"
    )
    features_parser = commands.add_parser(
        "features", help="a whole-street table: every canonical hand's features (Parquet)"
    )
    features_parser.add_argument("street", choices=["flop", "turn", "river"])
    features_parser.add_argument("-o", "--output", required=True, help=".parquet file")
    features_parser.add_argument(
        "-f", "--features", default="ehs", help="comma-separated: hs, ehs, ehs2, histogram (ehs)"
    )
    features_parser.add_argument("--bins", type=int, default=50, help="histogram bins (50)")
    features_parser.add_argument("--start", type=parse_count, default=0, help="first index (0)")
    features_parser.add_argument("--count", type=parse_count, help="indices (to the end)")
    features_parser.add_argument(
        "--per-street", action="store_true", help="flop, turn and river as separate rounds"
    )
    features_parser.add_argument("-t", "--threads", type=int, default=None)
    args = parser.parse_args(argv)

    try:
        if args.command == "equity":
            return _equity(args)
        if args.command == "bench":
            from . import benchmark

            if args.latency:
                return benchmark.main_latency(args.runs, args.seed, not args.no_peers)
            return benchmark.main(args.hands, args.runs, args.seed, not args.no_peers, args.output)
        if args.command == "deal":
            return _deal(args.count, args.players, args.output, args.seed, args.chunk, args.threads,
                         args.equity, args.game)  # fmt: skip
        if args.command == "features":
            return _features(args)
        if args.command == "enumerate":
            return _enumerate(args.k, args.exclude, args.threads)
        if args.command == "rank" and args.output:
            return _rank_file(args)
        if args.random is not None:
            if args.hands:
                parser.error("give hands or --random N, not both")
            return _rank_random(args.random, args.seed, args.threads, args.cards)
        if not args.hands:
            parser.error("give hands to rank, or --random N")
        return _rank_given(args.hands)
    except BrokenPipeError:  # the reader left (`pypoker … | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        print("pypoker: not enough memory for that: ask for fewer rows, or write a file "
              "(-o) to work in bounded memory", file=sys.stderr)  # fmt: skip
        return 2
    except (PokerError, ValueError, TypeError, KeyError, OSError) as error:
        message = error.args[0] if isinstance(error, KeyError) else error
        print(f"pypoker: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
