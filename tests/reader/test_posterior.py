"""The exact posterior against a brute-force Bayes computation in Python (the agents'
policies asked one state at a time through ``Agent.policy``, every pair of hands summed
heads-up), and its contract: rows sum to 1, zero on combos the board blocks, the same for any
thread count or example order, and errors that name the example."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp
from pypoker.arena.replay import start_arena
from pypoker.reader import DEFAULT, Population, examples, generate, posterior, read

SETS = (np.uint64(1) << pp.COMBOS[:, 0].astype(np.uint64)) | (
    np.uint64(1) << pp.COMBOS[:, 1].astype(np.uint64)
)
DISJOINT = (SETS[:, None] & SETS[None, :]) == 0


@pytest.fixture(scope="module", params=[2, 3], ids=["heads-up", "three-handed"])
def played(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"seats{request.param}")
    generate(60, folder, seats=request.param, shard_hands=60, tables=4, seed=request.param)
    return next(read(folder))


def likelihoods(row: dict, upto: int) -> dict[int, np.ndarray]:
    """Per seat, (styles, 1326): the chance of its actions among the first ``upto`` under
    each style, from ``Agent.policy`` at each replayed state."""
    players = [s for s in range(row["seats"]) if row["starting_stacks"][s] > 0]
    players = (
        players[players.index(row["button"]) + 1 :] + players[: players.index(row["button"]) + 1]
    )
    arena = start_arena(row, players)
    out = {s: np.ones((len(DEFAULT), 1326)) for s in players}
    for action in row["actions"][:upto]:
        for k, agent in enumerate(DEFAULT.agents):
            policy = agent.policy(arena)
            p = policy.prob[:, action["kind"]].copy()
            if action["kind"] == 3:
                p[policy.raise_to != action["amount"]] = 0
            out[action["seat"]][k] *= p
        arena.step([action["kind"]], [action["amount"]])
    return out


def brute(ex, i: int, known: bool) -> np.ndarray:
    e = ex.data[i]
    rows = _rows(ex)
    row = rows[int(e["hand_row"])]
    seat = int(e["seat"])
    board = np.uint64(0)
    for card in e["board"][e["board"] < 52]:
        board |= np.uint64(1) << np.uint64(card)
    live = (SETS & board) == 0
    per_seat = likelihoods(row, int(e["actions_seen"]))
    weights = np.asarray(DEFAULT.prior)

    def term(s):
        if known:
            return per_seat[s][ex.styles[int(e["hand_row"])][s]] * live
        return (weights[:, None] * per_seat[s]).sum(0) * live

    mine = term(seat)
    if len(per_seat) == 2:
        other = next(s for s in per_seat if s != seat)
        mine = mine * (DISJOINT.astype(float) @ term(other))
    return mine / mine.sum()


_CACHE: dict = {}


def _rows(ex):
    key = id(ex)
    if key not in _CACHE:
        import pyarrow as pa

        from pypoker.arena.history import SCHEMA, record_batch

        _CACHE[key] = pa.Table.from_batches([record_batch(ex.hands, ex.actions)],
                                            schema=SCHEMA).to_pylist()  # fmt: skip
    return _CACHE[key]


@pytest.mark.parametrize("known", [True, False], ids=["styles-known", "styles-hidden"])
def test_matches_brute_force_bayes(played, known):
    p = posterior(played, known_styles=known)
    rng = np.random.default_rng(1)
    for i in rng.choice(len(played), 12, replace=False):
        np.testing.assert_allclose(p[i], brute(played, int(i), known), rtol=1e-9, atol=1e-15)


def test_rows_sum_to_one_and_blocked_combos_are_zero(played):
    p = posterior(played)
    np.testing.assert_allclose(p.sum(1), 1, rtol=1e-12)
    for i in range(0, len(played), 7):
        board = played.data["board"][i]
        blocked = np.isin(pp.COMBOS, board[board < 52]).any(1)
        assert (p[i][blocked] == 0).all() and p[i][played.labels[i]] > 0


def test_any_order_and_thread_count_give_the_same(played):
    p = posterior(played, threads=1)
    order = np.random.default_rng(2).permutation(len(played))
    np.testing.assert_array_equal(posterior(played[order], threads=2), p[order])


def test_errors_name_the_example(played):
    other = Population(("call:temperature=0",))
    with pytest.raises(pp.PokerError, match=r"example \d+ .*no chance"):
        posterior(played, other, known_styles=False)
    bare = examples(_table(played))
    with pytest.raises(pp.ArgumentError, match="do not say which population"):
        posterior(bare)
    with pytest.raises(pp.ArgumentError, match="carry no styles"):
        posterior(bare.__class__(bare.data, bare.hands, bare.actions, None, DEFAULT))
    with pytest.raises(pp.ArgumentError, match="out must be"):
        posterior(played, out=np.empty((1, 1326)))


def _table(ex):
    import pyarrow as pa

    from pypoker.arena.history import SCHEMA, record_batch

    return pa.Table.from_batches([record_batch(ex.hands, ex.actions)], schema=SCHEMA)
