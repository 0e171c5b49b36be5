"""The Reader model: it learns (beats the board-only prior on hands it never saw), its
probabilities keep the contract (shape, float32, zero on combos the board holds, rows summing
to 1), it saves and loads to the same predictions, refuses a file of another format, and the
shipped pretrained model reads fresh hands better than the prior. Seeds are respected."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pypoker as pp
from pypoker import PokerError
from pypoker._native import ArgumentError
from pypoker.reader import Reader, evaluate, generate, prior, read
from pypoker.reader._features import FEATURES, features

SETS = (np.uint64(1) << pp.COMBOS[:, 0].astype(np.uint64)) | (
    np.uint64(1) << pp.COMBOS[:, 1].astype(np.uint64)
)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    train = tmp_path_factory.mktemp("train")
    test = tmp_path_factory.mktemp("test")
    generate(2500, train, seed=11, shard_hands=2500)
    generate(400, test, seed=12, shard_hands=400)
    return train, test


@pytest.fixture(scope="module")
def fresh(folders):
    return next(read(folders[1]))


@pytest.fixture(scope="module")
def model(folders):
    return Reader(hidden=64).fit(folders[0], epochs=2, seed=3, batch=512, threads=1)


def test_features_are_finite_and_fixed_size(fresh):
    x = features(fresh.data)
    assert x.shape == (len(fresh), FEATURES) and x.dtype == np.float32
    assert np.isfinite(x).all()
    hidden = features(fresh.data, known_styles=False)
    assert (hidden[:, :FEATURES] != x).any()


def test_fit_beats_the_prior_on_fresh_hands(model, fresh):
    result = evaluate(model.predict(fresh), fresh)
    assert result["cross_entropy"] < result["prior_cross_entropy"] - 0.05
    hidden = evaluate(model.predict(fresh, known_styles=False), fresh)
    assert hidden["cross_entropy"] < hidden["prior_cross_entropy"] - 0.05


def test_predictions_keep_the_contract(model, fresh):
    p = model.predict(fresh)
    assert p.shape == (len(fresh), 1326) and p.dtype == np.float32
    np.testing.assert_allclose(p.sum(1), 1.0, atol=1e-5)
    board = fresh.data["board"].astype(np.uint64)
    bits = np.where(board < 52, np.uint64(1) << np.minimum(board, np.uint64(63)), np.uint64(0))
    blocked = (SETS[None, :] & np.bitwise_or.reduce(bits, axis=1)[:, None]) != 0
    assert blocked.any() and (p[blocked] == 0).all()
    assert (p[~blocked] > 0).all()
    assert np.array_equal(model.predict(fresh.data[:7]), p[:7])  # records work too
    assert model.predict(fresh[:0]).shape == (0, 1326)


def test_save_and_load_give_the_same_predictions(model, fresh, tmp_path):
    path = tmp_path / "reader.npz"
    model.save(path)
    again = Reader.load(path)
    assert np.array_equal(again.predict(fresh), model.predict(fresh))
    with np.load(path, allow_pickle=False) as f:  # plain arrays, no pickle
        meta = json.loads(str(f["meta"]))
    assert meta["format"] == 1 and meta["version"] == pp.__version__


def test_a_file_of_another_format_is_refused(model, tmp_path):
    path = tmp_path / "reader.npz"
    model.save(path)
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(format=99, version="0.0.1")
    arrays["meta"] = np.array(json.dumps(meta))
    old = tmp_path / "old.npz"
    np.savez(old, **arrays)
    with pytest.raises(PokerError, match=r"format 99, written by pypoker 0\.0\.1"):
        Reader.load(old)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a model")
    with pytest.raises(PokerError, match="not a Reader model"):
        Reader.load(junk)


def test_bad_input_gets_a_clear_error(model):
    with pytest.raises(ArgumentError, match="examples must be"):
        model.predict(np.zeros((3, 5)))
    with pytest.raises(PokerError, match="not trained"):
        Reader().predict(np.zeros(0))
    with pytest.raises(ArgumentError, match="epochs"):
        Reader().fit([], epochs=0)
    with pytest.raises(ArgumentError, match="no examples"):
        Reader().fit([])


def test_seeds_are_respected(folders, model):
    data = next(read(folders[0]))[:3000]
    a = Reader(hidden=16).fit(data, seed=5, batch=256, threads=1)
    b = Reader(hidden=16).fit(data, seed=5, batch=256, threads=1)
    c = Reader(hidden=16).fit(data, seed=6, batch=256, threads=1)
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert not np.array_equal(a.params["w1"], c.params["w1"])


def test_progress_is_reported(folders):
    data = next(read(folders[0]))[:2000]
    seen = []
    Reader(hidden=8).fit(data, batch=500, progress=lambda *a: seen.append(a), threads=1)
    assert [s[:2] for s in seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert all(np.isfinite(s[2]) for s in seen)


def test_pretrained_reads_fresh_hands_better_than_the_prior(fresh):
    model = Reader.pretrained()
    p = model.predict(fresh)
    result = evaluate(p, fresh, posterior=None)
    assert result["cross_entropy"] < result["prior_cross_entropy"] - 0.15
    figures = model.evaluate(fresh)
    assert figures["examples"] == len(fresh)
    assert abs(figures["cross_entropy"] - result["cross_entropy"]) < 1e-9
    assert figures["posterior_cross_entropy"] < figures["prior_cross_entropy"]
    np.testing.assert_allclose(prior(fresh[:3]).sum(1), 1.0)


def test_cli_trains_and_evaluates(folders, tmp_path, capsys):
    from pypoker.cli import main

    out = tmp_path / "model.npz"
    assert main(["reader", "train", "--data", str(folders[1]), "--out", str(out),
                 "--hidden", "16", "-t", "1"]) == 0  # fmt: skip
    assert "trained on" in capsys.readouterr().out and out.exists()
    assert main(["reader", "evaluate", "--data", str(folders[1]), "--model", str(out)]) == 0
    text = capsys.readouterr().out
    assert "cross-entropy" in text and "exact posterior" in text
