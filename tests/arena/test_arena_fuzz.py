"""Random batches through the Python API: legal actions mostly, one illegal action now and
then. A batch holding an illegal action is refused whole (the error names the first bad
table) and leaves every byte of the state as it was; a legal batch keeps every table's
chips and every hand's winnings sum to zero."""

from __future__ import annotations

import numpy as np
import pytest

from pypoker.arena import ACTIONS, RAISE, Arena, IllegalActionError


def _chips_conserved(state: np.ndarray) -> bool:
    held = state["stack"].sum(1, dtype=np.int64) + state["committed"].sum(1, dtype=np.int64)
    return bool((held + state["antes"] == state["start"].sum(1, dtype=np.int64)).all())


def _legal_batch(seen, rng):
    choices = rng.random((len(seen.actor), len(ACTIONS))) * seen.legal
    kinds = choices.argmax(1)
    span = seen.max_raise_to - seen.min_raise_to + 1
    amounts = seen.min_raise_to + (rng.random(len(kinds)) * span).astype(np.int64)
    return kinds, np.where(kinds == RAISE, amounts, 0)


def _illegal(seen, table: int, rng) -> tuple[int, int]:
    """An action the table refuses: a kind not in its mask, or a raise out of range."""
    refused = np.flatnonzero(~seen.legal[table])
    if seen.legal[table, RAISE] and rng.random() < 0.5:
        low, high = int(seen.min_raise_to[table]), int(seen.max_raise_to[table])
        return RAISE, int(rng.choice([low - 1, high + 1, -5]))
    return int(rng.choice(refused)), 0


@pytest.mark.parametrize("seed", range(4))
def test_random_batches_refuse_illegal_actions_whole(seed):
    rng = np.random.default_rng(seed)
    seats = int(rng.integers(2, 11))
    big = int(rng.integers(1, 4))
    arena = Arena(48, seats, stacks=rng.integers(4 * big + 2, 300, seats).tolist(),
                  blinds=(1, big), ante=int(rng.integers(0, 2)), carry=bool(seed % 2),
                  straddle=2 * big if seed == 2 else 0, seed=seed)  # fmt: skip
    refusals = 0
    for _ in range(600):
        seen = arena.observe()
        kinds, amounts = _legal_batch(seen, rng)
        if rng.random() < 0.3:
            bad = int(rng.integers(0, len(kinds)))
            kinds[bad], amounts[bad] = _illegal(seen, bad, rng)
            before = arena.state
            with pytest.raises(IllegalActionError, match=rf"^table {bad}: ") as caught:
                arena.step(kinds, amounts)
            assert caught.value.row == bad
            assert arena.state.tobytes() == before.tobytes()
            refusals += 1
            continue
        result = arena.step(kinds, amounts)
        assert (result.winnings.sum(1) == 0).all()
        assert not result.winnings[~result.finished].any()
        assert _chips_conserved(arena.state)
    assert refusals > 100
