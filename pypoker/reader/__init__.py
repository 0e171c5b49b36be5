"""The Range Reader: labelled betting data from the arena, the exact posterior over a seat's
hole cards, and the metrics a model that names them is judged by.

- ``examples(hands)``: arena histories → labelled examples (``Examples``; the fixed-size
  encoding ``EXAMPLE_DTYPE``, documented field by field in ``pypoker.reader.examples``);
- ``generate(hands, out, population="default", seed=0)``: hands dealt to a population of
  native agent styles, played and written as Parquet shards (``pypoker reader generate``);
  ``read(out)`` streams their examples back, ``torch_dataset(out)`` as a PyTorch
  ``IterableDataset``;
- ``Population``, ``population``, ``DEFAULT``: the styles dealt to the seats;
- ``real_hands(paths)``: PHH files (Pluribus, HandHQ, ...) as the same histories;
  ``probabilities(examples, using="posterior" | "prior" | a model)``: a read by name;
  ``read_hand(hand, seat)``: one seat's read in one hand, for a person (``pypoker reader
  read``).
- ``Reader``: the model that names a seat's cards (``fit``, ``predict``, ``save``/``load``,
  ``Reader.pretrained()``; ``pypoker reader train``), in NumPy (``pypoker[ml]``).

Needs pyarrow (``pypoker[arrow]``); ``torch_dataset`` needs torch.
"""

from __future__ import annotations

from .dataset import read, torch_dataset
from .evaluate import evaluate, prior
from .examples import ACTIONS_MAX, EXAMPLE_DTYPE, Examples, examples
from .generate import Shard, generate, plan, shards, write_shard
from .model import Reader
from .population import DEFAULT, Population, population
from .posterior import posterior
from .reading import HandRead, read_hand
from .real import REAL, SOURCES, probabilities, real_hands

__all__ = ["ACTIONS_MAX", "DEFAULT", "EXAMPLE_DTYPE", "Examples", "Population", "evaluate",
           "examples", "generate", "population", "posterior", "prior", "read", "Reader", "shards",
           "torch_dataset"]  # fmt: skip
# real.py and reading.py: real hands, reads by name, one hand read for a person
__all__ += ["REAL", "SOURCES", "HandRead", "probabilities", "read_hand", "real_hands"]
__all__ += ["Shard", "plan", "write_shard"]  # generate's shards, one at a time (and on Ray)
