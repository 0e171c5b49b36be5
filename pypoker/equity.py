"""Equity of hands and ranges: ``pp.equity`` (and ``pypoker equity``), exact or Monte Carlo;
``pp.equities``, many spots of known hands in one call.

2 to 10 players, each a hand (``AcKd``), a partial hand (``Ac``), a range (``QQ+,AKs:0.5``)
or ``random`` (see ``pypoker.ranges``); the board holds 0, 3, 4 or 5 cards; dead cards are
out. Combos holding a board, dead or known card are removed first. Exact equity counts every
completion of the board for every deal of combos sharing no card, each deal weighted by the
product of its combos' weights; Monte Carlo samples that same distribution (game ``g``
depends only on ``(seed, g)``, so a seed gives the same result for any thread count). A pot
split k ways gives each winner 1/k.

``exact=None`` (the default) enumerates when the cost model of ``pypoker._equity_runs``
predicts at most ``EXACT_SECONDS_MAX`` on the threads given, and otherwise runs Monte Carlo
until every standard error is at most ``DEFAULT_STDERR`` or ``DEFAULT_SECONDS`` pass; the
result's ``reason`` says which ran and why.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from . import _equity_runs as runs
from ._arguments import real, whole
from ._games import GAMES
from ._native import ArgumentError, check_hands, check_slices, ffi, lib, new_error
from ._omaha_equity import omaha_equity
from ._parallel import run_sliced, thread_count
from ._parallel import workers as parallel_workers
from ._progress import Progress
from ._shortdeck_equity import shortdeck_equity
from ._spot import GAMES as GAMES_FIELD
from ._spot import Spot, check_player_count, combo_index
from .cards import CARD_NAMES, card_rows
from .cardset import CardSet, bits_of
from .equity_result import EquityResult, from_known, from_sums
from .ranges import Range, RangeSyntaxError, parse_range

EXACT_SECONDS_MAX = 1.0
DEFAULT_STDERR = 0.0005
DEFAULT_SECONDS = 10.0
SEED_MAX = 2**64 - 1
GAMES_MAX = 2**63 - 1


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
    game: str = "holdem",
) -> EquityResult:
    """Equity of 2..10 players (hands, partial hands, ranges or ``"random"``) on ``board``
    (0, 3, 4 or 5 cards) with ``dead`` cards out.

    ``exact=None`` enumerates when that is predicted to take at most a second, else runs
    Monte Carlo until every standard error is at most 0.0005 or 10 s pass. ``exact=True``
    always enumerates (memory stays bounded; ``progress=True`` reports progress and the time
    left). ``exact=False`` runs Monte Carlo until ``games`` games, every standard error at
    most ``stderr``, or ``seconds`` — whichever comes first of those given (none given: the
    default above). ``seed`` (0..2**64-1, default 0) fixes the games.

    ``game="shortdeck"`` (``"shortdeck-straights"``, see ``pypoker._games``): short deck (6+),
    hands, partial hands, ranges or ``"random"``; known hands exactly, the rest Monte Carlo.
    ``game="plo4"``, ``"plo5"`` or ``"plo6"`` plays Omaha: each player a hand of 4, 5 or 6
    cards (``"AhAsKhKs"``), part of one (the rest dealt each game) or ``"random"``; known
    hands are enumerated exactly, anything dealt runs Monte Carlo (the same rules).
    ``game="plo4-8"``, ``"plo5-8"``: Omaha hi-lo, the same; ``EquityResult`` adds ``high``…
    """
    started = time.perf_counter()
    rules = _stop_rules(games, stderr, seconds)
    if exact is not None and not isinstance(exact, bool):
        raise ArgumentError(f"exact must be True, False or None, got {exact!r}")
    if exact and rules is not None:
        raise ArgumentError("games, stderr and seconds are Monte Carlo's stopping rules")
    seed = _seed(seed)
    if threads is not None:
        parallel_workers(threads)  # checks it; the cores are counted only where threads run
    board_bits, dead_bits = bits_of(board), bits_of(dead)
    if not isinstance(game, str):
        raise ArgumentError(f"game must be a name such as 'holdem' or 'plo4-8', got {game!r}")
    default = runs.StopRules(stderr=DEFAULT_STDERR, seconds=DEFAULT_SECONDS)
    ask = runs.Ask(board=board_bits, dead=dead_bits, exact=exact, rules=rules,
                   default_rules=default, seed=seed, threads=threads,
                   progress=Progress(progress, "equity"), started=started)  # fmt: skip
    try:
        if game.lower() in GAMES and game.lower() != "holdem":
            return shortdeck_equity(players, GAMES[game.lower()], ask)
        if game.lower() != "holdem":
            return _omaha(players, game.lower(), ask)
        return _holdem(players, ask)
    finally:
        ask.progress.close()


def _holdem(players, ask: runs.Ask) -> EquityResult:
    ranges = _ranges(players, ask.board | ask.dead)
    hands = [_hand_text(p) for p in players]
    fields = {"hands": hands, "board": _names(ask.board), "dead": _names(ask.dead)}
    if ask.exact is not False and ask.rules is None and all(len(r) == 1 for r in ranges):
        return _known_exact(ranges, ask, fields)
    return _spot(players, ranges, ask, fields)


def _omaha(players, game, ask: runs.Ask) -> EquityResult:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ArgumentError("players must be a list of hands, e.g. ['AhAsKhKs', 'random']")
    return omaha_equity(list(players), game, ask)


def _known_exact(ranges, ask: runs.Ask, fields) -> EquityResult:
    """Every player holds one hand: exact is always cheap (at most 1,712,304 boards). Past
    the flop a count takes ~2-4 µs, a hundredth of what a thread's start would cost: one
    native call (`_known_workers`), straight into the result; ``by_combo``'s tables are made
    when asked for."""
    workers = _known_workers(ask.threads, ask.board, len(ranges))
    hole_sets = [r.first_set for r in ranges]
    rows, played = runs.known_exact(hole_sets, ask.board, ask.dead, workers)
    reason = "exact: known hands, every board counted"
    result = from_known(rows, played, **_fields(ask.started, reason, fields))
    return result.combos_when_asked(lambda p: _known_combo(ranges[p], rows[:, p : p + 1], played))


# Preflop, counting 2 to 4 known hands takes 0.2-1 ms, 5 to 10 take 1.5-3 ms (Zen 4, one
# thread): handing half to a second thread costs 0.1-0.3 ms on a quiet VM and more on a busy
# one (2 and 3 hands ran 1.3-1.5x slower on two threads of a busy 2-core Zen 4).
KNOWN_THREADS_PLAYERS_MIN = 5


def _known_workers(threads: int | None, board: int, players: int) -> int:
    """``threads`` if given; else every core for a long count (preflop, many hands), one
    thread for the rest."""
    if threads is not None:
        return parallel_workers(threads)
    return parallel_workers(None) if board == 0 and players >= KNOWN_THREADS_PLAYERS_MIN else 1


def _known_combo(hand: Range, rows: np.ndarray, played: int) -> tuple:
    """A known hand's one combo, as ``by_combo`` reads it: its number, weight and sums."""
    return combo_index(hand.cards), hand.weights.copy(), runs.known_sums(rows, played)


def _weights(ranges) -> np.ndarray:
    """The players' ranges as (players, 1326) combo weights."""
    weights = np.zeros((len(ranges), lib.PP_COMBOS))
    for p, r in enumerate(ranges):
        weights[p, combo_index(r.cards)] = r.weights
    return weights


def _spot(players, ranges, ask: runs.Ask, fields) -> EquityResult:
    weights = _weights(ranges)
    is_random = [isinstance(p, str) and p.strip().lower() == "random" for p in players]
    spot = Spot(weights, is_random, ask.board, ask.dead)
    spot_weights = [spot.weights(p) for p in range(spot.players)]
    workers = parallel_workers(ask.threads)
    exact, plan, reason = _exact_or_not(spot, ask, workers)
    if exact:
        sums = runs.run_exact(spot, plan, ask.board, ask.dead, workers, ask.progress)
        played = int(round(float(sums[0, :, GAMES_FIELD].sum())))
        result = from_sums(sums, spot_weights, played, exact=True,
                           **_fields(ask.started, reason, fields))  # fmt: skip
        if plan.kind == "count":
            result.combos_when_asked(lambda p: _recount(spot, spot_weights, p, workers))
        return result
    sums, played = runs.monte_carlo(spot, ask.seed, ask.stop_rules, workers, ask.progress,
                                    ask.started)  # fmt: skip
    return from_sums(sums, spot_weights, played, exact=False,
                     **_fields(ask.started, reason, fields))  # fmt: skip


def _exact_or_not(spot: Spot, ask: runs.Ask, workers: int) -> tuple:
    """(exact?, the exact plan or None, the reason in words): exact when asked, or, when the
    caller left it open, when enumeration is predicted to take at most a second."""
    if ask.exact is None and ask.rules is None:
        plan = runs.plan_exact(spot, ask.board, ask.dead)
        # Threads pay off once the work outweighs starting them.
        wall = plan.seconds / workers if plan.seconds > 0.05 else plan.seconds
        if wall > EXACT_SECONDS_MAX:
            longer = f"about {_duration(wall)}, more than {EXACT_SECONDS_MAX:g} s"
            return False, None, f"Monte Carlo: exact enumeration would take {longer}"
        return True, plan, f"exact: about {_duration(wall)} of enumeration predicted"
    if ask.exact:
        plan = runs.plan_exact(spot, ask.board, ask.dead)
        return True, plan, f"exact, as asked: about {_duration(plan.seconds / workers)} predicted"
    return False, None, "Monte Carlo, as asked"


def _recount(spot: Spot, spot_weights, player: int, workers: int):
    """The counted player's combos: count again with another player counted."""
    others = [p for p in range(spot.players) if p != player]
    counted = max(others, key=lambda p: (spot.supports[p], p))
    order = runs.count_order(spot, counted)
    sums = runs.count(spot, order, runs.count_seconds(spot, order), workers,
                      Progress(False, ""))  # fmt: skip
    indices = np.flatnonzero(spot_weights[player] > 0)
    return indices, spot_weights[player][indices], sums[player, indices]


def _fields(started, reason, fields) -> dict:
    return {**fields, "reason": reason, "seconds": time.perf_counter() - started}


def _duration(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1e3:.0f} ms"
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 2 * YEAR_SECONDS:
        return f"{seconds / 86400:,.0f} days"
    if seconds < 1e6 * YEAR_SECONDS:
        return f"{seconds / YEAR_SECONDS:,.0f} years"
    return f"{seconds / YEAR_SECONDS:.1e} years"


YEAR_SECONDS = 365.25 * 86400


def _stop_rules(games, stderr, seconds) -> runs.StopRules | None:
    if games is None and stderr is None and seconds is None:
        return None
    if games is not None:
        games = whole("games", games, 1, GAMES_MAX)
    stderr = None if stderr is None else real("stderr", stderr, above=0)
    seconds = None if seconds is None else real("seconds", seconds, above=0)
    return runs.StopRules(games, stderr, seconds)


def _seed(seed) -> int:
    if seed is None:
        return 0
    return whole("seed", seed, 0, SEED_MAX)


def _hand_text(player) -> str:
    if isinstance(player, str):
        return player.replace(" ", "")
    return _names(int(bits_of(player)))


def _names(cards: int) -> str:
    names = []
    while cards:
        low = cards & -cards
        names.append(CARD_NAMES[low.bit_length() - 1])
        cards ^= low
    return "".join(names)


def _ranges(players: Sequence, dead_bits: int) -> list[Range]:
    """Each player's combos, card removal against the board and dead cards applied."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ArgumentError("players must be a list of hands or ranges, e.g. ['AcKd', 'QQ+']")
    check_player_count(len(players))
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
                raise ArgumentError(f"player {i + 1}: {player!r} is not two cards")
            parsed = Range(str(player), ids.reshape(1, 2), np.ones(1))
        if len(parsed.cards) == 1:
            ranges.append(parsed)  # a known hand: a clash with the board is an error below
            continue
        left = parsed.without(dead_bits)
        if len(left) == 0:
            raise ArgumentError(f"player {i + 1}: no combination of {player!r} is left")
        ranges.append(left)
    return ranges


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
        raise ArgumentError("boards and holes must be uint8 card ids")
    if boards.ndim != 2 or boards.shape[1] != 5:
        raise ArgumentError(f"boards must be (N, 5): flop, turn, river; got {boards.shape}")
    n = len(boards)
    if holes.ndim != 3 or holes.shape[0] != n or holes.shape[2] != 2:
        raise ArgumentError(f"holes must be (N, P, 2) with N = {n}; got {holes.shape}")
    players = holes.shape[1]
    check_player_count(players)
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

    # A deal costs about what a thousand rankings do: threads pay from a few hundred deals;
    # a call takes about 0.9 µs a player (flop and turn runouts, Zen 4).
    results = run_sliced(n, thread_count(threads, n * 1000), part, item_ns=900 * players)
    for status, err, first in results:
        check_hands(status, err, row_offset=first)
    return flop, turn


# A row's native count by board cards, ns a player, rounded up from random spots of 2 to 10
# players (Zen 4, one thread: preflop 85-210 µs a player, a flop 0.3-0.9 µs, a turn 60-110
# ns, a river 15-60 ns): how many rows a call takes (Ctrl-C within one) and if threads pay.
EQUITY_ROW_NS = {0: 250_000, 3: 1_000, 4: 120, 5: 60}


def equities(holes, boards=None, *, threads: int | None = None) -> np.ndarray:
    """Exact equity of many spots of known hands in one call: row i of ``holes`` against
    row i of ``boards`` → ``(N, P)`` float64 pot shares over every completion of its board,
    each row what ``pp.equity(its hands, board=its board).equity`` gives, bit for bit.

    ``holes``: ``(N, P, 2)`` uint8 card ids (P = 2..10), or rows of all the players' cards,
    ``(N, 2P)``, as an array, card text (``["AsKsQdQc", …]``) or an Arrow column.
    ``boards``: ``(N, k)`` uint8 with k = 0, 3, 4 or 5 (or text, or an Arrow column); one
    board (a string, a 1-D array, one row) serves every row; None is preflop. A card that is
    not a card, or one twice in a row, raises ``InvalidHandError`` naming the row and where.
    """
    holes = _hole_rows(holes)
    n, players = holes.shape[0], holes.shape[1]
    check_player_count(players)
    boards = _board_rows(boards, n)
    board_cards = boards.shape[1]
    if board_cards not in (0, 3, 4, 5):
        raise ArgumentError(f"boards of {board_cards} cards: a board holds 0, 3, 4 or 5")
    out = np.zeros((n, players))
    if n == 0:
        return out
    boards_p = ffi.from_buffer("uint8_t[]", boards) if board_cards else ffi.NULL
    holes_p = ffi.from_buffer("uint8_t[]", holes)
    out_p = ffi.from_buffer("double[]", out, require_writable=True)

    def part(first: int, stop: int):
        err = new_error()
        status = lib.pp_equity_rows(
            boards_p + board_cards * first if board_cards else ffi.NULL, board_cards,
            holes_p + 2 * players * first, players, stop - first, out_p + players * first, err,
        )  # fmt: skip
        return status, err, first

    def place(position: int) -> str:
        if position < board_cards:
            return f"board card {position + 1}"
        player, card = divmod(position - board_cards, 2)
        return f"player {player + 1}'s card {card + 1}"

    row_ns = EQUITY_ROW_NS[board_cards] * players
    # thread_count weighs items as hands ranked, ~2 ns each.
    results = run_sliced(n, thread_count(threads, n * row_ns // 2), part, item_ns=row_ns)
    check_slices(results, out, place=place)
    return out


def _hole_rows(holes) -> np.ndarray:
    """``equities``' holes as a C-contiguous ``(N, P, 2)`` uint8 array."""
    if isinstance(holes, np.ndarray) and holes.ndim == 3:
        if holes.dtype != np.uint8:
            raise ArgumentError(f"holes must be uint8 card ids, got {holes.dtype}")
        if holes.shape[2] != 2:
            raise ArgumentError(f"holes must be (N, players, 2), got shape {holes.shape}")
        return np.ascontiguousarray(holes)
    rows = card_rows(holes, "holes")
    if rows.shape[1] % 2:
        raise ArgumentError(f"holes: rows of {rows.shape[1]} cards; each player holds two")
    return rows.reshape(len(rows), rows.shape[1] // 2, 2)


def _board_rows(boards, n: int) -> np.ndarray:
    """``equities``' boards as a C-contiguous ``(n, k)`` uint8 array; one board serves all."""
    if boards is None:
        return np.zeros((n, 0), dtype=np.uint8)
    rows = card_rows(boards, "boards")
    if len(rows) == 1:
        return np.repeat(rows, n, axis=0)
    if len(rows) != n:
        raise ArgumentError(f"boards has {len(rows)} rows where holes has {n} (or give one)")
    return rows


__all__ = ["EquityResult", "equities", "equity", "street_equities"]
