"""``generate``: hands dealt to a population of native agent styles, played natively and
written as Parquet shards of arena histories with each seat's style (``styles``), the
Range Reader's data; ``shards`` lists a folder's, ``read`` streams their examples back.

Shard ``i`` (``part-00000.parquet``, ...) holds hands ``i * shard_hands`` onwards: an arena
of ``tables`` tables numbered from ``i * tables`` under ``seed``, each playing its share of
the shard's hands; every hand is a pure function of (seed, table, hand) and so is every
seat's style (``Population.styles``), so a shard is the same whatever the threads or the
run that wrote it. Each appears whole or not at all (``_atomic``); a rerun skips the shards
already written (their metadata must match the run's) and plays the rest.

``plan`` lists a run's shards (path, metadata, written already?) and ``write_shard`` writes
one: ``generate`` runs them in turn here, ``pypoker.ray.reader_generate`` one Ray task a
shard, so the two write the same shards.

A shard holds hands, not examples: examples are a pure function of a hand, derived
natively when read (about 14 a 6-max hand, 608 bytes each in the fixed-size encoding), so a
shard stays at ~40 bytes a hand on disk and is written as fast as the hands are played.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from .._arguments import whole
from .._native import ArgumentError, PokerError, lib, thread_error
from .._progress import reporter
from .._version import VERSION
from ..arena._config import check_status
from .population import population as as_population

SHARD_NAME = "part-{:05d}.parquet"
_META_KEY = b"pypoker.reader"


class _PopulationSeats:
    """What ``arena._play`` calls to play a slice of tables: the population's styles."""

    def __init__(self, population):
        self.native = population.native()

    def play(self, arena, tables, n, left, io):
        err = thread_error()
        config = arena.native.config
        status = lib.pp_population_play(config, self.native, tables, n, left, io, err)
        check_status(status, err)


def _settings(hands, population, seed, seats, stacks, blinds, shard_hands, tables) -> dict:
    return dict(hands=whole("hands", hands, 1, 1 << 40),
                seed=whole("seed", seed, 0, (1 << 64) - 1),
                seats=whole("seats", seats, 2, 10), stacks=stacks, blinds=list(blinds),
                shard_hands=whole("shard_hands", shard_hands, 1, 1 << 30),
                tables=whole("tables", tables, 1, 1 << 16),
                population=[dataclass_dict(a) for a in population.agents],
                weights=list(population.weights), names=list(population.names))  # fmt: skip


def dataclass_dict(agent) -> dict:
    return dataclasses.asdict(agent)


@dataclasses.dataclass(frozen=True)
class Shard:
    """One shard of a run: its ``path``, its ``meta`` (the run's settings, its number and
    rows: what ``write_shard`` needs, and the metadata it is written with) and whether it
    is ``written`` already (by a run of the same settings)."""

    path: Path
    meta: dict
    written: bool


def plan(hands, out, population="default", seed=0, *, seats=6, stacks=200, blinds=(1, 2),
         shard_hands=1 << 20, tables=256) -> list[Shard]:  # fmt: skip
    """The shards of a run of ``generate`` (same arguments), in order, the folder ``out``
    made if missing: what the local ``generate`` and ``pypoker.ray.reader_generate`` both
    write, one ``write_shard`` a shard not written yet. A shard in the folder from a run of
    other settings raises a ``PokerError``."""
    pop = as_population(population)
    settings = _settings(hands, pop, seed, seats, stacks, blinds, shard_hands, tables)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ArgumentError(f"out {str(folder)!r} is a file: give a folder for the shards")
    folder.mkdir(parents=True, exist_ok=True)
    count = -(-settings["hands"] // settings["shard_hands"])
    shards = []
    for i in range(count):
        size = min(settings["shard_hands"], settings["hands"] - i * settings["shard_hands"])
        path = folder / SHARD_NAME.format(i)
        meta = {**settings, "shard": i, "shard_rows": size, "version": VERSION}
        shards.append(Shard(path, meta, _finished(path, meta)))
    return shards


def write_shard(path, meta: dict, threads=None, report=None) -> Path:
    """Plays and writes one shard of ``plan`` (whole or not at all); ``report``: called with
    (hands done in the shard, hands in it) as it goes."""
    pop = _population(meta)
    _write_shard(Path(path), meta, pop, threads, report or (lambda done, total: None))
    return Path(path)


def generate(hands, out, population="default", seed=0, *, seats=6, stacks=200, blinds=(1, 2),
             shard_hands=1 << 20, tables=256, threads=None,
             progress=None) -> list[Path]:  # fmt: skip
    """Plays ``hands`` hands of ``seats``-handed no-limit hold'em (``stacks`` chips a seat,
    ``blinds``), every seat of every hand dealt a style of ``population`` (``"default"``:
    ``pypoker.reader.DEFAULT``), into Parquet shards of ``shard_hands`` hands in the folder
    ``out`` (made if missing); returns the shards' paths. ``progress``: True for a report
    on stderr, or a callable taking (hands done, hands in all). Ctrl-C stops within
    milliseconds, leaving only whole shards; a rerun goes on where it stopped."""
    shards = plan(hands, out, population, seed, seats=seats, stacks=stacks, blinds=blinds,
                  shard_hands=shard_hands, tables=tables)  # fmt: skip
    total = sum(s.meta["shard_rows"] for s in shards)
    report = reporter(progress, "reader generate", "hands")
    done = 0
    for shard in shards:
        if not shard.written:
            write_shard(shard.path, shard.meta, threads,
                        lambda d, t, done=done: report(done + d, total))  # fmt: skip
        done += shard.meta["shard_rows"]
        report(done, total)
    report(None, total)
    return [shard.path for shard in shards]


def _finished(path: Path, meta: dict) -> bool:
    """Whether the shard is written already (by a run of the same settings)."""
    if not path.exists():
        return False
    import pyarrow.parquet as pq

    found = (pq.read_schema(path).metadata or {}).get(_META_KEY)
    theirs = json.loads(found) if found else None
    if theirs is None or {k: v for k, v in theirs.items() if k != "version"} != {
        k: v for k, v in meta.items() if k != "version"
    }:
        raise PokerError(f"{path} was written by another run (other settings, population or "
                         "seed): write to another folder, or remove it")  # fmt: skip
    return True


def _write_shard(path: Path, meta: dict, pop, threads, report) -> None:
    from .._table_files import writing
    from ..arena._arena import Arena
    from ..arena._play import play_batches

    tables = min(meta["tables"], meta["shard_rows"])
    per_table = -(-meta["shard_rows"] // tables)
    arena = Arena(tables, meta["seats"], stacks=meta["stacks"], blinds=tuple(meta["blinds"]),
                  seed=meta["seed"], first_table=meta["shard"] * meta["tables"])  # fmt: skip
    batches = play_batches(arena, per_table, threads=threads, progress=lambda d, t: report(d, t),
                           seats=_PopulationSeats(pop))  # fmt: skip
    schema = _schema(batches.schema, meta)
    left = meta["shard_rows"]
    # zstd without dictionaries: the fastest to write of pyarrow's choices here (2.5 µs a
    # 6-max hand, against 3.6 with the default snappy and dictionaries) and 48 bytes a hand.
    with writing(path, schema, kinds=("parquet",), compression="zstd",
                 use_dictionary=False) as writer:  # fmt: skip
        left = _write_batches(writer, batches, left, pop, meta["seed"], schema)
    assert left == 0, "a shard came out short"


def _write_batches(writer, batches, left: int, pop, seed: int, schema) -> int:
    for batch in batches:
        batch = batch.slice(0, min(left, batch.num_rows))
        left -= batch.num_rows
        if batch.num_rows:
            writer.write(with_styles(batch, pop, seed, schema))
        if left == 0:
            break
    return left


def _schema(history_schema, meta: dict):
    import pyarrow as pa

    schema = history_schema.append(pa.field("styles", pa.list_(pa.uint8())))
    return schema.with_metadata({_META_KEY: json.dumps(meta).encode()})


def with_styles(batch, pop, seed: int, schema):
    """The history batch with each seat's style (a ``styles`` list column)."""
    import pyarrow as pa

    tables = batch.column("table").to_numpy()
    hands = batch.column("hand").to_numpy()
    seats = int(batch.column("seats")[0].as_py()) if batch.num_rows else 2
    styles = pop.styles(seed, tables, hands, seats)
    offsets = pa.array(np.arange(0, styles.size + 1, seats, dtype=np.int32))
    column = pa.ListArray.from_arrays(offsets, pa.array(styles.reshape(-1)))
    return pa.RecordBatch.from_arrays([*batch.columns, column], schema=schema)


def shards(out) -> list[Path]:
    """The shards ``generate`` wrote into the folder ``out``, in order."""
    folder = Path(out)
    if not folder.is_dir():
        raise ArgumentError(f"{str(folder)!r} is not a folder of shards")
    return sorted(folder.glob("part-*.parquet"))


def shard_population(path):
    """The population a shard's hands were played by (from its metadata), or None."""
    import pyarrow.parquet as pq

    found = (pq.read_schema(path).metadata or {}).get(_META_KEY)
    return _population(json.loads(found)) if found else None


def _population(meta: dict):
    """The population of a shard's metadata."""
    from ..arena.agents import Agent
    from .population import Population

    agents = tuple(Agent(**a) for a in meta["population"])
    return Population(agents, tuple(meta["weights"]), tuple(meta["names"]))
