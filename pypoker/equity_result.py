"""``EquityResult``: what ``pp.equity`` returns — per player equity, win and tie, standard
errors for Monte Carlo, which method ran and why, and a breakdown per combo.

Results are built from sums per player and combo (``pypoker._spot.SUM_FIELDS``), weighted by
each game's weight: a pot share s (0..1) weighted w gives equity Σ w·s / Σ w and, for Monte
Carlo, the standard error sqrt(Σ w²(s − equity)²) / Σ w (with every w = 1, the familiar
sqrt(var / games)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._arguments import whole
from ._native import lib
from ._spot import (
    COMBOS,
    GAMES,
    POT_UNITS,
    SHARES,
    SUM_FIELDS,
    TIES,
    W2,
    W2_SHARES,
    W2_SHARES2,
    WINS,
)
from .cards import CARD_NAMES


def equities(sums: np.ndarray) -> np.ndarray:
    """Equity from sums (..., fields); NaN where no game was played."""
    games = sums[..., GAMES]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(games > 0, sums[..., SHARES] / POT_UNITS / games, np.nan)


def standard_errors(sums: np.ndarray) -> np.ndarray:
    """Monte Carlo's standard error of each equity in sums (..., fields)."""
    mean = equities(sums)
    games = sums[..., GAMES]
    squares = (
        sums[..., W2_SHARES2] / POT_UNITS**2
        - 2 * mean * sums[..., W2_SHARES] / POT_UNITS
        + mean**2 * sums[..., W2]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(games > 0, np.sqrt(np.maximum(squares, 0.0)) / games, np.nan)


def combo_names(indices: np.ndarray) -> list[str]:
    """Combo numbers → text, higher card first ("AhKd")."""
    return [CARD_NAMES[int(COMBOS[i, 1])] + CARD_NAMES[int(COMBOS[i, 0])] for i in indices]


@dataclass
class EquityResult:
    """Per player: ``equity`` (pot share), ``win`` and ``tie`` (fractions of games), and for
    Monte Carlo ``stderr``; ``games`` played (exact: boards times deals of combos),
    ``exact`` or not, ``method`` and ``reason`` (why that method), ``seconds`` taken.

    ``wins`` and ``ties`` count games (weighted by the combos' weights when players hold
    ranges). ``by_combo(player)`` breaks a player's equity down by the combo it holds.

    Omaha hi-lo (``game="plo4-8"``, ``"plo5-8"``) also gives, per player, ``high`` and ``low``:
    the pot share won with the high and with the low (``high + low == equity``), and
    ``scoop``: the fraction of games whose whole pot the player took alone (``win``, there);
    ``tie`` is then the games it took a part of the pot. Other games leave them None."""

    hands: list[str]
    board: str
    dead: str
    exact: bool
    games: int
    equity: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    stderr: np.ndarray | None
    seconds: float
    reason: str = ""
    high: np.ndarray | None = None
    low: np.ndarray | None = None
    scoop: np.ndarray | None = None
    # Per player: (combo numbers, weights, sums per combo) or None until computed.
    _combos: list = field(default_factory=list, repr=False)
    _combos_later: Callable[[int], tuple] | None = field(default=None, repr=False)

    def combos_when_asked(self, make: Callable[[int], tuple]) -> EquityResult:
        """This result, each player's ``by_combo`` table made by ``make(player)`` the first
        time it is asked for (a recount costs more than most callers want to pay up front)."""
        self._combos = [None] * len(self.hands)
        self._combos_later = make
        return self

    def without_combos(self) -> EquityResult:
        """This result for hands that are not Hold'em combos (Omaha, short deck): every
        player's ``by_combo`` table is empty."""
        empty = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros((0, len(SUM_FIELDS))))
        self._combos = [empty] * len(self.hands)
        return self

    @property
    def method(self) -> str:
        return "exact" if self.exact else "monte carlo"

    def by_combo(self, player: int) -> dict[str, object]:
        """Player ``player`` (0-based)'s equity per combo it may hold: ``combo`` (text),
        ``cards`` (``(n, 2)`` card ids), ``weight`` (its weight in the range, after card
        removal), ``equity`` against the others' ranges, ``games`` (weighted games it was
        dealt), and ``stderr`` for Monte Carlo. Exact results are exact; a combo Monte Carlo
        never dealt has NaN equity."""
        player = whole("player (0-based)", player, 0, len(self.hands) - 1)
        if self._combos[player] is None:
            self._combos[player] = self._combos_later(player)
        indices, weights, sums = self._combos[player]
        table = {
            "combo": combo_names(indices),
            "cards": COMBOS[indices],
            "weight": weights,
            "equity": equities(sums),
            "games": sums[:, GAMES].copy(),
        }
        if not self.exact:
            table["stderr"] = standard_errors(sums)
        return table

    def to_dict(self) -> dict[str, list]:
        """Column-oriented: ``pandas.DataFrame(result.to_dict())`` and friends take it; the
        ``by_combo`` column holds each player's breakdown as lists."""
        columns = {
            "hand": list(self.hands),
            "equity": self.equity.tolist(),
            "win": self.win.tolist(),
            "tie": self.tie.tolist(),
            "wins": self.wins.tolist(),
            "ties": self.ties.tolist(),
        }
        if self.stderr is not None:
            columns["stderr"] = self.stderr.tolist()
        if self.high is not None:
            columns |= {"high": self.high.tolist(), "low": self.low.tolist(),
                        "scoop": self.scoop.tolist()}  # fmt: skip
        columns["by_combo"] = [
            {
                k: (v.tolist() if isinstance(v, np.ndarray) else v)
                for k, v in self.by_combo(p).items()
            }
            for p in range(len(self.hands))
        ]
        return columns

    def __str__(self) -> str:
        kind = "exact" if self.exact else "Monte Carlo"
        lines = [
            f"{kind}: {self.games:,} games, board [{self.board or '-'}]"
            + (f", dead [{self.dead}]" if self.dead else "")
            + f", {self.seconds * 1e3:.1f} ms",
        ]
        if self.reason:
            lines.append(f"({self.reason})")
        hilo = self.high is not None
        lines.append(
            f"{'player':<8}{'hand':<12}{'equity':>10}"
            + (f"{'high':>10}{'low':>10}{'scoop':>10}" if hilo else f"{'win':>10}{'tie':>10}")
            + ("" if self.stderr is None else f"{'± stderr':>12}")
        )
        for i, hand in enumerate(self.hands):
            shown = (self.win[i], self.tie[i])
            if hilo:
                shown = (self.high[i], self.low[i], self.scoop[i])
            line = f"{i + 1:<8}{hand:<12}{self.equity[i] * 100:>9.4f}%" + "".join(
                f"{x * 100:>9.4f}%" for x in shown
            )
            if self.stderr is not None:
                line += f"{self.stderr[i] * 100:>11.4f}%"
            lines.append(line)
        return "\n".join(lines)

    def combos_table(self, player: int) -> str:
        """``by_combo(player)`` as text, best combo first (the CLI's ``--combos``)."""
        table = self.by_combo(player)
        order = np.argsort(-np.nan_to_num(table["equity"], nan=-1.0), kind="stable")
        header = f"player {player + 1} ({self.hands[player]}): equity per combo"
        lines = [header, f"{'combo':<8}{'weight':>8}{'equity':>10}" + (
            f"{'± stderr':>12}" if "stderr" in table else ""
        )]  # fmt: skip
        for i in order:
            line = f"{table['combo'][i]:<8}{table['weight'][i]:>8.3f}"
            line += f"{table['equity'][i] * 100:>9.3f}%"
            if "stderr" in table:
                line += f"{table['stderr'][i] * 100:>11.3f}%"
            lines.append(line)
        return "\n".join(lines)


def slot_totals(sums: np.ndarray) -> np.ndarray:
    """A run's sums (players, slots, fields) added over the slots, bit for bit as
    ``sums.sum(axis=1)`` adds them (row after row): a slot of no games holds only zeros, so
    only the others are added — a small range's few, where the whole array is 1,327 slots a
    player (80 µs, a third of a hand-against-a-range call)."""
    games = sums[:, :, GAMES]
    return np.stack([sums[p, np.flatnonzero(games[p])].sum(axis=0) for p in range(len(sums))])


def from_sums(sums: np.ndarray, spot_weights: list[np.ndarray], played: int, *, exact: bool,
              **fields) -> EquityResult:  # fmt: skip
    """A result from a run's sums (players, slots, fields): totals over the slots, each
    player's combos those of weight > 0."""
    totals = slot_totals(sums)
    games = totals[:, GAMES]
    combos = []
    for player, weights in enumerate(spot_weights):
        indices = np.flatnonzero(weights > 0)
        by_combo = sums[player, indices]
        # A player whose sums sit in the whole-range slot (the counted one) has none per combo.
        split = not (sums[player, -1, GAMES] > 0)
        combos.append((indices, weights[indices], by_combo) if split else None)
    return EquityResult(
        exact=exact,
        games=played,
        equity=equities(totals),
        win=totals[:, WINS] / games,
        tie=totals[:, TIES] / games,
        wins=totals[:, WINS],
        ties=totals[:, TIES],
        stderr=None if exact else standard_errors(totals),
        _combos=combos,
        **fields,
    )


def from_known(rows: np.ndarray, played: int, **fields) -> EquityResult:
    """An exact result of known hands from the rows ``pp_equity_known`` wrote (``PP_KNOWN_*``
    by players) over ``played`` boards: the figures ``from_sums`` makes of their sums, bit
    for bit (the same divisions, in Zig), read where they lie."""
    return EquityResult(
        exact=True,
        games=played,
        equity=rows[lib.PP_KNOWN_EQUITY],
        win=rows[lib.PP_KNOWN_WIN],
        tie=rows[lib.PP_KNOWN_TIE],
        wins=rows[lib.PP_KNOWN_WINS],
        ties=rows[lib.PP_KNOWN_TIES],
        stderr=None,
        **fields,
    )
