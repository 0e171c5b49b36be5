"""``match``: agents play each other for many hands; results per agent in bb/100 with a
standard error and a 95% interval.

Agent i sits at seat i of every table (the button moves each hand, so each plays every
position). ``duplicate=True`` (duplicate poker): every deal (hand ``h`` of table ``t``, a
pure function of the seed) is played once per rotation r of its hole cards, seat s holding
what seat ``s + r`` was dealt, so each agent holds every seat's cards. The seats, the button
and every decision's random word (a function of the seed, table, hand and decision index)
stay put, so where the agents act alike the hands replay alike and only the cards' luck
changes sides. (Moving the agents instead, as the ACPC did, shifts the decisions' words
whenever the order of play changes: the reference random player's luck then stays in, and
heads-up call vs random kept 0.735 of plain mode's interval.) A deal's score for an agent
is its mean over the rotations.

``hands`` counts hands played in both modes (duplicate plays ``hands / seats`` deals, each
``seats`` times), so the intervals compare at equal work. ``variance_cut`` is the standard
error of the duplicate scores over the standard error the same hands give taken as
independent (plain mode's estimate on the same data): what duplicating bought.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._arguments import whole
from ._arena import Arena
from .agents import AgentError, Lineup

_Z95 = 1.959963984540054


@dataclasses.dataclass
class MatchResult:
    """Per agent (in ``agents`` order): ``bb_per_100``, ``stderr`` and the 95% ``interval``
    (low, high) in bb/100 (nan from one hand: no spread to measure); ``hands`` played;
    ``variance_cut`` (duplicate only, else None);
    ``history``: the hands as Arrow when asked for (a ``rotation`` column in duplicate)."""

    agents: list[str]
    hands: int
    duplicate: bool
    bb_per_100: np.ndarray
    stderr: np.ndarray
    variance_cut: np.ndarray | None = None
    history: object = None

    @property
    def interval(self) -> np.ndarray:
        half = _Z95 * self.stderr
        return np.column_stack([self.bb_per_100 - half, self.bb_per_100 + half])

    def table(self) -> str:
        """The results as a text table."""
        lines = [f"{'agent':<14} {'bb/100':>10} {'± 95%':>9} {'interval':>22}"
                 + ("  dup/plain se" if self.duplicate else "")]  # fmt: skip
        for i, name in enumerate(self.agents):
            low, high = self.interval[i]
            line = (f"{name:<14} {self.bb_per_100[i]:>10.2f} {_Z95 * self.stderr[i]:>9.2f} "
                    f"{f'[{low:.2f}, {high:.2f}]':>22}")  # fmt: skip
            if self.variance_cut is not None:
                line += f"  {self.variance_cut[i]:>12.3f}"
            lines.append(line)
        mode = "duplicate" if self.duplicate else "plain"
        return "\n".join(lines + [f"{self.hands:,} hands ({mode})"])

    def __str__(self) -> str:
        return self.table()


def _labels(names: list[str]) -> list[str]:
    """Agent names made distinct: ``equity``, ``equity#2``."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def match(agents, hands, seed=0, duplicate=False, *, tables=None, stacks=200, blinds=(1, 2),
          ante=0, straddle=0, record=False, parquet=None, threads=None,
          progress=None) -> MatchResult:  # fmt: skip
    """``agents`` (one a seat: names such as ``"equity"``, ``Agent``s or Python agents)
    play about ``hands`` hands; see the module doc. ``tables``: tables played side by side
    (default: up to 256). ``record``: keep the hands (Arrow) in ``result.history``;
    ``parquet``: write them there (native agents only; written whole or not at all)."""
    agents = list(agents)
    seats = len(agents)
    if not 2 <= seats <= 10:
        raise AgentError(f"a match needs 2..10 agents (one a seat), got {seats}")
    hands = whole("hands", hands, 1, 1 << 40)
    rotations = seats if duplicate else 1
    deals = -(-hands // rotations)
    tables = whole("tables", tables, 1, 1 << 20) if tables is not None else min(256, deals)
    per_table = -(-deals // tables)
    lineup = Lineup(agents, seats)
    from ._seated import play_agents

    nets, histories, keep = [], [], record or parquet is not None
    for r in range(rotations):
        arena = Arena(tables, seats, stacks=stacks, blinds=blinds, ante=ante, straddle=straddle,
                      seed=seed)  # fmt: skip
        net = np.zeros((tables, per_table, seats), np.int32)
        if r:  # the first hand is dealt already: its cards rotate here, the rest as dealt
            arena.set_cards(hole=np.roll(arena.state["hole"][:, :seats], -r, axis=1))
        history = play_agents(arena, lineup, per_table, net=net, record=keep, threads=threads,
                              progress=progress, rotation=r)  # fmt: skip
        nets.append(net.reshape(-1, seats))
        if history is not None:
            histories.append(_with_rotation(history, r))
    result = _score(_labels(lineup.labels), np.stack(nets), blinds[1], duplicate)
    if histories:
        result.history = _write(histories, parquet)
    return result


def _score(names, nets: np.ndarray, big_blind: int, duplicate: bool) -> MatchResult:
    """``nets`` (rotations, deals, agents) in chips → the result."""
    per_hand = nets.astype(np.float64) * (100.0 / big_blind)  # bb/100 units per hand
    rotations, deals, _ = per_hand.shape
    flat = per_hand.reshape(-1, per_hand.shape[2])
    mean = flat.mean(axis=0)
    plain_se = _stderr(flat)
    if not duplicate:
        return MatchResult(names, len(flat), False, mean, plain_se)
    se = _stderr(per_hand.mean(axis=0))  # each deal's mean over the rotations
    with np.errstate(divide="ignore", invalid="ignore"):  # no spread at all: nan
        return MatchResult(names, len(flat), True, mean, se, se / plain_se)


def _stderr(samples: np.ndarray) -> np.ndarray:
    """The standard error of each column's mean; nan from a single sample (no spread)."""
    if len(samples) < 2:
        return np.full(samples.shape[1], np.nan)
    return samples.std(axis=0, ddof=1) / math.sqrt(len(samples))


def _with_rotation(history, rotation: int):
    import pyarrow as pa

    return history.append_column("rotation", pa.array(np.full(len(history), rotation, np.uint8)))


def _write(histories, parquet):
    import pyarrow as pa

    table = pa.concat_tables(histories)
    if parquet is not None:
        import pyarrow.parquet as pq

        from .._atomic import atomic_target

        with atomic_target(parquet) as target:
            pq.write_table(table, target)
    return table
