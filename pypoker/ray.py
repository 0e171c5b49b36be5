"""Ray Data: the same Arrow kernels on a cluster: ``pp.ray`` (``pip install 'pypoker[ray]'``).

Ray Data's batches are Arrow tables already, so each worker ranks its batches with
``pp.arrow.rank_table`` on the batch's own buffers (``batch_format="pyarrow"``,
``zero_copy_batch=True``: the card buffers are not copied in the worker).

- ``rank_dataset(ds, column)`` adds rank (and optional category / describe) columns;
- ``rank_parquet(source, target, column)`` reads Parquet across the workers and writes
  Parquet back, one file per block;
- ``street_table(street, folder)`` writes a whole-street feature table (``pp.street_table``)
  as one Parquet file per index range, the ranges spread over the workers; a rerun skips the
  files already written (each appears whole or not at all), so an interrupted run resumes;
- ``dataset(n, players, seed=…)`` deals the labelled showdowns of ``pp.dataset`` on the
  workers: row ``i`` is the same as the single-machine generator's row ``i`` for the same
  seed, whatever the number of workers or blocks (the ``deal`` column numbers the rows);
- ``reader_generate(hands, folder, population, seed)`` writes the Range Reader's shards
  (``pypoker.reader.generate``) one task a shard: the same files as the local run of the
  same settings, each whole or not at all, a rerun resuming; ``reader_hands(folder)``
  reads them back as a Ray Dataset of hands (``pypoker.reader.examples`` takes its batches).

Works with a local ``ray.init()`` and with an existing cluster (``ray.init(address=…)``);
pypoker must be installed on every worker.

Bad rows: with ``errors="raise"`` the worker raises the same pypoker exception as the local
path, naming the card. Ray Data wraps it (``UserCodeException``) when the dataset is consumed;
``rank_parquet`` unwraps it and raises the pypoker exception itself, and ``pypoker_error(e)``
finds it in any Ray exception. Its row number counts from the start of the failing batch
(Ray does not give a batch its place in the dataset). With ``errors="null"`` bad rows become
nulls, as locally.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from pathlib import Path

from . import arrow
from ._extras import require
from ._games import holdem_only
from ._native import ArgumentError, PokerError
from .datasets import PLAYERS_MAX, PLAYERS_MIN, deal_batch, schema
from .isomorphism import hand_index_size
from .street_tables import street_table as _street_table_local

pa = require("pyarrow")
ray = require("ray")
require("ray.data")  # an ImportError naming the extra, where Ray Data is not installed


def _rank_batch(batch: pa.Table, **options) -> pa.Table:
    return arrow.rank_table(batch, **options, threads=1)


def pypoker_error(error: BaseException) -> PokerError | None:
    """The pypoker exception a worker raised, from a Ray exception: the object itself where
    Ray kept it in the chain, else rebuilt (same class, same message) from the text Ray
    carries back, which ends with the worker's ``pypoker._native.<Class>: <message>``."""
    link, seen = error, 0
    while link is not None and seen < 16:
        if isinstance(link, PokerError):
            return link
        link = getattr(link, "cause", None) or link.__cause__ or link.__context__
        seen += 1
    return PokerError.from_text(str(error))


@contextmanager
def raising_pypoker_errors():
    """Inside it, a Ray exception wrapping a worker's pypoker exception raises that one
    (``pypoker_error``), chained to Ray's; any other exception passes as it is."""
    try:
        yield
    except Exception as error:
        cause = pypoker_error(error)
        if cause is None:
            raise
        raise cause from error


def rank_dataset(
    ds: ray.data.Dataset,
    column: str,
    *,
    into: str = "rank",
    category: str | bool | None = None,
    describe: str | bool | None = None,
    errors: str = "raise",
    batch_size: int | None = 1 << 20,
    game: str = "holdem",
) -> ray.data.Dataset:
    """Ranks ``ds[column]`` on the workers: a Dataset with the rank column(s) added (lazy,
    like every Ray Data transform). Column types as ``pp.arrow.rank`` takes them."""
    holdem_only(game, "pp.ray.rank_dataset")
    arrow.check_errors(errors)
    rank = functools.partial(
        _rank_batch, column=column, into=into, category=category, describe=describe,
        errors=errors,
    )  # fmt: skip
    return ds.map_batches(rank, batch_format="pyarrow", zero_copy_batch=True, batch_size=batch_size)


def rank_parquet(
    source: str,
    target: str,
    column: str,
    *,
    into: str = "rank",
    category: str | bool | None = None,
    describe: str | bool | None = None,
    errors: str = "raise",
    game: str = "holdem",
) -> None:
    """Parquet in (a file, a folder or a glob Ray reads), Parquet out (a folder of files)."""
    holdem_only(game, "pp.ray.rank_parquet")
    ds = ray.data.read_parquet(source)
    ranked = rank_dataset(
        ds, column, into=into, category=category, describe=describe, errors=errors
    )
    with raising_pypoker_errors():
        ranked.write_parquet(target)


def _deal_rows(task: pa.Table, players: int, seed: int, equity: bool) -> pa.Table:
    tables = [
        pa.Table.from_batches([deal_batch(start, count, players, seed, 1, equity)])
        for start, count in zip(task["start"].to_pylist(), task["count"].to_pylist(), strict=True)
    ]
    return pa.concat_tables(tables) if tables else schema(players, equity).empty_table()


def dataset(
    n: int, players: int = 6, *, seed: int, chunk: int = 1 << 18, equity: bool = False
) -> ray.data.Dataset:
    """``pp.dataset(n, players, seed=seed, equity=equity)`` dealt on the workers, ``chunk``
    rows a task. Row ``i`` (its ``deal`` column is ``i``) equals the local generator's row
    ``i``."""
    if not PLAYERS_MIN <= players <= PLAYERS_MAX:
        raise ArgumentError(f"players must be {PLAYERS_MIN}..{PLAYERS_MAX}, got {players!r}")
    if n < 0 or chunk < 1:
        raise ArgumentError("n must be non-negative and chunk positive")
    starts = list(range(0, n, chunk))
    tasks = ray.data.from_arrow(
        pa.table(
            {
                "start": pa.array(starts, pa.uint64()),
                "count": pa.array([min(chunk, n - s) for s in starts], pa.uint64()),
            }
        )
    )
    deal = functools.partial(_deal_rows, players=players, seed=seed, equity=equity)
    return tasks.map_batches(deal, batch_format="pyarrow", batch_size=1)


@ray.remote(num_cpus=1)
def _street_part(street: str, path: str, start: int, count: int, options: dict) -> str:
    _street_table_local(street, path, start=start, count=count, threads=1, **options)
    return path


def street_table(
    street: str,
    folder: str | Path,
    *,
    rows_per_part: int = 1 << 22,
    features=("ehs",),
    bins: int = 50,
    per_street: bool = False,
    start: int = 0,
    count: int | None = None,
) -> list[Path]:
    """``pp.street_table`` on the workers: indices ``start .. start + count`` (the whole
    street by default) cut into parts of ``rows_per_part``, each written by one task to
    ``folder/part-<first index>.parquet``. Parts already in the folder are kept, not redone.
    Returns every part's path, in index order; read them together with
    ``pyarrow.parquet.read_table(folder)``."""
    size = hand_index_size(street, per_street=per_street)
    count = size - start if count is None else count
    if not (0 <= start <= size and 0 <= count <= size - start) or rows_per_part < 1:
        raise ArgumentError(f"start={start}, count={count}, rows_per_part={rows_per_part}: the "
                         f"{street} has indices 0..{size - 1}")  # fmt: skip
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    options = {"features": features, "bins": bins, "per_street": per_street}
    digits = len(str(size))
    parts, pending = [], []
    for first in range(start, start + count, rows_per_part):
        path = target / f"part-{first:0{digits}d}.parquet"
        parts.append(path)
        if not path.exists():
            rows = min(rows_per_part, start + count - first)
            pending.append(_street_part.remote(street, str(path), first, rows, options))
    ray.get(pending)
    return parts


# --- the Range Reader (pypoker.reader) --------------------------------------------------------


@ray.remote(num_cpus=1)
def _reader_shard(path: str, meta: dict) -> str:
    from .reader.generate import write_shard

    write_shard(path, meta, threads=1)
    return path


def reader_generate(hands, folder, population="default", seed=0, **settings) -> list[Path]:
    """``pypoker.reader.generate`` on the workers: the run's shards (``plan``) not yet in
    ``folder``, one Ray task a shard, each written whole or not at all; returns every
    shard's path, in order. ``settings``: ``generate``'s (seats, stacks, blinds,
    shard_hands, tables). The shards equal the local run's of the same arguments."""
    from .reader.generate import plan

    shards = plan(hands, folder, population, seed, **settings)
    pending = [_reader_shard.remote(str(s.path), s.meta) for s in shards if not s.written]
    with raising_pypoker_errors():
        ray.get(pending)
    return [s.path for s in shards]


def reader_hands(folder) -> ray.data.Dataset:
    """The hands of ``folder``'s shards (``reader_generate``'s or ``generate``'s) as a Ray
    Dataset of arena history rows with their ``styles``."""
    from .reader.generate import shards

    if not shards(folder):
        raise ArgumentError(f"{str(folder)!r} holds no shards")
    # The folder, not a list of its files: Ray resolves a list's paths on several threads,
    # where a missing optional fsspec dependency has been seen to fail the import racily.
    # A shard being written is a hidden ".part-….partial" file, which the extension skips.
    return ray.data.read_parquet(str(folder), file_extensions=["parquet"])
