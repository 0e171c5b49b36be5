"""``evaluate``: how well probabilities over the 1,326 combos name the read seats' cards,
against the board-only prior and the exact posterior (the limit on this data).

- ``cross_entropy``: mean nats of the true combo, -log p(true) (a true combo given 0 counts
  as 1e-300: 690.8 nats); ``prior_cross_entropy``: the same for the prior uniform over the
  combos the board leaves (log of their count); ``posterior_cross_entropy``: for the exact
  posterior (``posterior``), when the population is known. The gap to the posterior is what
  a model can still gain.
- ``top1``, ``top10``, ``top50``: the share of examples whose true combo is among the k most
  likely (ties broken at random: a true combo tied with t others in the last places counts
  the chance it lands inside).
- ``class169``: the share whose true starting-hand class (AA, AKs, AKo, ...) has the most
  probability summed over its combos.
- ``calibration``: the most likely combo's probability against how often it is right (ties
  broken at random), in
  ``bins`` equal-width bins of that probability (``ece``: the mean gap weighted by share).
- ``by_street`` and ``by_last_action``: the same figures per street (preflop, flop, turn,
  river) and per the read seat's latest action (fold, check, call, raise, all_in).
- ``posterior``: the posterior's own top-k and class figures, when computed.
- ``report``: all of it in words.
"""

from __future__ import annotations

import numpy as np

from .._native import ArgumentError, lib
from ..arena._config import ACTIONS, STREET_OVER
from ..arena._config import STREETS as _STREETS_AND_OVER
from .examples import Examples

COMBOS = lib.PP_COMBOS
STREETS = _STREETS_AND_OVER[:STREET_OVER]
_FLOOR = 1e-300
_CHUNK = 16_384  # examples of posterior at a time: 174 MB of float64


def _classes() -> np.ndarray:
    """Each combo's class 0..168: value * 13 + value for pairs, high * 13 + low suited, low *
    13 + high offsuit (values 0 = deuce .. 12 = ace)."""
    from .. import COMBOS as combos

    values, suits = combos % 13, combos // 13
    high, low = values.max(1), values.min(1)
    suited = suits[:, 0] == suits[:, 1]
    return np.where(suited, high * 13 + low, low * 13 + high)


CLASS_OF = _classes()
_CLASS_MATRIX = np.eye(169)[CLASS_OF]  # (1326, 169): a combo's probability to its class
_ROWS = 2048  # rows scored at a time: every NumPy call short, so Ctrl-C is seen at once


def board_sets(examples: Examples) -> np.ndarray:
    """Each example's board shown, as a card set (uint64)."""
    board = examples.data["board"].astype(np.uint64)
    bits = np.where(board < 52, np.uint64(1) << np.minimum(board, np.uint64(63)), np.uint64(0))
    return np.bitwise_or.reduce(bits, axis=1)


def prior(examples: Examples) -> np.ndarray:
    """(N, 1326) float64: the board-only prior, uniform over the combos each example's board
    leaves (what a read knows before any action)."""
    from .. import COMBOS as combos

    sets = (np.uint64(1) << combos[:, 0].astype(np.uint64)) | (
        np.uint64(1) << combos[:, 1].astype(np.uint64)
    )
    boards = board_sets(examples)
    out = np.empty((len(boards), len(sets)))
    for i in range(0, len(boards), _ROWS):  # blocks: Ctrl-C is seen between them
        live = (sets[None, :] & boards[i : i + _ROWS, None]) == 0
        out[i : i + _ROWS] = live / live.sum(1, keepdims=True)
    return out


def _scores(probabilities: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    """Per example: -log p(true), the combos above and tied with the true one, class hit,
    top-1 confidence and hit; a block of rows at a time."""
    parts = [_block(probabilities[i : i + _ROWS], labels[i : i + _ROWS])
             for i in range(0, max(len(labels), 1), _ROWS)]  # fmt: skip
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _block(probabilities: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    rows = np.arange(len(labels))
    true = probabilities[rows, labels]
    above = (probabilities > true[:, None]).sum(1)
    tied = (probabilities == true[:, None]).sum(1)
    by_class = probabilities @ _CLASS_MATRIX
    top = probabilities.max(1) if len(labels) else true
    return {
        "nats": -np.log(np.maximum(true, _FLOOR)),
        "above": above,
        "tied": tied,
        "class": by_class.argmax(1) == CLASS_OF[labels],
        "confidence": top,
        "hit": np.where(true == top, 1.0 / np.maximum(tied, 1), 0.0),
    }


def _top(scores, k: int, where) -> float:
    """The chance the true combo is among the k most likely, ties broken at random."""
    above, tied = scores["above"][where], scores["tied"][where]
    return _mean(np.clip((k - above) / np.maximum(tied, 1), 0, 1))


def _check(probabilities, examples) -> np.ndarray:
    if not isinstance(examples, Examples):
        raise ArgumentError(f"examples must be pypoker.reader.Examples, got {type(examples)}")
    p = np.asarray(probabilities)
    if p.shape != (len(examples), COMBOS) or not np.issubdtype(p.dtype, np.floating):
        raise ArgumentError(f"probabilities must be floats of shape ({len(examples)}, {COMBOS}), "
                            f"got {p.dtype} {p.shape}")  # fmt: skip
    if len(p) and (not np.isfinite(p).all() or (p < 0).any()):
        raise ArgumentError("probabilities must be finite and non-negative")
    return p


def evaluate(probabilities, examples: Examples, *, posterior=None, population=None,
             known_styles=True, bins=10) -> dict:  # fmt: skip
    """The metrics of ``probabilities`` (N, 1326) on ``examples`` (see the module doc).
    ``posterior``: the exact posterior (N, 1326) when already computed; else it is
    computed when ``population`` (or the examples') is known, and left out otherwise."""
    p = _check(probabilities, examples)
    labels = examples.labels
    model = _scores(p, labels)
    shown = (examples.data["board"] < 52).sum(1)
    prior = np.log((52 - shown) * (51 - shown) / 2.0)
    exact = _posterior_scores(examples, posterior, population, known_styles)
    groups = {"by_street": (examples.data["street"], STREETS),
              "by_last_action": (examples.data["last_kind"], ACTIONS)}  # fmt: skip
    result = {"examples": len(labels), **_figures(model, prior, exact, slice(None))}
    for name, (keys, names) in groups.items():
        result[name] = {label: _figures(model, prior, exact, keys == k)
                        for k, label in enumerate(names) if (keys == k).any()}  # fmt: skip
    result["calibration"] = _calibration(model, bins)
    if exact is not None:
        result["posterior"] = _tops(exact, slice(None))
    result["report"] = report(result)
    return result


def _posterior_scores(examples, posterior, population, known_styles):
    if posterior is not None:
        return _scores(_check(posterior, examples), examples.labels)
    if population is None and examples.population is None:
        return None
    from .posterior import posterior as exact

    parts = []
    for start in range(0, len(examples), _CHUNK):
        chunk = examples[start : start + _CHUNK]
        parts.append(_scores(exact(chunk, population, known_styles=known_styles), chunk.labels))
    if not parts:
        return _scores(np.zeros((0, COMBOS)), examples.labels)
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _tops(scores, where) -> dict:
    tops = {f"top{k}": _top(scores, k, where) for k in (1, 10, 50)}
    return {**tops, "class169": _mean(scores["class"][where])}


def _mean(values) -> float:
    return float(np.mean(values)) if np.size(values) else float("nan")


def _figures(model, prior, exact, where) -> dict:
    out = {"examples": int(np.size(model["nats"][where])),
           "cross_entropy": _mean(model["nats"][where]),
           "prior_cross_entropy": _mean(prior[where]),
           "posterior_cross_entropy": _mean(exact["nats"][where]) if exact else None}  # fmt: skip
    return {**out, **_tops(model, where)}


def _calibration(model, bins: int) -> dict:
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(model["confidence"], edges) - 1, 0, bins - 1)
    rows, ece = [], 0.0
    for b in range(bins):
        inside = which == b
        if not inside.any():
            continue
        confidence, accuracy = _mean(model["confidence"][inside]), _mean(model["hit"][inside])
        share = float(inside.mean())
        ece += share * abs(confidence - accuracy)
        rows.append({"low": float(edges[b]), "high": float(edges[b + 1]), "share": share,
                     "confidence": confidence, "accuracy": accuracy})  # fmt: skip
    return {"ece": ece, "bins": rows}


def report(result: dict) -> str:
    """The metrics in words."""
    n = result["examples"]
    ce, prior, exact = (result[k] for k in ("cross_entropy", "prior_cross_entropy",
                                             "posterior_cross_entropy"))  # fmt: skip
    lines = [f"On {n:,} examples the read puts {ce:.3f} nats on the true cards on average, "
             f"against {prior:.3f} for the board-only prior"
             + (f" and {exact:.3f} for the exact posterior (the best any read can do here): "
                f"it closes {_closed(ce, prior, exact)} of the gap." if exact is not None
                else ".")]  # fmt: skip
    lines.append(f"The true combo is its first guess {result['top1']:.1%} of the time, in its "
                 f"top 10 {result['top10']:.1%}, in its top 50 {result['top50']:.1%}; the true "
                 f"class (of 169) comes first {result['class169']:.1%} of the time.")  # fmt: skip
    if "posterior" in result:
        post = result["posterior"]
        lines.append(f"The exact posterior: top 1 {post['top1']:.1%}, top 10 "
                     f"{post['top10']:.1%}, top 50 {post['top50']:.1%}, class "
                     f"{post['class169']:.1%}.")  # fmt: skip
    lines.append(f"Calibration: the first guess's probability is off its hit rate by "
                 f"{result['calibration']['ece']:.3f} on average (ECE).")  # fmt: skip
    groups = (("street", result["by_street"]), ("last action", result["by_last_action"]))
    for title, group in groups:
        parts = [f"{name} {_nats(f)}" for name, f in group.items()]
        lines.append(f"By {title} (read/{'posterior/' if exact is not None else ''}prior nats): "
                     + ", ".join(parts) + ".")  # fmt: skip
    return "\n".join(lines)


def _nats(figures: dict) -> str:
    exact = figures["posterior_cross_entropy"]
    middle = f"/{exact:.2f}" if exact is not None else ""
    return f"{figures['cross_entropy']:.2f}{middle}/{figures['prior_cross_entropy']:.2f}"


def _closed(ce: float, prior: float, exact: float) -> str:
    if prior - exact <= 0:
        return "all"
    return f"{(prior - ce) / (prior - exact):.0%}"
