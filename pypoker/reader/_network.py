"""The Reader's network, in NumPy (float32): two ReLU layers over the example's features,
then a score for each of the 1,326 combos made of two parts the hidden layer sets: one a
starting-hand class (169: AA, AKs, AKo, ...; ``wa``) and weights (``wg``) on the combo's own
features with the board (``_features.combo_features``: its strength among the live combos,
flush draws); then a softmax over the combos the board leaves (the others get exactly 0).
No weight belongs to one combo alone, so the read generalises across suits and boards rather
than memorising hands. Trained by Adam on the mean cross-entropy of the true combo.

NumPy, not PyTorch: a forward and backward pass of this size is three matrix products a layer,
which NumPy's BLAS runs as fast as any framework on a CPU, and ``pypoker[ml]`` stays a few MB
(PyPI's Linux PyTorch wheel pulls about 3 GB of CUDA libraries; JAX's CPU wheel is ~100 MB).
"""

from __future__ import annotations

import numpy as np

from .._native import lib

COMBOS = lib.PP_POLICY_COMBOS
NAMES = ("w1", "b1", "w2", "b2", "wa", "ba", "wg", "bg")


_CLASS = []


def _class_of() -> np.ndarray:
    from .evaluate import CLASS_OF

    return CLASS_OF


def _class_matrix() -> np.ndarray:
    """(1326, 169) float32: 1 where the combo is of the class."""
    if not _CLASS:
        _CLASS.append(np.eye(169, dtype=np.float32)[_class_of()])
    return _CLASS[0]


def init(inputs: int, hidden: int, combo: int, rng: np.random.Generator) -> dict:
    """Fresh weights (He-scaled ReLU layers; the output starts at 0, so a fresh network reads
    the board-only prior)."""

    def he(a, b):
        return (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)

    return {
        "w1": he(inputs, hidden),
        "b1": np.zeros(hidden, np.float32),
        "w2": he(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
        "wa": np.zeros((hidden, 169), np.float32),
        "ba": np.zeros(169, np.float32),
        "wg": np.zeros((hidden, combo), np.float32),
        "bg": np.zeros(combo, np.float32),
    }


def _softmax(logits: np.ndarray, live: np.ndarray) -> np.ndarray:
    """Masked softmax in place: exactly 0 where ``live`` is False, rows summing to 1."""
    np.putmask(logits, ~live, -np.inf)
    logits -= logits.max(1, keepdims=True)
    np.exp(logits, out=logits)
    logits /= logits.sum(1, keepdims=True)
    return logits


def forward(params, x: np.ndarray, phi: np.ndarray, live: np.ndarray, keep: bool = False):
    """Probabilities (B, 1326) float32 of standardised inputs ``x`` and combo features
    ``phi`` (K, B, 1326); with ``keep`` also the hidden layers for the gradients."""
    h1 = x @ params["w1"]
    h1 += params["b1"]
    np.maximum(h1, 0, out=h1)
    h2 = h1 @ params["w2"]
    h2 += params["b2"]
    np.maximum(h2, 0, out=h2)
    a = h2 @ params["wa"]
    a += params["ba"]
    g = h2 @ params["wg"]
    g += params["bg"]
    logits = np.ascontiguousarray(np.take(a, _class_of(), axis=1))
    for k in range(len(phi)):
        logits += g[:, k : k + 1] * phi[k]
    p = _softmax(logits, live)
    return (p, h1, h2) if keep else p


def loss_and_grads(params, x, phi, live, labels):
    """The mean cross-entropy of the true combos and its gradients."""
    p, h1, h2 = forward(params, x, phi, live, keep=True)
    rows = np.arange(len(labels))
    loss = float(-np.log(np.maximum(p[rows, labels], 1e-30)).mean())
    d = p
    d[rows, labels] -= 1.0
    d /= len(labels)
    da = d @ _class_matrix()
    dg = np.stack([np.einsum("bc,bc->b", d, f) for f in phi], axis=1)
    grads = {"wa": h2.T @ da, "ba": da.sum(0), "wg": h2.T @ dg, "bg": dg.sum(0)}
    dh = da @ params["wa"].T
    dh += dg @ params["wg"].T
    dh *= h2 > 0
    grads["w2"], grads["b2"] = h1.T @ dh, dh.sum(0)
    dh = dh @ params["w2"].T
    dh *= h1 > 0
    grads["w1"], grads["b1"] = x.T @ dh, dh.sum(0)
    return loss, grads


class Adam:
    """Adam (Kingma & Ba), float32 moments."""

    def __init__(self, params, beta1=0.9, beta2=0.999, eps=1e-8):
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.beta1, self.beta2, self.eps, self.t = beta1, beta2, eps, 0

    def step(self, params, grads, lr: float) -> None:
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        scale = lr * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for k, g in grads.items():
            m, v = self.m[k], self.v[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            params[k] -= (scale * m / (np.sqrt(v) + self.eps)).astype(np.float32)
