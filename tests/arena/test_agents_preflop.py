"""The generated preflop chart (zsrc/arena/agents/preflop_ehs.zig) is what pypoker.features
computes, and the chart agent plays it: regenerating the file changes nothing."""

import importlib.util
from pathlib import Path

import numpy as np

from pypoker import COMBOS
from pypoker.arena import Arena
from pypoker.arena.agents import agent
from pypoker.features import hand_strength

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen", ROOT / "tools/gen_preflop_ehs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checked_in_chart_is_the_generators_output():
    gen = _generator()
    text = (ROOT / "zsrc/arena/agents/preflop_ehs.zig").read_text()
    assert text == gen.render(gen.chart())


def test_chart_agent_plays_the_top_share_by_ehs():
    # Preflop, the chart raises (aggression 1) exactly the combos whose class's EHS ranks in
    # the top 1 - tightness of the 1,326 combos, counted with their classes' sizes.
    arena = Arena(1, 6, seed=0)
    policy = agent("chart", tightness=0.8, aggression=1.0).policy(arena)
    ehs = hand_strength(COMBOS)
    at_least = (ehs[None, :] >= ehs[:, None] - 1e-12).sum(axis=1) / len(COMBOS)
    raises = policy.prob[:, 3] + policy.prob[:, 4] > 0
    np.testing.assert_array_equal(raises, at_least <= 0.2 + 1e-12)
