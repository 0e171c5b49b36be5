"""The one door to the Zig library: cffi declarations, loading, status → exception, and the
card names (their letters read from the library, which spells them for its parser).

The declarations are not written here: they are read from ``_lib/pypoker.h``, which the build
generates from ``zsrc/abi/exports/``, so Python always calls the signatures the library was
compiled with. ``ABI_VERSION`` is the version this Python code was written against; loading a
library of another version fails at import rather than at some later call.

cffi releases the GIL for the duration of every call into the library. The exception is
``fastcall``: the optional extension behind the one-hand and small-batch calls of ``pp.rank``
and ``pp.rank_omaha`` (zsrc/pyext/fastcall.c), which calls five of the library's exports by
the addresses given here, holding the GIL for the microsecond it takes. It is
``_fastcall.abi3.so`` on Linux and macOS and ``_fastcall.pyd`` on Windows (linked to
python3.dll, the stable ABI's DLL). It is None where it is not built or cannot load (PyPy,
free-threaded CPython, a source build on a Python without headers), where NumPy's array
layout is not the one it reads, or with ``PYPOKER_FASTCALL=0``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import warnings
from pathlib import Path

import cffi
import numpy as np

ABI_VERSION = 26

_LIB_DIR = Path(__file__).with_name("_lib")


def _library_path() -> Path:
    if sys.platform.startswith("darwin"):
        return _LIB_DIR / "libpypoker.dylib"
    if sys.platform.startswith("win32"):
        return _LIB_DIR / "pypoker.dll"
    return _LIB_DIR / "libpypoker.so"


def _load():
    header = _LIB_DIR / "pypoker.h"
    library = _library_path()
    if not header.exists() or not library.exists():
        raise ImportError(
            f"pypoker's native library is missing from {_LIB_DIR}: install the package "
            "(`pip install .`, or `pip install -e .` for development) so the Zig core is built"
        )
    ffi = cffi.FFI()
    ffi.cdef(header.read_text())
    lib = ffi.dlopen(str(library))
    found = lib.pp_abi_version()
    if found != ABI_VERSION or lib.PP_ABI_VERSION != ABI_VERSION:
        raise ImportError(
            f"pypoker's native library at {library} has ABI version {found}, this Python code "
            f"needs {ABI_VERSION}: reinstall pypoker so the two are built together"
        )
    return ffi, lib


ffi, lib = _load()
HAND_CARDS_MAX = lib.PP_HAND_CARDS_MAX  # a hand has 0 to 7 cards

# Card names, read once from the library (zsrc/cards/encoding.zig spells the letters): card
# id ``suit * 13 + value``, value 0 = deuce … 12 = ace, suit 0..3 = s c h d.
_LETTERS = ffi.unpack(ffi.cast("char *", lib.pp_card_letters()), lib.PP_VALUES + lib.PP_SUITS)
VALUES = _LETTERS[: lib.PP_VALUES].decode()
SUITS = _LETTERS[lib.PP_VALUES :].decode()
CARD_NAMES: tuple[str, ...] = tuple(v + s for s in SUITS for v in VALUES)


def card_name(card: int) -> str:
    """``38`` → ``"Ah"``; any id outside the deck is shown as ``#<id>``."""
    return CARD_NAMES[card] if 0 <= card < lib.PP_CARDS else f"#{card}"


SMALL_BATCH_BYTES = 1 << 14  # of card ids: up to this, a batch is ranked in one call, here


def _load_fastcall():
    """``pypoker._fastcall`` bound to this library's exports, or None."""
    if os.environ.get("PYPOKER_FASTCALL", "1") == "0":
        return None
    if sys.platform == "win32" and _free_threaded():
        return None
    try:
        from . import _fastcall
    except ImportError:  # not built for this platform or Python: the cffi paths serve
        return None

    def address(name: str) -> int:
        return int(ffi.cast("uintptr_t", ffi.addressof(lib, name)))

    probe = np.zeros((3, 5), dtype=np.uint8)  # the array layout it reads, checked by bind
    strided = probe[:, ::2]
    strided.flags.writeable = False
    try:
        exports = ("pp_rank_hand", "pp_rank_text", "pp_rank_cards", "pp_rank_omaha_hand",
                   "pp_rank_omaha_text")  # fmt: skip
        _fastcall.bind(
            tuple(address(name) for name in exports),
            np.ndarray, np.empty, np.dtype(np.uint8), np.dtype(np.uint16), SMALL_BATCH_BYTES,
            probe, probe.__array_interface__["data"][0], strided,
        )  # fmt: skip
    except ImportError as error:  # a NumPy laid out otherwise: the cffi paths serve
        warnings.warn(f"pypoker: {error}; one-hand calls take the slower path", stacklevel=2)
        return None
    return _fastcall


def _free_threaded() -> bool:
    """Whether this CPython is a free-threaded build, whose objects the stable ABI (3.10's)
    does not describe. Elsewhere its import system refuses ``.abi3.so``; on Windows it would
    take ``_fastcall.pyd``, which python3.dll could bind to the GIL build's DLL beside it."""
    import sysconfig

    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


fastcall = _load_fastcall()

CPU_LEVELS = {"baseline": 0, "avx2": 1, "avx512": 2}


def struct_dtype(name: str) -> np.dtype:
    """The NumPy dtype of a struct the header declares (``pp_tally``, ``pp_accumulator``, …):
    its fields by name, at the header's offsets, so arrays of it cross the ABI as they are."""
    kinds = {"uint64_t": "<u8", "int64_t": "<i8", "uint32_t": "<u4", "int32_t": "<i4",
             "double": "<f8", "float": "<f4"}  # fmt: skip
    struct = ffi.typeof(name)
    return np.dtype({
        "names": [field for field, _ in struct.fields],
        "formats": [kinds[info.type.cname] for _, info in struct.fields],
        "offsets": [info.offset for _, info in struct.fields],
        "itemsize": ffi.sizeof(struct),
    })  # fmt: skip


def supported_cpus() -> list[str]:
    """The kernel levels this CPU can run, lowest first, e.g. ``["baseline", "avx2"]``."""
    mask = lib.pp_cpu_supported()
    return [name for name, level in CPU_LEVELS.items() if mask >> level & 1]


def select_cpu(name: str) -> None:
    """Use the kernels of ``name`` ("baseline", "avx2", "avx512", or "auto": the best this
    CPU runs) for every later call, process-wide. Results are bit-identical across levels."""
    if not isinstance(name, str):
        raise ArgumentError(f"select_cpu takes a level's name (baseline, avx2, avx512 or auto), "
                        f"got {name!r}")  # fmt: skip
    if name in ("", "auto"):
        name = supported_cpus()[-1]
    if name not in CPU_LEVELS:
        raise ArgumentError(f"CPU level {name!r}: use baseline, avx2, avx512 or auto")
    if name not in supported_cpus():
        raise RuntimeError(f"this CPU cannot run the {name} kernels ({supported_cpus()} can)")
    status = lib.pp_select_cpu(CPU_LEVELS[name])
    if status != lib.PP_OK:
        raise RuntimeError(f"pypoker: selecting the {name} kernels failed (status {status})")


def cpu() -> str:
    """The kernels in use: ``"avx512"`` (x86-64-v4 + VBMI, BITALG, VPOPCNTDQ, VNNI, GFNI, IFMA:
    Ice Lake, Zen 4 and later), ``"avx2"`` (AVX2 + BMI2) or ``"baseline"`` (portable)."""
    level = lib.pp_cpu_level()
    return next(name for name, number in CPU_LEVELS.items() if number == level)


try:
    select_cpu(os.environ.get("PYPOKER_CPU", "auto").strip().lower())
except ValueError as error:
    raise ImportError(f"PYPOKER_CPU: {error}") from None


class PokerError(ValueError):
    """Bad input to a pypoker call. ``row`` is the offending hand's index (or None), ``card``
    the offending card's id (or None). Messages start ``row N: `` when they name a row."""

    def __init__(self, message: str, row: int | None = None, card: int | None = None):
        super().__init__(message)
        self.row = row
        self.card = card

    def __reduce__(self):
        # Keeps row and card across pickling (Ray hands exceptions between processes).
        return type(self), (str(self), self.row, self.card)

    @property
    def reason(self) -> str:
        """The message without its ``row N: `` prefix."""
        return str(self).removeprefix(f"row {self.row}: ")

    def renumbered(self, row: int) -> PokerError:
        """The same error with the row counted as the caller counts it (a slice or chunk
        of a larger input numbers its rows from 0)."""
        return type(self)(f"row {row}: {self.reason}", row, self.card)

    def about(self, value) -> PokerError:
        """The same error naming the bad value instead of a row (where row numbers would
        mislead, e.g. a query engine's chunks)."""
        return type(self)(f"bad hand {value!r}: {self.reason}", None, self.card)

    @staticmethod
    def from_text(text: str) -> PokerError | None:
        """The last pypoker exception a traceback's text shows (``pypoker._native.<Class>:
        <message>``), rebuilt with its class and row; None when it shows none."""
        classes = {
            cls.__name__: cls
            for cls in (ArgumentError, CardParseError, InvalidHandError, PokerError)
        }
        for name, message in reversed(re.findall(r"pypoker\._native\.(\w+): (.+)", text)):
            if name in classes:
                row = re.match(r"row (\d+):", message)
                return classes[name](message.strip(), int(row.group(1)) if row else None)
        return None


class InternalError(RuntimeError):
    """A native call failed in a way no input explains: a bug in pypoker."""


class InvalidHandError(PokerError):
    """A hand holds a card that is not a card, a card twice, or too few or many cards."""


class CardParseError(PokerError):
    """Card text that does not read as cards."""


class ArgumentError(PokerError, TypeError):
    """An argument of the wrong type, shape or value: the message names the argument, what
    it got and what is allowed. Both a ``ValueError`` (as every ``PokerError``) and a
    ``TypeError``, so either ``except`` clause a caller wrote catches it."""


_STATUS_NAMES = dict(ffi.typeof("pp_status").elements)  # value → "PP_…", from the header


def new_error():
    return ffi.new("pp_error*")


_errors = threading.local()


def thread_error():
    """This thread's reusable error record: a call on one thread reads it before the next
    call there can write it (saves allocating one, ~0.4 µs, on small calls)."""
    try:
        return _errors.record
    except AttributeError:
        _errors.record = new_error()
        return _errors.record


def check_hands(status: int, err, row_offset: int = 0, place=None) -> None:
    """Raises for a failed call on rows of hands; `row_offset` maps a slice's rows to the
    caller's. Where rows are not plain hands (Omaha's board and players), ``place(position)``
    names the bad card's place in its row, e.g. "player 1's hole card 3"."""
    if status != lib.PP_OK:
        raise_failure(status, err, "hands", row_offset=row_offset, place=place)


def check_slices(results, out=None, place=None) -> None:
    """Raises for the earliest failed slice of a threaded call: ``results`` holds each
    slice's ``(status, err, first_row)`` in row order. A failed call leaves no result behind
    in ``out`` (zeroed: 0 is never a rank). ``place`` as for ``check_hands``."""
    for status, err, start in results:
        if status != lib.PP_OK:
            if out is not None:
                out[...] = 0
            check_hands(status, err, row_offset=start, place=place)


def check_parse(status: int, err, strings_text: list[bytes] | None, single: bool) -> None:
    """Raises for card text that did not read: ``strings_text`` holds the strings (to quote
    the bad one), ``single`` whether there was only one (no row to name)."""
    if status != lib.PP_OK:
        text_of = (lambda row: b"?") if strings_text is None else strings_text.__getitem__
        raise_failure(status, err, "text", text_of=text_of, single=single)


def check_players(status: int, err) -> None:
    """Raises for a failed equity call: ``err.row`` is the player (-1 the board, -2 the dead
    cards) and ``err.card`` the card."""
    if status != lib.PP_OK:
        raise_failure(status, err, "players")


_PLACES = {-1: "the board", -2: "the dead cards"}  # the rows before a spot's players

# The statuses of a failure record (``pp_error``) naming a row; the others (null pointers,
# memory) are no input's fault.
FAILURES = frozenset(_STATUS_NAMES) - {lib.PP_OK, lib.PP_NULL_POINTER, lib.PP_OUT_OF_MEMORY}


def raise_failure(
    status: int, err, rows: str, row_offset: int = 0, place=None, text_of=None, single=False
):
    """The one status → exception map: the native failure record (``pp_error``: row, card,
    position, each as the library found it) and its status, worded for what the call's rows
    were: ``"hands"`` (ids, sets, accumulators; ``place`` names a card's place in a row),
    ``"text"`` (``text_of(row)`` is the row's bytes, ``single`` whether there was one row) or
    ``"players"`` (a spot's players, board and dead cards). ``row_offset`` maps a slice's
    rows to the call's."""
    row = int(ffi.cast("int64_t", err.row))
    card, position = int(err.card), int(err.position)
    if rows == "players":
        where = _PLACES.get(row, f"player {row + 1}")
        kind, message = _player_words(status, card)
    else:
        row += row_offset
        where = f"row {row}"
        kind, message = _hand_words(status, card, position, place)
        if rows == "text":
            where, kind, message = _text_words(status, row, card, position, text_of, single)
    if kind is None:
        check_call(status)
    raise kind(f"{where}: {message}", row, card if card >= 0 else None)


def _hand_words(status: int, card: int, position: int, place):
    """An exception class and the words for a bad row of hands (None: no such failure)."""
    name = card_name(card)
    at = f" at position {position}" if position >= 0 else ""
    placed = (lib.PP_CARD_OUT_OF_RANGE, lib.PP_DUPLICATE_CARD)
    if place is not None and position >= 0 and status in placed:
        where = place(position)
        words = {
            lib.PP_CARD_OUT_OF_RANGE: f"{where} is {card}, not a card (card ids are 0..51)",
            lib.PP_DUPLICATE_CARD: f"{where} is {name}, a card already in the row",
        }
    elif position >= 0:
        words = {lib.PP_CARD_OUT_OF_RANGE: f"card id {card}{at} is not a card (card ids are 0..51)"}
    else:
        words = {lib.PP_CARD_OUT_OF_RANGE: f"bit {card} is set; card sets use bits 0..51 only"}
    if status in words:
        return InvalidHandError, words[status]
    most = HAND_CARDS_MAX
    invalid = {
        lib.PP_DUPLICATE_CARD: f"card {name} appears twice",
        lib.PP_EMPTY_HAND: "the hand is empty",
        lib.PP_TOO_MANY_CARDS: f"a hand of {position} cards: a hand has 0 to {most}"
        if position >= 0
        else f"more than {most} cards (a hand has 0 to {most})",
        lib.PP_INCONSISTENT_KEY: "the accumulator's key is not the one its cards make "
        "(build accumulators with pp.accumulate and pp.merge)",
        lib.PP_CARD_NOT_IN_DECK: f"card {name}{at} is not in the short deck "
        "(36 cards, sixes to aces: no deuce to five)",
    }
    if status in invalid:
        return InvalidHandError, invalid[status]
    other = {
        lib.PP_INDEX_OUT_OF_RANGE: "index outside its street's canonical hands",
        lib.PP_BAD_WEIGHT: "combo weights must be finite and at least 0",
    }
    return (PokerError, other[status]) if status in other else (None, None)


def _player_words(status: int, card: int):
    """An exception class and the words for a spot's bad player, board or dead cards."""
    if status == lib.PP_BAD_ARGUMENT:
        raise PokerError("the board must hold 0, 3, 4 or 5 cards, and the deck enough to deal")
    words = {
        lib.PP_DUPLICATE_CARD: f"card {card_name(card)} is dealt twice",
        lib.PP_CARD_OUT_OF_RANGE: f"{card} is not a card (card ids are 0..51)",
        lib.PP_EMPTY_HAND: "no combination is left once the cards out are removed",
        lib.PP_BAD_WEIGHT: "combo weights must be finite and at least 0",
    }
    return (PokerError, words[status]) if status in words else (None, None)


def _text_words(status: int, row: int, card: int, position: int, text_of, single: bool):
    """Where, an exception class and the words for a bad row of card text: the row quoted
    (with its number unless it was the only one)."""
    encoded = text_of(row)
    text = encoded.decode("utf-8", "replace")
    # The parser counts bytes; report the character position a reader would count.
    position = len(encoded[:position].decode("utf-8", "replace")) if position >= 0 else 0
    shown = _excerpt(text, position)
    where = f'"{shown}"' if single else f'row {row}: "{shown}"'
    found = text[position : position + 1] or "end of text"
    words = {
        lib.PP_BAD_VALUE: f"{found!r} at position {position} is not a card value "
        "(2-9, T or 10, J, Q, K, A)",
        lib.PP_BAD_SUIT: f"{found!r} at position {position} is not a suit (s, c, h, d)",
        lib.PP_DUPLICATE_CARD: f"card {card_name(card)} appears twice",
    }
    if status in words:
        return where, CardParseError, words[status]
    kind, message = _hand_words(status, card, -1, None)
    return where, kind, message


EXCERPT_CHARS = 20  # of context each side of a bad character in an error message


def _excerpt(text: str, position: int) -> str:
    """The text around ``position``, cut to EXCERPT_CHARS a side (… where cut), with
    control and other unprintable characters escaped."""
    start, stop = max(0, position - EXCERPT_CHARS), position + EXCERPT_CHARS
    piece = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[start:stop])
    return ("…" if start else "") + piece + ("…" if stop < len(text) else "")


def check_call(status: int) -> None:
    """Statuses that mean pypoker itself passed something wrong: never the user's input."""
    if status == lib.PP_OUT_OF_MEMORY:
        raise MemoryError("pypoker: the native library could not allocate its working memory")
    if status != lib.PP_OK:
        caller = sys._getframe(1).f_code.co_name
        raise InternalError(
            f"pypoker internal error: a native call in {caller}() returned "
            f"{_STATUS_NAMES.get(status, 'an unknown status')} ({status}); please report it"
        )
