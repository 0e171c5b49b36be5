"""Whole-street tables: one row per canonical hand of a street, with its features.

``street_table("flop", "flop.parquet", features=["ehs", "histogram"], bins=50)`` writes a
row for each of the 1,286,792 canonical flop hands (``pp.hand_index`` with the board as one
set), in index order:

| column | type | what |
| --- | --- | --- |
| ``index`` | uint64 | the canonical index (``pp.hand_index(hole, board)``) |
| ``hole`` | fixed_size_list<uint8>[2] | the canonical hand's hole cards |
| ``board`` | fixed_size_list<uint8>[k] | its board |
| ``hs`` | float64 | hand strength now, against a random hand |
| ``ehs`` | float64 | equity to the river against a random hand |
| ``ehs2`` | float64 | E[HS²] over the runouts |
| ``histogram`` | fixed_size_list<float32>[bins] | the final equity's distribution |

With ``per_street=True`` rows are numbered with the flop, turn and river as rounds of their
own (the board column then lists the flop, the turn and the river in that order).

How: the canonical boards (suits relabelled away) that the range's hands lie on are each
counted once with ``hand_vs_range`` (all 1,326 hands at once, every runout), and each live
(hand, board) pair lands on its hand's index. Memory stays bounded: a range of more than
``piece_rows`` indices is written in pieces, each a pass over its own boards. ``start`` and
``count`` select an index range, so a street splits into
files made anywhere (``pp.ray.street_table`` does that on a cluster). The file appears whole
or not at all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._arguments import choice, whole
from ._native import ArgumentError, lib
from ._progress import Progress
from ._spot import COMBOS
from ._table_files import writing
from .features import hand_vs_range
from .isomorphism import STREETS, hand_index, hand_index_size, hand_unindex

TABLE_FEATURES = ("hs", "ehs", "ehs2", "histogram")
PIECE_ROWS = 1 << 25  # indices a pass over the boards fills: ~1.2 GB of arrays at most
BOARDS_PER_CALL = {"flop": 32, "turn": 256, "river": 2048}


def street_table(
    street: str,
    path: str | Path | None = None,
    *,
    features=("ehs",),
    bins: int = 50,
    start: int = 0,
    count: int | None = None,
    per_street: bool = False,
    threads: int | None = None,
    progress: bool = False,
    piece_rows: int = PIECE_ROWS,
):
    """Features of every canonical hand of ``street`` ("flop", "turn", "river") with
    index in ``start .. start + count``: written to Parquet at ``path``, or returned as a
    pyarrow Table when ``path`` is None. ``features``: any of hs, ehs, ehs2, histogram.
    ``per_street=True`` numbers hands with flop, turn and river as rounds of their own
    (``pp.hand_index(..., per_street=True)``; the river then has 2,428,287,420 rows)."""
    import pyarrow as pa

    choice("street", street, ("flop", "turn", "river"))
    wanted = _features(features)
    bins = whole("bins", bins, 1, lib.PP_HISTOGRAM_BINS_MAX)
    size = hand_index_size(street, per_street=per_street)
    start = whole(f"start (the {street} has indices 0..{size - 1})", start, 0, size)
    count = size - start if count is None else count
    count = whole(f"count (from start={start}, at most {size - start:,})", count, 0, size - start)
    piece_rows = whole("piece_rows", piece_rows, 1)
    layout = {"per_street": per_street}
    boards_size = hand_index_size(street, board_only=True, **layout)
    _, boards = hand_unindex(street, np.arange(boards_size), board_only=True, **layout)
    bar = Progress(progress, f"{street} table")
    pieces = [
        (a, min(a + piece_rows, start + count)) for a in range(start, start + count, piece_rows)
    ]
    schema = _schema(pa, STREETS[street], wanted, bins)

    def tables():
        for number, (a, b) in enumerate(pieces):
            detail = f"piece {number + 1}/{len(pieces)}, "

            def report(fraction: float, a=a, b=b, detail=detail):
                # Over the whole table, so the ETA holds across pieces.
                bar.update(a - start + (b - a) * fraction, count, detail)

            yield _piece(pa, street, layout, boards, wanted, bins, a, b, threads, report)

    try:
        if path is None:
            return pa.concat_tables(list(tables()) or [schema.empty_table()])
        target = Path(path)
        with writing(target, schema, kinds=("parquet",), row_group_size=1 << 20) as writer:
            for table in tables():
                writer.write(table)
        return target
    finally:
        bar.close()


def _features(features) -> list[str]:
    names = [features] if isinstance(features, str) else list(features)
    unknown = [f for f in names if f not in TABLE_FEATURES]
    if unknown or not names:
        raise ArgumentError(f"features {unknown or names}: choose from {', '.join(TABLE_FEATURES)}")
    return [f for f in TABLE_FEATURES if f in names]


def _schema(pa, board_cards: int, wanted: list[str], bins: int):
    fields = [
        ("index", pa.uint64()),
        ("hole", pa.list_(pa.uint8(), 2)),
        ("board", pa.list_(pa.uint8(), board_cards)),
    ]
    for name in wanted:
        fields.append((name, pa.list_(pa.float32(), bins) if name == "histogram" else pa.float64()))
    return pa.schema(fields)


def _piece(pa, street, layout, boards, wanted, bins, start, stop, threads, report):
    """One pass over every canonical board, keeping the indices in ``start .. stop``;
    ``report(fraction)`` after each call."""
    n = stop - start
    values = {name: np.full(n, np.nan) for name in wanted if name != "histogram"}
    histogram = np.zeros((n, bins), dtype=np.float32) if "histogram" in wanted else None
    filled = np.zeros(n, dtype=bool)
    # Only the canonical boards of this piece's hands: each hand, relabelled so that its
    # board is canonical, is a hand of that board with the same index.
    holes, board_cards = hand_unindex(street, np.arange(start, stop, dtype=np.uint64), **layout)
    board_index = hand_index(None, board_cards, threads=threads, **layout)
    boards = boards[np.unique(board_index).astype(np.int64)]
    step = BOARDS_PER_CALL[street]
    for first in range(0, len(boards), step):
        chunk = boards[first : first + step]
        results = hand_vs_range(chunk, ehs2=True, bins=bins if histogram is not None else None,
                                threads=threads)  # fmt: skip
        equity, squares = results[0], results[1]
        live_row, live_combo = np.nonzero(~np.isnan(equity))
        index = hand_index(COMBOS[live_combo], chunk[live_row], threads=threads, **layout)
        index = index.astype(np.int64)
        keep = (index >= start) & (index < stop)
        at, rows, combos = index[keep] - start, live_row[keep], live_combo[keep]
        filled[at] = True
        if "ehs" in values:
            values["ehs"][at] = equity[rows, combos]
        if "ehs2" in values:
            values["ehs2"][at] = squares[rows, combos]
        if histogram is not None:
            histogram[at] = results[2][rows, combos]
        if "hs" in values:
            now = (
                equity
                if street == "river"
                else hand_vs_range(chunk, to_river=False, threads=threads)
            )
            values["hs"][at] = now[rows, combos]
        report((first + len(chunk)) / len(boards))
    if not filled.all():  # every canonical hand lies on some canonical board
        missing = start + int(np.flatnonzero(~filled)[0])
        raise AssertionError(f"pypoker internal error: index {missing} of the {street} not reached")
    columns = {
        "index": pa.array(np.arange(start, stop, dtype=np.uint64)),
        "hole": pa.FixedSizeListArray.from_arrays(pa.array(holes.reshape(-1)), 2),
        "board": pa.FixedSizeListArray.from_arrays(
            pa.array(board_cards.reshape(-1)), board_cards.shape[1]
        ),
    }
    for name in wanted:
        if name == "histogram":
            columns[name] = pa.FixedSizeListArray.from_arrays(pa.array(histogram.reshape(-1)), bins)
        else:
            columns[name] = pa.array(values[name])
    return pa.table(columns)
