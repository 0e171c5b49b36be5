"""Replay history rows (a PHH import, or the arena's own records) in the engine and check them.

A row gives a hand's table (seats, button, blinds, ante, straddle, starting stacks), its cards
and its actions. The engine plays the seats dealt in (stack > 0) as a table of just those
seats, in the same clockwise order with the button last (so seats sitting out, which a fresh
arena cannot have, need no special case); actions and winnings are mapped to and from the
row's seats. `replay` starts a one-table `Arena` with the row's settings, sets the row's hole
cards and board (`Arena.set_cards`; 0xFF where the row does not know a card: a seat that
folded or mucked unseen, a board card never dealt), steps the recorded actions one at a time,
and takes the engine's winnings when the hand ends. Unknown cards are fine until a seat
holding one reaches a showdown; the engine then refuses the action, and `replay` reports it.

Checks, each a `PokerError` naming the row and the action: every action's seat is the engine's
actor, every action is legal there (the engine's own message says why not), the actions end
exactly when the hand does, and the engine's winnings equal the row's (when the row has them;
`check=False` skips that).
"""

from __future__ import annotations

import pyarrow as pa

from .._native import PokerError
from ._arena import Arena
from ._config import ACTIONS, CHECK, FOLD, NO_CARD
from .history import SCHEMA
from .phh import dealt_in


def replay(history, *, check: bool = True, repair: bool = False) -> pa.Table:
    """Replay every row; returns the rows with ``winnings`` from the engine and the actions
    as played (the schema and its metadata, e.g. the PHH chip scale, kept). ``repair``:
    see `replay_row`."""
    if isinstance(history, pa.Table):
        rows, metadata = history.to_pylist(), history.schema.metadata
    else:
        rows, metadata = list(history), None
    out = [replay_row(row, index=i, check=check, repair=repair) for i, row in enumerate(rows)]
    table = pa.Table.from_pylist(out, schema=SCHEMA)
    return table.replace_schema_metadata(metadata) if metadata else table


def replay_row(row: dict, *, index: int = 0, check: bool = True, repair: bool = False) -> dict:
    """Replay one row; returns it with the engine's ``winnings`` and the actions played.

    ``repair``: a recorded action by a seat that is not the one to act is taken as the
    actors before it checking (when free) or folding, as pokerkit's ``HandHistory`` reads
    PHH files that leave such actions out (e.g. the WSOP hands of the PHH dataset); the
    inserted actions appear in the returned row."""
    players = dealt_in(row)
    arena = start_arena(row, players, index)
    pending, played, finished = list(row["actions"]), [], None
    while pending:
        action, actor = pending[0], _actor(arena, players)
        where = f"row {index}: action {len(played)} ({ACTIONS[action['kind']]} by seat "
        where += f"{action['seat']})"
        if finished is not None:
            raise PokerError(f"{where}: the hand ended with actions left over", index)
        if actor == action["seat"]:
            pending.pop(0)
        elif repair and actor >= 0:
            action = _check_or_fold(arena, actor)
        else:
            acting = f"seat {actor} is to act" if actor >= 0 else "the hand is over"
            raise PokerError(f"{where}: {acting}", index)
        street = int(arena.observe().street[0])
        try:
            result = arena.step([action["kind"]], [action["amount"]])
        except PokerError as error:  # the one-table arena's "table 0: " says nothing here
            reason = str(error).removeprefix("table 0: ")
            raise PokerError(f"{where}: {reason}", index) from None
        played.append({**action, "street": street})
        finished = result if result.finished[0] else None
    if finished is None:
        raise PokerError(f"row {index}: the actions end before the hand does", index)
    # A following hand without a decision would be played in the same step and its chips
    # added to these winnings; the row's stacks always leave the next hand a decision.
    assert int(arena.state["hand"][0]) == 1, "the step played more than the row's hand"
    winnings = [0] * row["seats"]
    for j, seat in enumerate(players):
        winnings[seat] = int(finished.winnings[0][j])
    if check and row.get("winnings") is not None and list(row["winnings"]) != winnings:
        raise PokerError(
            f"row {index}: the engine's winnings {winnings} differ from the row's "
            f"{list(row['winnings'])}",
            index,
        )
    return {**row, "actions": played, "winnings": winnings}


def _actor(arena: Arena, players: list[int]) -> int:
    """The row seat to act, -1 when none."""
    actor = int(arena.observe().actor[0])
    return players[actor] if actor >= 0 else -1


def _check_or_fold(arena: Arena, seat: int) -> dict:
    legal = arena.observe().legal[0]
    kind = CHECK if legal[CHECK] else FOLD
    return {"seat": seat, "street": 0, "kind": kind, "amount": 0}


def start_arena(row: dict, players: list[int], index: int = 0) -> Arena:
    """A one-table arena at the row's hand, engine seat j playing row seat ``players[j]``
    (the button last): the row's blinds, ante, straddle, stacks and cards."""
    n = len(players)
    try:
        arena = Arena(
            1,
            n,
            stacks=[row["starting_stacks"][s] for s in players],
            blinds=(row["small_blind"], row["big_blind"]),
            ante=row["ante"],
            bb_ante=row["bb_ante"],
            straddle=row["straddle"],
            button=n - 1,
        )
        board = list(row["board"]) + [NO_CARD] * (5 - len(row["board"]))
        arena.set_cards(hole=[[row["hole_cards"][s] for s in players]], board=[board])
    except (ValueError, TypeError) as error:
        raise PokerError(f"row {index}: {error}", index) from None
    return arena
