"""The Range Reader on real hands (issue 48, part 5): cross-entropy of the exact posterior
against the board-only prior on the public PHH dataset's hands.

    python bench/eval_reader_real.py [--pluribus PATH] [--handhq PATH]

PATH: a PHH file or a folder of them. The defaults are the samples in tests/data/real/
(200 Pluribus hands, 15 HandHQ showdowns); the full sets come from the PHH dataset
(https://github.com/uoftcprg/phh-dataset: data/pluribus/, 10,000 hands; data/handhq/).

- Pluribus (Brown and Sandholm, 2019): six strong bots, every seat's cards known, so every
  seat dealt in is read;
- HandHQ: human play, only the cards shown at showdown are known: the labelled examples are
  hands that reached showdown and the seats that showed, a biased sample (stronger hands,
  passive lines), not human play at large.

The posterior is ``pypoker.reader.probabilities(examples, "posterior")``: the exact posterior
under ``REAL`` (the default population's styles and the random player as a catch-all, styles
hidden), the prior for a seat whose actions no style gives a chance. The shipped model (trained on
arena play) is ``using="model"``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pypoker import reader
from pypoker.benchmark import machine

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "real"


def evaluate(name: str, source) -> dict:
    started = time.perf_counter()
    hands = reader.real_hands(source)
    examples = reader.examples(hands)
    read_s = time.perf_counter() - started
    started = time.perf_counter()
    post = reader.probabilities(examples, "posterior")
    post_s = time.perf_counter() - started
    prior = reader.probabilities(examples, "prior")
    model = reader.probabilities(examples, "model")  # the shipped Reader, styles hidden
    figures = reader.evaluate(post, examples, posterior=post)
    by_prior = reader.evaluate(prior, examples)
    by_model = reader.evaluate(model, examples)
    print(f"{name}: {hands.num_rows:,} hands, {len(examples):,} labelled examples "
          f"(read in {read_s:.1f} s, posterior in {post_s:.1f} s)")  # fmt: skip
    print(f"  cross-entropy (nats): posterior {figures['cross_entropy']:.3f}, "
          f"model {by_model['cross_entropy']:.3f}, "
          f"board-only prior {figures['prior_cross_entropy']:.3f}")  # fmt: skip
    print(
        f"  top-10: posterior {figures['top10']:.1%}, model {by_model['top10']:.1%}, "
        f"prior {by_prior['top10']:.1%}; "
        f"169-class: posterior {figures['class169']:.1%}, prior {by_prior['class169']:.1%}"
    )
    streets = ", ".join(f"{street} {f['cross_entropy']:.2f}/{f['prior_cross_entropy']:.2f}"
                        for street, f in figures["by_street"].items())  # fmt: skip
    print(f"  by street (posterior/prior): {streets}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pluribus", default=str(DATA / "pluribus.phhs"))
    parser.add_argument("--handhq", default=str(DATA / "handhq.phhs"))
    args = parser.parse_args()
    print(machine())
    evaluate("Pluribus", args.pluribus)
    evaluate("HandHQ (showdowns only: a biased sample)", args.handhq)


if __name__ == "__main__":
    main()
