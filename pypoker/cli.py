"""The ``pypoker`` command line.

``pypoker rank --random 16M``   deal and rank 16 million random 7-card hands: ns/hand and the
                                category histogram
``pypoker rank AhKd7c2s3s …``   rank and describe the hands given
``pypoker rank IN -o OUT --column cards``   rank a Parquet / Arrow / CSV file into a new one
``pypoker deal 10M -p 6 -o hands.parquet``   a labelled dataset of dealt showdowns
``pypoker enumerate 7``         category counts of every 7-card hand
``pypoker bench``               ns/hand of every form against the peers, in one run
``pypoker equity AcKd 7h7s [- 8c 4d 7c]``   equity of hands and ranges, exact or Monte Carlo
``pypoker arena --agents equity,chart,call --hands 1M --duplicate``   a match of agents
``pypoker reader generate --hands 10M --out data/``                   the Range Reader's hands
"""

from __future__ import annotations

import argparse
import importlib
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
from ._extras import missing_extra
from ._games import game_of, holdem_only
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


class UsageError(Exception):
    """The command line's arguments do not fit together: argparse's usage message follows."""


def _rank(args) -> int:
    if args.output:
        holdem_only(args.game, "pypoker rank -o (the Arrow file path)")
        return _rank_file(args)
    if args.random is not None:
        if args.hands:
            raise UsageError("give hands or --random N, not both")
        return _rank_random(args.random, args.seed, args.threads, args.cards, args.game)
    if not args.hands:
        raise UsageError("give hands to rank, or --random N")
    return _rank_given(args.hands, args.game)


def _rank_random(count: int, seed: int, threads: int | None, hand_cards: int,
                 game: str = "holdem") -> int:  # fmt: skip
    used = thread_count(threads, count)
    deck = "" if game == "holdem" else f" {game}"
    print(f"pypoker: dealing {count:,} random {hand_cards}-card{deck} hands (seed {seed}) ...")
    hands = deal(count, hand_cards, seed=seed, threads=threads, game=game)
    out = np.zeros(count, dtype=np.uint16)
    out.fill(0)  # fault the output's pages in now, so the timing below is the ranking alone
    warm = min(count, 1 << 16)
    rank(hands[:warm], out=out[:warm], game=game)  # warm the tables
    started = time.perf_counter()
    rank(hands, out=out, threads=threads, game=game)
    seconds = time.perf_counter() - started
    print(
        f"ranked {count:,} hands in {seconds * 1e3:.1f} ms: "
        f"{seconds * 1e9 / count:.2f} ns/hand on {used} thread(s) "
        f"[{cpu()} kernels, {platform.machine()}, {cpu_count()} cores]"
    )
    _print_histogram(np.bincount(category(out, game=game), minlength=10), count, game)
    best = int(out.max())
    print(f"\nbest hand dealt: {describe(best, game=game)}")
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


def _rank_given(hands: list[str], game: str = "holdem") -> int:
    ranks = rank(hands, game=game)
    for text, r in zip(hands, ranks.tolist(), strict=True):
        print(f"{text:<24} {r:>6}  {describe(r, game=game)}")
    return 0


def _print_histogram(counts, total: int, game: str = "holdem") -> None:
    print(f"\n{'category':<16} {'hands':>14} {'share':>9}")
    for c in reversed(game_of(game).categories[1:]):  # the game's order, best first
        print(f"{CATEGORY_NAMES[c]:<16} {int(counts[c]):>14,} {counts[c] / total * 100:>8.4f}%")


def _enumerate(args) -> int:
    k = args.k
    started = time.perf_counter()
    counts = category_counts(k, exclude=args.exclude, threads=args.threads)
    seconds = time.perf_counter() - started
    total = int(counts.sum())
    print(
        f"every {k}-card hand: {total:,} in {seconds:.3f} s ({seconds * 1e9 / total:.2f} ns/hand)"
    )
    _print_histogram(counts, total)
    return 0


def _deal(args) -> int:
    count, players = args.count, args.players
    started = time.perf_counter()
    path = dataset(count, players, seed=args.seed, path=args.output, chunk=args.chunk,
                   threads=args.threads, progress=sys.stderr.isatty(), equity=args.equity,
                   game=args.game)  # fmt: skip
    seconds = time.perf_counter() - started
    print(
        f"wrote {count:,} deals of {players} players to {path} in {seconds:.2f} s "
        f"({count / seconds / 1e6:.2f} M deals/s)"
    )
    return 0


def _bench(args) -> int:
    from . import benchmark

    if args.latency:
        return benchmark.main_latency(args.runs, args.seed, not args.no_peers)
    return benchmark.main(args.hands, args.runs, args.seed, not args.no_peers, args.output)


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


def _add_rank(commands) -> None:
    """`pypoker rank`: given hands, --random N, or a file (-o)."""
    command = commands.add_parser("rank", help="rank hands: given, or random (--random N)")
    command.add_argument("hands", nargs="*", help='hands as text, e.g. "AhKd7c2s3s"')
    command.add_argument("--random", type=parse_count, metavar="N", help="deal N hands")
    command.add_argument("--cards", type=int, default=7, help="cards per random hand (7)")
    command.add_argument("--seed", type=int, default=2024, help="dealing seed (2024)")
    command.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    command.add_argument("-o", "--output", help="rank the input FILE into this new file")
    command.add_argument("--column", default="cards", help="column of hands (cards)")
    command.add_argument("--into", default="rank", help="name of the rank column (rank)")
    command.add_argument("--category", action="store_true", help="add a category column")
    command.add_argument("--describe", action="store_true", help="add a describe column")
    command.add_argument(
        "--errors", choices=["raise", "null"], default="raise", help="bad rows: fail or null"
    )
    command.add_argument("--batch-size", type=parse_count, default=1 << 20, help="rows")
    command.add_argument(
        "--game", choices=["holdem", "shortdeck", "shortdeck-straights"], default="holdem",
        help="Texas Hold'em (default) or short deck (6+): trips beat straights, or "
        "shortdeck-straights: straights beat trips",
    )  # fmt: skip
    command.set_defaults(run=_rank)


def _add_deal(commands) -> None:
    """`pypoker deal N -o FILE`: a labelled dataset."""
    command = commands.add_parser("deal", help="write a labelled dataset of showdowns")
    command.add_argument("count", type=parse_count, help="deals, e.g. 10M")
    command.add_argument("-p", "--players", type=int, default=6, help="2..10 (6)")
    command.add_argument("-o", "--output", required=True, help=".parquet or .arrow")
    command.add_argument("--seed", type=int, default=2024, help="dealing seed (2024)")
    command.add_argument("--chunk", type=parse_count, default=1 << 20, help="rows a batch")
    command.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    command.add_argument(
        "--equity", action="store_true", help="add each player's flop and turn equity"
    )
    command.add_argument(
        "--game", choices=["holdem", "plo4", "plo5", "plo6", "plo4-8", "plo5-8", "shortdeck",
                           "shortdeck-straights"],
        default="holdem", help="Texas Hold'em (default), Omaha with 4, 5 or 6 hole cards, Omaha "
        "hi-lo eight or better (plo4-8, plo5-8), or short deck (6+; shortdeck: trips beat "
        "straights, shortdeck-straights: the reverse)",
    )  # fmt: skip
    command.set_defaults(run=_deal)


def _add_enumerate(commands) -> None:
    """`pypoker enumerate K`: category counts of every K-card hand."""
    command = commands.add_parser("enumerate", help="category counts of every k-card hand")
    command.add_argument("k", type=int, help="cards per hand, 1..7")
    command.add_argument("--exclude", help='dead cards, e.g. "AhKd"')
    command.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    command.set_defaults(run=_enumerate)


def _add_bench(commands) -> None:
    """`pypoker bench`: ns/hand against the peers, or --latency."""
    command = commands.add_parser("bench", help="ns/hand of every form and the peers")
    command.add_argument("--hands", type=parse_count, default=16_000_000)
    command.add_argument("--runs", type=int, default=5, help="timings per figure (>= 5)")
    command.add_argument("--seed", type=int, default=1)
    command.add_argument("--no-peers", action="store_true", help="skip the other libraries")
    command.add_argument("-o", "--output", help="folder for rank.json and rank.png")
    command.add_argument(
        "--latency", action="store_true", help="µs a call: one hand in each form, small batches"
    )
    command.set_defaults(run=_bench)


def _add_equity(commands) -> None:
    """`pypoker equity HANDS [- BOARD]`: equity, exact or Monte Carlo."""
    command = commands.add_parser(
        "equity", help="equity of hands and ranges: pypoker equity AcKd 7h7s [- 8c 4d 7c]"
    )
    command.add_argument(
        "cards", nargs="+", help="hands or ranges (AcKd, QQ+, [AQs+,TT+], Ac, random), then - board"
    )
    command.add_argument("-p", "--players", type=int, help="players; extra ones random")
    command.add_argument("-b", "--board", nargs="+", help="board cards (0, 3, 4 or 5)")
    command.add_argument("-d", "--dead", help='dead cards, e.g. "2c3d"')
    command.add_argument(
        "-e", "--exact", action="store_true",
        help="enumerate every runout (default: enumerate when predicted to take at most a "
        "second, else Monte Carlo to a standard error of 0.0005 or 10 s)",
    )  # fmt: skip
    command.add_argument("-g", "--games", type=parse_count, help="Monte Carlo games")
    command.add_argument("--stderr", type=float, help="Monte Carlo: stop at this stderr")
    command.add_argument("--seconds", type=float, help="Monte Carlo: stop after this")
    command.add_argument(
        "--game", choices=["holdem", "plo4", "plo5", "plo6", "plo4-8", "plo5-8", "shortdeck",
                           "shortdeck-straights"],
        default="holdem", help="Texas Hold'em (default), Omaha with 4, 5 or 6 hole cards, Omaha "
        "hi-lo eight or better (plo4-8, plo5-8), or short deck (6+; shortdeck: trips beat "
        "straights, shortdeck-straights: the reverse)",
    )  # fmt: skip
    command.add_argument("-t", "--threads", type=int, default=None)
    command.add_argument("--seed", type=int, default=0)
    command.add_argument(
        "--combos", action="store_true", help="each range player's equity per combo"
    )
    command.add_argument("--grid", metavar="PNG", help="draw a 13x13 range grid (PNG)")
    command.add_argument("--grid-player", type=int, default=1, metavar="N", help="whose grid (1)")
    command.set_defaults(run=_equity)


def _add_features(commands) -> None:
    """`pypoker features STREET -o FILE`: a whole-street table."""
    command = commands.add_parser(
        "features", help="a whole-street table: every canonical hand's features (Parquet)"
    )
    command.add_argument("street", choices=["flop", "turn", "river"])
    command.add_argument("-o", "--output", required=True, help=".parquet file")
    command.add_argument(
        "-f", "--features", default="ehs", help="comma-separated: hs, ehs, ehs2, histogram (ehs)"
    )
    command.add_argument("--bins", type=int, default=50, help="histogram bins (50)")
    command.add_argument("--start", type=parse_count, default=0, help="first index (0)")
    command.add_argument("--count", type=parse_count, help="indices (to the end)")
    command.add_argument(
        "--per-street", action="store_true", help="flop, turn and river as separate rounds"
    )
    command.add_argument("-t", "--threads", type=int, default=None)
    command.set_defaults(run=_features)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pypoker", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for add in (_add_rank, _add_deal, _add_enumerate, _add_bench, _add_equity, _add_features):
        add(commands)
    _add_extra_command(commands, "arena", "a match of agents", "arena.cli", "add_arena")
    _add_extra_command(commands, "reader", "the Range Reader", "reader.cli", "add_reader")
    return parser


def _add_extra_command(commands, name: str, what: str, module: str, adder: str) -> None:
    """`pypoker <name> …`, added by ``pypoker.<module>.<adder>``, or, where the extra it
    needs (pyarrow) is missing, a command of that name that says which extra to install."""
    try:
        add = getattr(importlib.import_module(f".{module}", __package__), adder)
    except ImportError as error:
        if missing_extra(error) is None:
            raise
        # Every word after the command taken as it is (no option prefix), to say what is missing.
        command = commands.add_parser(
            name, help=f"{what} (needs pyarrow)", prefix_chars="\0", add_help=False
        )
        command.add_argument("rest", nargs="*")
        command.set_defaults(run=lambda args, missing=error: _raise(missing))
        return
    add(commands, parse_count)


def _raise(error: BaseException):
    raise error


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        parser.error(str(error))
    except BrokenPipeError:  # the reader left (`pypoker … | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        print("pypoker: not enough memory for that: ask for fewer rows, or write a file "
              "(-o) to work in bounded memory", file=sys.stderr)  # fmt: skip
        return 2
    except ImportError as error:  # an optional dependency: one line naming its extra
        message = missing_extra(error)
        if message is None:
            raise
        print(f"pypoker {args.command}: {message}", file=sys.stderr)
        return 2
    except (PokerError, ValueError, TypeError, KeyError, OSError) as error:
        message = error.args[0] if isinstance(error, KeyError) else error
        print(f"pypoker: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
