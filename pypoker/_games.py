"""The games pypoker plays, by name: each name's native game number and deck, checked once.

- ``"holdem"``: Texas Hold'em, 52 cards.
- ``"shortdeck"``: short deck (6+) hold'em, 36 cards (sixes to aces). A flush beats a full
  house, A-6-7-8-9 is the lowest straight (the ace plays below the six) and **three of a kind
  beats a straight**: the rule Triton plays.
- ``"shortdeck-straights"``: the same, but a **straight beats three of a kind** (as in
  Hold'em), the other common rule, and the one pokerkit's ``ShortDeckHoldemHand`` ranks by
  (tests/test_shortdeck.py holds the two to the same order and ties).

Short-deck ranks keep the Hold'em format (``(category << 12) | subrank``, higher wins, equal
ties) with the categories numbered in the game's own order; ``pp.category(ranks,
game=...)`` gives back Hold'em's category numbers, which ``pp.CATEGORY_NAMES`` names.
Omaha (``"plo4"``, ``"plo5"``, ``"plo6"``) and Omaha hi-lo, eight or better (``"plo4-8"``,
``"plo5-8"``) are chosen in ``pp.equity``, datasets and the CLI; their ranks are Hold'em's
(``pp.rank_omaha``), hi-lo's lows ``pp.rank_low_omaha``'s (``pypoker.omaha``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._native import ArgumentError, lib

SUIT_VALUES = 13


@dataclass(frozen=True)
class Game:
    name: str
    number: int  # the C ABI's `game` (rank/eval.zig's `Game`)
    deck: int  # card set: bit i = card i
    # Short-deck category number (1..9, the rank's top bits) -> Hold'em's category number.
    categories: tuple[int, ...]

    @property
    def short_deck(self) -> bool:
        return self.number != 0

    @property
    def missing(self) -> int:
        """The cards of the 52 this game's deck lacks."""
        return ((1 << 52) - 1) & ~self.deck


_IDENTITY = tuple(range(10))
# Short deck's order, lowest first: high card, pair, two pair, straight | trips, full house,
# flush, quads, straight flush (Hold'em numbers: 5 straight, 4 trips, 7 full house, 6 flush).
_TRIPS_OVER_STRAIGHTS = (0, 1, 2, 3, 5, 4, 7, 6, 8, 9)
_STRAIGHTS_OVER_TRIPS = (0, 1, 2, 3, 4, 5, 7, 6, 8, 9)

GAMES: dict[str, Game] = {
    "holdem": Game("holdem", 0, lib.pp_game_deck(0), _IDENTITY),
    "shortdeck": Game("shortdeck", 1, lib.pp_game_deck(1), _TRIPS_OVER_STRAIGHTS),
    "shortdeck-straights": Game(
        "shortdeck-straights", 2, lib.pp_game_deck(2), _STRAIGHTS_OVER_TRIPS
    ),
}
OMAHA_GAMES = ("plo4", "plo5", "plo6", "plo4-8", "plo5-8")
RANKED_GAMES = tuple(GAMES)  # the games `rank` and friends take
HOLDEM = GAMES["holdem"]


def game_of(game, *, argument: str = "game", choices: tuple[str, ...] = RANKED_GAMES) -> Game:
    """The game named ``game`` (case-insensitive), or an ``ArgumentError`` (a ``ValueError``)
    naming the argument and the choices."""
    name = game.lower() if isinstance(game, str) else None
    if name not in choices or name not in GAMES:
        listed = ", ".join(map(repr, choices))
        raise ArgumentError(f"{argument}={game!r} is not a game here: use one of {listed}")
    return GAMES[name]


def holdem_only(game, where: str) -> None:
    """Refuses any game but Hold'em where ``where`` (a path not wired for others) is asked."""
    if isinstance(game, str) and game.lower() == "holdem":
        return
    if isinstance(game, str) and game.lower() in GAMES:
        raise ArgumentError(
            f"game={game!r}: {where} ranks Hold'em only; short deck is wired through "
            "pp.rank, pp.rank_showdown, pp.deal, pp.equity, datasets and the CLI"
        )
    game_of(game)


def deck_ids(game: Game) -> np.ndarray:
    """The game's card ids, increasing."""
    return np.array([c for c in range(52) if game.deck >> c & 1], dtype=np.uint8)
