"""pypoker: rank poker hands in bulk from Python.

A Zig core ranks whole NumPy arrays of hands (card ids or card sets) at a few nanoseconds a
hand; this package is its Python face. Encodings (fixed):

- card id ``suit * 13 + value``; value 0 = deuce … 12 = ace; suit 0..3 = s, c, h, d;
- card set: a uint64 with bit ``id`` set per card, bits 52..63 zero;
- rank: uint16 ``(category << 12) | subrank``, higher wins, equal ties, 0 never a rank.
"""

from __future__ import annotations

from ._native import (
    ArgumentError,
    CardParseError,
    InternalError,
    InvalidHandError,
    PokerError,
    cpu,
    select_cpu,
    supported_cpus,
)
from ._spot import COMBOS
from ._version import VERSION
from .accumulators import ACCUMULATOR, accumulate, merge
from .cards import CARD_NAMES, format_cards, parse_cards
from .cardset import CardSet
from .datasets import dataset
from .dealing import card_set, deal
from .enumeration import category_counts, combinations, iter_combinations
from .equity import EquityResult, equities, equity
from .features import FEATURES, equity_histogram, hand_features, hand_strength, hand_vs_range
from .five_cards import best_five
from .isomorphism import hand_index, hand_index_size, hand_unindex
from .omaha import (
    LOW_BEST,
    LOW_WORST,
    NO_LOW,
    describe_low,
    rank_low_omaha,
    rank_omaha,
    rank_showdown_omaha,
    split_pot,
)
from .range_grid import plot_range_grid, range_grid
from .ranking import CATEGORY_NAMES, EMPTY_HAND_RANK, category, describe, rank, rank_showdown
from .street_tables import street_table

__version__ = VERSION


def __getattr__(name: str):
    """``pp.arrow`` and ``pp.ray`` are imported on first use: they need pyarrow (and Ray),
    the core does not."""
    if name in ("arrow", "ray"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'pypoker' has no attribute {name!r}")


__all__ = [
    "ACCUMULATOR",
    "CARD_NAMES",
    "CATEGORY_NAMES",
    "EMPTY_HAND_RANK",
    "LOW_BEST",
    "LOW_WORST",
    "NO_LOW",
    "COMBOS",
    "ArgumentError",
    "CardParseError",
    "CardSet",
    "EquityResult",
    "FEATURES",
    "InternalError",
    "InvalidHandError",
    "PokerError",
    "accumulate",
    "best_five",
    "card_set",
    "category",
    "category_counts",
    "combinations",
    "cpu",
    "dataset",
    "equities",
    "equity",
    "equity_histogram",
    "hand_features",
    "hand_index",
    "hand_index_size",
    "hand_strength",
    "hand_unindex",
    "hand_vs_range",
    "deal",
    "describe",
    "describe_low",
    "format_cards",
    "iter_combinations",
    "merge",
    "parse_cards",
    "plot_range_grid",
    "range_grid",
    "rank",
    "rank_low_omaha",
    "rank_omaha",
    "rank_showdown",
    "rank_showdown_omaha",
    "select_cpu",
    "split_pot",
    "street_table",
    "supported_cpus",
]
