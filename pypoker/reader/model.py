"""``Reader``: a model that names a seat's hole cards from what a spectator sees, trained on
the Range Reader's examples, in NumPy (``pypoker[ml]``: NumPy and threadpoolctl, no deep
learning framework; see ``_network`` for why).

- ``Reader().fit(data)``: trains on a folder of ``generate``'s shards, ``Examples`` or an
  iterable of them (``training``: Adam, seeds respected, progress);
- ``predict(examples)``: (N, 1326) float32 probabilities in ``pp.COMBOS`` order, exactly 0
  on the combos the board rules out, each row summing to 1; ``known_styles=False`` reads
  without the seats' styles;
- ``save(path)`` / ``Reader.load(path)``: a NumPy ``.npz`` of plain arrays (never pickle),
  with the file format and the pypoker version that wrote it: a file of another format
  raises an error naming both versions;
- ``Reader.pretrained()``: the model shipped in the package (``data/reader.npz``), trained by
  ``pypoker reader generate --hands 200K --seed 0 --out data/`` then ``pypoker reader train
  --data data/ --out reader.npz``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .._native import ArgumentError, PokerError
from .._version import VERSION
from ._features import FEATURES, features
from ._network import COMBOS, NAMES, forward
from .examples import EXAMPLE_DTYPE, Examples

FORMAT = 1  # the .npz layout and the features' meaning; bumped when either changes
PRETRAINED = Path(__file__).parent / "data" / "reader.npz"
_ROWS = 256  # examples predicted at a time: their (features, rows, 1326) planes stay in L2, and
# Ctrl-C lands between chunks within milliseconds (2,048: 1.47 s for 20,966 examples, 256: 1.20)
_HEADLINE = ("cross_entropy", "prior_cross_entropy", "posterior_cross_entropy", "top1",
             "top10", "top50", "class169")  # fmt: skip


class Reader:
    """A read of a seat's two cards: a small network over the examples' features
    (``hidden`` units in each of two layers)."""

    def __init__(self, hidden: int = 256):
        from .._arguments import whole

        self.hidden = whole("hidden", hidden, 1, 1 << 14)
        self.params: dict[str, np.ndarray] | None = None
        self.mean = self.scale = None
        self.info: dict = {}

    def fit(self, data, *, epochs: int = 1, seed: int = 0, progress=None, batch: int = 1024,
            lr: float = 2e-3, hide_styles: float = 0.5, threads=None) -> Reader:  # fmt: skip
        """Trains on ``data`` (a folder of shards, a shard, ``Examples``, or an iterable of
        them) for ``epochs`` passes of minibatches of ``batch``; ``hide_styles``: the share
        of examples seen with the style hidden. ``progress``: True for a line on stderr, or
        a callable (step, steps, loss). Returns the Reader."""
        from .._arguments import whole
        from .training import gather, train

        epochs = whole("epochs", epochs, 1, 10_000)
        batch = whole("batch", batch, 1, 1 << 20)
        seed = whole("seed", seed, 0, (1 << 64) - 1)
        if not 0 <= hide_styles <= 1:
            raise ArgumentError(f"hide_styles must be a share 0..1, got {hide_styles!r}")
        x, labels, boards = gather(data)
        params, mean, scale, loss = train(
            x, labels, boards, hidden=self.hidden, epochs=epochs, seed=seed, batch=batch,
            lr=float(lr), hide=float(hide_styles), threads=threads, progress=progress,
        )  # fmt: skip
        # Weights kept at float16 precision: the file stores them so, and a loaded model
        # predicts exactly what the trained one does.
        self.params = {k: v.astype(np.float16).astype(np.float32) for k, v in params.items()}
        self.mean, self.scale = mean.astype(np.float32), scale.astype(np.float32)
        self.info = {"examples": int(len(labels)), "epochs": epochs, "seed": seed,
                     "batch": batch, "lr": float(lr), "hide_styles": float(hide_styles),
                     "loss": loss}  # fmt: skip
        return self

    def _require(self) -> None:
        if self.params is None:
            raise PokerError("this Reader is not trained: fit it, load one or take "
                             "Reader.pretrained()")  # fmt: skip

    def predict(self, examples, *, known_styles: bool = True, threads=None) -> np.ndarray:
        """(N, 1326) float32: each example's probability of each combo (``pp.COMBOS``
        order), 0 where the board rules the combo out, rows summing to 1. ``examples``:
        ``Examples`` or ``EXAMPLE_DTYPE`` records."""
        from .training import board_table, inputs, limits

        self._require()
        data = _records(examples)
        out = np.empty((len(data), COMBOS), np.float32)
        with limits(threads):
            for start in range(0, len(data), _ROWS):
                part = data[start : start + _ROWS]
                x = features(part, known_styles)
                x -= self.mean
                x *= self.scale
                boards = np.ascontiguousarray(part["board"])
                table, rows = board_table(boards)  # a hand's examples share boards
                live, phi = inputs(boards, table[rows])
                out[start : start + _ROWS] = forward(self.params, x, phi, live)
        return out

    def evaluate(self, source, *, known_styles: bool = True, batch_hands: int = 4096,
                 posterior: bool = True, threads=None) -> dict:  # fmt: skip
        """``pypoker.reader.evaluate``'s headline figures over every example of ``source``
        (a folder of shards, a shard, ``Examples`` or an iterable of them), a batch of hands
        at a time so memory stays bounded: the means of ``cross_entropy``,
        ``prior_cross_entropy``, ``posterior_cross_entropy`` (when the population is known
        and ``posterior``), ``top1``/``top10``/``top50``, ``class169``, the posterior's own
        ``posterior_top1``... and the ``examples`` count."""
        from .dataset import read
        from .evaluate import evaluate

        if isinstance(source, Examples):
            batches = [source]
        elif isinstance(source, (str, Path, list, tuple)):
            batches = read(source, batch_hands=batch_hands)
        else:
            batches = source
        sums: dict[str, float] = {}
        count = 0
        for batch in batches:
            if not len(batch):
                continue
            pop = batch.population if posterior else None
            if not posterior:
                batch = Examples(batch.data, batch.hands, batch.actions, batch.styles, None)
            result = evaluate(self.predict(batch, known_styles=known_styles, threads=threads),
                              batch, population=pop, known_styles=known_styles)  # fmt: skip
            n = len(batch)
            figures = {k: result[k] for k in _HEADLINE if result.get(k) is not None}
            figures.update({f"posterior_{k}": v for k, v in result.get("posterior", {}).items()})
            for key, value in figures.items():
                sums[key] = sums.get(key, 0.0) + value * n
            count += n
        out = {key: value / count for key, value in sums.items()} if count else {}
        out["examples"] = count
        return out

    def save(self, path) -> None:
        """Writes the model to ``path`` (a ``.npz`` of arrays, whole or not at all)."""
        from .._atomic import atomic_target

        self._require()
        arrays = {f"param_{k}": v.astype(np.float16) for k, v in self.params.items()}
        meta = {"format": FORMAT, "version": VERSION, "features": FEATURES,
                "hidden": self.hidden, "info": self.info}  # fmt: skip
        with atomic_target(path) as target, open(target, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), mean=self.mean,
                                scale=self.scale, **arrays)  # fmt: skip

    @classmethod
    def load(cls, path) -> Reader:
        """The model saved at ``path``; a file of another format (written by a pypoker
        whose features differ) raises a ``PokerError`` naming both versions."""
        try:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k] for k in f.files}
        except (OSError, ValueError) as error:
            raise PokerError(f"{path}: not a Reader model file ({error})") from None
        try:
            meta = json.loads(str(arrays["meta"]))
            fmt, written = int(meta["format"]), str(meta["version"])
        except (KeyError, ValueError, TypeError):
            raise PokerError(f"{path}: not a Reader model file (no format)") from None
        if fmt != FORMAT or meta.get("features") != FEATURES:
            raise PokerError(f"{path}: a Reader model of format {fmt}, written by pypoker "
                             f"{written}; this pypoker ({VERSION}) reads format {FORMAT}: "
                             "train it again (pypoker reader train)")  # fmt: skip
        model = cls(int(meta["hidden"]))
        try:
            model.params = {k: arrays[f"param_{k}"].astype(np.float32) for k in NAMES}
            model.mean = arrays["mean"].astype(np.float32)
            model.scale = arrays["scale"].astype(np.float32)
        except KeyError as error:
            raise PokerError(f"{path}: a Reader model file missing {error}") from None
        model.info = dict(meta.get("info", {}), version=written)
        return model

    @classmethod
    def pretrained(cls) -> Reader:
        """The model shipped with pypoker, trained on 200,000 hands of the default
        population (6-max, 100 big blinds)."""
        if not PRETRAINED.exists():
            raise PokerError(f"the pretrained Reader is missing from this install ({PRETRAINED})")
        return cls.load(PRETRAINED)


def _records(examples) -> np.ndarray:
    if isinstance(examples, Examples):
        return examples.data
    if isinstance(examples, np.ndarray) and examples.dtype == EXAMPLE_DTYPE:
        return examples
    raise ArgumentError(f"examples must be pypoker.reader.Examples or EXAMPLE_DTYPE records, "
                        f"got {type(examples).__name__}")  # fmt: skip
