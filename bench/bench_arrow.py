"""Arrow columns and Parquet files, against the bars of the Arrow issue.

    python bench/bench_arrow.py [--hands 16M] [--runs 5] [--file-rows 100M] [--no-file]

- a fixed_size_list<uint8>[7] column vs the NumPy path on the same hands (one thread);
- string columns (AhKd7c2s3sQhJd form, and with spaces) parsed and ranked (one thread);
- a Parquet file of --file-rows rows ranked into a new Parquet file, in a child process
  whose peak RSS is reported.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import pypoker as pp
from pypoker.benchmark import machine, median_ns
from pypoker.cli import parse_count


def write_big_file(path: Path, rows: int, batch: int = 1 << 22) -> None:
    schema = pa.schema([("cards", pa.list_(pa.uint8(), 7))])
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for start in range(0, rows, batch):
            count = min(batch, rows - start)
            cards = pp.deal(count, 7, seed=5, start=start)
            column = pa.FixedSizeListArray.from_arrays(pa.array(cards.reshape(-1)), 7)
            writer.write_batch(pa.record_batch([column], schema=schema), row_group_size=batch)


def big_file(rows: int) -> None:
    """Runs first, while this process is small: the child measures its own peak RSS (a
    forked child would otherwise start with a copy of a large parent's pages)."""
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "hands.parquet"
        started = time.perf_counter()
        write_big_file(source, rows)
        size = source.stat().st_size
        print(f"wrote {rows:,} rows to Parquet ({size / 2**20:.0f} MiB) in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
        target = Path(directory) / "ranked.parquet"
        code = (
            "import pypoker as pp, resource, sys; r = pp.arrow.rank_file(sys.argv[1], "
            "sys.argv[2], 'cards', category=True); "
            "print(r.rows, r.seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
        )
        result = subprocess.run(
            [sys.executable, "-c", code, str(source), str(target)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        ranked, seconds, peak_kib = result.stdout.split()
        print(f"ranked it into a new Parquet file: {int(ranked):,} rows in {float(seconds):.1f} s, "
              f"peak RSS {int(peak_kib) / 2**20:.2f} GiB\n")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=parse_count, default=16_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file-rows", type=parse_count, default=100_000_000)
    parser.add_argument("--no-file", action="store_true")
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; kernels: {pp.cpu()}")
    print(f"pyarrow {pa.__version__}; {args.hands:,} hands; median of {args.runs} runs\n")

    if not args.no_file:
        big_file(args.file_rows)

    cards = pp.deal(args.hands, 7, seed=1)
    n = args.hands
    out = np.zeros(n, dtype=np.uint16)
    numpy_ns = median_ns(lambda: pp.rank(cards, out=out, threads=1), args.runs) / n
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(cards.reshape(-1)), 7)
    fixed_ns = median_ns(lambda: pp.arrow.rank(fixed, threads=1), args.runs) / n
    print(f"NumPy uint8 (N, 7)                      {numpy_ns:7.3f} ns/hand")
    print(f"Arrow fixed_size_list<uint8>[7]         {fixed_ns:7.3f} ns/hand "
          f"({(fixed_ns / numpy_ns - 1) * 100:+.1f}% vs NumPy)")  # fmt: skip
    texts = pp.format_cards(cards[: n // 4])
    for label, column in (
        ("Arrow string 'AhKd7c2s3sQhJd'", pa.array(texts, pa.string())),
        ("Arrow large_string", pa.array(texts, pa.large_string())),
        ("Arrow string 'Ah Kd 7c 2s 3s Qh Jd'",
         pa.array([" ".join(t[i : i + 2] for i in range(0, 14, 2)) for t in texts])),
    ):  # fmt: skip
        ns = median_ns(lambda c=column: pp.arrow.rank(c, threads=1), args.runs) / len(column)
        print(f"{label:<40}{ns:7.3f} ns/hand (parse + rank)")

    return 0


if __name__ == "__main__":
    raise SystemExit(main())
