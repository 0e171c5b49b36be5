"""Hand ranges in the Equilab syntax (seed 003): text → weighted two-card combos.

``AhAd`` one hand; ``Ac`` a partial hand (Ac and any other card); ``AA`` / ``AKs`` / ``AKo``
/ ``AK`` hand groups (6, 4, 12, 16 combos); ``QQ-99``, ``T7s-T3s``, ``T7o-T3o``, ``T7-T3``,
``KJs-86s`` (both cards step down together), ``J8-52``; ``QQ+``, ``T6s+``, ``T6o+``, ``T6+``
(the kicker climbs to one below the top card); ``random`` every hand. Items are separated by
commas, optionally inside brackets (``[AQs+,TT+]``); ``item:weight`` weights an item's combos
(0 < weight ≤ 1, default 1; a combo listed twice keeps its larger weight). A syntax error
names the item and its position.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from ._native import VALUES, ArgumentError, CardParseError
from .cards import parse_cards

_VALUE = {v: i for i, v in enumerate(VALUES)}
_GROUP = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)$", re.IGNORECASE)
_SPAN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)-([2-9TJQKA])([2-9TJQKA])([so]?)$", re.I)


class RangeSyntaxError(ValueError):
    """A range item that does not parse; ``position`` is its offset in the text."""

    def __init__(self, message: str, position: int):
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class Range:
    """Weighted combos: ``cards`` is ``(n, 2)`` uint8 (lower id first), ``weights`` ``(n,)``."""

    text: str
    cards: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.cards)

    def sets(self) -> np.ndarray:
        """The combos as uint64 card sets."""
        one = np.uint64(1)
        return (one << self.cards[:, 0].astype(np.uint64)) | (
            one << self.cards[:, 1].astype(np.uint64)
        )

    @functools.cached_property
    def first_set(self) -> int:
        """The first combo as a card-set int (a known hand's one combo), kept: a range is
        parsed once and shared by every call naming it."""
        low, high = self.cards[0].tolist()
        return 1 << low | 1 << high

    def without(self, dead_bits: int) -> Range:
        """The combos holding none of the cards in ``dead_bits`` (card removal)."""
        keep = (self.sets() & np.uint64(dead_bits)) == 0
        return Range(self.text, self.cards[keep], self.weights[keep])


def _combos_of_values(high: int, low: int, kind: str) -> list[tuple[int, int]]:
    """Every suit combination of two values: kind "" all, "s" suited, "o" offsuit."""
    combos = []
    for s1 in range(4):
        for s2 in range(4):
            a, b = s1 * 13 + high, s2 * 13 + low
            if a == b or (high == low and a > b):
                continue
            if high != low and ((kind == "s" and s1 != s2) or (kind == "o" and s1 == s2)):
                continue
            combos.append((min(a, b), max(a, b)))
    return combos


def _item(item: str, position: int) -> list[tuple[int, int]]:
    text = item.strip()
    if text.lower() == "random":
        return [(a, b) for a in range(52) for b in range(a + 1, 52)]
    if group := _GROUP.match(text):
        high, low = _VALUE[group[1].upper()], _VALUE[group[2].upper()]
        kind, plus = group[3].lower(), group[4] == "+"
        if high < low:
            high, low = low, high
        if high == low:
            if kind:
                raise RangeSyntaxError(
                    f"{text!r} at {position}: a pair is neither s nor o", position
                )
            pairs = range(low, 13) if plus else [low]
            return [c for v in pairs for c in _combos_of_values(v, v, "")]
        kickers = range(low, high) if plus else [low]
        return [c for k in kickers for c in _combos_of_values(high, k, kind)]
    if span := _SPAN.match(text):
        a1, b1, k1, a2, b2, k2 = (span[i] for i in range(1, 7))
        v = [_VALUE[x.upper()] for x in (a1, b1, a2, b2)]
        if k1.lower() != k2.lower():
            raise RangeSyntaxError(f"{text!r} at {position}: both ends need the same s/o", position)
        kind = k1.lower()
        top, bottom = (v[0], v[1]), (v[2], v[3])
        if top[0] < bottom[0] or (top[0] == bottom[0] and top[1] < bottom[1]):
            top, bottom = bottom, top
        gap_top, gap_bottom = top[0] - top[1], bottom[0] - bottom[1]
        if top[0] == top[1] and bottom[0] == bottom[1] and not kind:  # QQ-99
            return [c for p in range(bottom[0], top[0] + 1) for c in _combos_of_values(p, p, "")]
        if top[0] == bottom[0]:  # T7s-T3s: the kicker steps
            return [
                c for k in range(bottom[1], top[1] + 1) for c in _combos_of_values(top[0], k, kind)
            ]
        if gap_top == gap_bottom and gap_top > 0:  # KJs-86s: both cards step down together
            return [
                c
                for h in range(bottom[0], top[0] + 1)
                for c in _combos_of_values(h, h - gap_top, kind)
            ]
        raise RangeSyntaxError(f"{text!r} at {position}: not a range Equilab writes", position)
    try:
        cards = parse_cards(text)
    except CardParseError:
        cards = None
    if cards is not None and len(cards) == 2:
        a, b = int(cards[0]), int(cards[1])
        return [(min(a, b), max(a, b))]
    if cards is not None and len(cards) == 1:  # a partial hand: this card and any other
        card = int(cards[0])
        return [(min(card, o), max(card, o)) for o in range(52) if o != card]
    raise RangeSyntaxError(f"{text!r} at {position}: not a hand, a hand group or a range", position)


def parse_range(text: str) -> Range:
    """Range text → weighted combos (see the module docstring for the syntax). The arrays
    are read-only: a range is parsed once and shared by every call that names it."""
    if not isinstance(text, str):
        raise ArgumentError(f"a range is text, got {type(text).__name__}")
    return _parse_range(text)


@functools.lru_cache(maxsize=256)  # "random" alone took 0.7 ms, a third of a small equity call
def _parse_range(text: str) -> Range:
    body = text.strip()
    offset = text.find(body) if body else 0
    if body.startswith("[") and body.endswith("]"):
        body, offset = body[1:-1], offset + 1
    weights: dict[tuple[int, int], float] = {}
    position = offset
    for item in body.split(","):
        start = position + len(item) - len(item.lstrip())
        position += len(item) + 1
        if not item.strip():
            raise RangeSyntaxError(f"empty item at {start} in {text!r}", start)
        hand, _, weight_text = item.strip().partition(":")
        weight = 1.0
        if weight_text:
            try:
                weight = float(weight_text)
            except ValueError:
                weight = -1.0
            if not 0 < weight <= 1:
                raise RangeSyntaxError(
                    f"{item.strip()!r} at {start}: a weight is a number in (0, 1]", start
                )
        for combo in _item(hand, start):
            weights[combo] = max(weights.get(combo, 0.0), weight)
    combos = sorted(weights)
    cards = np.array(combos, dtype=np.uint8).reshape(len(combos), 2)
    values = np.array([weights[c] for c in combos], dtype=np.float64)
    cards.flags.writeable = values.flags.writeable = False
    return Range(text, cards, values)
