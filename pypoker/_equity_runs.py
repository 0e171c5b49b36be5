"""How ``pp.equity`` computes: the runs over a spot, what each would cost, and the chunked
parallel loop they share (progress with an ETA, Ctrl-C within one short native call, results
that do not depend on the thread count).

Runs, each returning sums per player and combo (``pypoker._spot``):
- ``known_exact``: every player holds one hand (zsrc/equity/known_exact.zig);
- ``count``: exact over ranges on a board of 3 to 5 cards (zsrc/equity/range_exact.zig);
- ``deals``: exact over ranges preflop, every deal of combos counted over all boards
  (zsrc/equity/known_exact.zig, once per deal up to suit symmetry);
- ``monte_carlo``: known hands, ranges and random players (zsrc/equity/monte_carlo.zig).
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ._native import (
    ArgumentError,
    check_call,
    check_players,
    ffi,
    lib,
    new_error,
    struct_dtype,
    thread_error,
)
from ._parallel import run_ordered
from ._progress import Progress
from ._spot import (
    COMBOS,
    GAMES,
    SHARES,
    SLOTS,
    SUM_FIELDS,
    TIES,
    W2,
    W2_SHARES,
    W2_SHARES2,
    WINS,
    Spot,
)
from .equity_result import slot_totals, standard_errors

# A native call of a run takes about this long: progress and Ctrl-C wait at most one.
CALL_SECONDS = 0.05
MONTE_CARLO_CHUNK = 1 << 18  # games a call (fixed: the games played never depend on threads)
DEALS_MAX = 500_000  # preflop, exact by deals of combos up to this many deals; else by runouts

# The cost model of exact runs, in seconds, fitted by `python bench/bench_equity.py
# --calibrate` on an AMD EPYC (Zen 3, avx2 kernels), one thread:
# - count: per runout, a fixed part, one ranking per combo held, and per deal of the
#   enumerated players a settle costing about one unit a player enumerated;
COUNT_RUNOUT_SECONDS = 1.1e-6
COUNT_COMBO_SECONDS = 1.1e-8
COUNT_DEAL_SECONDS = 1.1e-8
CALL_OVERHEAD_SECONDS = 2.0e-5  # a native call's set-up and its sums folded in
# - deals: one exact count over every board per deal of combos, by players (the
#   calibration's pp.equity figures less its Python overhead, about 0.3 ms).
DEAL_SECONDS = {2: 0.8e-3, 3: 1.3e-3, 4: 1.2e-3, 5: 2.2e-3, 6: 2.2e-3}
DEAL_SECONDS_MORE = 3.0e-3  # 7 to 10 players


@dataclass
class StopRules:
    """Monte Carlo stops at the first of: ``games`` played, every standard error at most
    ``stderr``, ``seconds`` passed."""

    games: int | None = None
    stderr: float | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Ask:
    """One ``pp.equity`` call's settings, checked, as every game's engine takes them: the
    ``board`` and ``dead`` cards (card sets), ``exact`` (True, False, or None: the engine
    chooses), the stopping ``rules`` the caller gave (None: none) and the ``default_rules``
    Monte Carlo runs to without them, the ``seed``, ``threads`` as given (None: the cores,
    where threads pay), the ``progress`` line and when the call ``started``."""

    board: int
    dead: int
    exact: bool | None
    rules: StopRules | None
    default_rules: StopRules
    seed: int
    threads: int | None
    progress: Progress
    started: float

    @property
    def stop_rules(self) -> StopRules:
        """The rules Monte Carlo runs to: the caller's, else the default ones."""
        return self.rules or self.default_rules


# ---------------------------------------------------------------------------- known hands


# What pp_equity_exact counts per player: wins, ties, share units and their squares.
TALLY = struct_dtype("pp_tally")


class _KnownBuffers(threading.local):
    """This thread's hole sets and board count for ``known_exact``, made once: a flop's
    count takes ~1.5 µs, and making them anew each call cost a third of that again."""

    def __init__(self):
        self.holes = ffi.new("uint64_t[]", lib.PP_PLAYERS_MAX)
        self.games = ffi.new("uint64_t *")


_known_buffers = _KnownBuffers()


def known_exact(hole_sets: list[int], board: int, dead: int, threads: int):
    """Every board for known hands (``hole_sets``: each player's two cards as a set), the
    work dealt round-robin into ``threads`` parts → the result's rows (``PP_KNOWN_ROWS`` by
    players: equity, win, tie, then the tallies; see ``pp_known_row``) and the boards
    counted. One part is one native call that writes the rows: no thread, no slicing."""
    players = len(hole_sets)
    rows = np.empty((lib.PP_KNOWN_ROWS, players))
    rows_pointer = ffi.from_buffer("double[]", rows, require_writable=True)
    parts = min(threads, 52)
    if parts == 1:
        buffers, err = _known_buffers, thread_error()
        buffers.holes[0:players] = hole_sets
        status = lib.pp_equity_known(buffers.holes, players, board, dead, rows_pointer,
                                     buffers.games, err)  # fmt: skip
        check_players(status, err)
        return rows, int(buffers.games[0])
    results = []
    sets = np.array(hole_sets, dtype=np.uint64)

    def part(index: int):
        return _known_call(lib.pp_equity_exact, sets, board, dead, index, parts)

    run_ordered(iter([(i,) for i in range(parts)]), part, parts, results.append)
    tallies = np.zeros(players, dtype=TALLY)
    for part_tallies, _ in results:
        for field in TALLY.names:  # modulo 2^64, as the counts are (see known_exact.zig)
            tallies[field] += part_tallies[field]
    played = sum(g for _, g in results)
    tallies_pointer = ffi.from_buffer("pp_tally[]", tallies)
    check_call(lib.pp_equity_result(tallies_pointer, players, played, rows_pointer))
    return rows, played


def known_sums(rows: np.ndarray, played: int) -> np.ndarray:
    """``known_exact``'s rows → each player's sums (players, SUM_FIELDS), as the one combo
    a known hand holds has them."""
    sums = np.empty((rows.shape[1], len(SUM_FIELDS)))
    sums[:, GAMES] = sums[:, W2] = played
    sums[:, WINS], sums[:, TIES] = rows[lib.PP_KNOWN_WINS], rows[lib.PP_KNOWN_TIES]
    sums[:, SHARES] = sums[:, W2_SHARES] = rows[lib.PP_KNOWN_SHARE_UNITS]
    sums[:, W2_SHARES2] = rows[lib.PP_KNOWN_SHARE_UNITS_SQUARED]
    return sums


def _known_call(function, hole_sets, *args) -> tuple[np.ndarray, int]:
    tallies = np.zeros(len(hole_sets), dtype=TALLY)
    games = ffi.new("uint64_t *", 0)
    err = new_error()
    status = function(
        ffi.from_buffer("uint64_t[]", hole_sets), len(hole_sets), *args,
        ffi.from_buffer("pp_tally[]", tallies, require_writable=True),
        games, err,
    )  # fmt: skip
    check_players(status, err)
    return tallies, int(games[0])


# ---------------------------------------------------------------------------- Monte Carlo


def monte_carlo(spot: Spot, seed: int, rules: StopRules, threads, progress, started):
    spot.prepare_sampling()

    def call(first: int, count: int):
        sums = spot.new_sums()
        spot.sample(seed, first, count, sums)
        return sums, count

    return monte_carlo_loop(spot.players, call, rules, threads, progress, started)


def monte_carlo_loop(players, call, rules: StopRules, threads, progress: Progress, started,
                     extra_slots: int = 0):  # fmt: skip
    """Chunks of games in a fixed grid, folded in order until a stopping rule holds. A call
    may add ``extra_slots`` Sums a player past the ``SLOTS`` (Omaha hi-lo's high and low
    parts): added up alike, but the stopping rules read the pot's, the first ``SLOTS``."""
    total = np.zeros((players, SLOTS + extra_slots, len(SUM_FIELDS)))
    state = {"played": 0}

    def chunks():
        first = 0
        while rules.games is None or first < rules.games:
            count = MONTE_CARLO_CHUNK
            if rules.games is not None:
                count = min(count, rules.games - first)
            yield first, count
            first += count

    def fold(result) -> bool:
        sums, count = result
        total[...] += sums
        state["played"] += count
        totals = slot_totals(total[:, :SLOTS])
        if not totals[0, GAMES] > 0:
            raise ArgumentError(
                f"no deal of the ranges without a shared card in {state['played']:,} games: "
                "they (almost) always collide"
            )
        worst = float(np.max(standard_errors(totals)))
        progress.update(0, None, f"{state['played']:,} games, worst stderr {worst * 100:.4f}% ")
        if rules.games is not None and state["played"] >= rules.games:
            return True
        if rules.stderr is not None and worst <= rules.stderr:
            return True
        return rules.seconds is not None and time.perf_counter() - started >= rules.seconds

    run_ordered(chunks(), call, threads, fold)
    return total, state["played"]


# ---------------------------------------------------------------------------- exact


@dataclass
class ExactPlan:
    """An exact run and its estimated cost on one thread: ``kind`` "count" (``order``: the
    enumerated players, the counted one last) or "deals" (``deals``: the deals of combos)."""

    kind: str
    seconds: float
    order: bytes = b""
    deals: object = None


def count_order(spot: Spot, counted: int | None = None) -> bytes:
    """Enumerate the narrow ranges, count the widest (or ``counted``)."""
    if counted is None:
        counted = max(range(spot.players), key=lambda p: (spot.supports[p], p))
    enumerated = sorted((p for p in range(spot.players) if p != counted),
                        key=lambda p: spot.supports[p])  # fmt: skip
    return bytes([*enumerated, counted])


def count_seconds(spot: Spot, order: bytes) -> float:
    """The count's cost model (see COUNT_*): deals per runout taken as the product of the
    enumerated players' combos, each shrunk by the cards the runout and others take."""
    deck = lib.PP_CARDS - spot.board_cards
    missing = 5 - spot.board_cards
    live = (deck - 2 * missing) / deck if deck > 0 else 0.0
    # A deal's cost grows with the players enumerated (its cards to take out, its levels).
    deals = math.prod(spot.supports[p] * live for p in order[:-1]) * (len(order) - 1)
    combos = min(sum(spot.supports), len(COMBOS))
    per_runout = COUNT_RUNOUT_SECONDS + COUNT_COMBO_SECONDS * combos + COUNT_DEAL_SECONDS * deals
    work = spot.runouts * per_runout
    return work + CALL_OVERHEAD_SECONDS * _grid_calls(spot.count_items(order[0]), work)


def plan_exact(spot: Spot, board: int, dead: int) -> ExactPlan:
    order = count_order(spot)
    counting = ExactPlan("count", count_seconds(spot, order), order)
    if spot.board_cards >= 3 or math.prod(spot.supports) > DEALS_MAX:
        return counting
    deals = _deals([spot.weights(p) for p in range(spot.players)], board, dead)
    per_deal = DEAL_SECONDS.get(spot.players, DEAL_SECONDS_MORE)
    by_deals = ExactPlan("deals", len(deals[2]) * per_deal, deals=deals)  # a deal per class
    return by_deals if by_deals.seconds <= counting.seconds else counting


def run_exact(spot: Spot, plan: ExactPlan, board: int, dead: int, threads: int,
              progress: Progress) -> np.ndarray:  # fmt: skip
    if plan.kind == "count":
        sums = count(spot, plan.order, plan.seconds, threads, progress)
    else:
        sums = by_deals(spot.players, plan.deals, board, dead, plan.seconds, threads, progress)
    if not sums[0, :, GAMES].sum() > 0:
        raise ArgumentError("the ranges leave no deal of combos without a shared card")
    return sums


def _grid_calls(total: int, seconds: float) -> int:
    """How many calls `_grid` makes of ``total`` items estimated at ``seconds``."""
    if seconds < 0.01:
        return 1
    calls = math.ceil(seconds / CALL_SECONDS) if math.isfinite(seconds) else total
    return max(1, min(total, max(8, calls)))


def _grid(total: int, seconds: float) -> Iterator[tuple[int, int]]:
    """Calls of about CALL_SECONDS each (at least 8, to share among threads, when the work
    is worth it), fixed by the spot alone so the sums add up in the same order for any
    thread count. Made one at a time: a spot of years has billions of them."""
    calls = _grid_calls(total, seconds)
    for i in range(calls):
        first = total * i // calls
        yield first, total * (i + 1) // calls - first


def count(spot: Spot, order: bytes, seconds: float, threads: int, progress: Progress):
    total_items = spot.count_items(order[0])
    total = spot.new_sums()
    done = [0]

    def call(first: int, items: int):
        sums = spot.new_sums()
        spot.count(order, first, items, sums)
        return sums, items

    def fold(result) -> bool:
        total[...] += result[0]
        done[0] += result[1]
        progress.update(done[0], total_items)
        return False

    # Threads past the calls would only be handed nothing (a small count is one call).
    calls = _grid_calls(total_items, seconds)
    run_ordered(_grid(total_items, seconds), call, min(threads, calls), fold)
    return total


# Preflop over ranges: every deal of one combo a player sharing no card, each counted over
# every board by the known-hands engine; deals one suit permutation apart count once.


def _deals(weights: list[np.ndarray], board: int, dead: int):
    """Every deal of combos sharing no card: (deals, players) combo numbers, each deal's
    weight (the product of its combos'), and the deals' suit classes."""
    deals = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.uint64)
    deal_weights = np.ones(1)
    sets = (np.uint64(1) << COMBOS[:, 0].astype(np.uint64)) | (
        np.uint64(1) << COMBOS[:, 1].astype(np.uint64)
    )
    for w in weights:
        held = np.flatnonzero(w > 0)
        clash = (used[:, None] & sets[held][None, :]) != 0
        keep_deal, keep_combo = np.nonzero(~clash)
        deals = np.concatenate([deals[keep_deal], held[keep_combo][:, None]], axis=1)
        used = used[keep_deal] | sets[held][keep_combo]
        deal_weights = deal_weights[keep_deal] * w[held][keep_combo]
    if len(deals) == 0:
        raise ArgumentError("the ranges leave no deal of combos without a shared card")
    classes, members = _suit_classes(sets[deals], board, dead)
    return deals, deal_weights, classes, members


def _suit_classes(deals: np.ndarray, board: int, dead: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals (rows of per-player card sets) grouped by suit symmetry: a permutation of the
    suits that leaves the board and the dead cards as they are maps a deal to one of equal
    equities. Each deal's class is named by its least image (rows compared
    lexicographically); returns the distinct classes and each deal's class index."""
    suits = np.arange(4, dtype=np.uint64) * np.uint64(13)
    thirteen = np.uint64(0x1FFF)
    fixed = (np.array([board, dead], dtype=np.uint64)[:, None] >> suits) & thirteen
    # Where each suit goes, for the permutations that keep the board and the dead cards.
    to = suits[np.array(list(itertools.permutations(range(4))))]  # (24, suit)
    keeps = ((fixed[None] << to[:, None]).sum(-1) == (fixed << suits).sum(-1)).all(-1)
    to = to[keeps]
    players = deals.shape[1]
    canonical = np.empty_like(deals)
    # Every permutation's image at once (a few numpy calls, not a few per permutation),
    # by chunks of deals that keep the images to a few MB.
    chunk = max(1, (1 << 19) // (len(to) * players * 4))
    for start in range(0, len(deals), chunk):
        fields = (
            deals[start : start + chunk, :, None] >> suits
        ) & thirteen  # (deals, players, suit)
        images = (fields[None] << to[:, None, None]).sum(
            -1, dtype=np.uint64
        )  # (to, deals, players)
        least = np.ones(images.shape[:2], dtype=bool)  # the images still least so far
        for player in range(players):
            column = np.where(least, images[:, :, player], np.uint64(np.iinfo(np.uint64).max))
            least &= column == column.min(axis=0)
        canonical[start : start + chunk] = images[least.argmax(axis=0), np.arange(len(fields))]
    classes, members = np.unique(canonical, axis=0, return_inverse=True)
    return classes, members.reshape(-1)


def by_deals(players, deals, board, dead, seconds, threads, progress: Progress) -> np.ndarray:
    combos, weights, classes, members = deals
    class_tallies = np.zeros((len(classes), players), dtype=[(f, "f8") for f in TALLY.names])
    class_games = np.zeros(len(classes))

    def call(first: int, count: int):
        out = []
        for c in range(first, first + count):
            hole_sets = np.ascontiguousarray(classes[c])
            out.append(_known_call(lib.pp_equity_exact, hole_sets, board, dead, 0, 1))
        return first, out

    def fold(result) -> bool:
        first, out = result
        for i, (tallies, games) in enumerate(out):
            class_tallies[first + i] = tallies
            class_games[first + i] = games
        progress.update(first + len(out), len(classes))
        return False

    calls = _grid_calls(len(classes), seconds)
    run_ordered(_grid(len(classes), seconds), call, min(threads, calls), fold)
    sums = np.zeros((players, SLOTS, len(SUM_FIELDS)))
    tallies = class_tallies[members]  # (deals, players) records
    for p in range(players):
        at = combos[:, p]
        np.add.at(sums[p, :, GAMES], at, class_games[members] * weights)
        np.add.at(sums[p, :, WINS], at, tallies["wins"][:, p] * weights)
        np.add.at(sums[p, :, TIES], at, tallies["ties"][:, p] * weights)
        np.add.at(sums[p, :, SHARES], at, tallies["share_units"][:, p] * weights)
    return sums
