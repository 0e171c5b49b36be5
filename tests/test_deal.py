"""Dealing: distinct cards outside `exclude`, reproducible, and uniform by chi-squared."""

from __future__ import annotations

import numpy as np
import pytest

import pypoker as pp

# Chi-squared critical values at p = 0.0001 (scipy.stats.chi2.ppf(0.9999, df)), so a correct
# dealer fails one of these tests about once in ten thousand runs (seeds are fixed anyway).
CHI2_CRITICAL = {51: 103.4, 46: 95.75, 1325: 1523.0}


def chi_squared(observed: np.ndarray) -> float:
    expected = observed.sum() / observed.size
    return float(((observed - expected) ** 2 / expected).sum())


def test_rows_are_distinct_cards_outside_exclude():
    exclude = "AhKd7c2s3s"
    dead = pp.parse_cards(exclude)
    cards = pp.deal(100_000, 7, seed=1, exclude=exclude)
    assert cards.shape == (100_000, 7) and cards.dtype == np.uint8
    assert cards.max() < 52
    assert not np.isin(cards, dead).any()
    sorted_rows = np.sort(cards, axis=1)
    assert (np.diff(sorted_rows.astype(np.int16), axis=1) > 0).all()


def test_counter_based_stream_is_the_same_for_any_batch_or_thread_count():
    whole = pp.deal(300_000, 5, seed=99, threads=1)
    assert np.array_equal(pp.deal(300_000, 5, seed=99, threads=2), whole)
    assert np.array_equal(pp.deal(1000, 5, seed=99, start=123_000), whole[123_000:124_000])
    assert not np.array_equal(pp.deal(1000, 5, seed=100), whole[:1000])


@pytest.mark.parametrize("position", range(7))
def test_each_position_is_uniform(position):
    cards = pp.deal(520_000, 7, seed=2026)
    counts = np.bincount(cards[:, position], minlength=52)
    assert chi_squared(counts) < CHI2_CRITICAL[51]


def test_pairs_of_cards_are_uniform():
    cards = pp.deal(1_000_000, 2, seed=5)
    low, high = np.sort(cards, axis=1).T.astype(np.int64)
    pair_index = high * (high - 1) // 2 + low  # 0 .. C(52, 2) - 1
    counts = np.bincount(pair_index, minlength=1326)
    assert chi_squared(counts) < CHI2_CRITICAL[1325]


def test_uniform_with_exclusions():
    dead = pp.parse_cards("AhKd7c2s3s9h")
    cards = pp.deal(460_000, 3, seed=8, exclude=dead)
    counts = np.bincount(cards.reshape(-1), minlength=52)
    assert counts[dead].sum() == 0
    live = np.delete(counts, dead)
    assert chi_squared(live) < CHI2_CRITICAL[46]


def test_bad_arguments():
    with pytest.raises(ValueError):
        pp.deal(10, 0, seed=1)
    with pytest.raises(ValueError):
        pp.deal(10, 48, seed=1, exclude="AhKd7c2s3s")
    with pytest.raises(ValueError):
        pp.deal(-1, 5, seed=1)
    with pytest.raises(ValueError):
        pp.deal(10, 5, seed=-1)
    with pytest.raises(ValueError, match="bits outside"):
        pp.deal(10, 5, seed=1, exclude=1 << 60)


def test_deal_into_out():
    """``out`` receives the rows a fresh array would, for any thread count; a bad one is
    refused naming what is wrong."""
    out = np.zeros((300_000, 5), dtype=np.uint8)
    assert pp.deal(300_000, 5, seed=3, threads=2, out=out) is out
    assert np.array_equal(out, pp.deal(300_000, 5, seed=3, threads=1))
    with pytest.raises(ValueError, match=r"out must have shape \(300000, 7\)"):
        pp.deal(300_000, 7, seed=3, out=out)
    with pytest.raises(TypeError, match="dtype uint8"):
        pp.deal(10, 2, seed=3, out=np.zeros((10, 2), dtype=np.uint16))
    with pytest.raises(ValueError, match="C-contiguous"):
        pp.deal(10, 2, seed=3, out=np.zeros((10, 4), dtype=np.uint8)[:, :2])
