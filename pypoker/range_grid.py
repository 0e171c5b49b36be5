"""The 13x13 range grid: a player's equity per hand class (pairs on the diagonal, suited
hands above it, offsuit below), from an ``EquityResult``'s breakdown per combo.

``range_grid(result, player)`` gives the numbers; ``plot_range_grid(result, player, path)``
draws them into a PNG (matplotlib, ``pip install 'pypoker[plot]'``).
"""

from __future__ import annotations

import numpy as np

from ._extras import require
from ._native import VALUES
from .equity_result import EquityResult

# Row and column 0 is the ace: value 12 - i.
_ORDER = list(range(12, -1, -1))


def _cell(combo: np.ndarray) -> tuple[int, int]:
    """Grid cell of a combo: (row, column), suited above the diagonal, offsuit below."""
    high, low = sorted((int(c) % 13 for c in combo), reverse=True)
    suited = int(combo[0]) // 13 == int(combo[1]) // 13
    row, column = 12 - high, 12 - low
    return (row, column) if suited or high == low else (column, row)


def class_name(row: int, column: int) -> str:
    """ "AA", "AKs" (above the diagonal) or "AKo" (below)."""
    high, low = VALUES[_ORDER[min(row, column)]], VALUES[_ORDER[max(row, column)]]
    if row == column:
        return high + low
    return high + low + ("s" if row < column else "o")


def range_grid(result: EquityResult, player: int) -> dict[str, np.ndarray]:
    """Per class of player ``player`` (0-based): ``equity`` (its combos' equities weighted
    by the games each was dealt; NaN where the player holds none), ``weight`` (the mean
    weight of the class's combos, 0 where none is held) and ``combos`` held."""
    table = result.by_combo(player)
    equity_games = np.zeros((13, 13))
    games = np.zeros((13, 13))
    weight = np.zeros((13, 13))
    held = np.zeros((13, 13), dtype=np.int64)
    for i, combo in enumerate(table["cards"]):
        row, column = _cell(combo)
        held[row, column] += 1
        weight[row, column] += table["weight"][i]
        if table["games"][i] > 0:
            equity_games[row, column] += table["equity"][i] * table["games"][i]
            games[row, column] += table["games"][i]
    totals = {(r, c): (4 if r > c else 6 if r == c else 12) for r in range(13) for c in range(13)}
    total = np.array([[totals[(r, c)] for c in range(13)] for r in range(13)])
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "equity": np.where(games > 0, equity_games / games, np.nan),
            "weight": np.where(held > 0, weight / np.maximum(held, 1), 0.0),
            "combos": held,
            "share_held": held / total,
        }


def plot_range_grid(result: EquityResult, player: int, path) -> None:
    """Draws player ``player``'s range grid into the PNG at ``path``: each class coloured by
    its equity (red low, green high), labelled with its name, equity and weight."""
    grid = range_grid(result, player)
    texts = [[class_name(row, column) for column in range(13)] for row in range(13)]
    for row in range(13):
        for column in range(13):
            if not np.isnan(grid["equity"][row, column]):
                texts[row][column] += f"\n{grid['equity'][row, column] * 100:.1f}%"
                if grid["weight"][row, column] < 1:
                    texts[row][column] += f"\nw {grid['weight'][row, column]:.2f}"
    title = (f"player {player + 1} ({result.hands[player]}): equity by hand class, "
             f"board [{result.board or '-'}]")  # fmt: skip
    draw_grid(grid["equity"], texts, path, title, "RdYlGn")


def draw_grid(shade: np.ndarray, texts, path, title: str, colour_map: str) -> None:
    """The 13x13 grid into the PNG at ``path``: cell (row, column) coloured by ``shade``
    (0..1; NaN grey) and labelled ``texts[row][column]`` (matplotlib)."""
    require("matplotlib").use("Agg")
    plt = require("matplotlib.pyplot")
    figure, axes = plt.subplots(figsize=(9, 9), dpi=100)
    colours = plt.get_cmap(colour_map)(np.nan_to_num(shade, nan=0.5))
    colours[np.isnan(shade)] = (0.85, 0.85, 0.85, 1.0)
    axes.imshow(colours)
    for row in range(13):
        for column in range(13):
            axes.text(column, row, texts[row][column], ha="center", va="center", fontsize=7)
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def class_grid(values) -> np.ndarray:
    """(13, 13): ``values`` (one a combo, ``pp.COMBOS`` order, e.g. a read's probabilities)
    summed over each hand class's combos, in the grid's layout (ace first; suited above
    the diagonal, offsuit below)."""
    from ._spot import COMBOS

    values = np.asarray(values, np.float64)
    if values.shape != (len(COMBOS),):
        raise ValueError(f"values: one a combo ({len(COMBOS)}), got shape {values.shape}")
    high = 12 - np.maximum(COMBOS[:, 0] % 13, COMBOS[:, 1] % 13)
    low = 12 - np.minimum(COMBOS[:, 0] % 13, COMBOS[:, 1] % 13)
    suited = COMBOS[:, 0] // 13 == COMBOS[:, 1] // 13
    rows, columns = np.where(suited, high, low), np.where(suited, low, high)
    out = np.zeros((13, 13))
    np.add.at(out, (rows, columns), values)
    return out
