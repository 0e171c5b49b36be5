"""Ctrl-C reaches every public call that can run long, within 0.2 s.

The cases are enumerated from the public API: every callable ``pp.__all__``,
``pp.arrow.__all__`` and ``pypoker.arena.__all__`` name is either in ``LONG`` (with a call
that runs for seconds) or in ``SHORT`` (it cannot run long in native code), so a new function
fails here until it is classed. Each case runs in a child process that calls the function in
a loop; the test sends SIGINT and measures how long the child takes to say it was interrupted
(printed, for the record). A call that did its work in one native call of seconds would answer late.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import pypoker as pp
import pypoker.arena as arena
import pypoker.arrow

# name → (setup, call): the call runs for well over 0.2 s (most take seconds each) on inputs
# the setup builds; `threads=2` where the function takes threads, so workers are stopped too.
DEALT = "cards = pp.deal(2_000_000, 17, seed=1)\n"
READ_HEADS_UP = (
    "import tempfile\nimport pypoker.reader as reader\nfolder = tempfile.mkdtemp()\n"
    "reader.generate(20_000, folder, seats=2)\n"
    "ex = next(reader.read(folder, batch_hands=20_000))"
)
LONG = {
    "rank": ("hands = pp.deal(8_000_000, 7, seed=1)", "pp.rank(hands, threads=2)"),
    "rank_showdown": (
        DEALT + "boards, holes = cards[:, :5], cards[:, 5:].reshape(-1, 6, 2)",
        "pp.rank_showdown(boards, holes, threads=2)",
    ),
    "rank_omaha": (
        DEALT + "boards, holes = cards[:, :5], cards[:, 5:9]",
        "pp.rank_omaha(holes, boards, threads=2)",
    ),
    "rank_showdown_omaha": (
        DEALT + "boards, holes = cards[:, :5], cards[:, 5:].reshape(-1, 3, 4)",
        "pp.rank_showdown_omaha(boards, holes, threads=2)",
    ),
    "rank_low_omaha": (
        "cards = pp.deal(8_000_000, 9, seed=1)\nboards, holes = cards[:, :5], cards[:, 5:]",
        "pp.rank_low_omaha(holes, boards, threads=2)",
    ),
    "deal": ("", "pp.deal(8_000_000, 7, seed=1, threads=2)"),
    "accumulate": ("hands = pp.deal(8_000_000, 7, seed=1)", "pp.accumulate(hands)"),
    "merge": (
        "a = pp.accumulate(pp.deal(8_000_000, 2, seed=1, exclude='AhKhQh'))\n"
        "b = pp.accumulate(pp.parse_cards('AhKhQh').reshape(1, 3))[0]",
        "pp.merge(a, b)",
    ),
    "category_counts": ("", "pp.category_counts(7, threads=2)"),
    "combinations": ("", "pp.combinations(6)"),
    "iter_combinations": ("", "for _ in pp.iter_combinations(7, chunk=1 << 22): pass"),
    "hand_index": (
        "hands = pp.deal(4_000_000, 7, seed=1)",
        "pp.hand_index(hands[:, :2], hands[:, 2:], threads=2)",
    ),
    "hand_unindex": ("import numpy as np\ni = np.arange(8_000_000)", "pp.hand_unindex('river', i)"),
    "hand_features": (
        "cards = pp.deal(2_000, 5, seed=1)",
        "pp.hand_features(cards[:, :2], cards[:, 2:], threads=2)",
    ),
    "hand_strength": (
        "cards = pp.deal(2_000, 5, seed=1)",
        "pp.hand_strength(cards[:, :2], cards[:, 2:], threads=2)",
    ),
    "equity_histogram": (
        "cards = pp.deal(2_000, 5, seed=1)",
        "pp.equity_histogram(cards[:, :2], cards[:, 2:], bins=10, threads=2)",
    ),
    "equities": ("cards = pp.deal(40_000, 4, seed=1)", "pp.equities(cards, threads=2)"),
    "hand_vs_range": ("boards = pp.deal(300, 3, seed=1)", "pp.hand_vs_range(boards, threads=2)"),
    "equity": ("", "pp.equity(['AA', 'random', 'random'], exact=True, threads=2)"),
    "street_table": ("", "pp.street_table('flop', threads=2)"),
    "dataset": ("", "pp.dataset(400_000, 6, seed=1, equity=True, threads=2)"),
    "best_five": ("hands = pp.deal(8_000_000, 7, seed=1)", "pp.best_five(hands, threads=2)"),
    "arrow.best_five": (
        "import pyarrow as pa\n"
        "column = pa.array(list(pp.deal(4_000_000, 7, seed=1)), pa.list_(pa.uint8(), 7))",
        "pp.arrow.best_five(column, threads=2)",
    ),
    "arrow.rank": (
        "import pyarrow as pa\n"
        "column = pa.array(list(pp.deal(4_000_000, 7, seed=1)), pa.list_(pa.uint8(), 7))",
        "pp.arrow.rank(column, threads=2)",
    ),
    "arrow.rank_table": (
        "import pyarrow as pa\n"
        "h = pa.array(list(pp.deal(4_000_000, 7, seed=1)), pa.list_(pa.uint8(), 7))\n"
        "table = pa.table({'cards': h})",
        "pp.arrow.rank_table(table, 'cards', threads=2)",
    ),
    "arrow.rank_file": (
        "import pyarrow as pa, pyarrow.parquet as pq, tempfile, os\n"
        "h = pa.array(list(pp.deal(4_000_000, 7, seed=1)), pa.list_(pa.uint8(), 7))\n"
        "folder = tempfile.mkdtemp()\n"
        "source = os.path.join(folder, 'in.parquet')\n"
        "pq.write_table(pa.table({'cards': h}), source)\n"
        "target = os.path.join(folder, 'out.parquet')",
        "pp.arrow.rank_file(source, target, column='cards', threads=2); os.remove(target)",
    ),
    "arena.Arena": (
        "from pypoker.arena import Arena\narena = Arena(4096, 6, seed=1)",
        "arena.play(300, record=True)",
    ),
    "arena.match": (
        "from pypoker.arena import match",
        "match(['equity', 'call'], hands=4_000_000, seed=1)",
    ),
    "reader.generate": (
        "import tempfile\nimport pypoker.reader as reader",
        "reader.generate(1_000_000, tempfile.mkdtemp(), threads=2)",
    ),
    "reader.examples": (
        "import pypoker.reader as reader\nfrom pypoker.arena import Arena\n"
        "hands = Arena(128, 6, seed=1).play(400, agents='equity:temperature=0.1', record=True)",
        "reader.examples(hands, threads=2)",
    ),
    "reader.posterior": (READ_HEADS_UP, "reader.posterior(ex, threads=2)"),
    "reader.prior": (READ_HEADS_UP, "reader.prior(ex)"),
    "reader.Reader": (READ_HEADS_UP, "reader.Reader.pretrained().predict(ex)"),
    "reader.evaluate": (READ_HEADS_UP, "reader.evaluate(reader.prior(ex), ex)"),
    "reader.probabilities": (READ_HEADS_UP, "reader.probabilities(ex, 'posterior', threads=2)"),
    "reader.write_shard": (
        "import tempfile\nimport pypoker.reader as reader\n"
        "shard = reader.plan(1_000_000, tempfile.mkdtemp(), shard_hands=1_000_000)[0]",
        "reader.write_shard(shard.path, shard.meta, threads=2)",
    ),
}

# Callables that cannot run long in native code: constant-time calls, pure NumPy on the
# caller's array, or Python over text (Ctrl-C is seen between bytecodes), or classes.
SHORT = {
    "ArgumentError", "CardSet", "EquityResult", "CardParseError", "InternalError",
    "InvalidHandError", "PokerError", "card_set", "category", "cpu", "describe", "format_cards",
    "hand_index_size", "parse_cards", "plot_range_grid", "range_grid", "select_cpu",
    "split_pot", "describe_low",  # NumPy on the caller's ranks; Python over a list
    "supported_cpus", "arrow.RankResult", "arrow.check_errors", "arrow.register_duckdb",
    "arena.IllegalActionError", "arena.MatchResult", "arena.Observation", "arena.StepResult",
    # The reader's classes and its readers (one examples() call a batch).
    "reader.Examples", "reader.Population", "reader.population", "reader.read",
    "reader.shards", "reader.torch_dataset",
    # Real hands: Python over PHH text, then examples() and posterior() on one file or hand.
    "reader.HandRead", "reader.Shard", "reader.plan", "reader.read_hand", "reader.real_hands",
}  # fmt: skip


def public_callables() -> set[str]:
    import pypoker.reader as reader

    names = {n for n in pp.__all__ if callable(getattr(pp, n))}
    names |= {f"arrow.{n}" for n in pp.arrow.__all__ if callable(getattr(pp.arrow, n))}
    names |= {f"reader.{n}" for n in reader.__all__ if callable(getattr(reader, n))}
    return names | {f"arena.{n}" for n in arena.__all__ if callable(getattr(arena, n))}


def test_every_public_callable_is_classed():
    assert public_callables() == set(LONG) | SHORT


CHILD = """
import os, sys, time
import pypoker as pp
import pypoker.arena
import pypoker.arrow
{setup}
print("go", flush=True)
try:
    while True:
        {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def _line(process, timeout: float) -> str:
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline().strip() if ready else ""


# A shared machine can hold a process off the CPU for longer than the bound; a call that does
# not poll for Ctrl-C runs on for seconds every time, so the fastest of a few tries tells.
TRIES = 3


def _stop_delay(name: str) -> float:
    """Seconds from SIGINT to the child's "interrupted", one call of ``LONG[name]`` running."""
    setup, call = LONG[name]
    script = CHILD.format(setup=setup, call=call)
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert _line(process, 300) == "go", process.stderr.read() if process.poll() else ""
        time.sleep(1.0)  # well into a call (the first may build tables)
        sent = time.perf_counter()
        process.send_signal(signal.SIGINT)
        answer = _line(process, 30)
        delay = time.perf_counter() - sent
        assert answer == "interrupted", process.stderr.read() if process.poll() else answer
        return delay
    finally:
        process.kill()
        process.communicate()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("name", sorted(LONG))
def test_ctrl_c_stops_the_call_within_a_fifth_of_a_second(name):
    delays = []
    while len(delays) < TRIES and min(delays, default=1.0) >= 0.2:
        delays.append(_stop_delay(name))
    print(f"{name}: stopped {', '.join(f'{d * 1000:.0f}' for d in delays)} ms after SIGINT")
    assert min(delays) < 0.2, f"{name} took {min(delays):.3f} s at best to stop ({delays})"
