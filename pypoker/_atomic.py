"""Files that appear whole or not at all: ``atomic_target(path)`` yields a temporary path in
the target's folder, renames it to the target once the block succeeds, and removes it on any
failure — an exception, Ctrl-C, or SIGTERM / SIGHUP (turned into ``SystemExit`` while the
block runs in the main thread, so the cleanup runs before the process ends).

The temporary name is unique (``.<name>.<random>.partial``, made by ``mkstemp``), so no user
file is ever overwritten or removed; only SIGKILL can leave one behind, and its name cannot
be mistaken for the output. Errors name the path the caller gave, never the temporary one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _exit_on_signal(signum: int, frame) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _signals_as_exit() -> Iterator[None]:
    """SIGTERM and SIGHUP raise SystemExit in the main thread while the block runs (a
    handler can only be set there; elsewhere the block runs as is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _exit_on_signal) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def atomic_target(target: Path) -> Iterator[Path]:
    target = Path(target)
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(f"{target}: the folder {str(folder)!r} does not exist")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=folder)
    except OSError as error:
        raise type(error)(error.errno, f"{target}: cannot write there ({error.strerror})") from None
    os.close(handle)
    temporary = Path(name)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # as a plain open() would have made it
    try:
        with _signals_as_exit():
            yield temporary
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
