"""Omaha ranking: ``rank_omaha`` and ``rank_showdown_omaha`` (PLO4, PLO5, PLO6).

A hand is the best five cards of exactly two hole cards and three board cards, ranked on the
Hold'em scale, so ``pp.category`` and ``pp.describe`` read it. The Zig core (zsrc/omaha/rank.zig,
omaha_boards.zig, omaha_vector.zig) finds each board's row of ranks once and looks up one rank
per hole pair, flushes apart; on the vector CPU levels sixteen rows at a time.
"""

from __future__ import annotations

import numpy as np

from ._native import ArgumentError, InvalidHandError, check_slices, fastcall, ffi, lib, new_error
from ._parallel import run_sliced, thread_count
from .cards import CARD_IDS, card_rows
from .ranking import TEXT_FAST_MAX

HOLE_CARDS = (4, 5, 6)  # PLO4, PLO5, PLO6
BOARD_CARDS = (3, 4, 5)  # flop, turn, river
GAMES = {"plo4": 4, "plo5": 5, "plo6": 6}


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


def rank_showdown_omaha(boards, holes: np.ndarray, *, threads: int | None = None) -> np.ndarray:
    """Ranks every player's Omaha hand at showdown: ``boards`` ``(N, b)`` (3..5 cards, as
    ``rank_omaha`` takes them) and ``holes`` ``(N, P, k)`` uint8 (k = 4, 5 or 6) → ``(N, P)``
    uint16. Each board's row of ranks is found once per row. A card twice anywhere in a row
    (board, or between players) raises naming the row, the player and the card."""
    boards = card_rows(boards, "boards")
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
    out = np.empty((n, players), dtype=np.uint16)
    if n == 0:
        return out
    boards_buffer = ffi.from_buffer("uint8_t[]", boards)
    holes_buffer = ffi.from_buffer("uint8_t[]", holes)
    out_buffer = ffi.from_buffer("uint16_t[]", out, require_writable=True)

    def call(start: int, stop: int):
        err = new_error()
        status = lib.pp_rank_omaha(
            boards_buffer + start * board_cards, board_cards,
            holes_buffer + start * players * hole_cards, hole_cards,
            players, stop - start, out_buffer + start * players, err,
        )  # fmt: skip
        return status, err, start

    # A row ranks each player's 60 to 150 two-and-three choices.
    results = run_sliced(n, thread_count(threads, n * players), call, item_ns=300 * players)
    check_slices(results, out, place=omaha_place(board_cards, hole_cards, players))
    return out


def omaha_place(board_cards: int, hole_cards: int, players: int):
    """Names a position in a row (board first, then each player's cards) for errors."""

    def place(position: int) -> str:
        if position < board_cards:
            return f"board card {position}"
        player, index = divmod(position - board_cards, hole_cards)
        return f"player {player}'s hole card {index}" if players > 1 else f"hole card {index}"

    return place
