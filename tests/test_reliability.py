"""No hang, no lost or half-written file, no wrong answer: fork, signals, SIGKILL at random
moments, temporary names, `out` aliasing, odd numbers, Arrow and CSV edge rows, DuckDB
errors, long messages, and a bounded fuzz of the text and Arrow-offset entry points."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pypoker as pp
from pypoker.cli import main

FORKED_WORKERS = textwrap.dedent(
    """
    import multiprocessing as mp
    import pypoker as pp
    hands = pp.deal(300_000, 7, seed=1)
    expected = [int(pp.rank(pp.deal(200_000, 7, seed=s), threads=1).sum()) for s in (1, 2)]
    pp.rank(hands, threads=2)  # the parent's thread pool now exists

    def work(seed):
        return int(pp.rank(pp.deal(200_000, 7, seed=seed), threads=2).sum())

    with mp.get_context("fork").Pool(2) as pool:
        assert pool.map(work, [1, 2]) == expected
    print("ok")
    """
)


def test_forked_workers_rank_after_the_parent_used_its_threads():
    done = subprocess.run([sys.executable, "-c", FORKED_WORKERS], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def deal_command(target: Path, count: str = "20M") -> list[str]:
    return [sys.executable, "-m", "pypoker", "deal", count, "-p", "6", "-o", str(target)]


def wait_for_temporary(folder: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not list(folder.glob(".*.partial")):
        assert time.monotonic() < deadline, "the run never started writing"
        time.sleep(0.02)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_leave_no_file(tmp_path, signum):
    target = tmp_path / "d.parquet"
    process = subprocess.Popen(deal_command(target), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)  # fmt: skip
    wait_for_temporary(tmp_path)
    time.sleep(0.3)
    process.send_signal(signum)
    process.wait(timeout=30)
    assert process.returncode == 128 + signum
    assert list(tmp_path.iterdir()) == []  # neither the target nor a temporary


def test_sigkill_at_random_moments_never_leaves_a_truncated_target(tmp_path):
    """Only SIGKILL can leave a temporary behind, under a name that is not the target's; the
    target is absent or whole."""
    rng = random.Random(5)
    for attempt in range(20):
        target = tmp_path / f"d{attempt}.parquet"
        process = subprocess.Popen(deal_command(target, "1M"), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        time.sleep(rng.uniform(0.3, 2.5))
        process.kill()
        process.wait(timeout=30)
        if target.exists():
            assert pq.read_metadata(target).num_rows == 1_000_000
        for stray in tmp_path.glob(f".{target.name}.*.partial"):
            stray.unlink()  # a killed run's temporary: never the target's name
        assert {p.name for p in tmp_path.iterdir()} <= {p.name for p in [target]}
        target.unlink(missing_ok=True)


def test_a_file_named_like_a_temporary_is_never_touched(tmp_path):
    victim = tmp_path / "victim.parquet.partial"
    victim.write_text("mine")
    pp.dataset(1000, 2, seed=1, path=tmp_path / "victim.parquet")
    assert victim.read_text() == "mine"
    source = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"cards": pp.format_cards(pp.deal(100, 7, seed=2))}), source)
    (tmp_path / "out.parquet.partial").write_text("mine too")
    pp.arrow.rank_file(source, tmp_path / "out.parquet", "cards")
    assert (tmp_path / "out.parquet.partial").read_text() == "mine too"
    assert pq.read_table(tmp_path / "out.parquet").num_rows == 100


def test_errors_name_the_path_given(capsys):
    assert main(["deal", "1000", "-o", "/nonexistent/dir/o.parquet"]) == 2
    err = capsys.readouterr().err
    assert "/nonexistent/dir/o.parquet" in err and ".partial" not in err


def test_out_may_not_overlap_the_hands():
    ids = pp.deal(1000, 7, seed=3)
    kept = ids.copy()
    with pytest.raises(ValueError, match="overlaps"):
        pp.rank(ids, out=ids.reshape(-1).view(np.uint16)[:1000], threads=4)
    assert np.array_equal(ids, kept)
    sets = np.bitwise_or.reduce(np.uint64(1) << ids.astype(np.uint64), axis=1)
    with pytest.raises(ValueError, match="overlaps"):
        pp.rank(sets, out=sets.view(np.uint16)[:1000], threads=4)
    assert np.array_equal(sets, np.bitwise_or.reduce(np.uint64(1) << ids.astype(np.uint64), 1))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: pp.deal(2, 7, seed=1, start=2**64 - 1), ValueError, "start \\+ n"),
        (lambda: pp.deal(2, 7, seed=-1), ValueError, "seed must be a whole number 0..2\\*\\*64-1"),
        (lambda: pp.deal(2, 7, seed=1.5), TypeError, "seed must be a whole number"),
        (lambda: pp.deal(2, 7, seed=2**64), ValueError, "seed"),
        (lambda: pp.select_cpu(None), TypeError, "select_cpu takes a level's name"),
        (lambda: pp.select_cpu("sse9"), ValueError, "CPU level 'sse9'"),
    ],
)
def test_odd_arguments_are_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_card_set_membership_of_anything_is_a_bool():
    s = pp.CardSet("AhKd")
    assert (-1 in s, 10**30 in s, 52 in s, 38 in s, "Ah" in s) == (False, False, False, True, True)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rank", "--random", "inf"], "not a positive whole count"),
        (["rank", "--random", "1e30"], "is more than"),
        (["equity", "AA", "KK", "--seed", "-1", "-g", "1000"], "seed must be"),
    ],
)
def test_cli_errors_are_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) if "--random" in argv else _no_exit() as exit_info:
        code = main(argv)
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert (exit_info.value.code if exit_info else code) == 2


class _no_exit:
    value = None

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_cli_column_of_the_wrong_type(tmp_path, capsys):
    source = tmp_path / "ints.parquet"
    pq.write_table(pa.table({"n": np.arange(10, dtype=np.int64)}), source)
    assert main(["rank", str(source), "-o", str(tmp_path / "o.parquet"), "--column", "n"]) == 2
    assert "cannot rank a column of int64" in capsys.readouterr().err
    assert not (tmp_path / "o.parquet").exists()


def test_arrow_list_nulls_with_values_behind_them_and_null_cards():
    offsets = pa.array([0, 5, 10, 15], type=pa.int32())
    values = [0, 1, 2, 3, 4, 5, None, 7, 8, 9, 10, 11, None, 13, 14]
    column = pa.ListArray.from_arrays(offsets, pa.array(values, pa.uint8()),
                                      mask=pa.array([False, True, False]))  # fmt: skip
    assert pp.arrow.rank(column, errors="null").to_pylist() == [36866, None, None]
    with pytest.raises(pp.InvalidHandError, match="row 2: a card id is null"):
        pp.arrow.rank(column)
    assert pp.arrow.rank(column.slice(1), errors="null").to_pylist() == [None, None]


def test_csv_keeps_every_row_and_its_number(tmp_path, capsys):
    source = tmp_path / "t.csv"
    source.write_text("cards\nAhKd7c2s3s\n\nQhQd2c3c4c\nAhKx\n")
    target = tmp_path / "o.csv"
    assert main(["rank", str(source), "-o", str(target), "--errors", "null"]) == 0
    ranked = pa.csv.read_csv(target).column("rank").to_pylist()
    assert ranked == [6265, pp.EMPTY_HAND_RANK, 11190, None]  # an empty line: no cards
    assert main(["rank", str(source), "-o", str(tmp_path / "p.csv")]) == 2
    assert "row 3:" in capsys.readouterr().err  # numbered as in the file, the empty row kept


def test_duckdb_errors_name_the_value_and_domains_match_the_api():
    duckdb = pytest.importorskip("duckdb")
    con = pp.arrow.register_duckdb(duckdb.connect())
    hands = pa.table({"cards": ["AhKd7c2s3s"] * 4500 + ["AhKx"] + ["QhQd2c3c4c"] * 499})  # noqa: F841
    with pytest.raises(duckdb.Error, match="bad hand 'AhKx'") as caught:
        con.sql("SELECT poker_rank(cards) FROM hands").fetchall()
    assert "row " not in str(caught.value)
    with pytest.raises(duckdb.Error, match="not a rank"):
        con.sql("SELECT poker_category(65535::USMALLINT)").fetchall()
    with pytest.raises(duckdb.Error, match="0 is not a rank"):
        con.sql("SELECT poker_describe(0::USMALLINT)").fetchall()
    assert con.sql("SELECT poker_category(NULL::USMALLINT)").fetchall() == [(None,)]


def test_long_text_errors_show_the_card_and_some_context_escaped():
    with pytest.raises(pp.CardParseError) as caught:
        pp.parse_cards(" " * 1_400_000 + "AhKx" + " " * 100)
    message = str(caught.value)
    assert len(message) < 200 and "'x'" in message and "…" in message
    with pytest.raises(pp.CardParseError, match=r'"Ah\\x00Kd"'):
        pp.parse_cards("Ah\x00Kd")


def test_fuzzed_text_and_offsets_never_crash_and_agree_row_by_row():
    """Random card-ish text through the Arrow string kernels (every CPU level's) and the
    list kernels: every row is a rank or a refusal, and a row ranks as it does alone."""
    rng = np.random.default_rng(7)
    alphabet = list("AKQJT98765432shcdx0 ,\x00é")
    for level in pp.supported_cpus():
        pp.select_cpu(level)
        texts = ["".join(rng.choice(alphabet, rng.integers(0, 24))) for _ in range(3000)]
        texts += [pp.format_cards(row) for row in pp.deal(2000, 7, seed=int(rng.integers(99)))]
        ranks = pp.arrow.rank(pa.array(texts), errors="null").to_pylist()
        for text, value in zip(texts[:400], ranks[:400], strict=True):
            try:
                alone = pp.rank(text)
            except (ValueError, pp.PokerError):
                alone = None
            assert alone == value, text
        cards = rng.integers(0, 64, size=8000).astype(np.uint8)
        cuts = np.sort(rng.integers(0, 8000, size=1200))
        offsets = np.concatenate([[0], cuts, [8000]]).astype(np.int32)
        lists = pa.ListArray.from_arrays(pa.array(offsets), pa.array(cards))
        pp.arrow.rank(lists, errors="null")  # no crash whatever the lengths and ids
    pp.select_cpu("auto")


def test_a_status_no_input_explains_is_an_internal_error_naming_the_caller():
    from pypoker._native import check_call, lib

    def some_wrapper():
        check_call(lib.PP_OUTPUT_FULL)

    with pytest.raises(pp.InternalError, match=r"in some_wrapper\(\) returned PP_OUTPUT_FULL"):
        some_wrapper()


def test_a_closed_pipe_is_not_an_error():
    done = subprocess.run(f"{sys.executable} -m pypoker equity AA random --combos | head -2",
                          shell=True, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.stdout.count("\n") == 2 and done.stderr == ""
