"""Median ns/hand of pypoker's ranking forms, kernel levels and thread counts, the exhaustive
7-card run, the memory floor and the peers (phevaluator, eval7, treys, holdem-hand-evaluator,
pokerkit), measured in one run. The same as ``pypoker bench``; see pypoker/benchmark.py.

    python bench/bench_rank.py [--hands 16M] [--runs 5] [--no-peers] [-o bench/results]

The peers come with ``pip install -e '.[bench]'``; a peer that is not installed is skipped.
"""

from __future__ import annotations

import sys

from pypoker.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["bench", *sys.argv[1:]]))
