"""``posterior``: the exact posterior over a read seat's 1,326 combos at each example's moment,
for hands played by a population of native agents (zsrc/reader/posterior.zig).

Every native agent reports its policy for any combo in any state, so Bayes' rule is exact:
prior (the combos the board leaves, uniform) × the probability of each of the seat's actions
so far holding the combo (the agent's own policy at the replayed state: the kind, and a
raise's amount). Heads-up (two seats dealt) the opponent's cards are summed out exactly, card
removal included: P(c) ∝ M_s(c) · Σ over the opponent's combos o disjoint from c and the
board of M_o(o), where M is a seat's likelihood of its own actions (the agents' policies
depend only on their own cards and the public state, so the two hands interact only through
the cards they cannot share). Multiway it is the independent-ranges posterior that
public-belief-state solvers use: P(c) ∝ M_s(c), the other seats' card removal left out.
Styles known: each seat's likelihood under the style it played; hidden: mixed over the
population's styles, weights = the style's prior × its likelihood (the style's posterior).
"""

from __future__ import annotations

import numpy as np

from .._native import ArgumentError, PokerError, ffi, lib, thread_error
from .._parallel import run_sliced, workers
from .examples import Examples, hand_problem
from .population import population as as_population

COMBOS = lib.PP_COMBOS
# A 6-max example's cost on one core (Zen 4): the hand's replay and policies shared by its
# examples; Ctrl-C is seen between calls of about PIECE_NS.
_EXAMPLE_NS = 40_000


def posterior(examples: Examples, population=None, *, known_styles=True, threads=None,
              out=None) -> np.ndarray:  # fmt: skip
    """(N, 1326) float64: each example's posterior over the read seat's combos
    (``pp.COMBOS`` order), zero where a combo meets the board, each row summing to 1.
    ``population``: what played the hands (default: the examples'); ``known_styles``:
    each seat's style as the examples record it (False: mixed over the population's
    styles). ``out``: a C-contiguous float64 (N, 1326) array to fill. Interruptible."""
    if not isinstance(examples, Examples):
        raise ArgumentError(f"examples must be pypoker.reader.Examples, got {type(examples)}")
    pop = examples.population if population is None else population
    if pop is None:
        raise ArgumentError("the examples do not say which population played them: pass "
                            "population= (e.g. 'default')")  # fmt: skip
    pop = as_population(pop)
    styles = _styles(examples, pop, known_styles)
    n = len(examples)
    out = _out(out, n)
    order = np.lexsort((examples.data["actions_seen"], examples.data["hand_row"]))
    data = np.ascontiguousarray(examples.data[order])
    in_order = bool((order == np.arange(n)).all())
    sorted_out = out if in_order else np.empty_like(out)
    native, cancel = pop.native(), ffi.new("uint32_t*")

    def call(start: int, stop: int) -> None:
        err = thread_error()
        status = lib.pp_reader_posterior(
            ffi.from_buffer("pp_hand_record[]", examples.hands), len(examples.hands),
            ffi.from_buffer("pp_action_record[]", examples.actions), len(examples.actions),
            ffi.from_buffer("uint8_t[]", styles) if styles is not None else ffi.NULL, native,
            int(known_styles), ffi.from_buffer("pp_example[]", data[start:]), stop - start,
            ffi.from_buffer("double[]", sorted_out[start:], require_writable=True), cancel, err,
        )  # fmt: skip
        if status == lib.PP_BAD_ARGUMENT:
            _raise(examples, data, start + int(err.row), int(err.card), int(err.position), order)
        if status != lib.PP_OK:
            raise PokerError(f"the posterior failed with status {status}")

    if n:
        run_sliced(n, workers(threads), call, item_ns=_EXAMPLE_NS)
    if not in_order:
        out[order] = sorted_out
    return out


def _styles(examples: Examples, pop, known: bool):
    if not known:
        return None
    styles = examples.styles
    if styles is None and len(pop) == 1:
        return np.zeros((len(examples.hands), lib.PP_ARENA_SEATS_MAX), np.uint8)
    if styles is None:
        raise ArgumentError("the examples carry no styles: pass known_styles=False to mix over "
                            "the population's styles (or examples(..., styles=...))")  # fmt: skip
    return np.ascontiguousarray(styles, np.uint8)


def _out(out, n: int) -> np.ndarray:
    if out is None:
        return np.empty((n, COMBOS))
    if (not isinstance(out, np.ndarray) or out.dtype != np.float64 or out.shape != (n, COMBOS)
            or not out.flags.c_contiguous or not out.flags.writeable):  # fmt: skip
        raise ArgumentError(f"out must be a writable C-contiguous float64 array of shape "
                            f"({n}, {COMBOS})")  # fmt: skip
    return out


def _raise(examples, data, index: int, fault: int, where: int, order) -> None:
    row = int(order[index])
    hand = int(data["hand_row"][index])
    if fault == lib.PP_READER_FAULT_IMPOSSIBLE:
        raise PokerError(f"example {row} (hand row {hand}, seat {where}): the population's "
                         "policies give its actions no chance: were the hands played by "
                         "another population, or styles mislabelled?", row)  # fmt: skip
    if fault == lib.PP_READER_FAULT_STYLE:
        raise PokerError(f"example {row} (hand row {hand}): seat {where}'s style is unknown or "
                         "outside the population", row)  # fmt: skip
    raise PokerError(f"example {row}: " + hand_problem(_history(examples), hand, fault, where),
                     row)  # fmt: skip


def _history(examples):
    """The hands as history rows, for wording a problem (replays read them)."""
    import pyarrow as pa

    from ..arena.history import SCHEMA, record_batch

    return pa.Table.from_batches([record_batch(examples.hands, examples.actions)], schema=SCHEMA)
