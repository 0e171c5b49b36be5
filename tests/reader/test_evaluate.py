"""``evaluate``: each figure by its definition on hand-made probabilities, the prior and the
posterior as the two ends of the scale, and bad input named."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp
from pypoker.reader import evaluate, generate, posterior, prior, read


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("evaluate")
    generate(200, folder, seats=6, shard_hands=200, tables=8, seed=4)
    return next(read(folder))


def test_the_prior_and_the_posterior_are_the_two_ends(played):
    base = prior(played)
    exact = posterior(played)
    by_prior = evaluate(base, played, posterior=exact)
    assert by_prior["cross_entropy"] == pytest.approx(by_prior["prior_cross_entropy"])
    by_posterior = evaluate(exact, played)  # the posterior computed again from the population
    assert by_posterior["cross_entropy"] == pytest.approx(by_posterior["posterior_cross_entropy"])
    assert by_posterior["cross_entropy"] < by_prior["cross_entropy"]
    assert set(by_posterior["by_street"]) <= {"preflop", "flop", "turn", "river"}
    assert (
        "raise" in by_posterior["by_last_action"]
        and "closes 100% of the gap" in by_posterior["report"]
    )
    # The uniform prior ranks the truth among ties: top 10 is 10 over the live combos.
    live = (base > 0).sum(1)
    assert by_prior["top10"] == pytest.approx(np.mean(10 / live))


def test_figures_by_their_definitions(played):
    n = len(played)
    p = np.full((n, 1326), 0.5 / 1325)
    p[np.arange(n), played.labels] = 0.5  # right half the time, by its own word
    result = evaluate(p, played)
    assert result["cross_entropy"] == pytest.approx(np.log(2))
    assert result["top1"] == 1 and result["class169"] == 1
    assert result["calibration"]["ece"] == pytest.approx(0.5)
    wrong = np.roll(p, 1, axis=1)
    assert evaluate(wrong, played, posterior=p)["top1"] == 0


def test_bad_input_is_named(played):
    with pytest.raises(pp.ArgumentError, match=r"probabilities must be floats of shape"):
        evaluate(np.zeros((2, 1326)), played)
    with pytest.raises(pp.ArgumentError, match="finite and non-negative"):
        evaluate(-prior(played), played)
