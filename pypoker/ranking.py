"""Ranking hands: ``rank``, ``category``, ``describe`` and ``CATEGORY_NAMES``.

A rank is a ``uint16``: ``(category << 12) | subrank``, higher wins, equal ties, 0 never a
rank. Categories run 1 (high card) to 9 (straight flush). Hands of fewer than five cards
rank by the best category they make (no straights or flushes), a missing kicker losing to
any card: ``K < KQJT8 < A < AK``; the hand of no cards ranks lowest of all
(``EMPTY_HAND_RANK``, a high card below the lone 2). Six- and seven-card hands rank as their
best five.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._games import HOLDEM, Game, game_of
from ._native import (
    HAND_CARDS_MAX,
    SMALL_BATCH_BYTES,
    ArgumentError,
    InvalidHandError,
    card_name,
    check_hands,
    check_slices,
    fastcall,
    ffi,
    lib,
    new_error,
    thread_error,
)
from ._out import check_out
from ._parallel import pieces, run_sliced, thread_count
from .accumulators import ACCUMULATOR
from .cards import CARD_IDS, format_cards, parse_cards, parse_ragged

CATEGORY_SHIFT = lib.PP_CATEGORY_SHIFT  # a rank is (category << CATEGORY_SHIFT) | subrank
EMPTY_HAND_RANK = lib.PP_EMPTY_HAND_RANK  # the rank of no cards: below any card

CATEGORY_NAMES: tuple[str, ...] = (
    "Invalid",
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)


def _rank_rows(n: int, out: np.ndarray | None, threads: int | None, rank_slice,
               source: np.ndarray) -> np.ndarray:  # fmt: skip
    """Fans ``rank_slice(out_buffer, start, stop, err) -> status`` out over slices of n rows
    of ``source`` into ``out`` (allocated if None), raising the earliest bad row's error."""
    out = check_out(out, (n,), np.uint16, (source,))
    if n == 0:
        return out
    out_buffer = ffi.from_buffer("uint16_t[]", out, require_writable=True)
    workers = thread_count(threads, n)
    if workers == 1 and pieces(n, 2) == 1:  # small batches: one call (a few µs less a call)
        err = thread_error()
        status = rank_slice(out_buffer, 0, n, err)
        if status != lib.PP_OK:
            out[...] = 0
            check_hands(status, err)
        return out

    def call(start: int, stop: int):
        err = new_error()
        return rank_slice(out_buffer, start, stop, err), err, start

    check_slices(run_sliced(n, workers, call), out)
    return out


def _rank_small_batch(hands: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """A small C-contiguous ``(n, k)`` batch of card ids in one call on this thread, with
    as little Python around it as can be: the hands go as bytes (a copy of a few KB costs
    less than a buffer view) and errors are the batch path's."""
    n, k = hands.shape
    out = check_out(out, (n,), np.uint16, (hands,))
    if k > HAND_CARDS_MAX or n == 0:
        return rank_card_rows(hands, out, 1)  # raises, or ranks nothing, as a batch does
    err = thread_error()
    status = _rank_cards(
        hands.tobytes(), n, k, _from_buffer("uint16_t[]", out, require_writable=True), err
    )
    if status != lib.PP_OK:
        out[...] = 0
        check_hands(status, err)
    return out


_rank_cards = lib.pp_rank_cards
_from_buffer = ffi.from_buffer


def rank_card_rows(cards: np.ndarray, out: np.ndarray | None, threads: int | None):
    n, k = cards.shape
    if k > HAND_CARDS_MAX:
        raise InvalidHandError(f"hands of {k} cards: a hand has 0 to {HAND_CARDS_MAX} cards")
    cards = np.ascontiguousarray(cards)  # copies only arrays that are not C-contiguous
    cards_buffer = ffi.from_buffer("uint8_t[]", cards) if n else None

    def rank_slice(out_buffer, start: int, stop: int, err):
        return lib.pp_rank_cards(cards_buffer + start * k, stop - start, k, out_buffer + start, err)

    return _rank_rows(n, out, threads, rank_slice, cards)


def rank_set_rows(sets: np.ndarray, out: np.ndarray | None, threads: int | None):
    sets = np.ascontiguousarray(sets)
    sets_buffer = ffi.from_buffer("uint64_t[]", sets) if len(sets) else None

    def rank_slice(out_buffer, start: int, stop: int, err):
        return lib.pp_rank_sets(sets_buffer + start, stop - start, out_buffer + start, err)

    return _rank_rows(len(sets), out, threads, rank_slice, sets)


def _rank_accumulator_rows(accumulators: np.ndarray, out: np.ndarray | None, threads: int | None,
                           trusted: bool = False):  # fmt: skip
    accumulators = np.ascontiguousarray(accumulators)
    n = len(accumulators)
    buffer = ffi.from_buffer("pp_accumulator[]", accumulators) if n else None

    def rank_slice(out_buffer, start: int, stop: int, err):
        if trusted:
            return lib.pp_rank_accumulators_trusted(
                buffer + start, stop - start, out_buffer + start
            )
        return lib.pp_rank_accumulators(buffer + start, stop - start, out_buffer + start, err)

    return _rank_rows(n, out, threads, rank_slice, accumulators)


def rank(
    hands: np.ndarray | str | Sequence[str],
    *,
    out: np.ndarray | None = None,
    threads: int | None = None,
    trusted: bool = False,
    game: str = "holdem",
) -> np.ndarray | int:
    """Ranks hands of 0 to 7 cards.

    ``hands`` is one of:

    - an ``(N, k)`` uint8 array of card ids, k = 0..7 → ``(N,)`` uint16 ranks;
    - an ``(N,)`` uint64 array of card sets (bit i = card i) → ``(N,)`` uint16 ranks;
    - a list of strings (``["AhKd7c2s3s", …]``, any card counts) → ``(N,)`` uint16 ranks;
    - an ``(N,)`` array of ``pp.ACCUMULATOR`` (see ``pp.accumulate``) → ``(N,)`` uint16 ranks;
    - one hand: a string, a list or tuple of card ids, a 1-D uint8 array of ids, a uint64
      scalar or one accumulator → an ``int``.

    One hand, and a small batch of card ids, take a one-call path (``pypoker bench
    --latency``): through the fast-call extension where it is built, else one cffi call. A
    bad one raises the same error as a batch. No cards (``""``, a set of 0, an ``(N, 0)``
    array) is a hand: it ranks ``EMPTY_HAND_RANK``, below any card; ``[]`` is no hands.

    Other dtypes are refused, never reinterpreted. Arrays that are not C-contiguous are
    copied once; C-contiguous ones never are. ``out`` (uint16, shape ``(N,)``, C-contiguous,
    writable) receives the ranks and is returned. ``threads=None`` uses every core for big
    batches and one for small ones; results are identical for any thread count.

    Raises ``InvalidHandError`` (a ``ValueError``) naming the row and the card for a card id
    of 52 or more, a card twice in a hand, a hand of the wrong size, or an accumulator whose
    key its cards do not make; ``out`` then holds zeros, never partial results.

    ``trusted=True`` (accumulators only) ranks them from their keys, unchecked: for records
    of ``pp.accumulate``/``pp.merge`` not edited since; 0.6x the time of ids with AVX2, about
    their time with AVX-512 (both wait on the same table loads). Any other record gets a
    meaningless rank, never a crash. ``game="shortdeck"``/``"shortdeck-straights"``: short deck
    (6+) for ids, sets and text (``pypoker._games``); a deuce to five raises naming row, card.
    """
    if game != "holdem":
        return _rank_game(hands, game, out, threads, trusted)
    if trusted:
        if not (isinstance(hands, np.ndarray) and hands.dtype == ACCUMULATOR and hands.ndim == 1):
            raise ArgumentError("trusted=True ranks a 1-D array of pp.ACCUMULATOR records only")
        return _rank_accumulator_rows(hands, out, threads, trusted=True)
    # One hand goes straight to the one-hand call, before anything else is looked at. It
    # answers 0 for a bad hand, and the batch paths then raise the error they always raise
    # (same type, same message).
    kind = type(hands)
    if kind is np.ndarray:
        if threads is None and fastcall is not None:
            ranked = fastcall.rank_array(hands, out)  # one hand, or a small batch; or None
            if ranked is not None:
                return ranked
        return _rank_array(hands, out, threads)
    if kind is list or kind is tuple:
        return _rank_sequence(hands, out, threads)
    if kind is str or isinstance(hands, str):
        return _rank_string(hands)
    return _rank_other(hands, out, threads)


def _rank_other(hands, out: np.ndarray | None, threads: int | None):
    """The forms ``rank`` does not check for first: array subclasses and NumPy scalars."""
    if isinstance(hands, np.ndarray):
        return _rank_array(hands, out, threads)
    if isinstance(hands, np.generic) and hands.dtype == np.uint64:
        return int(rank_set_rows(np.asarray(hands).reshape(1), None, 1)[0])
    if isinstance(hands, np.void) and hands.dtype == ACCUMULATOR:
        return int(_rank_accumulator_rows(np.asarray(hands).reshape(1), None, 1)[0])
    raise ArgumentError(
        "hands must be a uint8 (N, k) array of card ids, a uint64 array of card sets, "
        f"a string or a list of strings; got {type(hands).__name__}"
    )


def _rank_sequence(hands: Sequence, out: np.ndarray | None, threads: int | None):
    """A list or tuple: one hand of card ids, or hands as text."""
    if 0 < len(hands) <= HAND_CARDS_MAX and type(hands[0]) is int:
        found = _one_hand_of_ids(hands)
        if found:
            return found
    if hands and not isinstance(hands[0], str):
        return _rank_id_list(hands)
    return _rank_texts(hands, out, threads)


def _rank_string(hand: str) -> int:
    found = _one_hand_of_text(hand)
    if found:
        return found
    return int(rank_card_rows(parse_cards(hand)[None, :], None, 1)[0])


def _rank_array(hands: np.ndarray, out: np.ndarray | None, threads: int | None):
    """An array by its dtype: card ids, card sets or accumulators; never reinterpreted."""
    dtype = hands.dtype
    if dtype is CARD_IDS or dtype == np.uint8:
        size = hands.size
        if hands.ndim == 0:  # one card id, as a NumPy scalar holds it: a hand of one card
            hands = hands.reshape(1)
        if 0 < size <= HAND_CARDS_MAX and hands.ndim <= 2:  # one hand: one call
            found = _rank_hand(hands.tobytes(), size)
            if found and hands.ndim == 1:
                return found
            if found and hands.shape[0] == 1 and out is None:
                ranks = np.empty(1, dtype=np.uint16)  # half the time of np.array([found])
                ranks[0] = found
                return ranks
        elif size <= SMALL_BATCH_BYTES and threads is None and hands.ndim == 2:
            if hands.flags.c_contiguous:
                return _rank_small_batch(hands, out)
        if hands.ndim == 1:
            if hands.shape[0] > HAND_CARDS_MAX:
                raise InvalidHandError(
                    f"a hand of {hands.shape[0]} cards: a hand has 0 to {HAND_CARDS_MAX}"
                )
            return int(rank_card_rows(hands[None, :], None, 1)[0])
        if hands.ndim == 2:
            return rank_card_rows(hands, out, threads)
        raise ArgumentError(f"card-id arrays must be (N, k); got shape {hands.shape}")
    if hands.dtype == np.uint64 or hands.dtype == ACCUMULATOR:
        rank_rows = rank_set_rows if hands.dtype == np.uint64 else _rank_accumulator_rows
        if hands.ndim == 0:
            return int(rank_rows(hands.reshape(1), None, 1)[0])
        if hands.ndim == 1:
            return rank_rows(hands, out, threads)
        what = "card-set" if hands.dtype == np.uint64 else "accumulator"
        raise ArgumentError(f"{what} arrays must be 1-D; got shape {hands.shape}")
    raise ArgumentError(
        f"hands have dtype {hands.dtype}: pass uint8 card ids (N, k) or uint64 card sets "
        "(N,); other dtypes are not converted silently (check the values, then .astype)"
    )


TEXT_FAST_MAX = 64  # characters: longer strings take the batch parser's path
_rank_hand = lib.pp_rank_hand
_rank_text = lib.pp_rank_text


# One hand of ids or of text: its rank, or 0 for "the batch path answers" (a bad hand, or a
# form the one-hand call does not read). The fast-call extension reads lists, tuples and text
# alike (arrays: its rank_array, in `rank`); without it, each form goes through cffi as bytes.
def _ids_by_cffi(hand: Sequence[int]) -> int:
    try:
        cards = bytes(hand)
    except (TypeError, ValueError):  # not ints, or ints outside 0..255
        return 0
    # bytes() takes True for 1; a bool is no card id (the general path says so). Equal to 0
    # or 1, a bool is looked for only where a 0 or 1 is: in a quarter of hands.
    if (0 in cards or 1 in cards) and bool in map(type, hand):
        return 0
    return _rank_hand(cards, len(cards))


def _text_by_cffi(hand: str) -> int:
    if len(hand) > TEXT_FAST_MAX:
        return 0
    encoded = hand.encode()
    return _rank_text(encoded, len(encoded))


if fastcall is not None:
    _one_hand_of_ids = _one_hand_of_text = fastcall.rank_hand
else:
    _one_hand_of_ids, _one_hand_of_text = _ids_by_cffi, _text_by_cffi


def _rank_id_list(hand: Sequence[int]) -> int:
    """One hand given as a list or tuple of card ids that the one-hand call refused: the
    error that names why (or the rank, for ids of NumPy integer types)."""
    for position, card in enumerate(hand):
        if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
            raise ArgumentError(
                f"a hand given as a list holds card ids (ints) or is a list of strings; "
                f"position {position} holds {type(card).__name__}"
            )
        if not 0 <= card <= 255:
            raise InvalidHandError(
                f"row 0: card id {card} at position {position} is not a card (card ids are 0..51)",
                0,
                int(card),
            )
    return rank(np.array(hand, dtype=np.uint8))  # raises the batch path's error


def _rank_texts(texts: Sequence[str], out: np.ndarray | None, threads: int | None):
    ids, counts = parse_ragged(texts)
    n = len(counts)
    if n and np.all(counts == counts[0]):
        return rank_card_rows(ids.reshape(n, int(counts[0])), out, threads)
    # Ragged: fold each string's cards into a card set, then rank the sets.
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    empty = counts == 0
    sets = np.zeros(n, dtype=np.uint64)
    bits = np.left_shift(np.uint64(1), ids.astype(np.uint64))
    nonempty = np.flatnonzero(~empty)
    if len(nonempty):
        sets[nonempty] = np.bitwise_or.reduceat(bits, starts[nonempty])
    return rank_set_rows(sets, out, threads)


def _rank_game(hands, game: str, out: np.ndarray | None, threads: int | None, trusted: bool):
    """``rank`` under another game's rules: the forms that carry cards (ids, sets, text)."""
    chosen = game_of(game)
    if chosen.number == 0:
        return rank(hands, out=out, threads=threads, trusted=trusted)
    if trusted or (isinstance(hands, (np.ndarray, np.void)) and hands.dtype == ACCUMULATOR):
        raise ArgumentError(
            f"game={game!r}: accumulators rank Hold'em only; pass card ids, card sets or text"
        )
    if isinstance(hands, str):
        return int(_rank_card_rows_game(parse_cards(hands)[None, :], chosen, None, 1)[0])
    if isinstance(hands, (list, tuple)):
        if hands and not isinstance(hands[0], str):
            return rank(np.array(hands, dtype=np.uint8), game=game)  # one hand of ids
        ids, counts = parse_ragged(hands)
        n = len(counts)
        if n and np.all(counts == counts[0]):
            return _rank_card_rows_game(ids.reshape(n, int(counts[0])), chosen, out, threads)
        return rank_set_rows_game(_ragged_sets(ids, counts), chosen, out, threads)
    if isinstance(hands, np.generic) and hands.dtype == np.uint64:
        return int(rank_set_rows_game(np.asarray(hands).reshape(1), chosen, None, 1)[0])
    if not isinstance(hands, np.ndarray):
        return _rank_other(hands, out, threads)  # raises, naming what hands may be
    if hands.dtype == np.uint8:
        if hands.ndim <= 1:
            if hands.size > HAND_CARDS_MAX:
                raise InvalidHandError(f"a hand of {hands.size} cards: a hand has 0 to 7")
            return int(_rank_card_rows_game(hands.reshape(1, -1), chosen, None, 1)[0])
        if hands.ndim == 2:
            return _rank_card_rows_game(hands, chosen, out, threads)
        raise ArgumentError(f"card-id arrays must be (N, k); got shape {hands.shape}")
    if hands.dtype == np.uint64:
        if hands.ndim == 0:
            return int(rank_set_rows_game(hands.reshape(1), chosen, None, 1)[0])
        if hands.ndim == 1:
            return rank_set_rows_game(hands, chosen, out, threads)
        raise ArgumentError(f"card-set arrays must be 1-D; got shape {hands.shape}")
    return _rank_array(hands, out, threads)  # raises for the dtype, as Hold'em does


def _ragged_sets(ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each string's cards (``parse_ragged``) folded into a card set."""
    n = len(counts)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    sets = np.zeros(n, dtype=np.uint64)
    bits = np.left_shift(np.uint64(1), ids.astype(np.uint64))
    nonempty = np.flatnonzero(counts != 0)
    if len(nonempty):
        sets[nonempty] = np.bitwise_or.reduceat(bits, starts[nonempty])
    return sets


def _rank_card_rows_game(cards: np.ndarray, game: Game, out, threads):
    n, k = cards.shape
    if k > HAND_CARDS_MAX:
        raise InvalidHandError(f"hands of {k} cards: a hand has 0 to {HAND_CARDS_MAX} cards")
    cards = np.ascontiguousarray(cards)
    cards_buffer = ffi.from_buffer("uint8_t[]", cards) if n else None
    number = game.number

    def rank_slice(out_buffer, start: int, stop: int, err):
        return lib.pp_rank_cards_game(
            cards_buffer + start * k, stop - start, k, number, out_buffer + start, err
        )

    return _rank_rows(n, out, threads, rank_slice, cards)


def rank_set_rows_game(sets: np.ndarray, game: Game, out, threads):
    sets = np.ascontiguousarray(sets)
    sets_buffer = ffi.from_buffer("uint64_t[]", sets) if len(sets) else None
    number = game.number

    def rank_slice(out_buffer, start: int, stop: int, err):
        return lib.pp_rank_sets_game(
            sets_buffer + start, stop - start, number, out_buffer + start, err
        )

    return _rank_rows(len(sets), out, threads, rank_slice, sets)


def category(ranks: np.ndarray | int, *, game: str = "holdem") -> np.ndarray | int:
    """Rank → category 1..9 (``CATEGORY_NAMES[c]`` names it): uint8 array or int.

    ``game="shortdeck"`` (or ``"shortdeck-straights"``) reads a short-deck rank, whose top
    bits number the categories in that game's order, and returns Hold'em's numbers."""
    if game != "holdem":
        table = np.array(game_of(game).categories, dtype=np.uint8)
        found = category(ranks)
        return int(table[found]) if isinstance(found, int) else table[found]
    if isinstance(ranks, (int, np.integer)):
        c = int(ranks) >> CATEGORY_SHIFT
        if not 1 <= c <= 9 or int(ranks) < 0:
            raise ArgumentError(f"{int(ranks)} is not a rank")
        return c
    ranks = np.asarray(ranks)
    if ranks.dtype != np.uint16:
        raise ArgumentError(f"ranks must be uint16, got {ranks.dtype}")
    categories = (ranks >> CATEGORY_SHIFT).astype(np.uint8)
    if categories.size and (categories.min() < 1 or categories.max() > 9):
        raise ArgumentError("ranks contain a value that is not a rank (category outside 1..9)")
    return categories


_VALUE_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)  # fmt: skip


def _plural(value: int) -> str:
    name = _VALUE_NAMES[value]
    return name + ("es" if name == "Six" else "s")


def _kickers(values: list[int]) -> str:
    if not values:
        return ""
    word = "kicker" if len(values) == 1 else "kickers"
    return ", " + "-".join(_VALUE_NAMES[v] for v in values) + " " + word


def _describe_one(rank_value: int, game: Game = HOLDEM) -> str:
    if not 0 < rank_value < 1 << 16:
        raise ArgumentError(f"{rank_value} is not a rank")
    payload = lib.pp_describe_payload_game(rank_value, game.number)
    if payload == 0:
        raise ArgumentError(f"{rank_value} is not a rank any hand has")
    c = game.categories[payload >> 20]
    values = [((payload >> (16 - 4 * i)) & 0xF) - 1 for i in range(5)]
    values = [v for v in values if v >= 0]
    name = CATEGORY_NAMES[c]
    if c in (1, 6):  # high card, flush: the cards in order
        return f"{name}, " + "-".join(_VALUE_NAMES[v] for v in values) if values else name
    if c == 2:
        return f"{name}, {_plural(values[0])}{_kickers(values[1:])}"
    if c == 3:
        return f"{name}, {_plural(values[0])} and {_plural(values[1])}{_kickers(values[2:])}"
    if c == 4 or c == 8:
        return f"{name}, {_plural(values[0])}{_kickers(values[1:])}"
    if c == 7:
        return f"{name}, {_plural(values[0])} full of {_plural(values[1])}"
    # Straight, straight flush: the top card.
    if c == 9 and values[0] == 12:
        return f"{name}, Ace high (Royal Flush)"
    return f"{name}, {_VALUE_NAMES[values[0]]} high"


def describe(ranks: np.ndarray | int, *, cards=None, game: str = "holdem") -> np.ndarray | str:
    """Rank → words, exactly, from the rank alone: ``"Two Pair, Kings and Nines, Ace kicker"``.

    An int gives a string; an array gives an array of strings of the same shape. ``game``
    as for ``rank`` (a short-deck rank reads differently). With ``cards``, the five that make
    each Hold'em rank (``pp.best_five``'s rows: shape ``ranks.shape + (5,)``), the words name
    the flush's suit and end with the five:
    ``"Flush, Ace-King-Nine-Seven-Three of hearts: Ah Kh 9h 7h 3h"``.
    """
    chosen = game_of(game)
    if cards is not None:
        if game != "holdem":
            raise ArgumentError(f"describe(cards=) reads Hold'em ranks, not game={game!r}")
        return _describe_with_cards(ranks, cards)
    if isinstance(ranks, (int, np.integer)):
        return _describe_one(int(ranks), chosen)
    ranks = np.asarray(ranks)
    if ranks.dtype.kind not in "iu":
        raise ArgumentError(f"ranks must be integers, got {ranks.dtype}")
    if ranks.ndim == 0:  # a NumPy scalar array, as an int
        return _describe_one(int(ranks), chosen)
    unique, inverse = np.unique(ranks, return_inverse=True)
    names = np.array([_describe_one(int(r), chosen) for r in unique.tolist()], dtype=object)
    return names[inverse].reshape(ranks.shape)


_SUIT_NAMES = ("spades", "clubs", "hearts", "diamonds")


def _of_suit(text: str, suit: str) -> str:
    royal = " (Royal Flush)"
    if text.endswith(royal):
        return f"{text.removesuffix(royal)} of {suit}{royal}"
    return f"{text} of {suit}"


def _describe_with_cards(ranks, cards) -> np.ndarray | str:
    """``describe`` of ranks and the five cards making each (checked to rank so)."""
    words = describe(ranks)
    shape = np.shape(words)
    cards = np.asarray(cards)
    if cards.dtype != np.uint8 or cards.shape != (*shape, 5):
        raise ArgumentError(
            f"cards must be uint8 card ids of shape {(*shape, 5)} (the five of each rank, "
            f"pp.best_five), got {cards.dtype} {cards.shape}"
        )
    fives = cards.reshape(-1, 5)
    made = rank(fives) if len(fives) else np.empty(0, dtype=np.uint16)
    given = np.asarray(ranks, dtype=np.int64).reshape(-1)
    wrong = np.flatnonzero(made != given)
    if len(wrong):
        row = int(wrong[0])
        raise ArgumentError(f"row {row}: the five cards rank {int(made[row])}, not {given[row]}")
    flush = np.isin(given >> CATEGORY_SHIFT, (6, 9))
    texts = [
        _of_suit(text, _SUIT_NAMES[int(five[0]) // 13]) if is_flush else text
        for text, five, is_flush in zip(
            np.ravel(words).tolist(), fives, flush.tolist(), strict=True
        )
    ]
    named = [f"{text}: {' '.join(format_cards(five)[i : i + 2] for i in range(0, 10, 2))}"
             for text, five in zip(texts, fives, strict=True)]  # fmt: skip
    if not shape:
        return named[0]
    return np.array(named, dtype=object).reshape(shape)


def rank_showdown(
    boards: np.ndarray,
    holes: np.ndarray,
    *,
    threads: int | None = None,
    out: np.ndarray | None = None,
    game: str = "holdem",
) -> np.ndarray:
    """Ranks every player's hand at showdown: boards ``(N, b)`` uint8 (b = 0..5 cards) and
    holes ``(N, P, 2)`` uint8 → ``(N, P)`` uint16 ranks of board + hole cards, written to
    ``out`` if given (uint16, ``(N, P)``, as ``rank``'s ``out``).

    Each board is tallied once and copied per player. A card that is not a card, or that
    appears twice anywhere in a row (board or any player's hole cards), raises naming the row.
    ``game`` as for ``rank``: short deck ranks each player's cards as a hand of ``b + 2``.
    """
    chosen = game_of(game)
    for name, array, ndim in (("boards", boards, 2), ("holes", holes, 3)):
        if not isinstance(array, np.ndarray):
            raise ArgumentError(f"{name} must be a numpy array, got {type(array).__name__}")
        if array.dtype != np.uint8:
            raise ArgumentError(f"{name} must be uint8 card ids, got {array.dtype}")
        if array.ndim != ndim:
            raise ArgumentError(f"{name} must be {ndim}-D, got shape {array.shape}")
    n, board_cards = boards.shape
    if holes.shape[0] != n or holes.shape[2] != 2:
        raise ArgumentError(f"holes must have shape ({n}, players, 2), got {holes.shape}")
    players = holes.shape[1]
    if board_cards > 5:
        raise InvalidHandError(f"boards of {board_cards} cards: a board has 0 to 5")
    if not 1 <= players <= lib.PP_SHOWDOWN_PLAYERS_MAX:
        raise ArgumentError(f"{players} players: a showdown has 1 to {lib.PP_SHOWDOWN_PLAYERS_MAX}")
    boards = np.ascontiguousarray(boards)
    holes = np.ascontiguousarray(holes)
    out = check_out(out, (n, players), np.uint16, (boards, holes), "cards it would rank")
    if n == 0:
        return out
    if chosen.number != 0:
        return _showdown_game(boards, holes, chosen, out, threads)
    boards_buffer = ffi.from_buffer("uint8_t[]", boards) if board_cards else ffi.NULL
    holes_buffer = ffi.from_buffer("uint8_t[]", holes)
    out_buffer = ffi.from_buffer("uint16_t[]", out, require_writable=True)

    def call(start: int, stop: int):
        err = new_error()
        status = lib.pp_rank_showdown(
            boards_buffer + start * board_cards if board_cards else ffi.NULL,
            board_cards,
            holes_buffer + start * players * 2,
            players,
            stop - start,
            out_buffer + start * players,
            err,
        )
        return status, err, start

    work = run_sliced(n, thread_count(threads, n * players), call, item_ns=2 * players)
    check_slices(work, out)
    return out


def _showdown_game(boards: np.ndarray, holes: np.ndarray, game: Game, out: np.ndarray,
                   threads: int | None) -> np.ndarray:  # fmt: skip
    """A short-deck showdown: each player's board and hole cards as one hand of ``b + 2``
    (the board copied per player), a row's cards checked distinct across its players first."""
    n, board_cards = boards.shape
    players = holes.shape[1]
    everything = np.concatenate([boards, holes.reshape(n, 2 * players)], axis=1)
    _check_rows_distinct(everything)
    hands = np.concatenate(
        [np.broadcast_to(boards[:, None, :], (n, players, board_cards)), holes], axis=2
    ).reshape(n * players, board_cards + 2)
    flat = out.reshape(n * players)
    try:
        _rank_card_rows_game(hands, game, flat, threads)
    except InvalidHandError as error:
        out[...] = 0
        row = error.row // players
        message = str(error).split(": ", 1)[1]
        raise InvalidHandError(f"row {row}: player {error.row % players + 1}: {message}",
                               row, error.card) from None  # fmt: skip
    return out


def _check_rows_distinct(cards: np.ndarray) -> None:
    """Raises for the first row of ``cards`` (uint8 ``(N, m)``) holding a card twice or a
    card id of 52 or more."""
    bad = cards >= 52
    if bad.any():
        row, position = np.argwhere(bad)[0]
        card = int(cards[row, position])
        raise InvalidHandError(
            f"row {row}: card id {card} at position {position} is not a card (card ids are 0..51)",
            int(row),
            card,
        )
    ordered = np.sort(cards, axis=1)
    twice = ordered[:, 1:] == ordered[:, :-1]
    if twice.any():
        row, position = np.argwhere(twice)[0]
        card = int(ordered[row, position])
        raise InvalidHandError(f"row {row}: card {card_name(card)} appears twice", int(row), card)
