"""Omaha equity for ``pp.equity(..., game="plo4" | "plo5" | "plo6")`` and Omaha hi-lo,
eight or better (``"plo4-8"``, ``"plo5-8"``): hands known in full or in part (the rest dealt
each game) or ``"random"``, over zsrc/omaha/equity.zig.

Hi-lo splits each pot high and low (``pypoker.omaha``'s notes): the result's ``equity`` is the
pot share, ``high`` and ``low`` the parts of it won with the high and with the low (they add
up to ``equity``), and ``scoop`` (= ``win``) the games whose whole pot the player took alone.

Hands known in full are enumerated exactly (every completion of the board: at most
C(44, 5) = 1,086,008 runouts heads-up, a fraction of a second); anything dealt runs Monte
Carlo with Hold'em's stopping rules, through the same ordered runs (``_equity_runs``), so
results do not depend on the thread count.
"""

from __future__ import annotations

import math
import time

import numpy as np

from . import _equity_runs as runs
from ._native import ArgumentError, check_players, ffi, lib, new_error
from ._parallel import run_ordered
from ._parallel import workers as parallel_workers
from ._spot import GAMES, SLOTS, SUM_FIELDS, check_player_count
from .cards import CARD_NAMES, parse_cards
from .equity_result import equities, from_sums
from .omaha import GAMES as HOLE_CARDS_OF
from .omaha import HILO_GAMES

HILO_PARTS = lib.PP_OMAHA_HILO_PARTS  # Sums a hi-lo player adds: pot, high part, low part
EXTRA_SLOTS = HILO_PARTS - 1  # the high and low parts, past the pot's whole-hand slot
UNKNOWN = lib.PP_NO_CARD  # a hole card dealt each game (omaha_equity.zig's `unknown`)
EXACT_PARTS_PER_THREAD = 8  # calls per thread: Ctrl-C and progress wait for one at most
RUNOUTS_PER_CALL = 20_000


def omaha_equity(players, game: str, ask: runs.Ask):
    if game not in HOLE_CARDS_OF:
        omaha = ", ".join(map(repr, HOLE_CARDS_OF))
        raise ArgumentError(
            f"game={game!r} is not a game here: use 'holdem', 'shortdeck', "
            f"'shortdeck-straights', {omaha}"
        )
    k = HOLE_CARDS_OF[game]
    hilo = game in HILO_GAMES
    check_player_count(len(players))
    holes = np.full((len(players), k), UNKNOWN, dtype=np.uint8)
    for p, player in enumerate(players):
        cards = _hand(player, p, k, game)
        holes[p, : len(cards)] = cards
    known = bool(np.all(holes != UNKNOWN))
    board, dead, exact = ask.board, ask.dead, ask.exact
    board_cards = np.array([i for i in range(lib.PP_CARDS) if board >> i & 1], dtype=np.uint8)
    fields = {
        "hands": [_text(row) for row in holes],
        "board": "".join(CARD_NAMES[c] for c in board_cards),
        "dead": "".join(CARD_NAMES[i] for i in range(lib.PP_CARDS) if dead >> i & 1),
    }
    spot = (holes, k, board_cards, dead, hilo)
    if exact is True and not known:
        raise ArgumentError(f"exact {game.upper()} equity needs every hole card known; "
                         "a hand dealt at random runs Monte Carlo")  # fmt: skip
    workers, started = parallel_workers(ask.threads), ask.started
    if known and exact is not False and ask.rules is None:
        reason = "exact: known hands, every board counted" + (
            "" if exact else " (a fraction of a second for any known hands)"
        )
        sums, played = _exact(spot, workers)
        return _result(sums, played, True, reason, started, fields, hilo)
    reason = "Monte Carlo, as asked" if exact is False or ask.rules else "Monte Carlo: hands dealt"
    sums, played = runs.monte_carlo_loop(
        len(players), lambda first, count: _call(spot, False, ask.seed, first, count),
        ask.stop_rules, workers, ask.progress, started, extra_slots=EXTRA_SLOTS,
    )  # fmt: skip
    return _result(sums, played, False, reason, started, fields, hilo)


def _hand(player, p: int, k: int, game: str) -> np.ndarray:
    if isinstance(player, str) and player.strip().lower() == "random":
        return np.zeros(0, dtype=np.uint8)
    if not isinstance(player, str):
        raise ArgumentError(f"player {p + 1}: a hand is card text such as 'AhKhQdJd', or 'random'")
    cards = parse_cards(player)
    if len(cards) > k:
        raise ArgumentError(
            f"player {p + 1}: {len(cards)} cards, {game.upper()} hands hold {k} "
            "(fewer: the rest are dealt; ranges are not supported for Omaha)"
        )
    return cards


def _text(row: np.ndarray) -> str:
    known = [CARD_NAMES[c] for c in row.tolist() if c != UNKNOWN]
    return "".join(known) + "?" * int(np.sum(row == UNKNOWN)) if known else "random"


def _call(spot, exact: bool, seed: int, first: int, count: int):
    holes, k, board_cards, dead, hilo = spot
    players = len(holes)
    parts = HILO_PARTS if hilo else 1
    sums = np.zeros((players, parts, len(SUM_FIELDS)))
    games = ffi.new("uint64_t *", 0)
    err = new_error()
    status = lib.pp_omaha_equity(
        ffi.from_buffer("uint8_t[]", holes), k, players,
        ffi.from_buffer("uint8_t[]", board_cards) if len(board_cards) else ffi.NULL,
        len(board_cards), dead, hilo, exact, seed, first, count,
        ffi.cast("pp_sums *", ffi.from_buffer("double[]", sums, require_writable=True)),
        games, err,
    )  # fmt: skip
    check_players(status, err)
    whole = np.zeros((players, SLOTS + EXTRA_SLOTS, len(SUM_FIELDS)))
    # No combos in Omaha: the pot in the whole-hand slot, hi-lo's high and low parts after it.
    whole[:, SLOTS - 1] = sums[:, 0]
    whole[:, SLOTS : SLOTS + parts - 1] = sums[:, 1:]
    return whole, int(games[0])


def _exact(spot, workers: int):
    holes, _, board_cards, dead, _ = spot
    left = lib.PP_CARDS - int(np.sum(holes != UNKNOWN)) - len(board_cards) - bin(dead).count("1")
    runouts = math.comb(left, 5 - len(board_cards))
    # Calls of at least RUNOUTS_PER_CALL runouts (each call costs ~0.1 ms around the work).
    parts = max(1, min(max(1, workers) * EXACT_PARTS_PER_THREAD, runouts // RUNOUTS_PER_CALL))
    total = np.zeros((len(spot[0]), SLOTS + EXTRA_SLOTS, len(SUM_FIELDS)))
    played = [0]

    def fold(result) -> bool:
        total[...] += result[0]
        played[0] += result[1]
        return False

    run_ordered(iter([(part, parts) for part in range(parts)]),
                lambda part, n: _call(spot, True, 0, part, n), workers, fold)  # fmt: skip
    return total, played[0]


def _result(sums, played, exact, reason, started, fields, hilo: bool):
    no_combos = [np.zeros(lib.PP_COMBOS) for _ in range(len(sums))]
    parts = sums[:, SLOTS:]
    sums = sums[:, :SLOTS]
    result = from_sums(sums, no_combos, played, exact=exact, **fields, reason=reason,
                       seconds=time.perf_counter() - started)  # fmt: skip
    result.without_combos()  # Omaha hands are not Hold'em combos
    if hilo:
        result.high, result.low = (equities(parts[:, i]) for i in range(EXTRA_SLOTS))
        result.scoop = result.win.copy()
    assert result.games == played and np.all(sums[:, -1, GAMES] == played)
    return result
