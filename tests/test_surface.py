"""The whole public surface against degenerate and wrong input, enumerated from the API.

Every callable of ``pp.__all__``, ``pp.arrow.__all__`` and ``pypoker.arena.__all__`` has a
recipe here (a new function fails ``test_every_public_callable_has_a_recipe`` until it gets
one) that calls it with its array arguments in a given form: zero rows, a 0-d array, one row,
a non-contiguous view, a wrong dtype, floats where ints belong. Each call must give a result
of the right length or raise a ``PokerError`` — never another exception. A Hypothesis layer
then throws random shapes, dtypes, card values and collisions at the ranking functions,
checking each answer against phevaluator (an independent evaluator from PyPI) or a
``PokerError`` naming a row, and actions at the arena's ``step`` as an untrusted policy would
send them: a step, or a refusal that changes no table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from phevaluator import evaluate_cards
from phevaluator.card import Card

import pypoker as pp
import pypoker.arena as arena
import pypoker.arrow


class Recipe(NamedTuple):
    """``call(*arrays)`` with arrays of ``widths`` columns (rows of card ids); ``rows`` says
    how many result rows (or items) a call of n input rows gives: n, or None (not rows)."""

    call: Callable
    widths: tuple[int, ...]
    rows: bool = True


def _ranks(n: int) -> np.ndarray:
    return pp.rank(pp.deal(max(n, 1), 7, seed=9))[:n]


def _players(holes: np.ndarray, cards: int) -> np.ndarray:
    """Rows of hole cards as (rows, players, cards); other shapes as they are."""
    return holes.reshape(len(holes), -1, cards) if holes.ndim == 2 and holes.size else holes


SHOWDOWN = (lambda b, h: pp.rank_showdown(b, _players(h, 2)), (5, 4))
SHOWDOWN_OMAHA = (lambda b, h: pp.rank_showdown_omaha(b, _players(h, 4)), (5, 8))
RECIPES = {
    "rank": Recipe(pp.rank, (7,)),
    "rank_showdown": Recipe(*SHOWDOWN),
    "rank_omaha": Recipe(pp.rank_omaha, (4, 5)),
    "rank_showdown_omaha": Recipe(*SHOWDOWN_OMAHA),
    "rank_low_omaha": Recipe(pp.rank_low_omaha, (4, 5)),  # issue #51
    "accumulate": Recipe(pp.accumulate, (7,)),
    "merge": Recipe(lambda a, b: pp.merge(pp.accumulate(a), pp.accumulate(b)), (2, 3)),
    "hand_index": Recipe(pp.hand_index, (2, 3)),
    "hand_strength": Recipe(pp.hand_strength, (2, 5)),
    "hand_features": Recipe(pp.hand_features, (2, 5), rows=False),
    "equity_histogram": Recipe(lambda h, b: pp.equity_histogram(h, b, bins=4), (2, 5)),
    "hand_vs_range": Recipe(pp.hand_vs_range, (5,)),
    "format_cards": Recipe(pp.format_cards, (7,), rows=False),
    "card_set": Recipe(lambda c: pp.card_set(c.reshape(-1)), (3,), rows=False),
    "category": Recipe(lambda c: pp.category(pp.rank(c)), (7,)),
    "describe": Recipe(lambda c: pp.describe(pp.rank(c)), (7,)),
    "best_five": Recipe(pp.best_five, (7,)),  # issue #51
    "hand_unindex": Recipe(lambda c: pp.hand_unindex("flop", c.reshape(-1)), (1,), rows=False),
    # Not over rows of cards: a plain call, its ints given as floats in the float case.
    "deal": Recipe(lambda n: pp.deal(n, 7, seed=1), ()),
    "combinations": Recipe(lambda n: pp.combinations(n), ()),
    "iter_combinations": Recipe(lambda n: list(pp.iter_combinations(2, chunk=n)), ()),
    "category_counts": Recipe(lambda n: pp.category_counts(n), ()),
    "dataset": Recipe(lambda n: pp.dataset(10, players=n, seed=1), ()),
    "street_table": Recipe(lambda n: pp.street_table("river", start=n, count=n), ()),
    "equity": Recipe(lambda n: pp.equity(["AhAd", "KcKd"], games=n), ()),
    "equities": Recipe(lambda h, b: pp.equities(_players(h, 2), b), (4, 3)),
    "hand_index_size": Recipe(lambda n: pp.hand_index_size(n), ()),
    "range_grid": Recipe(lambda n: pp.range_grid(pp.equity(["QQ+", "AhKh"]), n), ()),
    "plot_range_grid": Recipe(lambda n: pp.range_grid(pp.equity(["QQ+", "AhKh"]), n), ()),
    "parse_cards": Recipe(lambda n: pp.parse_cards(n), ()),
    "select_cpu": Recipe(lambda n: pp.select_cpu(pp.cpu()) if n else pp.select_cpu(n), ()),
    "cpu": Recipe(lambda n: pp.cpu(), ()),
    "supported_cpus": Recipe(lambda n: pp.supported_cpus(), ()),
    "arrow.rank": Recipe(lambda c: pp.arrow.rank(_column(c)), (7,)),
    "arrow.best_five": Recipe(lambda c: pp.arrow.best_five(_column(c)), (7,)),  # issue #51
    "arrow.rank_table": Recipe(lambda c: pp.arrow.rank_table(_table(c), "cards"), (7,)),
    "arrow.check_errors": Recipe(lambda n: pp.arrow.check_errors(n), ()),
    "arena.Arena": Recipe(lambda n: arena.Arena(n, 3, seed=1).play(1), ()),
    "arena.match": Recipe(lambda n: arena.match(["call", "random"], hands=n, seed=1), ()),
}
# Classes and files: no rows to vary (their own tests cover them).
NOT_ROWS = {
    "ArgumentError", "CardParseError", "CardSet", "EquityResult", "InternalError",
    "InvalidHandError", "PokerError", "arrow.RankResult", "arrow.rank_file",
    "arrow.register_duckdb", "arena.IllegalActionError", "arena.MatchResult",
    "arena.Observation", "arena.StepResult",
    # The Range Reader takes histories and Examples, not rows of cards: tests/reader/ gives
    # each its bad input (illegal actions, seats not in the hand, colliding cards, ...).
    *(f"reader.{name}" for name in ("Examples", "Population", "evaluate", "examples",
                                    "generate", "population", "posterior", "prior", "read",
                                    "shards", "torch_dataset")),
    # Real hands (PHH files) and reads of Examples: tests/reader/test_real.py.
    *(f"reader.{name}" for name in ("HandRead", "probabilities", "read_hand", "real_hands")),
    *(f"reader.{name}" for name in ("Shard", "plan", "write_shard")),  # tests/test_ray.py
    "reader.Reader",  # a model over Examples: tests/reader/test_model.py
    # Ranks and lows, not cards: tests/test_omaha_hilo.py gives them their bad input.
    "split_pot", "describe_low",
}  # fmt: skip


def _column(cards: np.ndarray):
    """The rows as an Arrow list column of their own dtype (float rows: list<double>)."""
    import pyarrow as pa

    if cards.ndim == 0:
        rows = cards.reshape(1, 1)
    else:
        rows = cards.reshape(cards.shape[0], int(np.prod(cards.shape[1:])))
    return pa.array(list(rows), pa.list_(pa.from_numpy_dtype(rows.dtype)))


def _table(cards: np.ndarray):
    import pyarrow as pa

    return pa.table({"cards": _column(cards)})


def test_every_public_callable_has_a_recipe():
    names = {n for n in pp.__all__ if callable(getattr(pp, n))}
    names |= {f"arrow.{n}" for n in pp.arrow.__all__ if callable(getattr(pp.arrow, n))}
    names |= {f"arena.{n}" for n in arena.__all__ if callable(getattr(arena, n))}
    import pypoker.reader as reader

    names |= {f"reader.{n}" for n in reader.__all__ if callable(getattr(reader, n))}
    assert names == set(RECIPES) | NOT_ROWS


def _arrays(widths: tuple[int, ...], rows: int) -> list[np.ndarray]:
    """Distinct cards across a row's arrays, ``rows`` rows."""
    dealt = pp.deal(max(rows, 1), max(sum(widths), 1), seed=3)[:rows]
    bounds = np.cumsum((0, *widths))
    return [np.ascontiguousarray(dealt[:, a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]


FORMS = {
    "zero_rows": lambda widths: _arrays(widths, 0),
    "one_row": lambda widths: _arrays(widths, 1),
    "view": lambda widths: [a[::2] for a in _arrays(widths, 6)],
    "zero_d": lambda widths: [np.array(a[0, 0]) for a in _arrays(widths, 1)],
    "int64": lambda widths: [a.astype(np.int64) for a in _arrays(widths, 3)],
    "float": lambda widths: [a.astype(np.float64) for a in _arrays(widths, 3)],
    "bool": lambda widths: [a.astype(bool) for a in _arrays(widths, 3)],
    "three_d": lambda widths: [a[:, None, :] for a in _arrays(widths, 3)],
}
SCALARS = {"zero": 0, "one": 1, "float": 2.0, "half": 2.5, "negative": -1, "bool": True,
           "text": "3", "none": None, "huge": 1 << 70}  # fmt: skip


def _answers_or_refuses(call: Callable, *args) -> object:
    try:
        return call(*args)
    except pp.PokerError:
        return None


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("name", sorted(n for n, r in RECIPES.items() if r.widths))
def test_row_functions_answer_or_refuse_every_form(name, form):
    recipe = RECIPES[name]
    arrays = FORMS[form](recipe.widths)
    result = _answers_or_refuses(recipe.call, *arrays)
    if result is not None and recipe.rows and form in ("zero_rows", "one_row", "view"):
        length = len(result) if not isinstance(result, tuple) else len(result[0])
        assert length == arrays[0].shape[0]


@pytest.mark.parametrize("value", sorted(SCALARS))
@pytest.mark.parametrize("name", sorted(n for n, r in RECIPES.items() if not r.widths))
def test_scalar_arguments_answer_or_refuse_every_value(name, value):
    _answers_or_refuses(RECIPES[name].call, SCALARS[value])


@pytest.mark.parametrize("value", ["float", "half", "bool", "text"])
@pytest.mark.parametrize("name", ["deal", "combinations", "category_counts", "dataset"])
def test_floats_and_strings_for_whole_numbers_are_named(name, value):
    with pytest.raises(pp.ArgumentError, match=r"must be a whole number.*got"):
        RECIPES[name].call(SCALARS[value])


# Our card id → phevaluator's (4 * value + suit, suits c d h s).
TO_PHEVALUATOR = [Card(name).id_ for name in pp.CARD_NAMES]
DTYPES = st.sampled_from([np.uint8, np.int64, np.uint64, np.float64, np.int8])


def _oracle(row: np.ndarray) -> int | None:
    """phevaluator's order of a 5- to 7-card hand, or None when the row is no hand."""
    cards = [int(c) for c in row]
    if not 5 <= len(cards) <= 7 or len(set(cards)) != len(cards) or max(cards) > 51:
        return None
    return evaluate_cards(*(TO_PHEVALUATOR[c] for c in cards))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hnp.arrays(
        DTYPES, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9),
        elements=st.integers(0, 60),
    )
)  # fmt: skip
def test_rank_answers_right_or_refuses_by_name(hands):
    try:
        ranks = pp.rank(hands)
    except pp.PokerError as error:
        assert str(error)  # a message, naming a row where a row is at fault
        if error.row is not None:
            assert str(error).startswith(f"row {error.row}: ")
        return
    assert hands.dtype in (np.uint8, np.uint64)
    if hands.dtype != np.uint8 or hands.ndim != 2:
        return
    assert ranks.shape == (hands.shape[0],)
    for row, rank in zip(hands, ranks, strict=True):
        expected = _oracle(row)
        if expected is not None:  # phevaluator: lower is better
            assert rank == pp.rank(row.tolist())
    # Equal hands rank equal and order agrees with phevaluator on every pair of real hands.
    valid = [(r, _oracle(h)) for h, r in zip(hands, ranks, strict=True) if _oracle(h)]
    for (r1, o1), (r2, o2) in zip(valid, valid[1:], strict=False):
        assert (r1 > r2) == (o1 < o2) and (r1 == r2) == (o1 == o2)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 4), st.integers(0, 5), st.integers(1, 4), st.integers(0, 2**32 - 1),
    st.booleans(),
)  # fmt: skip
def test_showdown_answers_right_or_refuses_by_name(rows, board_cards, players, seed, collide):
    dealt = pp.deal(rows, board_cards + 2 * players, seed=seed)
    if collide and rows and board_cards + 2 * players > 1:
        dealt[rows - 1, -1] = dealt[rows - 1, 0]  # a card twice in the last row
    boards = dealt[:, :board_cards]
    holes = dealt[:, board_cards:].reshape(rows, players, 2)
    try:
        ranks = pp.rank_showdown(boards, holes)
    except pp.PokerError as error:
        assert collide and error.row == rows - 1
        return
    assert not (collide and rows)
    assert ranks.shape == (rows, players)
    for r in range(rows):
        for p in range(players):
            assert ranks[r, p] == pp.rank(np.concatenate([boards[r], holes[r, p]]).tolist())


ACTION_ARRAYS = st.tuples(
    hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=5),
               elements=st.integers(-3, 300)),
    st.sampled_from([np.int64, np.int8, np.uint8, np.float64, np.bool_]),
).map(lambda drawn: drawn[0].astype(drawn[1]))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 6), ACTION_ARRAYS, ACTION_ARRAYS)
def test_arena_steps_or_refuses_untrusted_actions_leaving_every_table_as_it_was(
    seed, warmup, kinds, amounts
):
    """An untrusted policy's answer, any dtype, shape or value: the arena steps it, or raises
    a ``PokerError`` and no table changes."""
    tables = arena.Arena(4, 3, stacks=100, seed=seed)
    for _ in range(warmup):  # calls and checks, to reach later streets
        seen = tables.observe()
        tables.step(np.where(seen.to_call > 0, arena.CALL, arena.CHECK), np.zeros(4, np.int64))
    before = tables.state.copy()
    try:
        result = tables.step(kinds, amounts)
    except pp.PokerError as error:
        assert str(error)
        assert tables.state.tobytes() == before.tobytes()
        return
    assert kinds.shape == (4,) and amounts.shape == (4,)
    assert result.finished.shape == (4,)
    assert result.winnings.shape == (4, 3)
