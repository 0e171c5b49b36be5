"""Omaha ranking: ``rank_omaha`` and ``rank_showdown_omaha`` (PLO4, PLO5, PLO6), and Omaha
hi-lo, eight or better (``plo4-8``, ``plo5-8``): ``rank_low_omaha``, ``rank_showdown_omaha(...,
low=True)``, ``split_pot`` and ``describe_low``.

A hand is the best five cards of exactly two hole cards and three board cards, ranked on the
Hold'em scale, so ``pp.category`` and ``pp.describe`` read it. The Zig core (zsrc/omaha/rank.zig,
omaha_boards.zig, omaha_vector.zig) finds each board's row of ranks once and looks up one rank
per hole pair, flushes apart; on the vector CPU levels sixteen rows at a time.

The low (zsrc/omaha/low.zig) is the ace-to-five low of exactly two hole cards and three board
cards: five distinct ranks, eight or lower (straights and flushes do not count against it);
a hand without one has ``NO_LOW`` (0). Lows are uint16, higher is better like ranks: 255
minus the mask of the five ranks (ace bit 0, deuce bit 1 … eight bit 7), so ``LOW_BEST``
(224) is 5-4-3-2-A and ``LOW_WORST`` (7) is 8-7-6-5-4. A hi-lo pot is split in two halves,
the high half to the best high and the low half to the best low, each half shared by its
tied winners; the odd chip goes to the high half, and with no low the high takes it all
(``split_pot``).
"""

from __future__ import annotations

import numpy as np

from ._native import ArgumentError, InvalidHandError, check_slices, fastcall, ffi, lib, new_error
from ._parallel import run_sliced, thread_count
from .cards import CARD_IDS, card_rows
from .ranking import TEXT_FAST_MAX

HOLE_CARDS = tuple(range(lib.PP_OMAHA_HOLE_CARDS_MIN, lib.PP_OMAHA_HOLE_CARDS_MAX + 1))  # 4..6
BOARD_CARDS = tuple(range(lib.PP_BOARD_CARDS_MIN, lib.PP_BOARD_CARDS_MAX + 1))  # flop..river
HILO_GAMES = {"plo4-8": 4, "plo5-8": 5}  # Omaha hi-lo, eight or better
GAMES = {**{f"plo{k}": k for k in HOLE_CARDS}, **HILO_GAMES}  # PLO4, PLO5, PLO6, hi-lo
NO_LOW = lib.PP_NO_LOW
LOW_BEST = lib.PP_LOW_BEST
LOW_WORST = lib.PP_LOW_WORST
_LOW_NAMES = "A2345678"  # bit i of a low's mask


def rank_omaha(holes, boards, *, threads: int | None = None) -> np.ndarray:
    """Ranks Omaha hands: ``holes`` ``(N, k)`` (k = 4, 5 or 6 hole cards) and ``boards``
    ``(N, b)`` (b = 3, 4 or 5) → ``(N,)`` uint16 ranks of the best hand of exactly two hole
    cards and three board cards.

    Each of ``holes`` and ``boards`` is a uint8 array of card ids, card text (a string, or a
    list of strings, one per row: ``["AhKhQdJd", ...]``) or an Arrow column, as ``pp.rank``
    takes. A card that is not a card or that appears twice in a row raises naming the row and
    where the card is.
    """
    found = _rank_one(holes, boards)  # one hand: one call, no batch machinery
    if found:
        ranks = np.empty(1, dtype=np.uint16)  # half the time of np.array([found])
        ranks[0] = found
        return ranks
    holes = card_rows(holes, "holes")
    boards = card_rows(boards, "boards")
    players = holes.reshape(holes.shape[0], 1, holes.shape[1])  # each row one player
    return rank_showdown_omaha(boards, players, threads=threads)[:, 0]


def _rank_one_by_cffi(holes, board) -> int:
    """One hand (two strings, or two one-row uint8 arrays) through the one-hand calls: its
    rank, or 0 when it is not one hand or the call refuses it (the batch path then raises the
    error that names why). The fast-call extension's ``rank_omaha`` answers alike."""
    if type(holes) is str and type(board) is str:
        if len(holes) > TEXT_FAST_MAX or len(board) > TEXT_FAST_MAX:
            return 0
        hole_bytes = holes.encode()
        board_bytes = board.encode()
        return _rank_omaha_text(hole_bytes, len(hole_bytes), board_bytes, len(board_bytes))
    if _one_row(holes) and _one_row(board):
        return _rank_omaha_hand(holes.tobytes(), holes.size, board.tobytes(), board.size)
    return 0


def _one_row(cards) -> bool:
    return (
        type(cards) is np.ndarray
        and cards.dtype is CARD_IDS
        and cards.size <= 8
        and (cards.ndim == 1 or (cards.ndim == 2 and cards.shape[0] == 1))
    )


_rank_omaha_text = lib.pp_rank_omaha_text
_rank_omaha_hand = lib.pp_rank_omaha_hand
_rank_one = fastcall.rank_omaha if fastcall is not None else _rank_one_by_cffi


def rank_low_omaha(holes, boards, *, threads: int | None = None) -> np.ndarray:
    """The eight-or-better low of Omaha hands (``plo4-8``, ``plo5-8``): ``holes`` and
    ``boards`` as ``rank_omaha`` takes them → ``(N,)`` uint16 lows, higher is better,
    ``NO_LOW`` (0) for a hand without one (see the module's notes; ``describe_low`` reads
    them). Bad rows raise as ``rank_omaha`` does."""
    holes = card_rows(holes, "holes")
    boards = card_rows(boards, "boards")
    players = holes.reshape(holes.shape[0], 1, holes.shape[1])
    return _showdown(boards, players, threads, "low")[:, 0]


def rank_showdown_omaha(
    boards, holes: np.ndarray, *, threads: int | None = None, low: bool = False
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Ranks every player's Omaha hand at showdown: ``boards`` ``(N, b)`` (3..5 cards, as
    ``rank_omaha`` takes them) and ``holes`` ``(N, P, k)`` uint8 (k = 4, 5 or 6) → ``(N, P)``
    uint16. Each board's row of ranks is found once per row. A card twice anywhere in a row
    (board, or between players) raises naming the row, the player and the card.

    ``low=True`` (Omaha hi-lo): ``(highs, lows)``, each ``(N, P)`` uint16, ranked in one pass
    over the cards; ``split_pot(pot, highs, lows)`` shares the pots."""
    if not isinstance(low, bool):
        raise ArgumentError(f"low must be True or False, got {low!r}")
    return _showdown(card_rows(boards, "boards"), holes, threads, "both" if low else "high")


def _showdown(boards: np.ndarray, holes, threads, parts: str):
    """``parts``: "high" → highs, "low" → lows, "both" → (highs, lows)."""
    if not isinstance(holes, np.ndarray) or holes.dtype != np.uint8 or holes.ndim != 3:
        raise ArgumentError("holes must be a (rows, players, hole cards) uint8 array of card ids")
    n, board_cards = boards.shape
    _, players, hole_cards = holes.shape
    if holes.shape[0] != n:
        raise ArgumentError(f"{holes.shape[0]} rows of holes for {n} boards")
    if hole_cards not in HOLE_CARDS:
        raise InvalidHandError(
            f"hands of {hole_cards} hole cards: Omaha has 4 (PLO4), 5 (PLO5) or 6 (PLO6)"
        )
    if board_cards not in BOARD_CARDS:
        raise InvalidHandError(f"boards of {board_cards} cards: Omaha boards have 3, 4 or 5")
    if players < 1 or board_cards + players * hole_cards > 52:
        raise ArgumentError(
            f"{players} players of {hole_cards} cards and a board of {board_cards}: "
            f"the deck holds at most {(52 - board_cards) // hole_cards} players"
        )
    holes = np.ascontiguousarray(holes)
    highs = np.empty((n, players), dtype=np.uint16) if parts != "low" else None
    lows = np.empty((n, players), dtype=np.uint16) if parts != "high" else None
    result = {"high": highs, "low": lows, "both": (highs, lows)}[parts]
    if n == 0:
        return result
    boards_buffer = ffi.from_buffer("uint8_t[]", boards)
    holes_buffer = ffi.from_buffer("uint8_t[]", holes)
    high_buffer, low_buffer = (
        ffi.NULL if out is None else ffi.from_buffer("uint16_t[]", out, require_writable=True)
        for out in (highs, lows)
    )

    def call(start: int, stop: int):
        err = new_error()
        cards = (
            boards_buffer + start * board_cards, board_cards,
            holes_buffer + start * players * hole_cards, hole_cards, players, stop - start,
        )  # fmt: skip
        if lows is None:
            status = lib.pp_rank_omaha(*cards, high_buffer + start * players, err)
        else:
            high_out = ffi.NULL if highs is None else high_buffer + start * players
            status = lib.pp_rank_low_omaha(*cards, high_out, low_buffer + start * players, err)
        return status, err, start

    # A row ranks each player's 60 to 150 two-and-three choices.
    results = run_sliced(n, thread_count(threads, n * players), call, item_ns=300 * players)
    place = omaha_place(board_cards, hole_cards, players)
    for out in (highs, lows):
        if out is not None:
            check_slices(results, out, place=place)
    return result


def split_pot(pot, highs, lows=None) -> np.ndarray:
    """Each player's chips of hi-lo pots: ``pot`` chips (an int, or ``(N,)`` ints), ``highs``
    and ``lows`` ``(N, P)`` (or ``(P,)``) as ``rank_showdown_omaha(..., low=True)`` gives
    them → int64 chips of the same shape. The high half (the odd chip with it) goes to the
    best high, the low half to the best low; a half shared by several goes in equal parts,
    its odd chips one each to the earliest players (seat order). With no low, the high takes
    the whole pot. ``lows=None``: high only (Omaha)."""
    highs = np.asarray(highs)
    one = highs.ndim == 1
    highs = np.atleast_2d(highs)
    lows = np.zeros_like(highs) if lows is None else np.atleast_2d(np.asarray(lows))
    for name, ranks in (("highs", highs), ("lows", lows)):
        if not np.issubdtype(ranks.dtype, np.integer) or ranks.ndim != 2:
            raise ArgumentError(f"{name} must be (rows, players) integer ranks, got {ranks.dtype} "
                                f"of shape {ranks.shape}")  # fmt: skip
    if lows.shape != highs.shape:
        raise ArgumentError(f"lows of shape {lows.shape} for highs of shape {highs.shape}")
    pots = np.broadcast_to(np.asarray(pot), highs.shape[:1]) if np.ndim(pot) <= 1 else None
    if pots is None or not np.issubdtype(pots.dtype, np.integer) or np.any(pots < 0):
        raise ArgumentError(f"pot must be whole chips >= 0, one or one a row, got {pot!r}")
    pots = pots.astype(np.int64)
    has_low = lows.max(axis=1) != NO_LOW
    low_half = np.where(has_low, pots // 2, 0)
    chips = _share(pots - low_half, highs) + _share(low_half, np.where(has_low[:, None], lows, 0))
    return chips[0] if one else chips


def _share(pots: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Each row's pot to its best ranks in equal parts, the odd chips to the earliest."""
    winners = ranks == ranks.max(axis=1, keepdims=True)
    count = winners.sum(axis=1)
    base, odd = np.divmod(pots, count)
    order = np.cumsum(winners, axis=1)  # 1 for the first winner, 2 the next…
    return np.where(winners, base[:, None] + (order <= odd[:, None]), 0).astype(np.int64)


def describe_low(lows) -> list[str]:
    """Lows as text, highest card first: ``"7-5-4-2-A"``, or ``"no low"``."""
    names = []
    for value in np.asarray(lows).reshape(-1).tolist():
        mask = 255 - value
        if value == NO_LOW or not LOW_WORST <= value <= LOW_BEST or bin(mask).count("1") != 5:
            if value != NO_LOW:
                raise ArgumentError(f"{value} is not a low: lows are 0 or {LOW_WORST}..{LOW_BEST}")
            names.append("no low")
            continue
        names.append("-".join(_LOW_NAMES[i] for i in range(7, -1, -1) if mask >> i & 1))
    return names


def omaha_place(board_cards: int, hole_cards: int, players: int):
    """Names a position in a row (board first, then each player's cards) for errors."""

    def place(position: int) -> str:
        if position < board_cards:
            return f"board card {position}"
        player, index = divmod(position - board_cards, hole_cards)
        return f"player {player}'s hole card {index}" if players > 1 else f"hole card {index}"

    return place
