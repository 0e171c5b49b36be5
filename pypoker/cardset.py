"""``CardSet``: a set of cards over a ``u64`` (bit n = card n), for people who think in sets.

The NumPy functions take and return plain uint64 arrays of the same encoding; ``CardSet`` is
the one-at-a-time face of it: ``CardSet("AhKd") | CardSet("7c")``, ``"Ah" in s``, ``len(s)``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

import numpy as np

from ._native import ArgumentError, lib
from .cards import CARD_NAMES, parse_cards

FULL_DECK = (1 << lib.PP_CARDS) - 1


def bits_of(cards) -> int:
    """Any form of cards → a card-set int: CardSet, text, a uint64 set, or card ids."""
    if cards is None:
        return 0
    if isinstance(cards, CardSet):
        return cards.bits
    if isinstance(cards, str):
        return _text_bits(cards)
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        value = int(cards)
        if value < 0 or value >> lib.PP_CARDS:
            raise ArgumentError(f"card set {value:#x} has bits outside 0..51")
        return value
    ids = np.asarray(cards if isinstance(cards, np.ndarray) else list(cards))
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= lib.PP_CARDS):
        raise ArgumentError("card ids must be integers 0..51")
    return _ids_bits(ids)


def _ids_bits(ids: np.ndarray) -> int:
    bits = np.left_shift(np.uint64(1), ids.reshape(-1).astype(np.uint64))
    return int(np.bitwise_or.reduce(bits)) if bits.size else 0


@functools.lru_cache(maxsize=1024)  # a board's text parsed was 12 µs of a 150 µs equity call
def _text_bits(text: str) -> int:
    """Card text → a card-set int; a bad text raises each time (errors are not cached)."""
    return _ids_bits(parse_cards(text))


class CardSet:
    """An immutable set of cards. ``CardSet("AhKd")``, ``CardSet([38, 50])``,
    ``CardSet(bits)``; iterating yields card ids in increasing order."""

    __slots__ = ("bits",)

    def __init__(self, cards: CardSet | str | int | Iterable[int] | None = None):
        self.bits: int = bits_of(cards)

    @classmethod
    def full_deck(cls) -> CardSet:
        return cls(FULL_DECK)

    def ids(self) -> np.ndarray:
        """Card ids in increasing order, as uint8."""
        return np.fromiter(self, dtype=np.uint8, count=len(self))

    def __iter__(self) -> Iterator[int]:
        bits = self.bits
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low

    def __len__(self) -> int:
        return bin(self.bits).count("1")

    def __contains__(self, card) -> bool:
        if isinstance(card, (int, np.integer)):  # a card id: anything else is no card held
            return 0 <= int(card) < lib.PP_CARDS and bool(self.bits >> int(card) & 1)
        other = bits_of(card)
        return other != 0 and self.bits & other == other

    def __or__(self, other) -> CardSet:
        return CardSet(self.bits | bits_of(other))

    def __and__(self, other) -> CardSet:
        return CardSet(self.bits & bits_of(other))

    def __sub__(self, other) -> CardSet:
        return CardSet(self.bits & ~bits_of(other))

    def __xor__(self, other) -> CardSet:
        return CardSet(self.bits ^ bits_of(other))

    def __invert__(self) -> CardSet:
        """The cards not in this set."""
        return CardSet(FULL_DECK & ~self.bits)

    def __eq__(self, other) -> bool:
        return isinstance(other, CardSet) and self.bits == other.bits

    def __hash__(self) -> int:
        return hash(self.bits)

    def __int__(self) -> int:
        return self.bits

    def __bool__(self) -> bool:
        return self.bits != 0

    def __str__(self) -> str:
        return "".join(CARD_NAMES[i] for i in self)

    def __repr__(self) -> str:
        return f'CardSet("{self}")'
