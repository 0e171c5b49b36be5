"""Labelled hand datasets for machine learning: ``dataset`` (and ``pypoker deal``).

N deals of P players (2..10), each row: the board by street, every player's hole cards, each
player's river rank and category, and who won. Rows are dealt from the counter-based stream of
``pp.deal``, so row ``i`` is the same for a given seed whatever the chunk size, thread count or
machine; chunks are produced one at a time (the next dealt and ranked while the last is being
written), so memory stays bounded whatever N is.

Schema (P = players):

| column | type | meaning |
| --- | --- | --- |
| ``deal`` | uint64 | row index in the seed's stream (reproduces the row) |
| ``flop`` | fixed_size_list<uint8>[3] | card ids |
| ``turn`` | uint8 | card id |
| ``river`` | uint8 | card id |
| ``holes`` | fixed_size_list<fixed_size_list<uint8>[k]>[P] | each player's hole cards: k = 2
  in Hold'em, 4, 5 or 6 in Omaha (``game="plo4"`` …, ranked with exactly two of them) |
| ``rank`` | fixed_size_list<uint16>[P] | river rank of each player (higher wins) |
| ``category`` | fixed_size_list<uint8>[P] | 1 high card … 9 straight flush |
| ``winner`` | fixed_size_list<bool>[P] | holds the best rank (ties: several) |
| ``winners`` | uint8 | how many split the pot |
| ``equity_flop`` | fixed_size_list<float32>[P] | with ``equity=True``: each player's exact equity
  (pot share) with only the flop known, over every turn and river |
| ``equity_turn`` | fixed_size_list<float32>[P] | the same with the turn known |
| ``low`` | fixed_size_list<uint16>[P] | Omaha hi-lo (``game="plo4-8"``, ``"plo5-8"``): each
  player's eight-or-better low (``pp.rank_low_omaha``: higher wins, 0 no low); ``rank``,
  ``winner`` and ``winners`` are then the high's |
| ``low_winner`` | fixed_size_list<bool>[P] | hi-lo: holds the best low (none when no low) |

The file's schema metadata records the seed, the player count, the game and the pypoker
version.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ._arguments import choice, whole
from ._extras import require
from ._interrupts import result_of, shielded
from ._native import ArgumentError, lib
from ._parallel import stop_when
from ._progress import reporter
from ._spot import PLAYERS_MAX, PLAYERS_MIN  # equity labels: as many as equity takes
from ._table_files import writing
from ._version import VERSION
from .dealing import deal
from .equity import street_equities
from .omaha import GAMES as OMAHA_HOLE_CARDS
from .omaha import HILO_GAMES, NO_LOW, rank_showdown_omaha
from .ranking import CATEGORY_SHIFT, category, rank_showdown

BOARD_CARDS = lib.PP_BOARD_CARDS_MAX
STREETS = ("flop", "turn")  # the equity labels: after the flop, after the turn
HOLE_CARDS = {"holdem": 2, **OMAHA_HOLE_CARDS, "shortdeck": 2, "shortdeck-straights": 2}  # per game
SHORT_DECKS = ("shortdeck", "shortdeck-straights")  # 36 cards; `category` in Hold'em's numbers


def schema(players: int, equity: bool = False, game: str = "holdem"):
    pa = require("pyarrow")
    k = HOLE_CARDS[game]
    streets = [(f"equity_{street}", pa.list_(pa.float32(), players)) for street in STREETS]
    return pa.schema(
        [
            ("deal", pa.uint64()),
            ("flop", pa.list_(pa.uint8(), 3)),
            ("turn", pa.uint8()),
            ("river", pa.uint8()),
            ("holes", pa.list_(pa.list_(pa.uint8(), k), players)),
            ("rank", pa.list_(pa.uint16(), players)),
            ("category", pa.list_(pa.uint8(), players)),
            ("winner", pa.list_(pa.bool_(), players)),
            ("winners", pa.uint8()),
        ]
        + (streets if equity else [])
        + (
            [("low", pa.list_(pa.uint16(), players)), ("low_winner", pa.list_(pa.bool_(), players))]
            if game in HILO_GAMES
            else []
        )
    )


def deal_batch(start: int, count: int, players: int, seed: int, threads: int | None,
               equity: bool = False, game: str = "holdem"):  # fmt: skip
    """Rows ``start .. start + count`` of the dataset as a pyarrow RecordBatch."""
    pa = require("pyarrow")
    k = HOLE_CARDS[game]
    short = game in SHORT_DECKS
    cards = deal(count, BOARD_CARDS + k * players, seed=seed, start=start, threads=threads,
                 game=game if short else "holdem")  # fmt: skip
    board = np.ascontiguousarray(cards[:, :BOARD_CARDS])
    holes = np.ascontiguousarray(cards[:, BOARD_CARDS:]).reshape(count, players, k)
    if short:
        ranks = rank_showdown(board, holes, threads=threads, game=game)
    elif game in HILO_GAMES:
        ranks, lows = rank_showdown_omaha(board, holes, threads=threads, low=True)
    else:
        showdown = rank_showdown if game == "holdem" else rank_showdown_omaha
        ranks = showdown(board, holes, threads=threads)
    best = ranks.max(axis=1, keepdims=True)
    winner = ranks == best

    def fixed(values: np.ndarray, size: int):
        return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), size)

    columns = [
        pa.array(np.arange(start, start + count, dtype=np.uint64)),
        fixed(np.ascontiguousarray(board[:, :3]), 3),
        pa.array(np.ascontiguousarray(board[:, 3])),
        pa.array(np.ascontiguousarray(board[:, 4])),
        pa.FixedSizeListArray.from_arrays(fixed(holes, k), players),
        fixed(ranks, players),
        fixed(
            category(ranks, game=game) if short else (ranks >> CATEGORY_SHIFT).astype(np.uint8),
            players,
        ),  # fmt: skip
        fixed(winner, players),
        pa.array(winner.sum(axis=1, dtype=np.uint8)),
    ]
    if equity:
        columns += [fixed(e, players) for e in street_equities(board, holes, threads=threads)]
    if game in HILO_GAMES:
        best_low = lows.max(axis=1, keepdims=True)
        columns += [fixed(lows, players), fixed((lows == best_low) & (best_low != NO_LOW), players)]
    return pa.RecordBatch.from_arrays(columns, schema=schema(players, equity, game))


def _check(n: int, players: int, seed: int, chunk: int, game: str = "holdem",
           equity: bool = False) -> None:  # fmt: skip
    choice("game", game, HOLE_CARDS)
    whole("players", players, PLAYERS_MIN, PLAYERS_MAX)
    if game != "holdem" and equity:
        raise ArgumentError(f"game={game!r}: equity labels are Hold'em's (street_equities); "
                            "not for Omaha or short deck yet")  # fmt: skip
    deck = lib.PP_SHORT_DECK_CARDS if game in SHORT_DECKS else lib.PP_CARDS
    deck_players = (deck - BOARD_CARDS) // HOLE_CARDS[game]
    if game != "holdem" and players > deck_players:
        raise ArgumentError(f"{players} players of {game.upper()}: the deck deals {deck_players}")
    whole("n", n, 0)
    whole("seed", seed, 0, (1 << 64) - 1)
    whole("chunk", chunk, 1)


def iter_batches(
    n: int,
    players: int = 6,
    *,
    seed: int,
    chunk: int = 1 << 20,
    threads: int | None = None,
    equity: bool = False,
    game: str = "holdem",
):
    """The dataset as a stream of RecordBatches of up to ``chunk`` rows; the next batch is
    dealt and ranked (in native code, off the GIL) while the caller consumes the last."""
    _check(n, players, seed, chunk, game, equity)
    starts = range(0, n, chunk)
    stop = threading.Event()  # set when the consumer leaves early (Ctrl-C, an error, break)

    def produce(start: int):
        with stop_when(stop):
            return deal_batch(start, min(chunk, n - start), players, seed, threads, equity, game)

    # The pool's and the futures' locks are taken with Ctrl-C held off (see _interrupts).
    producer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pypoker-deal")
    pending = None
    try:
        for start in starts:
            future = shielded(producer.submit, produce, start)
            if pending is not None:
                yield result_of(pending)
            pending = future
        if pending is not None:
            yield result_of(pending)
    finally:
        stop.set()  # the batch being dealt stops within one short call
        shielded(producer.shutdown)


def dataset(
    n: int,
    players: int = 6,
    *,
    seed: int,
    path: str | Path | None = None,
    chunk: int = 1 << 20,
    threads: int | None = None,
    progress=False,
    compression: str = "zstd",
    equity: bool = False,
    game: str = "holdem",
):
    """Deals ``n`` labelled showdowns of ``players`` (2..10) players.

    ``equity=True`` adds each player's exact equity on the flop and on the turn (~5 µs a deal
    of six players on one core; the rest of a row takes well under 1 µs). With ``path``
    ending in ``.parquet`` (or ``.arrow`` / ``.feather`` for Arrow IPC), writes the rows chunk
    by chunk in bounded memory and returns the path; the file is written to a temporary name
    and renamed when complete, so a failed run leaves no half-written file; without it,
    returns a ``pyarrow.Table`` (the schema: the module docstring). ``game="plo4"``,
    ``"plo5"``, ``"plo6"``: Omaha; ``"shortdeck"`` (``-straights``): short deck, its ranks
    (``category`` in Hold'em's numbers, as ``pp.category(..., game=)``). ``progress``: True
    for a line on stderr, or a callable taking (deals done, deals in all)."""
    pa = require("pyarrow")
    _check(n, players, seed, chunk, game, equity)
    metadata = {
        b"pypoker.seed": str(seed).encode(),
        b"pypoker.players": str(players).encode(),
        b"pypoker.game": game.encode(),
        b"pypoker.version": VERSION.encode(),
    }
    table_schema = schema(players, equity, game).with_metadata(metadata)
    report = reporter(progress, "dataset", "deals")
    if path is None:
        batches = []
        for batch in iter_batches(
            n, players, seed=seed, chunk=chunk, threads=threads, equity=equity, game=game
        ):
            batches.append(batch)
            report(batch.column(0)[-1].as_py() + 1, n)
        report(None, n)
        return pa.Table.from_batches(batches, schema=table_schema)

    target = Path(path)
    try:
        with writing(target, table_schema, kinds=("parquet", "ipc"), row_group_size=chunk,
                     compression=compression) as writer:  # fmt: skip
            done = 0
            for batch in iter_batches(
                n, players, seed=seed, chunk=chunk, threads=threads, equity=equity, game=game
            ):
                writer.write(batch)
                done += batch.num_rows
                report(done, n)
    finally:
        report(None, n)
    return target
