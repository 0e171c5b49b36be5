"""The reference random player, for engines other than pypoker's (benchmarks play pokerkit
with it, hand for hand). pypoker plays it natively (``Arena.play``); it is defined in
zsrc/arena/random_player.zig:

At each decision, with words w0, w1, w2 (``words``: a pure function of the seed, the table,
the hand and the decision's index in the hand, from the counter-based mixer):

1. if the seat faces a bet (to_call > 0) and ``below(w0, 4) == 0``: FOLD;
2. else if RAISE is legal and ``below(w1, 5) == 0``: RAISE to
   ``min_to + below(w2, max_to - min_to + 1)``;
3. else CHECK (nothing to call) or CALL.

``below(w, n) = (w * n) >> 64``.
"""

from __future__ import annotations

from .._native import ffi, lib
from ._config import CALL, CHECK, FOLD, RAISE, check_status


def words(seed: int, table: int, hand: int, decision: int) -> tuple[int, int, int]:
    out = ffi.new("uint64_t[3]")
    check_status(lib.pp_arena_random_words(seed, table, hand, decision, out), None)
    return int(out[0]), int(out[1]), int(out[2])


def below(word: int, bound: int) -> int:
    return (word * bound) >> 64


def choose(seed: int, table: int, hand: int, decision: int, to_call: int, raise_legal: bool,
           min_to: int, max_to: int) -> tuple[int, int]:  # fmt: skip
    """The player's (kind, amount) at a decision."""
    w0, w1, w2 = words(seed, table, hand, decision)
    if to_call > 0 and below(w0, 4) == 0:
        return FOLD, 0
    if raise_legal and below(w1, 5) == 0:
        return RAISE, min_to + below(w2, max_to - min_to + 1)
    return (CALL if to_call > 0 else CHECK), 0
