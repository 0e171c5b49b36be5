"""Real hands for the Range Reader: PHH files (https://phh.readthedocs.io), read by
``pypoker.arena.phh``, as the arena histories ``examples`` takes, and ``probabilities``: a
read of examples by a named source (the board-only prior, the exact posterior, later a
model), one switch for generated and real hands alike.

``real_hands(source)`` reads ``.phh`` / ``.phhs`` files (a file, a folder searched
recursively, or a list of them) into one history table (``pypoker.arena.history.SCHEMA``),
checks every hand natively (an illegal action, a hole card that collides with the board or
another seat's, ... raise a ``PokerError`` naming the file and the hand) and names all-ins
as the native agents do: PHH has no all-in action, and the import calls an action that puts
a seat's last chip in ``ALL_IN``; the agents call (CALL) or raise to their whole stack
(RAISE) instead, so an all-in that only calls becomes a CALL and one that raises a RAISE to
the same amount, when the rules take it as one (a short all-in that does not make a full
raise stays ALL_IN). A seat whose cards the file does not show (``????``: folded or mucked)
is not read; the others are labelled. Public hand histories show cards only at showdown
(HandHQ), so their labelled examples are a biased sample: hands that reached showdown, the
seats that showed. Pluribus's hands show every seat.

``probabilities(examples, using=...)``, (N, 1326) float64, rows summing to 1:

- ``"prior"``: uniform over the combos the board leaves (``prior``);
- ``"posterior"``: the exact posterior (``posterior``) of the examples' population; when
  the population is unknown (real hands), of ``REAL``: the default population's styles and
  the random player as a catch-all, styles hidden. An example whose seat's actions no style
  of the population gives a chance (``impossible="prior"``, the default for ``REAL``) gets
  the prior instead; ``impossible="raise"`` (the default otherwise) raises;
- a model: any object with ``predict(examples)`` returning (N, 1326) probabilities (the
  Range Reader's ``Reader``; ``"model"`` names the shipped one), or a name in ``SOURCES``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._native import ArgumentError, PokerError
from ..arena._config import ALL_IN, CALL, RAISE
from .population import DEFAULT, Population

PHH_SUFFIXES = (".phh", ".phhs")

REAL = Population(DEFAULT.agents + ("random",), DEFAULT.weights + (1.0,),
                  DEFAULT.names + ("random",))  # fmt: skip
"""The population a real hand's posterior is taken under: the default styles and the
random player (whose raises are uniform over the legal amounts) as a catch-all for actions
no style would make, equally likely, styles hidden."""


def phh_files(source) -> list[Path]:
    """The PHH files of ``source``: a file, a folder (searched recursively, sorted) or a
    list of files and folders."""
    if isinstance(source, (list, tuple)):
        return [f for item in source for f in phh_files(item)]
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in PHH_SUFFIXES and p.is_file())
        if not files:
            raise ArgumentError(f"{str(path)!r} holds no .phh or .phhs file")
        return files
    if not path.is_file():
        raise ArgumentError(f"{str(path)!r} is not a PHH file or a folder of them")
    return [path]


def real_hands(source, *, threads=None):
    """The hands of the PHH files of ``source`` (``phh_files``) as one arena history table
    (all-ins named as the agents name them; see the module doc), each file's hands in order.
    ``hand_id`` numbers the hands 0, 1, ... across the files; a bad hand raises a
    ``PokerError`` naming its file and its place there ([n] of a .phhs, from 1). Each hand
    counts chips in its own smallest whole unit (PHH's decimals scaled by the least power of
    ten that makes that hand's amounts whole), so a hand reads the same alone or in a file
    of others: the native agents' raise sizes are whole chips."""
    from ..arena import phh

    parts = []
    for path in phh_files(source):
        try:
            parts.append((path, phh.read(path)))
        except PokerError as error:
            raise PokerError(f"{path}: {error}") from None
    return _prepared(parts, threads)


def prepared(table, where, threads=None):
    """PHH rows (``pypoker.arena.phh``'s import) as ``real_hands`` gives them: each hand in
    its own chip unit, all-ins named as the agents name them, every hand checked (a bad one
    raises naming ``where``, a file or "<stdin>")."""
    return _prepared([(where, table)], threads)


_AMOUNTS = ("small_blind", "big_blind", "ante", "straddle")


def _prepared(parts, threads):
    """The (where, PHH rows) parts as one table (module doc), hands numbered 0, 1, ..."""
    import pyarrow as pa

    from ..arena import phh
    from ..arena.history import SCHEMA

    rows, original, places = [], [], []
    for where, table in parts:
        scale = int((table.schema.metadata or {}).get(phh.SCALE_KEY, b"1"))
        for k, row in enumerate(table.to_pylist()):
            _own_unit(row, scale)
            original.append([dict(a) for a in row["actions"]])
            _agent_kinds(row)
            rows.append({**row, "hand_id": len(places)})
            places.append((where, k))
    if not rows:
        raise ArgumentError("the PHH files hold no hand")
    table = _revert_refused(pa.Table.from_pylist(rows, schema=SCHEMA), original)
    return _checked(table, places, threads)


def _agent_kinds(row: dict) -> None:
    """ALL_IN actions renamed CALL (when they only call) or RAISE (when they raise)."""
    top, street = max(row["big_blind"], row["straddle"]), 0
    for action in row["actions"]:
        if action["street"] != street:
            top, street = 0, action["street"]
        if action["kind"] == ALL_IN:
            action["kind"] = CALL if action["amount"] <= top else RAISE
        if action["kind"] in (CALL, RAISE):
            top = max(top, action["amount"])


def _own_unit(row: dict, scale: int) -> dict:
    """The row's amounts divided by the largest power of ten up to ``scale`` that divides
    them all (in place; returns the row)."""
    values = [row[k] for k in _AMOUNTS] + row["starting_stacks"]
    values += [a["amount"] for a in row["actions"]] + (row["winnings"] or [])
    unit = 1
    while unit < scale and all(v % (unit * 10) == 0 for v in values):
        unit *= 10
    if unit > 1:
        for key in _AMOUNTS:
            row[key] //= unit
        row["starting_stacks"] = [v // unit for v in row["starting_stacks"]]
        row["winnings"] = row["winnings"] and [v // unit for v in row["winnings"]]
        for action in row["actions"]:
            action["amount"] //= unit
    return row


def _revert_refused(table, original):
    """Hands whose renamed actions the rules refuse (a short all-in taken as a raise) get
    their actions back as the file had them."""
    import pyarrow as pa

    from ._records import NONE, to_records
    from .examples import count_examples

    start = 0
    while start < table.num_rows:
        rest = table.slice(start)
        hands, actions, _ = to_records(rest)
        try:
            count_examples(rest, hands, actions, NONE, np.zeros(len(hands), np.uint32), 1)
            return table
        except PokerError as error:
            if error.row is None:
                return table
            row = start + error.row
        column = table.column("actions").to_pylist()
        if column[row] == original[row]:
            return table  # refused as the file has it too: _checked names it
        column[row] = original[row]
        field = table.schema.field("actions")
        table = table.set_column(table.column_names.index("actions"), field,
                                 pa.array(column, field.type))  # fmt: skip
        start = row + 1
    return table


def _checked(table, places, threads):
    """The table, every hand replayed natively; a bad one raises naming its file and its
    place there (``places``: (file, index in it) a row)."""
    from .._parallel import workers
    from ._records import NONE, to_records
    from .examples import count_examples

    try:
        hands, actions, _ = to_records(table)
        count_examples(
            table, hands, actions, NONE, np.zeros(len(hands), np.uint32), workers(threads)
        )
    except PokerError as error:
        if error.row is None:
            raise
        path, k = places[error.row]
        raise PokerError(f"{path}: hand [{k + 1}]: {error.reason}", error.row) from None
    return table


# --- probabilities --------------------------------------------------------------------------


def _prior(examples, **_):
    from .evaluate import prior

    return prior(examples)


def _posterior(examples, *, population=None, known_styles=None, impossible=None, threads=None):
    from .posterior import posterior

    pop = population if population is not None else examples.population
    if pop is None:
        pop, known_styles = REAL, False
        impossible = "prior" if impossible is None else impossible
    impossible = "raise" if impossible is None else impossible
    if impossible not in ("raise", "prior"):
        raise ArgumentError(f"impossible must be 'raise' or 'prior', got {impossible!r}")
    if known_styles is None:
        known_styles = examples.styles is not None
    if impossible == "raise":
        return posterior(examples, pop, known_styles=known_styles, threads=threads)
    return _posterior_or_prior(examples, pop, known_styles, threads)


def _posterior_or_prior(examples, pop, known_styles, threads):
    """The posterior, with the prior for the examples of a seat whose actions the population
    gives no chance. The native posterior stops at the first such example: a few hands at a
    time, so that finding one costs a small piece again."""
    from .evaluate import prior
    from .posterior import posterior

    out = prior(examples)
    rows = examples.data["hand_row"].astype(np.int64)
    order = np.argsort(rows, kind="stable")
    cuts = np.flatnonzero(np.diff(rows[order])) + 1
    for piece in _pieces(np.split(order, cuts), _PIECE):
        todo = piece
        while len(todo):
            try:
                out[todo] = posterior(examples[todo], pop, known_styles=known_styles,
                                      threads=threads)  # fmt: skip
                break
            except PokerError as error:
                if "no chance" not in str(error) or error.row is None:
                    raise
                bad = todo[error.row]
                data = examples.data
                same = (data["hand_row"][todo] == data["hand_row"][bad]) & (
                    data["seat"][todo] == data["seat"][bad]
                )
                todo = todo[~same]
    return out


_PIECE = 1500  # examples a posterior call when some may have no chance


def _pieces(groups, size: int):
    """Consecutive groups joined into pieces of about ``size``."""
    piece, count = [], 0
    for group in groups:
        piece.append(group)
        count += len(group)
        if count >= size:
            yield np.concatenate(piece)
            piece, count = [], 0
    if piece:
        yield np.concatenate(piece)


def _model(examples, known_styles: bool = False, threads=None) -> np.ndarray:
    """The model shipped with pypoker (``Reader.pretrained()``); styles hidden unless said,
    as a real player's style is not known."""
    from .model import Reader

    read = Reader.pretrained().predict(examples, known_styles=known_styles, threads=threads)
    return np.asarray(read, np.float64)


SOURCES = {"prior": _prior, "posterior": _posterior, "model": _model}
"""The named reads ``probabilities`` knows: a name → a function (examples, **options) →
(N, 1326); ``"model"`` is ``Reader.pretrained()``."""


def probabilities(examples, using="posterior", **options) -> np.ndarray:
    """(N, 1326) float64: each example's read over the 1,326 combos by ``using``: a name in
    ``SOURCES`` (``"prior"``, ``"posterior"``, ``"model"``) or an object with
    ``predict(examples)`` (a model). ``options`` go to the source: for ``"posterior"``,
    ``population``, ``known_styles``, ``impossible`` and ``threads`` (module doc); for
    ``"model"``, ``known_styles`` (default False) and ``threads``."""
    from .examples import Examples

    if not isinstance(examples, Examples):
        raise ArgumentError(f"examples must be pypoker.reader.Examples, got {type(examples)}")
    if hasattr(using, "predict"):
        if options:
            raise ArgumentError(f"a model takes no options, got {sorted(options)}")
        return np.asarray(using.predict(examples), np.float64)
    if not isinstance(using, str) or using not in SOURCES:
        names = ", ".join(map(repr, SOURCES))
        raise ArgumentError(f"using must be one of {names} or a model (an object with "
                            f"predict(examples)), got {using!r}")  # fmt: skip
    return SOURCES[using](examples, **options)
