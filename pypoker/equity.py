"""Equity of hands and ranges: ``pp.equity`` (and ``pypoker equity``), exact or Monte Carlo.

2 to 10 players, each a hand (``AcKd``), a partial hand (``Ac``), a range (``QQ+,AKs:0.5``)
or ``random`` (see ``pypoker.ranges``); the board holds 0, 3, 4 or 5 cards; dead cards are
out. Combos holding a board or dead card are removed first. Exact enumeration covers every
completion of the board for every deal of combos sharing no card (weighted by the product
of the combos' weights; deals one suit permutation apart are enumerated once); Monte Carlo
draws the combos by weight (redrawing a deal whose combos collide) and then the board, game
``g`` depending only on ``(seed, g)``, so a seed gives the same result for any thread count.
A pot split k ways gives each winner 1/k.
"""

from __future__ import annotations

import functools
import itertools
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._native import PokerError, check_call, check_hands, ffi, lib, new_error
from ._parallel import cpu_count, run_sliced, thread_count
from .cards import CARD_NAMES
from .cardset import CardSet, _bits_of
from .ranges import Range, RangeSyntaxError, parse_range

POT_UNITS = 2520  # a pot in share units: divisible by every player count 1..10
PLAYERS_MIN, PLAYERS_MAX = 2, 10
MONTE_CARLO_BATCH = 1 << 18  # games between checks of the stopping rules
DEFAULT_GAMES = 1_000_000
# exact=None enumerates when deals of combos times board completions stay under this: the
# counting engine takes 0.4-4 ns a board (2 to 6 players), so about a second at most.
EXACT_BUDGET = 1_000_000_000


@dataclass
class EquityResult:
    """Per player: ``equity`` (pot share), ``win`` and ``tie`` (fractions of games), and for
    Monte Carlo the standard error of the equity; ``games`` settled, ``exact`` or not."""

    hands: list[str]
    board: str
    dead: str
    exact: bool
    games: int
    equity: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    stderr: np.ndarray | None
    seconds: float

    def to_dict(self) -> dict[str, list]:
        """Column-oriented: ``pandas.DataFrame(result.to_dict())`` and friends take it."""
        columns = {
            "hand": list(self.hands),
            "equity": self.equity.tolist(),
            "win": self.win.tolist(),
            "tie": self.tie.tolist(),
            "wins": self.wins.tolist(),
            "ties": self.ties.tolist(),
        }
        if self.stderr is not None:
            columns["stderr"] = self.stderr.tolist()
        return columns

    def __str__(self) -> str:
        kind = "exact" if self.exact else "Monte Carlo"
        lines = [
            f"{kind}: {self.games:,} games, board [{self.board or '-'}]"
            + (f", dead [{self.dead}]" if self.dead else "")
            + f", {self.seconds * 1e3:.1f} ms",
            f"{'player':<8}{'hand':<8}{'equity':>10}{'win':>10}{'tie':>10}"
            + ("" if self.stderr is None else f"{'± stderr':>12}"),
        ]
        for i, hand in enumerate(self.hands):
            line = (
                f"{i + 1:<8}{hand:<8}{self.equity[i] * 100:>9.4f}%{self.win[i] * 100:>9.4f}%"
                f"{self.tie[i] * 100:>9.4f}%"
            )
            if self.stderr is not None:
                line += f"{self.stderr[i] * 100:>11.4f}%"
            lines.append(line)
        return "\n".join(lines)


def _names(cards: int) -> str:
    return "".join(CARD_NAMES[i] for i in range(52) if cards >> i & 1)


def _ranges(players: Sequence, dead_bits: int) -> list[Range]:
    """Each player's combos, card removal against the board and dead cards applied."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError("players must be a list of hands or ranges, e.g. ['AcKd', 'QQ+']")
    if not PLAYERS_MIN <= len(players) <= PLAYERS_MAX:
        raise ValueError(f"{len(players)} players: equity takes {PLAYERS_MIN} to {PLAYERS_MAX}")
    ranges = []
    for i, player in enumerate(players):
        if isinstance(player, str):
            try:
                parsed = parse_range(player)
            except RangeSyntaxError as error:
                raise RangeSyntaxError(f"player {i + 1}: {error}", error.position) from None
        else:
            ids = CardSet(player).ids()
            if len(ids) != 2:
                raise ValueError(f"player {i + 1}: {player!r} is not two cards")
            parsed = Range(str(player), ids.reshape(1, 2), np.ones(1))
        if len(parsed.cards) == 1:
            ranges.append(parsed)  # a known hand: a clash with the board is an error below
            continue
        left = parsed.without(dead_bits)
        if len(left) == 0:
            raise ValueError(f"player {i + 1}: no combination of {player!r} is left")
        ranges.append(left)
    return ranges


def _check(status: int, err, hands: list[str]) -> None:
    if status == lib.PP_OK:
        return
    row = int(np.int64(np.uint64(err.row)))
    where = {-1: "the board", -2: "the dead cards"}.get(row, f"player {row + 1}")
    card = int(err.card)
    name = CARD_NAMES[card] if 0 <= card < 52 else str(card)
    if status == lib.PP_DUPLICATE_CARD:
        raise PokerError(f"{where}: card {name} is dealt twice", row, card)
    if status == lib.PP_CARD_OUT_OF_RANGE:
        raise PokerError(f"{where}: {card} is not a card", row, card)
    if status == lib.PP_BAD_ARGUMENT:
        raise ValueError("the board must hold 0, 3, 4 or 5 cards, and the deck enough to deal")
    check_call(status)


def _tallies(players: int) -> tuple[np.ndarray, object]:
    tallies = np.zeros((players, 4), dtype=np.uint64)
    return tallies, ffi.cast("pp_tally *", ffi.from_buffer("uint64_t[]", tallies))


def _exact(holes, board: int, dead: int, threads: int, hands) -> tuple[np.ndarray, int]:
    """Every board, the first card's slots interleaved over `threads` shares."""
    holes_p = ffi.from_buffer("uint64_t[]", holes)

    def share(first: int, stop: int):
        tallies, tallies_p = _tallies(len(holes))
        games = ffi.new("uint64_t *", 0)
        for slot in range(first, stop):
            err = new_error()
            status = lib.pp_equity_exact(
                holes_p, len(holes), board, dead, slot, threads, tallies_p, games, err
            )
            _check(status, err, hands)
        return tallies, int(games[0])

    parts = run_sliced(threads, threads, share)
    return sum(t for t, _ in parts), sum(g for _, g in parts)


def _monte_carlo(holes, board, dead, seed, first_game, count, threads, hands):
    holes_p = ffi.from_buffer("uint64_t[]", holes)

    def share(first: int, stop: int):
        tallies, tallies_p = _tallies(len(holes))
        games = ffi.new("uint64_t *", 0)
        err = new_error()
        status = lib.pp_equity_monte_carlo(
            holes_p, len(holes), board, dead, seed, first_game + first, stop - first,
            tallies_p, games, err,
        )  # fmt: skip
        _check(status, err, hands)
        return tallies, int(games[0])

    parts = run_sliced(count, max(1, min(threads, count)), share)
    return sum(t for t, _ in parts), sum(g for _, g in parts)


def equity(
    players: Sequence,
    *,
    board=None,
    dead=None,
    exact: bool | None = None,
    games: int | None = None,
    stderr: float | None = None,
    seconds: float | None = None,
    threads: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> EquityResult:
    """Equity of 2..10 known hands (``["AcKd", "QhQs"]``) on ``board`` (0, 3, 4 or 5 cards)
    with ``dead`` cards out.

    ``exact=None`` enumerates every board (always cheap with known hands: at most
    1,712,304 boards); ``exact=False`` runs Monte Carlo until ``games`` games (default 1M),
    every equity's standard error is at most ``stderr``, or ``seconds`` have passed —
    whichever comes first when several are given. ``seed`` (default 0) fixes the games.
    ``progress=True`` reports Monte Carlo's games and worst standard error on stderr as it
    goes.
    """
    started = time.perf_counter()
    board_bits, dead_bits = _bits_of(board), _bits_of(dead)
    ranges = _ranges(players, board_bits | dead_bits)
    hands = [
        p.replace(" ", "") if isinstance(p, str) else _names(int(_bits_of(p))) for p in players
    ]
    if any(len(r) > 1 for r in ranges):
        return _equity_ranges(
            ranges, hands, board_bits, dead_bits, exact, games, stderr, seconds, threads,
            seed, started, progress,
        )  # fmt: skip
    holes = np.array([int(r.sets()[0]) for r in ranges], dtype=np.uint64)
    workers = _threads(threads)
    run_exact = exact is None or exact
    if run_exact and (games is not None or stderr is not None or seconds is not None):
        if exact:
            raise ValueError("games, stderr and seconds are Monte Carlo's stopping rules")
        run_exact = False
    if run_exact:
        tallies, played = _exact(holes, board_bits, dead_bits, min(workers, 52), hands)
    else:
        batches = functools.partial(_monte_carlo, holes, board_bits, dead_bits, seed or 0)
        tallies, played = _run_batches(
            len(holes), lambda first, count: batches(first, count, workers, hands), games,
            stderr, seconds, started, progress,
        )  # fmt: skip
    shares = tallies[:, 2].astype(np.float64) / POT_UNITS
    mean = shares / played
    error = None
    if not run_exact:
        squares = tallies[:, 3].astype(np.float64) / POT_UNITS**2
        variance = np.maximum(squares / played - mean**2, 0.0)
        error = np.sqrt(variance / played)
    return EquityResult(
        hands=hands,
        board=_names(board_bits),
        dead=_names(dead_bits),
        exact=run_exact,
        games=played,
        equity=mean,
        win=tallies[:, 0] / played,
        tie=tallies[:, 1] / played,
        wins=tallies[:, 0].astype(np.int64),
        ties=tallies[:, 1].astype(np.int64),
        stderr=error,
        seconds=time.perf_counter() - started,
    )


def street_equities(
    boards: np.ndarray, holes: np.ndarray, *, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each deal's exact equity per player with the flop known and with the turn known.

    ``boards`` (N, 5) uint8 card ids (flop, turn, river) and ``holes`` (N, P, 2) uint8, P =
    2..10 → two (N, P) float32 arrays of pot shares. On the flop every turn and river left in
    the deck counts (the deal's own turn and river too), on the turn every river. Raises
    ``InvalidHandError`` naming the row of a card that is not a card or appears twice.
    """
    boards = np.ascontiguousarray(boards)
    holes = np.ascontiguousarray(holes)
    if boards.dtype != np.uint8 or holes.dtype != np.uint8:
        raise TypeError("boards and holes must be uint8 card ids")
    if boards.ndim != 2 or boards.shape[1] != 5:
        raise ValueError(f"boards must be (N, 5): flop, turn, river; got {boards.shape}")
    n = len(boards)
    if holes.ndim != 3 or holes.shape[0] != n or holes.shape[2] != 2:
        raise ValueError(f"holes must be (N, P, 2) with N = {n}; got {holes.shape}")
    players = holes.shape[1]
    if not PLAYERS_MIN <= players <= PLAYERS_MAX:
        raise ValueError(f"{players} players: {PLAYERS_MIN} to {PLAYERS_MAX}")
    flop = np.zeros((n, players), dtype=np.float32)
    turn = np.zeros((n, players), dtype=np.float32)
    if n == 0:
        return flop, turn
    boards_p, holes_p = ffi.from_buffer("uint8_t[]", boards), ffi.from_buffer("uint8_t[]", holes)
    flop_p = ffi.from_buffer("float[]", flop, require_writable=True)
    turn_p = ffi.from_buffer("float[]", turn, require_writable=True)

    def part(first: int, stop: int):
        err = new_error()
        status = lib.pp_street_equities(
            boards_p + 5 * first, holes_p + 2 * players * first, players, stop - first,
            flop_p + players * first, turn_p + players * first, err,
        )  # fmt: skip
        return status, err, first

    # A deal costs about what a thousand rankings do: threads pay from a few hundred deals.
    results = run_sliced(n, thread_count(threads, n * 1000), part)
    for status, err, first in results:
        check_hands(status, err, row_offset=first)
    return flop, turn


def _threads(threads: int | None) -> int:
    workers = cpu_count() if threads is None else threads
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
    return workers


def _deals(ranges: list[Range]) -> tuple[np.ndarray, np.ndarray]:
    """Every deal of one combo a player sharing no card: (deals, players) card sets and
    each deal's weight (the product of its combos' weights)."""
    deals = np.zeros((1, 0), dtype=np.uint64)
    weights = np.ones(1)
    for r in ranges:
        sets = r.sets()
        used = np.bitwise_or.reduce(deals, axis=1) if deals.shape[1] else np.zeros(1, np.uint64)
        clash = (used[:, None] & sets[None, :]) != 0
        keep_deal, keep_combo = np.nonzero(~clash)
        deals = np.concatenate([deals[keep_deal], sets[keep_combo][:, None]], axis=1)
        weights = weights[keep_deal] * r.weights[keep_combo]
    return deals, weights


def _equity_ranges(ranges, hands, board, dead, exact, games, stderr, seconds, threads, seed,
                   started, progress) -> EquityResult:  # fmt: skip
    workers = _threads(threads)
    missing = 5 - bin(board).count("1")
    if missing not in (0, 1, 2, 5):
        raise ValueError("the board must hold 0, 3, 4 or 5 cards")
    deck = 52 - bin(board | dead).count("1") - 2 * len(ranges)
    boards = math.comb(deck, missing) if deck >= missing else 0
    sizes = np.prod([float(len(r)) for r in ranges])
    if exact is None:
        exact = games is None and stderr is None and seconds is None
        exact = exact and sizes * boards <= EXACT_BUDGET
    if exact and (games is not None or stderr is not None or seconds is not None):
        raise ValueError("games, stderr and seconds are Monte Carlo's stopping rules")
    if exact:
        deals, weights = _deals(ranges)
        if len(deals) == 0:
            raise ValueError("the ranges leave no deal of combos without a shared card")
        tallies, played = _exact_deals(deals, weights, board, dead, workers, hands)
        total = weights.sum()
        stderr_values = None
    else:
        tallies, played = _run_ranges_monte_carlo(
            ranges, board, dead, games, stderr, seconds, workers, seed or 0, started, progress
        )
        total = 1.0
    denominator = total * (boards if exact else played)
    equity_values = tallies[:, 2] / POT_UNITS / denominator
    if not exact:
        squares = tallies[:, 3] / POT_UNITS**2 / played
        stderr_values = np.sqrt(np.maximum(squares - equity_values**2, 0.0) / played)
    return EquityResult(
        hands=hands,
        board=_names(board),
        dead=_names(dead),
        exact=bool(exact),
        games=int(played),
        equity=equity_values,
        win=tallies[:, 0] / denominator,
        tie=tallies[:, 1] / denominator,
        wins=tallies[:, 0],
        ties=tallies[:, 1],
        stderr=stderr_values,
        seconds=time.perf_counter() - started,
    )


def _exact_deals(deals, weights, board, dead, threads, hands):
    """Exact equity of every deal, weighted: tallies as floats, games as deals x boards.
    Deals that are one suit permutation apart are enumerated once (``_suit_classes``)."""
    players = deals.shape[1]
    classes, members = _suit_classes(deals, board, dead)
    class_weights = np.bincount(members, weights=weights, minlength=len(classes))
    class_sizes = np.bincount(members, minlength=len(classes))

    def part(first: int, stop: int):
        weighted = np.zeros((players, 4))
        played = 0
        tallies, tallies_p = _tallies(players)
        games = ffi.new("uint64_t *", 0)
        for c in range(first, stop):
            tallies[...] = 0
            games[0] = 0
            holes = np.ascontiguousarray(classes[c])
            err = new_error()
            status = lib.pp_equity_exact(
                ffi.from_buffer("uint64_t[]", holes), players, board, dead, 0, 1, tallies_p,
                games, err,
            )  # fmt: skip
            _check(status, err, hands)
            weighted += tallies * class_weights[c]
            played += int(games[0]) * int(class_sizes[c])
        return weighted, played

    parts = run_sliced(len(classes), max(1, min(threads, len(classes))), part)
    return sum(w for w, _ in parts), sum(p for _, p in parts)


def _permute_suits(sets: np.ndarray, permutation: tuple[int, ...]) -> np.ndarray:
    """Card sets with suit s moved to suit ``permutation[s]``."""
    moved = np.zeros_like(sets)
    for suit, to in enumerate(permutation):
        cards = (sets >> np.uint64(13 * suit)) & np.uint64(0x1FFF)
        moved |= cards << np.uint64(13 * to)
    return moved


def _suit_classes(deals: np.ndarray, board: int, dead: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals (rows of per-player card sets) grouped by suit symmetry: a permutation of the
    suits that leaves the board and the dead cards as they are maps a deal to one of equal
    equities. Each deal's class is named by its least image (rows compared
    lexicographically); returns the distinct classes and each deal's class index."""
    canonical = deals.copy()
    fixed = np.array([board, dead], dtype=np.uint64)
    rows = np.arange(len(deals))
    for permutation in itertools.permutations(range(4)):
        if permutation == (0, 1, 2, 3):
            continue
        if not np.array_equal(_permute_suits(fixed, permutation), fixed):
            continue
        image = _permute_suits(deals, permutation)
        differs = image != canonical
        first = differs.argmax(axis=1)
        smaller = differs.any(axis=1) & (image[rows, first] < canonical[rows, first])
        canonical[smaller] = image[smaller]
    classes, members = np.unique(canonical, axis=0, return_inverse=True)
    return classes, members.reshape(-1)


def _run_ranges_monte_carlo(
    ranges, board, dead, games, stderr, seconds, threads, seed, started, progress
):
    combos = np.ascontiguousarray(np.concatenate([r.sets() for r in ranges]))
    cumulative = np.ascontiguousarray(np.concatenate([np.cumsum(r.weights) for r in ranges]))
    offsets = np.zeros(len(ranges) + 1, dtype=np.uint32)
    np.cumsum([len(r) for r in ranges], out=offsets[1:])
    combos_p = ffi.from_buffer("uint64_t[]", combos)
    cumulative_p = ffi.from_buffer("double[]", cumulative)
    offsets_p = ffi.from_buffer("uint32_t[]", offsets)
    players = len(ranges)

    def part(first_game: int, count: int):
        def share(first: int, stop: int):
            tallies, tallies_p = _tallies(players)
            played = ffi.new("uint64_t *", 0)
            status = lib.pp_equity_ranges(
                combos_p, cumulative_p, offsets_p, players, board, dead, seed,
                first_game + first, stop - first, tallies_p, played,
            )  # fmt: skip
            if status == lib.PP_OUTPUT_FULL:
                raise ValueError("the ranges (almost) always share a card: no deal found")
            if status == lib.PP_EMPTY_HAND:
                raise ValueError("a player has no combination left")
            check_call(status)
            return tallies, int(played[0])

        parts = run_sliced(count, max(1, min(threads, count)), share)
        return sum(t for t, _ in parts), sum(p for _, p in parts)

    total, played = _run_batches(players, part, games, stderr, seconds, started, progress)
    return total.astype(np.float64), played


def _run_batches(players, run, games, stderr, seconds, started, progress):
    """Runs `run(first_game, count)` batch after batch until a stopping rule holds: `games`
    played, every standard error at most `stderr`, or `seconds` passed (default 1M games).
    The batches do not depend on the thread count, so neither do the games played."""
    if games is not None and games < 1:
        raise ValueError("games must be positive")
    if stderr is not None and not stderr > 0:
        raise ValueError("stderr must be positive")
    target = games if games is not None else (None if stderr or seconds else DEFAULT_GAMES)
    total = np.zeros((players, 4), dtype=np.uint64)
    played = 0
    while True:
        batch = MONTE_CARLO_BATCH if target is None else min(MONTE_CARLO_BATCH, target - played)
        tallies, count = run(played, batch)
        total += tallies
        played += count
        if progress:
            print(f"\r{played:,} games, worst stderr {_worst_stderr(total, played) * 100:.4f}%",
                  end="", file=sys.stderr, flush=True)  # fmt: skip
        if target is not None and played >= target:
            break
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        if stderr is not None and _worst_stderr(total, played) <= stderr:
            break
    if progress:
        print(file=sys.stderr)
    return total, played


def _worst_stderr(tallies: np.ndarray, played: int) -> float:
    mean = tallies[:, 2].astype(np.float64) / POT_UNITS / played
    squares = tallies[:, 3].astype(np.float64) / POT_UNITS**2 / played
    return float(np.max(np.sqrt(np.maximum(squares - mean**2, 0.0) / played)))


__all__ = ["EquityResult", "equity"]
