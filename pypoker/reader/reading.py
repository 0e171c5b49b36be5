"""``read_hand``: the read of one seat in one hand, for a person (``pypoker reader read``):
the most likely combos with their probabilities and the read range as the 13x13 grid.

The hand is a PHH file (``.phh``, or one section of a ``.phhs``: ``hand=``, from 1), PHH
text (a string holding a newline, or ``"-"``: standard input, as the command takes a hand
typed or piped in), a folder of ``generate``'s shards (or one shard) and an arena
``hand_id``, or a history table.
The seat is a table seat (0-based, as the arena numbers them) or a PHH player (``"p3"``).
The read is at the seat's last moment in the hand (``at=-1``; ``at=0`` its first): after
its last action, or after the last board cards it saw. A seat whose cards the hand does not
show is read all the same (its label is then unknown).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from .._native import ArgumentError, PokerError
from ..arena._config import STREETS


@dataclasses.dataclass
class HandRead:
    """One seat's read: ``probabilities`` over the 1,326 combos (``pp.COMBOS`` order),
    ``example`` (the ``EXAMPLE_DTYPE`` record read), the ``seat``, its ``cards`` (a
    string, or None when the hand does not show them) and ``using`` (the source)."""

    probabilities: np.ndarray
    example: np.void
    seat: int
    cards: str | None
    using: str

    def top(self, k: int = 10) -> list[tuple[str, float]]:
        """The ``k`` most likely combos, as ("AhKd", probability), most likely first."""
        from .. import COMBOS, format_cards

        order = np.argsort(-self.probabilities, kind="stable")[:k]
        return [(format_cards(COMBOS[c]), float(self.probabilities[c])) for c in order]

    def grid(self) -> np.ndarray:
        """(13, 13): the probability of each hand class (``pp.range_grid``'s layout)."""
        from ..range_grid import class_grid

        return class_grid(self.probabilities)

    def rank(self) -> int | None:
        """The true combo's place in the read (1 = most likely), or None when unknown."""
        if self.cards is None:
            return None
        label = int(self.example["label"])
        return int((self.probabilities > self.probabilities[label]).sum()) + 1

    def plot(self, path) -> None:
        """The read range as the 13x13 grid, into the PNG at ``path`` (matplotlib)."""
        from ..range_grid import class_name, draw_grid

        grid = self.grid()
        texts = [[class_name(r, c) + (f"\n{grid[r, c]:.1%}" if grid[r, c] >= 5e-4 else "")
                  for c in range(13)] for r in range(13)]  # fmt: skip
        title = (f"seat {self.seat} ({self.cards or 'cards not shown'}): the {self.using} "
                 f"read, {STREETS[int(self.example['street'])]}")  # fmt: skip
        top = grid.max() or 1.0
        draw_grid(np.sqrt(grid / top), texts, path, title, "Blues")

    def describe(self, k: int = 10) -> str:
        """The read in words: the top ``k`` combos and where the true one stands."""
        from .. import format_cards

        board = [int(c) for c in self.example["board"] if c < 52]
        lines = [f"seat {self.seat}, board [{format_cards(board) if board else '-'}], "
                 f"the {self.using} read after {int(self.example['actions_seen'])} "
                 "actions:"]  # fmt: skip
        lines += [f"{i + 1:>3}  {name}  {p:7.2%}" for i, (name, p) in enumerate(self.top(k))]
        if self.cards is not None:
            p = float(self.probabilities[int(self.example["label"])])
            lines.append(f"held {self.cards}: {p:.2%}, place {self.rank()} of 1326")
        return "\n".join(lines)


def read_hand(source, seat, *, hand=1, hand_id=None, using="posterior", at=-1) -> HandRead:
    """The read of ``seat`` in one hand of ``source`` (module doc); ``using``: as
    ``probabilities`` takes it ("posterior", "prior" or a model)."""
    from .real import probabilities

    table, population = _one_hand(source, hand, hand_id)
    row = table.to_pylist()[0]
    number = _seat_number(row, seat)
    shown = all(c < 52 for c in row["hole_cards"][number])
    if not shown:
        table = _placeholder_cards(table, row, number)
    from .examples import examples

    found = examples(table, seat=number, population=population)
    if not len(found):
        raise PokerError(f"seat {number} has no moment to read in this hand")
    if not -len(found) <= at < len(found):
        raise ArgumentError(f"at: seat {number} has {len(found)} moments, got {at}")
    one = found[[at % len(found)]]
    p = probabilities(one, using)[0]
    from .. import format_cards

    cards = format_cards(row["hole_cards"][number]) if shown else None
    name = using if isinstance(using, str) else type(using).__name__
    return HandRead(p, one.data[0], number, cards, name)


def _one_hand(source, hand, hand_id):
    """(a one-row history table, the population that played it or None)."""
    import pyarrow as pa

    if isinstance(source, (pa.Table, pa.RecordBatch)):
        table = pa.table(source) if isinstance(source, pa.RecordBatch) else source
        return _pick(table, hand, hand_id, "the table"), None
    if isinstance(source, str) and (source == "-" or "\n" in source):
        return _pick(_from_text(source), hand, hand_id, "the PHH text"), None
    path = Path(source)
    if path.is_dir() and not any(path.rglob("*.phh*")) or path.suffix == ".parquet":
        if hand_id is None:
            raise ArgumentError("give hand_id: the arena hand id to read in the shards")
        return _from_shards(path, hand_id)
    from .real import real_hands

    return _pick(real_hands(path), hand, hand_id, str(path)), None


def _pick(table, hand, hand_id, where: str):
    if hand_id is not None:
        ids = table.column("hand_id").to_numpy()
        found = np.flatnonzero(ids == hand_id)
        if not found.size:
            raise ArgumentError(f"{where} has no hand with hand_id {hand_id}")
        return table.slice(int(found[0]), 1)
    if not isinstance(hand, int) or not 1 <= hand <= table.num_rows:
        raise ArgumentError(f"hand: {where} holds hands 1..{table.num_rows}, got {hand!r}")
    return table.slice(hand - 1, 1)


def _from_text(text: str):
    import sys

    from ..arena import phh
    from .real import prepared

    where = "<stdin>" if text == "-" else "the PHH text"
    text = sys.stdin.read() if text == "-" else text
    try:
        table = phh.loads(text)
    except PokerError as error:
        raise PokerError(f"{where}: {error}") from None
    return prepared(table, where)


def _from_shards(path: Path, hand_id: int):
    import pyarrow.parquet as pq

    from .generate import shard_population, shards

    files = [path] if path.is_file() else shards(path)
    for file in files:
        table = pq.read_table(file, filters=[("hand_id", "=", int(hand_id))])
        if table.num_rows:
            return table.slice(0, 1), shard_population(file)
    raise ArgumentError(f"no hand with hand_id {hand_id} in {str(path)!r}")


def _seat_number(row: dict, seat) -> int:
    from ..arena.phh import dealt_in

    players = dealt_in(row)
    names = ", ".join(f"p{k + 1} = seat {s}" for k, s in enumerate(players))
    if isinstance(seat, str) and seat.strip().lower().startswith("p"):
        k = seat.strip()[1:]
        if not k.isdigit() or not 1 <= int(k) <= len(players):
            raise ArgumentError(f"seat {seat!r} is not in the hand (players: {names})")
        return players[int(k) - 1]
    try:
        number = int(seat)
    except (TypeError, ValueError):
        raise ArgumentError(f"seat must be a seat number or a PHH player (p1, ...), got "
                            f"{seat!r}") from None  # fmt: skip
    if number not in players:
        raise ArgumentError(f"seat {number} is not in the hand (players: {names})")
    return number


def _placeholder_cards(table, row: dict, seat: int):
    """The hand with two cards no one else holds given to ``seat``, whose cards it does not
    show: the read does not look at them, but a seat is read only with cards."""
    import pyarrow as pa

    used = {c for cards in row["hole_cards"] for c in cards if c < 52} | set(row["board"])
    spare = [c for c in range(52) if c not in used][:2]
    hole = [list(cards) for cards in row["hole_cards"]]
    hole[seat] = spare
    index = table.column_names.index("hole_cards")
    field = table.schema.field("hole_cards")
    return table.set_column(index, field, pa.array([hole], field.type))
