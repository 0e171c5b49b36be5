"""pp.ray on a local Ray cluster (or an existing one: --address), in one run.

    python bench/bench_ray.py [--rows 20M] [--files 8] [--address auto]

Writes --files Parquet files of card text, ranks them into a new folder across the workers
(rank_parquet), and deals a labelled dataset on the workers (pp.ray.dataset), timing each.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import ray

import pypoker as pp
from pypoker.benchmark import machine
from pypoker.cli import parse_count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=parse_count, default=20_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--address", default=None, help="an existing cluster; default: local")
    args = parser.parse_args()
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(include_dashboard=False, log_to_driver=False)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"pypoker {pp.__version__}, ray {ray.__version__}; {cpus} CPUs in the cluster")
    print(f"driver machine: {machine()}\n")
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "hands"
        source.mkdir()
        per_file = args.rows // args.files
        for part in range(args.files):
            cards = pp.deal(per_file, 7, seed=1, start=part * per_file)
            pq.write_table(pa.table({"cards": pp.format_cards(cards)}), source / f"{part}.parquet")
        started = time.perf_counter()
        pp.ray.rank_parquet(str(source), str(Path(directory) / "ranked"), "cards")
        seconds = time.perf_counter() - started
        ranked = pq.read_table(Path(directory) / "ranked", columns=["rank"])
        print(f"rank_parquet: {ranked.num_rows:,} rows of card text in {args.files} files: "
              f"{seconds:.1f} s ({ranked.num_rows / seconds / 1e6:.2f} M rows/s)")  # fmt: skip
        started = time.perf_counter()
        deals = pp.ray.dataset(args.rows // 4, 6, seed=1).count()
        seconds = time.perf_counter() - started
        print(f"pp.ray.dataset: {deals:,} six-player deals in {seconds:.1f} s "
              f"({deals / seconds / 1e6:.2f} M deals/s)")  # fmt: skip
    ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
