"""Optional dependencies: which extra brings each, and the one message a missing one gets.

The core needs NumPy and cffi alone. Arrow, Parquet, Polars, DuckDB, Ray, the range
grid's matplotlib and the RL environments' Gymnasium and PettingZoo come with extras
(pyproject's ``[project.optional-dependencies]``); a call that needs one that is not
installed raises an ``ImportError`` naming the extra, and the CLI prints that one line and
exits 2 (``missing_extra``)."""

from __future__ import annotations

# The top-level module → the extra that installs it.
EXTRAS = {
    "pyarrow": "arrow",
    "polars": "arrow",
    "duckdb": "arrow",
    "ray": "ray",
    "matplotlib": "plot",
    "gymnasium": "rl",
    "pettingzoo": "rl",
}


def missing_extra(error: ImportError) -> str | None:
    """The one-line message for an ``ImportError`` of an optional dependency (naming the
    module and the extra to install), or None when the error is about something else."""
    name = (getattr(error, "name", None) or "").split(".")[0]
    if name not in EXTRAS:
        return None
    return f"this needs {name}, which is not installed: pip install 'pypoker[{EXTRAS[name]}]'"


def require(module: str):
    """``import module``, or an ``ImportError`` (its ``name`` the module's) naming the extra
    that installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as error:
        top = module.split(".")[0]
        message = missing_extra(ImportError(module, name=top)) or str(error)
        raise ImportError(message, name=top) from error
