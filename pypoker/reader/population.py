"""Populations: native agent styles dealt to the seats, a fresh draw for every seat of every
hand (zsrc/arena/agents/population.zig), so a seat's style is a pure function of (seed,
table, hand, seat) and the reader can name it for every recorded hand.

``DEFAULT`` (``population("default")``), the population the Range Reader's data is dealt
from by default: eight ``equity`` agents (zsrc/arena/agents/equity.zig), equally likely,
between tight and loose (``tightness``: pot odds times 1 + tightness to call), passive and
aggressive (``aggression``: how far below the top a hand still raises), small and large
bets (``bet``: a first bet's pot fraction; ``raise_``: a raise's, after calling), all with
``temperature`` > 0 so that every kind a style can choose keeps a chance and reads stay
soft:

=====  ==================  =========  ==========  ====  ======  ===========
style  name                tightness  aggression  bet   raise_  temperature
=====  ==================  =========  ==========  ====  ======  ===========
0      tight-passive       0.6        0.3         0.5   0.75    0.05
1      tight-aggressive    0.6        0.7         0.75  1.0     0.05
2      loose-passive       0.0        0.3         0.5   0.75    0.08
3      loose-aggressive    0.0        0.8         1.0   1.0     0.08
4      balanced            0.25       0.5         0.66  1.0     0.05
5      overbettor          0.3        0.6         1.5   1.5     0.05
6      small-ball          0.2        0.5         0.33  0.5     0.05
7      noisy               0.2        0.5         0.75  1.0     0.2
=====  ==================  =========  ==========  ====  ======  ===========
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._native import ArgumentError, PokerError, ffi, lib
from ..arena.agents import Agent, agent

STYLES_MAX = lib.PP_POPULATION_STYLES_MAX
NO_STYLE = lib.PP_NO_STYLE

_DEFAULT_STYLES = (
    ("tight-passive", 0.6, 0.3, 0.5, 0.75, 0.05),
    ("tight-aggressive", 0.6, 0.7, 0.75, 1.0, 0.05),
    ("loose-passive", 0.0, 0.3, 0.5, 0.75, 0.08),
    ("loose-aggressive", 0.0, 0.8, 1.0, 1.0, 0.08),
    ("balanced", 0.25, 0.5, 0.66, 1.0, 0.05),
    ("overbettor", 0.3, 0.6, 1.5, 1.5, 0.05),
    ("small-ball", 0.2, 0.5, 0.33, 0.5, 0.05),
    ("noisy", 0.2, 0.5, 0.75, 1.0, 0.2),
)


@dataclasses.dataclass(frozen=True)
class Population:
    """Styles (native ``Agent``s), each dealt to a seat with probability ``weights[k]`` (any
    non-negative numbers, normalised; default equal), and their ``names``."""

    agents: tuple
    weights: tuple = ()
    names: tuple = ()

    def __post_init__(self):
        agents = tuple(agent(a) for a in self.agents)
        if not 1 <= len(agents) <= STYLES_MAX:
            raise PokerError(f"a population holds 1..{STYLES_MAX} styles, got {len(agents)}")
        weights = tuple(float(w) for w in self.weights) or (1.0,) * len(agents)
        names = tuple(self.names) or tuple(a.name for a in agents)
        if len(weights) != len(agents) or len(names) != len(agents):
            raise PokerError(f"a population needs one weight and one name a style "
                             f"({len(agents)} styles, {len(weights)} weights, {len(names)} "
                             "names)")  # fmt: skip
        object.__setattr__(self, "agents", agents)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "names", names)
        err = ffi.new("pp_error*")
        if lib.pp_population_check(self.native(), err) != lib.PP_OK:
            raise PokerError(f"population style {err.row} ({names[err.row]!r}): a weight must be "
                             "a finite number ≥ 0, not all 0")  # fmt: skip

    def __len__(self) -> int:
        return len(self.agents)

    def native(self):
        """This population as a ``pp_population``."""
        out = ffi.new("pp_population*")
        for k, style in enumerate(self.agents):
            out.agents[k] = style.native()[0]
            out.weights[k] = self.weights[k]
        out.count = len(self.agents)
        return out

    @property
    def prior(self) -> np.ndarray:
        """Each style's probability (the weights, normalised)."""
        weights = np.asarray(self.weights, np.float64)
        return weights / weights.sum()

    def styles(self, seed: int, tables, hands, seats: int) -> np.ndarray:
        """(N, seats) uint8: the style of every seat of hand ``hands[i]`` of table
        ``tables[i]`` in an arena of seed ``seed``."""
        tables = np.ascontiguousarray(tables, np.uint32)
        hands = np.ascontiguousarray(hands, np.uint32)
        out = np.empty((len(tables), seats), np.uint8)
        status = lib.pp_population_styles(
            self.native(), seed, ffi.from_buffer("uint32_t[]", tables),
            ffi.from_buffer("uint32_t[]", hands), len(tables), seats,
            ffi.from_buffer("uint8_t[]", out),
        )  # fmt: skip
        if status != lib.PP_OK:
            raise PokerError(f"styles failed with status {status}")
        return out

    def describe(self) -> str:
        """The styles, one a line."""
        lines = []
        for k, (style, name, p) in enumerate(zip(self.agents, self.names, self.prior, strict=True)):
            lines.append(f"{k}: {name} ({p:.0%}) {style.kind} tightness={style.tightness:g} "
                         f"aggression={style.aggression:g} bet={style.bet:g} "
                         f"raise={style.raise_:g} temperature={style.temperature:g}")  # fmt: skip
        return "\n".join(lines)


DEFAULT = Population(
    tuple(Agent("equity", t, a, b, r, temp) for _, t, a, b, r, temp in _DEFAULT_STYLES),
    names=tuple(name for name, *_ in _DEFAULT_STYLES),
)


def population(spec) -> Population:
    """A ``Population`` from itself, ``"default"``, one agent (every seat plays it) or a list
    of agents (equally likely styles)."""
    if isinstance(spec, Population):
        return spec
    if isinstance(spec, str) and spec.strip().lower() == "default":
        return DEFAULT
    if isinstance(spec, (str, Agent)):
        return Population((spec,))
    if isinstance(spec, (list, tuple)):
        return Population(tuple(spec))
    raise ArgumentError(f"a population is 'default', a Population, an agent or a list of agents, "
                     f"got {spec!r}")  # fmt: skip
