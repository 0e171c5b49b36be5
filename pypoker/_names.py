"""Card names, the one place they are spelled (card id ``suit * 13 + value``)."""

from __future__ import annotations

VALUES = "23456789TJQKA"  # value 0 = deuce … 12 = ace
SUITS = "schd"  # suit 0..3 = ♠ ♣ ♥ ♦
CARD_NAMES: tuple[str, ...] = tuple(v + s for s in SUITS for v in VALUES)


def card_name(card: int) -> str:
    """``38`` → ``"Ah"``; any id outside 0..51 is shown as ``#<id>``."""
    return CARD_NAMES[card] if 0 <= card < 52 else f"#{card}"
