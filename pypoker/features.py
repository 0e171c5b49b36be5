"""Solver and ML features: every hand against a range, hand strength, potential, histograms.

All exact, over every runout to the river, against a uniform random opponent unless a range
is given (``hand_vs_range``). Combos are numbered as ``pp.COMBOS`` lists them.

- ``hand_vs_range(boards, weights)``: the equity of each of the 1,326 hands against a
  weighted range on each board (NaN where the hand meets the board).
- ``hand_strength(holes, boards)``: EHS, the equity against a random hand (HS on a river).
- ``hand_features(holes, boards)``: HS now, EHS, E[HS²], and Billings et al.'s positive and
  negative potential to the river (``ppot``, ``npot``) and one card ahead (``ppot1``,
  ``npot1``); 0 where the denominator is (never behind, or never ahead).
- ``equity_histogram(holes, boards, bins)``: the distribution of the final equity over
  every runout; its mean is EHS (exactly, taking each runout's equity; to within half a bin
  taking the bins' centres).

Preflop (boards of 0 cards), EHS, E[HS²] and histograms come from one pass over the 134,459
canonical river boards, each weighted by how many boards it stands for (a few seconds, once
per process and bin count).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from ._arguments import whole
from ._games import holdem_only
from ._native import ArgumentError, InvalidHandError, check_slices, ffi, lib, new_error
from ._parallel import run_sliced, thread_count
from ._spot import COMBOS, combo_index
from .cards import card_rows
from .isomorphism import hand_index, hand_index_size, hand_unindex
from .ranges import parse_range

FEATURES = tuple(name for name, _ in ffi.typeof("pp_features").fields)
"""The per-row features, in the order the native struct holds them."""


def _check_boards(boards: np.ndarray, allowed: tuple[int, ...]) -> int:
    k = boards.shape[1]
    if k not in allowed:
        sizes = ", ".join(map(str, allowed))
        raise InvalidHandError(f"boards of {k} cards: use {sizes}")
    return k


def _check_bins(bins: int) -> int:
    return whole("bins", bins, 1, lib.PP_HISTOGRAM_BINS_MAX)


def range_weights(weights) -> np.ndarray:
    """A range as 1,326 combo weights: None (uniform), range text ("QQ+,AKs"), or an array
    of ``(1326,)`` or ``(B, 1326)`` finite weights ≥ 0 (checked)."""
    if weights is None:
        return np.ones(lib.PP_COMBOS)
    if isinstance(weights, str):
        parsed = parse_range(weights)
        out = np.zeros(lib.PP_COMBOS)
        out[combo_index(parsed.cards)] = parsed.weights
        return out
    array = np.asarray(weights, dtype=np.float64)
    if array.shape[-1:] != (lib.PP_COMBOS,) or array.ndim > 2:
        raise ArgumentError(
            f"weights must have shape (1326,) or (boards, 1326) in pp.COMBOS order, "
            f"got {array.shape}"
        )
    bad = ~np.isfinite(array) | (array < 0)
    if bad.any():
        at = np.argwhere(bad)[0]
        where = f"row {at[0]}, " if array.ndim == 2 else ""
        raise ArgumentError(
            f"weights: {where}combo {at[-1]} ({_combo_name(int(at[-1]))}) is "
            f"{array[tuple(at)]}; weights must be finite and at least 0"
        )
    return np.ascontiguousarray(array)


def _combo_name(combo: int) -> str:
    from .cards import format_cards

    return format_cards(COMBOS[combo])


def hand_vs_range(
    boards: np.ndarray | str | list[str],
    weights=None,
    *,
    to_river: bool = True,
    ehs2: bool = False,
    bins: int | None = None,
    threads: int | None = None,
    game: str = "holdem",
):
    """Equity of every two-card hand against a range on each board: boards ``(B, 3|4|5)``
    uint8 (or card text) → ``(B, 1326)`` float64, hands in ``pp.COMBOS`` order, NaN where
    the hand meets the board (or no opponent combo is left).

    ``weights``: the opponent's range before card removal: None (uniform: every hand),
    range text, or ``(1326,)`` / ``(B, 1326)`` weights. Over every runout to the river; with
    ``to_river=False`` on the board as it is (hand strength now). ``ehs2=True`` and
    ``bins=n`` also return E[equity²] and ``(B, 1326, n)`` histograms, each runout weighted
    by the opponent's weight in it: ``(equity, ehs2, histogram)`` in that order.

    On a river each hand is ranked once and wins and ties are counted from the range's
    weights summed by rank and per card (O(n) after the ranking); turns and flops sum that
    over their runouts exactly (a flop takes about 25 ms a board).
    """
    holdem_only(game, "pp.hand_vs_range")
    boards = card_rows(boards, "boards")
    _check_boards(boards, (3, 4, 5))
    w = range_weights(weights)
    n = boards.shape[0]
    per_board = w.ndim == 2
    if per_board and w.shape[0] != n:
        raise ArgumentError(f"{w.shape[0]} rows of weights for {n} boards")
    nbins = 0 if bins is None else _check_bins(bins)
    equity = np.empty((n, lib.PP_COMBOS))
    squares = np.empty((n, lib.PP_COMBOS)) if ehs2 else None
    histogram = np.empty((n, lib.PP_COMBOS, nbins)) if nbins else None
    if n:
        _board_values(boards, w, to_river, equity, squares, histogram, threads)
    if not ehs2 and not nbins:
        return equity
    return (equity,) + ((squares,) if ehs2 else ()) + ((histogram,) if nbins else ())


def _board_values(boards, w, to_river, equity, squares, histogram, threads) -> None:
    """The native call behind ``hand_vs_range``, over slices of boards on threads."""
    n, k = boards.shape
    per_board = w.ndim == 2
    ehs2 = squares is not None
    nbins = 0 if histogram is None else histogram.shape[2]
    pointers = {
        "boards": ffi.from_buffer("uint8_t[]", boards),
        "weights": ffi.from_buffer("double[]", w),
        "equity": ffi.from_buffer("double[]", equity, require_writable=True),
        "ehs2": ffi.from_buffer("double[]", squares, require_writable=True) if ehs2 else None,
        "histogram": (
            ffi.from_buffer("double[]", histogram, require_writable=True) if nbins else None
        ),
    }

    def call(start: int, stop: int):
        err = new_error()
        cells = start * lib.PP_COMBOS
        status = lib.pp_board_values(
            pointers["boards"] + start * k,
            k,
            stop - start,
            pointers["weights"] + (cells if per_board else 0),
            int(per_board),
            int(bool(to_river)),
            nbins,
            pointers["equity"] + cells,
            pointers["ehs2"] + cells if ehs2 else ffi.NULL,
            pointers["histogram"] + cells * nbins if nbins else ffi.NULL,
            err,
        )
        return status, err, start

    # Work in hands ranked: a board's 1,326 hands, on each runout to the river.
    runouts = _runouts(k) if to_river else 1
    # A flop board takes about 25 ms (1,326 hands on 1,081 runouts), a river 23 µs.
    threads = thread_count(threads, n * lib.PP_COMBOS * runouts)
    check_slices(run_sliced(n, threads, call, item_ns=23_000 * runouts))


def _runouts(board_cards: int) -> int:
    """The runouts to the river of a board of 3, 4 or 5 cards, a hand's two cards out: what
    a board's work scales by, for choosing threads."""
    return {3: 1081, 4: 46, 5: 1}[board_cards]


def hand_features(
    holes: np.ndarray | str | list[str],
    boards: np.ndarray | str | list[str],
    *,
    bins: int | None = None,
    threads: int | None = None,
    game: str = "holdem",
) -> dict[str, np.ndarray]:
    """Per-row features of holes ``(N, 2)`` on boards ``(N, 3|4|5)`` against a uniform
    random opponent, exact: a dict of ``(N,)`` float64 arrays named as ``FEATURES`` (hs,
    ehs, ehs2, ppot, npot, ppot1, npot1), plus ``histogram`` ``(N, bins)`` when ``bins``.

    A flop row visits every opponent on every runout: about 1,081 x 990 hands, a few ms a
    row on one core; turns and rivers are 50 and 1,000 times cheaper. For every hand of a
    board at once, ``hand_vs_range`` is faster.
    """
    holdem_only(game, "pp.hand_features")
    holes, boards = _rows(holes, boards)
    k = _check_boards(boards, (3, 4, 5))
    n = holes.shape[0]
    nbins = 0 if bins is None else _check_bins(bins)
    out = np.empty(n, dtype=[(name, np.float64) for name in FEATURES])
    histogram = np.empty((n, nbins))
    if n:
        holes_buffer = ffi.from_buffer("uint8_t[]", holes)
        boards_buffer = ffi.from_buffer("uint8_t[]", boards)
        out_buffer = ffi.cast("pp_features*", ffi.from_buffer(out, require_writable=True))
        histogram_buffer = ffi.from_buffer("double[]", histogram, require_writable=True)

        def call(start: int, stop: int):
            err = new_error()
            status = lib.pp_hand_features(
                holes_buffer + 2 * start,
                boards_buffer + k * start,
                k,
                stop - start,
                nbins,
                out_buffer + start,
                histogram_buffer + start * nbins if nbins else ffi.NULL,
                err,
            )
            return status, err, start

        # Work in hands ranked: a row's 990 opponents, on each runout to the river.
        # A flop row takes about 3 ms (990 opponents on 1,081 runouts), a river 3 µs.
        threads = thread_count(threads, n * 990 * _runouts(k))
        check_slices(run_sliced(n, threads, call, item_ns=3_000 * _runouts(k)))
    result = {name: np.ascontiguousarray(out[name]) for name in FEATURES}
    if nbins:
        result["histogram"] = histogram
    return result


def _rows(holes, boards) -> tuple[np.ndarray, np.ndarray]:
    holes = card_rows(holes, "holes")
    boards = card_rows(boards, "boards")
    if holes.shape[1] != 2:
        raise InvalidHandError(f"holes of {holes.shape[1]} cards: a Hold'em hand has 2")
    if holes.shape[0] != boards.shape[0]:
        raise ArgumentError(f"{holes.shape[0]} hole rows but {boards.shape[0]} board rows")
    return holes, boards


def hand_strength(
    holes: np.ndarray | str | list[str],
    boards: np.ndarray | str | list[str] | None = None,
    *,
    threads: int | None = None,
    game: str = "holdem",
) -> np.ndarray:
    """EHS of holes ``(N, 2)`` on boards ``(N, 0|3|4|5)``: the exact equity against a
    uniform random hand over every runout (HS on a river). ``(N,)`` float64; equals
    ``pp.equity([hand, "random"], board=...)``. Boards of 0 cards (or None) are preflop."""
    holdem_only(game, "pp.hand_strength")
    holes, boards = _preflop_or_rows(holes, boards)
    if boards.shape[1] == 0:
        return _preflop_table(0)[0][hand_index(holes, threads=threads)]
    return hand_features(holes, boards, threads=threads)["ehs"]


def equity_histogram(
    holes: np.ndarray | str | list[str],
    boards: np.ndarray | str | list[str] | None = None,
    bins: int = 50,
    *,
    threads: int | None = None,
    game: str = "holdem",
) -> np.ndarray:
    """The distribution of the final equity (against a uniform random hand) over every
    runout: ``(N, bins)`` float64 shares summing to 1, bin i holding equities in
    ``[i / bins, (i + 1) / bins)`` (1.0 in the last). Boards of 0, 3, 4 or 5 cards."""
    holdem_only(game, "pp.equity_histogram")
    bins = _check_bins(bins)
    holes, boards = _preflop_or_rows(holes, boards)
    if boards.shape[1] == 0:
        return _preflop_table(bins)[2][hand_index(holes, threads=threads)]
    return hand_features(holes, boards, bins=bins, threads=threads)["histogram"]


def _preflop_or_rows(holes, boards) -> tuple[np.ndarray, np.ndarray]:
    if boards is None:
        holes = card_rows(holes, "holes")
        boards = np.empty((holes.shape[0], 0), dtype=np.uint8)
    holes, boards = _rows(holes, boards)
    _check_boards(boards, (0, 3, 4, 5))
    return holes, boards


def canonical_boards(street: str) -> tuple[np.ndarray, np.ndarray]:
    """The canonical boards of a street (suits relabelled away) and how many boards each
    stands for: ``(boards (M, k) uint8, multiplicity (M,) int64)``; the multiplicities sum
    to C(52, k)."""
    size = hand_index_size(street, board_only=True)
    _, boards = hand_unindex(street, np.arange(size), board_only=True)
    return boards, _multiplicity(boards)


def _multiplicity(boards: np.ndarray) -> np.ndarray:
    """How many distinct boards the 24 relabellings of suits make of each board."""
    suit, value = np.divmod(boards.astype(np.uint64), np.uint64(13))
    masks = np.zeros((len(boards), 4), dtype=np.uint64)
    for s in range(4):
        bits = np.where(suit == s, np.uint64(1) << value, np.uint64(0))
        masks[:, s] = np.bitwise_or.reduce(bits, axis=1)
    images = np.stack(
        [
            sum(masks[:, s] << np.uint64(13 * target) for s, target in enumerate(order))
            for order in itertools.permutations(range(4))
        ],
        axis=1,
    )
    images.sort(axis=1)
    return 1 + (np.diff(images, axis=1) != 0).sum(axis=1)


@functools.cache
def _preflop_table(bins: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """EHS, E[HS²] and (with bins) histograms of the 169 preflop classes, by preflop index,
    from every canonical river board weighted by its multiplicity: summed per hand over the
    boards (a product with the weights), then per class. Each hand's boards weigh C(50, 5)
    in all, the boards its cards leave (NaN equities, counted as 0)."""
    boards, weight = canonical_boards("river")
    weight = weight.astype(np.float64)
    share, square = np.zeros(lib.PP_COMBOS), np.zeros(lib.PP_COMBOS)
    histogram = np.zeros(lib.PP_COMBOS * max(bins, 1))
    first_bins = np.arange(lib.PP_COMBOS) * bins  # each hand's first histogram cell
    chunk = 2048  # boards: a chunk's equities (22 MB) stay in cache for the sums below
    for start in range(0, len(boards), chunk):
        equity = hand_vs_range(boards[start : start + chunk])
        m = weight[start : start + chunk]
        dead = np.isnan(equity)
        equity[dead] = 0.0
        if bins:
            cells = first_bins + np.minimum((equity * bins).astype(np.int64), bins - 1)
            m_cells = np.broadcast_to(m[:, None], equity.shape)[~dead]
            histogram += np.bincount(cells[~dead], weights=m_cells, minlength=histogram.size)
        share += m @ equity
        square += m @ np.square(equity, out=equity)
    classes = hand_index(COMBOS)  # each hand's preflop class
    n_classes = hand_index_size("preflop")  # 169

    count = np.bincount(classes, minlength=n_classes) * float(math.comb(50, 5))
    by_class = np.zeros((n_classes, 2 + bins))  # share, square, then the histogram's bins
    np.add.at(
        by_class,
        classes,
        np.column_stack([share, square, histogram.reshape(lib.PP_COMBOS, -1)[:, :bins]]),
    )
    by_class /= count[:, None]
    return by_class[:, 0], by_class[:, 1], by_class[:, 2:] if bins else None
