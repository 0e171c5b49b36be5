"""The one check of each kind of scalar argument: whole numbers, real numbers and choices.

Every public function checks its arguments where they enter, through these, so a bad one
raises ``ArgumentError`` naming the argument, the value it got and what is allowed (never a
bare ``TypeError`` from deep inside NumPy or range()). Booleans are not numbers here, and a
float is not a whole number even when it is integral (``players=3.0`` is refused, not
truncated)."""

from __future__ import annotations

import math
import numbers

from ._native import ArgumentError


def whole(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int, checked to be a whole number in ``low..high`` (either bound
    may be None: open)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentError(f"{name} must be {_span(low, high)}, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ArgumentError(f"{name} must be {_span(low, high)}, got {value!r}")
    return value


def real(name: str, value, *, above: float | None = None, finite: bool = True) -> float:
    """``value`` as a float: a real number (not a bool), finite, and above ``above``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if (finite and not math.isfinite(value)) or (above is not None and not value > above):
        bound = f" above {above:g}" if above is not None else ""
        raise ArgumentError(f"{name} must be a finite number{bound}, got {value!r}")
    return value


def choice(name: str, value, allowed) -> object:
    """``value`` if it is one of ``allowed``."""
    if not isinstance(value, str | int) or value not in allowed:
        raise ArgumentError(f"{name} {value!r}: use {', '.join(map(str, allowed))}")
    return value


def _span(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "a whole number"
    if high is None:
        return f"a whole number ≥ {_number(low)}"
    if low is None:
        return f"a whole number ≤ {_number(high)}"
    return f"a whole number {_number(low)}..{_number(high)}"


def _number(value: int) -> str:
    """A bound as people write it: 1,000, or 2**64-1 for the largest seed."""
    return "2**64-1" if value == (1 << 64) - 1 else f"{value:,}"
