"""The five cards that make a hand: ``best_five``.

For Hold'em hands of 5 to 7 cards (and Omaha: exactly two hole cards and three of the board),
the five cards whose rank is the hand's, ordered as a player reads them: the group first
(quads, trips, the higher pair), then the rest (a full house's pair, the kickers high to
low); straights and flushes high to low, the wheel as 5-4-3-2-A. When several fives tie (a
pair held in three suits, the board playing), the one whose card ids, read in that order,
are lowest: each card the lowest id its place can take, so within a group ids rise.
The Zig core (zsrc/rank/best_five.zig) reads the values from the rank and picks the suits.
"""

from __future__ import annotations

import numpy as np

from ._native import ArgumentError, InvalidHandError, PokerError, check_slices, ffi, lib, new_error
from ._parallel import run_sliced, thread_count
from .cards import CARD_IDS, card_rows, parse_ragged
from .omaha import BOARD_CARDS, HOLE_CARDS, omaha_place

FIVE = 5
HAND_CARDS = (5, 6, 7)


def best_five(hands, boards=None, *, threads: int | None = None) -> np.ndarray:
    """The five cards making each hand's rank, as uint8 card ids: ``(N, 5)`` for a batch,
    ``(5,)`` for one hand.

    ``hands`` takes the forms ``pp.rank`` takes, of 5 to 7 cards a hand: an ``(N, k)`` uint8
    array of card ids, a uint64 array of card sets, a list of strings (``["AhKd7c2s3sQhJd",
    …]``, card counts may differ), an Arrow column (as ``pp.rank_omaha`` reads); one hand as
    a string, a list of ids or a 1-D uint8 array. With ``boards`` (Omaha), ``hands`` are the
    hole cards (4, 5 or 6 a row) and ``boards`` 3 to 5 cards a row, in the forms
    ``pp.rank_omaha`` takes: two hole cards and three board cards make each five.

    Order and ties: see the module's docstring (``pp.best_five`` docs in README). Raises
    ``InvalidHandError`` naming the row and the card for a card that is not a card, a card
    twice in a row, or a hand of fewer than 5 or more than 7 cards.
    """
    if boards is not None:
        return _omaha(hands, boards, threads)
    one = _one_hand(hands)
    if isinstance(hands, np.ndarray) and hands.dtype == np.uint64:
        ids, counts = ids_of_sets(hands.reshape(-1))
        fives = best_five_ragged(ids, counts, threads)
    elif isinstance(hands, (list, tuple)) and hands and all(isinstance(h, str) for h in hands):
        fives = best_five_ragged(*parse_ragged(hands), threads)
    elif isinstance(hands, (list, tuple)) and not one:
        raise ArgumentError("hands given as a list are card ids of one hand or strings of cards")
    else:
        if one and isinstance(hands, (list, tuple)):
            hands = _id_list(hands)
        fives = _rows(card_rows(hands, "hands"), threads)
    return fives[0] if one else fives


def _one_hand(hands) -> bool:
    """Whether ``hands`` is one hand: a string, a list or tuple of ids, a 1-D uint8 array or
    a uint64 scalar."""
    if isinstance(hands, str):
        return True
    if isinstance(hands, (list, tuple)):
        return bool(hands) and not isinstance(hands[0], str)
    if isinstance(hands, np.ndarray):
        return hands.ndim == 1 if hands.dtype == CARD_IDS else hands.ndim == 0
    return isinstance(hands, np.generic) and hands.dtype == np.uint64


def _id_list(hand) -> np.ndarray:
    for position, card in enumerate(hand):
        if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
            raise ArgumentError(
                f"a hand given as a list holds card ids (ints); position {position} holds "
                f"{type(card).__name__}"
            )
        if not 0 <= card <= 255:
            raise InvalidHandError(
                f"row 0: card id {card} at position {position} is not a card (card ids are 0..51)",
                0,
                int(card),
            )
    return np.array(hand, dtype=np.uint8)


def ids_of_sets(sets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Card sets → their ids (flat, rising in each row) and each row's count."""
    if len(sets) and int(np.bitwise_or.reduce(sets)) >> 52:
        row = int(np.flatnonzero(sets >> np.uint64(52))[0])
        bit = int(sets[row]).bit_length() - 1
        raise InvalidHandError(f"row {row}: bit {bit} is set; card sets use bits 0..51 only", row)
    bits = (sets[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    rows, cards = np.nonzero(bits)
    return cards.astype(np.uint8), np.bincount(rows, minlength=len(sets))


def best_five_ragged(ids: np.ndarray, counts: np.ndarray, threads: int | None) -> np.ndarray:
    """Rows of any card counts (flat ``ids``, ``counts`` a row): each count's rows at once."""
    n = len(counts)
    bad = np.flatnonzero((counts < HAND_CARDS[0]) | (counts > HAND_CARDS[-1]))
    if len(bad):
        row = int(bad[0])
        raise InvalidHandError(f"row {row}: {int(counts[row])} cards; {_CARDS_RULE}", row)
    if n and (counts == counts[0]).all():
        # One count (an Arrow column of 7-card hands): the ids are already the rows; the
        # gather below copied them and took 1.6 s to answer a Ctrl-C on 4M rows.
        return _rows(ids.reshape(n, int(counts[0])), threads)
    out = np.empty((n, FIVE), dtype=np.uint8)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    for k in HAND_CARDS:
        rows = np.flatnonzero(counts == k)
        if len(rows) == 0:
            continue
        gathered = ids[starts[rows, None] + np.arange(k)]
        try:
            out[rows] = _rows(gathered, threads)
        except PokerError as error:
            if error.row is None:
                raise
            raise error.renumbered(int(rows[error.row])) from None
    return out


_CARDS_RULE = "the best five needs a hand of 5 to 7 cards (Omaha: pass boards=)"


def _rows(hands: np.ndarray, threads: int | None) -> np.ndarray:
    """An ``(N, k)`` uint8 array of ids, k = 5..7 → ``(N, 5)``."""
    n, k = hands.shape
    if k not in HAND_CARDS:
        raise InvalidHandError(f"hands of {k} cards: {_CARDS_RULE}")
    out = np.empty((n, FIVE), dtype=np.uint8)
    if n == 0:
        return out
    hands = np.ascontiguousarray(hands)
    hands_buffer = ffi.from_buffer("uint8_t[]", hands)
    out_buffer = ffi.from_buffer("uint8_t[]", out, require_writable=True)

    def call(start: int, stop: int):
        err = new_error()
        status = lib.pp_best_five_cards(
            hands_buffer + start * k, stop - start, k, out_buffer + start * FIVE, err
        )
        return status, err, start

    check_slices(run_sliced(n, thread_count(threads, n), call, item_ns=4), out)
    return out


def _omaha(holes, boards, threads: int | None) -> np.ndarray:
    one = _one_hand(holes) and _one_hand(boards)
    holes = card_rows(holes, "hands")
    boards = card_rows(boards, "boards")
    n, hole_cards = holes.shape
    board_cards = boards.shape[1]
    if boards.shape[0] != n:
        raise ArgumentError(f"{boards.shape[0]} rows of boards for {n} hands")
    if hole_cards not in HOLE_CARDS:
        raise InvalidHandError(
            f"Omaha hands of {hole_cards} cards: Omaha has 4 (PLO4), 5 (PLO5) or 6 (PLO6)"
        )
    if board_cards not in BOARD_CARDS:
        raise InvalidHandError(f"boards of {board_cards} cards: Omaha boards have 3, 4 or 5")
    out = np.empty((n, FIVE), dtype=np.uint8)
    if n:
        holes_buffer = ffi.from_buffer("uint8_t[]", holes)
        boards_buffer = ffi.from_buffer("uint8_t[]", boards)
        out_buffer = ffi.from_buffer("uint8_t[]", out, require_writable=True)

        def call(start: int, stop: int):
            err = new_error()
            status = lib.pp_best_five_omaha(
                holes_buffer + start * hole_cards, hole_cards,
                boards_buffer + start * board_cards, board_cards,
                stop - start, out_buffer + start * FIVE, err,
            )  # fmt: skip
            return status, err, start

        results = run_sliced(n, thread_count(threads, n), call, item_ns=600)
        check_slices(results, out, place=omaha_place(board_cards, hole_cards, 1))
    return out[0] if one else out
