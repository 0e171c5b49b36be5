"""`pypoker bench` on a few hands: every row it promises is there, for every CPU level, and
the figures are positive; the latency rows too."""

from __future__ import annotations

import pypoker as pp
from pypoker import benchmark


def test_the_rank_table_has_every_row_on_every_level(tmp_path):
    results = benchmark.run(hands=20_000, runs=5, seed=1, peers=False)
    rows = {(r["name"], r["cpu"], r["threads"]): r["ns_per_hand"] for r in results["rows"]}
    for level in pp.supported_cpus():
        for name in (
            "rank uint8 (N, 7)",
            "rank accumulators",
            "rank accumulators, trusted=True",
            "every 7-card hand (133,784,560)",
            # Seed 002's table: random hands dealt and ranked beside a dealing-only control.
            "control: deal random 5-card hands",
            "random 5-card hands: deal, then rank",
            "control: deal random 7-card hands",
            "random 7-card hands: deal, then rank",
            "every 5-card hand (2,598,960)",
        ):
            assert rows[(name, level, 1)] > 0
    for k in (5, 7):
        assert rows[(f"one call a hand: pp.rank(list of {k} ids)", "scalar", 1)] > 0
    text = benchmark.render(results)
    assert "control: deal random 7-card hands" in text and results["machine"] in text
    # Two threads against one, timed in turn, on a machine with two cores or more.
    two_cores = {row["name"]: row for row in results["two_cores"]}
    if benchmark.cpu_count() >= 2:
        assert set(two_cores) >= {"rank uint8 (N, 7)", "rank_showdown", "deal 7-card hands"}
        assert all(row["speedup"] > 0 and row["cpu"] == pp.cpu() for row in two_cores.values())
        assert "two threads against one, in turn" in text
    # The checksum is the ranks' sum: the same whatever the form or level ranked them.
    assert results["checksum"] == int(pp.rank(pp.deal(20_000, 7, seed=1)).sum())


def test_latency_rows():
    rows = dict(benchmark.latency(runs=5, peers=False))
    assert rows["pp.rank(list of 7 ids)"] > 0
    assert rows["pp.rank((N=100, 7)): per-call overhead"] > -1  # a difference of medians


def test_the_machine_line_names_vendor_family_and_model():
    line = benchmark.machine()
    assert line.endswith(f"{benchmark.cpu_count()} cores, Linux x86_64")
    with open("/proc/cpuinfo") as f:
        vendor = next(row.split(":")[1].strip() for row in f if row.startswith("vendor_id"))
    assert f"({vendor} family " in line and " model " in line
