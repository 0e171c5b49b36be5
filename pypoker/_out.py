"""The one check of an ``out=`` argument: the array a call writes its results into."""

from __future__ import annotations

import numpy as np

from ._native import ArgumentError


def check_out(
    out: np.ndarray | None,
    shape: tuple[int, ...],
    dtype,
    sources: tuple[np.ndarray | None, ...] = (),
    reads: str = "hands it would rank",
) -> np.ndarray:
    """``out=None`` allocates an array of ``shape`` and ``dtype``; a given ``out`` is used
    as is, never copied, and may not overlap ``sources``, the arrays the call reads (threads
    would read results as input). ``reads`` names them in that error.

    Reusing one ``out`` across calls also spares the first touch of fresh memory: 10 ms of
    a 90 ms deal of 16M 7-card hands on a Zen 5 VM."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    flags = out.flags if type(out) is np.ndarray else None
    if (  # the usual case first, in the fewest attribute reads
        flags is not None
        and flags.c_contiguous
        and flags.writeable
        and out.dtype == dtype
        and out.shape == shape
        and not _overlaps(out, sources)
    ):
        return out
    if not isinstance(out, np.ndarray):
        raise ArgumentError(f"out must be a numpy array, got {type(out).__name__}")
    if out.dtype != dtype:
        raise ArgumentError(f"out must have dtype {np.dtype(dtype).name}, got {out.dtype}")
    if out.shape != shape:
        raise ArgumentError(f"out must have shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous:
        raise ArgumentError("out must be C-contiguous")
    if not out.flags.writeable:
        raise ArgumentError("out is read-only")
    if _overlaps(out, sources):
        raise ArgumentError(f"out overlaps the {reads}: pass separate memory")
    return out


def _overlaps(out: np.ndarray, sources: tuple[np.ndarray | None, ...]) -> bool:
    return any(source is not None and np.may_share_memory(out, source) for source in sources)
