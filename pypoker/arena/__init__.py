"""No-limit hold'em tables in batches: ``Arena`` (observe, step, state, play), the reference
random player, and hand histories as Arrow (``history``).

Action kinds: ``FOLD``, ``CHECK``, ``CALL``, ``RAISE`` (to an amount: the seat's total bet
on the street), ``ALL_IN``; ``ACTIONS`` names them in that order.

Imported on demand: ``pypoker.arena.gym`` (Gymnasium environments, registered as
``pypoker/NoLimitHoldem-v0``), ``pypoker.arena.pettingzoo`` (a PettingZoo AEC environment),
both from the ``[rl]`` extra; ``pypoker.arena.phh`` (PHH export and import).
"""

from __future__ import annotations

from . import agents, history, random_player
from ._arena import Arena
from ._config import (
    ACTIONS,
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    NO_CARD,
    RAISE,
    SEATS_MAX,
    STREET_OVER,
    TABLE_DTYPE,
    IllegalActionError,
    Observation,
    StepResult,
)
from .match import MatchResult, match

__all__ = ["ACTIONS", "ALL_IN", "CALL", "CHECK", "FOLD", "NO_CARD", "RAISE", "SEATS_MAX",
           "STREET_OVER", "TABLE_DTYPE", "Arena", "IllegalActionError", "Observation",
           "StepResult", "agents", "history", "random_player", "match", "MatchResult"]  # fmt: skip
