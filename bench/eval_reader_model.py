"""The Reader model against the issue's bars (issue 48): trained on ``--train-hands`` hands of
the default population (seed 0; or the shipped pretrained model with ``--pretrained``),
evaluated on ``--test-hands`` held-out hands (seed 1, never used in training): mean
cross-entropy of the model, the exact posterior and the board-only prior with styles known
and hidden, and top-k accuracy. Bars: model ≤ posterior + 0.15 nats (known), + 0.25
(hidden); top-10 within 2 points of the posterior's.

    python bench/eval_reader_model.py --test-hands 100000 --pretrained
    python bench/eval_reader_model.py --test-hands 20000 --train-hands 200000
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

from pypoker.reader import Reader, generate
from pypoker.reader.cli import describe


def cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test-hands", type=int, default=20_000)
    parser.add_argument("--train-hands", type=int, default=200_000)
    parser.add_argument("--pretrained", action="store_true", help="evaluate the shipped model")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--work", default=None, help="folder for the data (default: temp)")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="reader-eval-"))
    print(f"CPU: {cpu()}")
    test = work / f"test-{args.test_hands}"
    generate(args.test_hands, test, seed=1)  # a seed training never uses (it uses 0)
    if args.pretrained:
        model = Reader.pretrained()
        print(f"model: the pretrained one ({model.info.get('examples', '?'):,} examples)")
    else:
        train = work / f"train-{args.train_hands}"
        generate(args.train_hands, train, seed=0)
        started = time.perf_counter()
        model = Reader().fit(train, epochs=args.epochs, seed=0, progress=True)
        print(f"trained on {args.train_hands:,} hands ({model.info['examples']:,} examples) in "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    bars = {True: 0.15, False: 0.25}
    for known in (True, False):
        started = time.perf_counter()
        result = model.evaluate(test, known_styles=known)
        print(describe(result, "styles known" if known else "styles hidden"))
        gap = result["cross_entropy"] - result["posterior_cross_entropy"]
        top = result["posterior_top10"] - result["top10"]
        print(f"  gap to the posterior {gap:+.3f} nats (bar {bars[known]:+.2f}: "
              f"{'met' if gap <= bars[known] else 'MISSED'}); top-10 {top * 100:+.2f} points "
              f"behind (bar 2: {'met' if top <= 0.02 else 'MISSED'}); "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
