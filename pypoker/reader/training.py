"""Training the Reader (``Reader.fit``): examples to features once (float16, 638 bytes an
example), then ``epochs`` passes of Adam over shuffled minibatches, each style hidden at
random (half the time by default) so one model reads with styles known and hidden.

Everything random (the first weights, the order, the hidden styles) comes from ``seed``:
the same data, seed and thread count give the same model. BLAS runs on ``threads`` cores
(default 2) through threadpoolctl when it is installed.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np

from .._native import ArgumentError
from .._progress import Progress
from ._features import COMBO_FEATURES, SLICES, combo_features, features, live_combos, strengths
from ._network import Adam, init, loss_and_grads
from .examples import EXAMPLE_DTYPE, Examples

_CHUNK = 65_536  # examples turned into features at a time
_BOARDS = 4096  # boards ranked at a time


def example_batches(data):
    """``data`` as record arrays (``EXAMPLE_DTYPE``), a batch at a time: a folder of
    ``generate``'s shards, a shard file or a list of them, ``Examples``, a record array,
    or an iterable of ``Examples``."""
    if isinstance(data, Examples):
        yield data.data
    elif isinstance(data, np.ndarray):
        if data.dtype != EXAMPLE_DTYPE:
            raise ArgumentError(f"examples must be EXAMPLE_DTYPE records, got {data.dtype}")
        yield data
    elif isinstance(data, (str, Path)) or (
        isinstance(data, (list, tuple)) and data and isinstance(data[0], (str, Path))
    ):
        from .dataset import read

        for batch in read(data, batch_hands=16_384):
            yield batch.data
    else:
        try:
            items = iter(data)
        except TypeError:
            message = ("data must be a folder of shards, Examples, EXAMPLE_DTYPE records or an "
                       f"iterable of Examples, got {type(data)}")  # fmt: skip
            raise ArgumentError(message) from None
        for item in items:
            yield from example_batches(item)


def gather(data):
    """Features (N, FEATURES) float16, labels (N,) int64 and boards (N, 5) of ``data``."""
    feats, labels, boards = [], [], []
    for records in example_batches(data):
        for start in range(0, len(records), _CHUNK):
            part = records[start : start + _CHUNK]
            feats.append(features(part).astype(np.float16))
            labels.append(part["label"].astype(np.int64))
            boards.append(np.ascontiguousarray(part["board"]))
    if not labels:
        raise ArgumentError("no examples to train on")
    return np.concatenate(feats), np.concatenate(labels), np.concatenate(boards)


def hide_styles(x: np.ndarray, hide: np.ndarray) -> None:
    """Marks the style of the rows ``hide`` unknown, in place (raw features)."""
    x[hide, SLICES["style"]] = 0
    x[hide, SLICES["style_unknown"]] = 1


def board_table(boards: np.ndarray):
    """Each distinct board's ``strengths`` (M, 1326) uint8 and each example's row in it:
    computed once, where the examples of a hand share their boards."""
    keys = np.zeros(len(boards), np.uint64)
    for i in range(5):
        keys |= boards[:, i].astype(np.uint64) << np.uint64(8 * i)
    unique, index = np.unique(keys, return_inverse=True)
    distinct = np.stack([(unique >> np.uint64(8 * i)).astype(np.uint8) for i in range(5)], 1)
    table = np.concatenate([strengths(distinct[i : i + _BOARDS])
                            for i in range(0, len(distinct), _BOARDS)])  # fmt: skip
    return table, index.reshape(-1)


def inputs(boards: np.ndarray, strength=None):
    """The live combos and the combo features of examples with these boards (and their
    ``strengths``, when known)."""
    records = np.zeros(len(boards), [("board", np.uint8, (5,)), ("street", np.uint8)])
    records["board"] = boards
    shown = (boards < 52).sum(1)
    records["street"] = np.where(shown >= 3, shown - 2, 0)
    live = live_combos(records)
    return live, combo_features(records, live, strength)


def limits(threads):
    """A context where BLAS uses ``threads`` cores (threadpoolctl, when installed)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=threads or 2)


def train(x16, labels, boards, *, hidden, epochs, seed, batch, lr, hide, threads, progress):
    """Weights, the inputs' mean and scale, and the last epoch's mean loss."""
    rng = np.random.default_rng(seed)
    n = len(labels)
    sample = x16[rng.choice(n, min(n, 200_000), replace=False)].astype(np.float32)
    hide_styles(sample, rng.random(len(sample)) < hide)
    mean = sample.mean(0)
    scale = sample.std(0)
    scale = np.where(scale > 1e-6, 1 / np.maximum(scale, 1e-6), 0).astype(np.float32)
    params = init(x16.shape[1], hidden, COMBO_FEATURES, rng)
    table, board_rows = board_table(boards)
    adam = Adam(params)
    steps = epochs * -(-n // batch)
    report = _reporter(progress, steps)
    step, loss = 0, float("nan")
    with limits(threads):
        for _epoch in range(epochs):
            order = rng.permutation(n)
            losses = []
            for start in range(0, n, batch):
                rows = np.sort(order[start : start + batch])
                x = x16[rows].astype(np.float32)
                hide_styles(x, rng.random(len(rows)) < hide)
                x -= mean
                x *= scale
                live, phi = inputs(boards[rows], table[board_rows[rows]])
                value, grads = loss_and_grads(params, x, phi, live, labels[rows])
                losses.append(value)
                rate = lr * max(0.02, 1 - step / steps)  # linear decay
                adam.step(params, grads, rate)
                step += 1
                report(step, float(np.mean(losses[-200:])))
            loss = float(np.mean(losses))
    report(None, loss)
    return params, mean, scale, loss


def _reporter(progress, steps: int):
    if callable(progress):
        return lambda step, loss: step is not None and progress(step, steps, loss)
    shown = Progress(bool(progress), "reader train")

    def report(step, loss):
        if step is None:
            shown.close()
        else:
            shown.update(step, steps, f"step {step:,}/{steps:,}, loss {loss:.3f} nats, ")

    return report
