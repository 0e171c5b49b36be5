"""``pypoker arena``: play a match, or show a recorded hand.

``pypoker arena --agents equity,chart,call,random,raise,equity --hands 1M --duplicate
--out hands.parquet`` plays a match (one agent a seat; parameters as
``equity:aggression=0.8``), shows progress and ends with a table of bb/100 ± the 95%
interval per agent; ``--phh hands.phhs`` also writes the hands as PHH (``phh.write``).
``pypoker arena show hands.parquet --hand 17`` prints the file's row 17 as a readable
history.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._config import ACTIONS, BOARD_SHOWN, STREETS


def add_arena(commands, parse_count) -> None:
    command = commands.add_parser("arena", help="play a match of agents, or show a hand")
    command.add_argument("show", nargs="*", help="show FILE: print a recorded hand (--hand N)")
    command.add_argument("--agents", default="equity,random", help="one a seat, comma-separated")
    command.add_argument("--hands", type=parse_count, default=100_000, help="hands (100K)")
    command.add_argument("--duplicate", action="store_true", help="duplicate poker")
    command.add_argument("--out", help="write the hands to this .parquet file")
    command.add_argument("--phh", help="write the hands to this file as PHH (.phhs sections)")
    command.add_argument("--seed", type=int, default=0)
    command.add_argument("--stacks", type=int, default=200, help="chips a seat (200)")
    command.add_argument("--blinds", default="1,2", help="small,big (1,2)")
    command.add_argument("--hand", type=int, default=0, help="show: the row to print")
    command.add_argument("-t", "--threads", type=int, default=None)
    command.set_defaults(run=run)


def run(args) -> int:
    if args.show:
        if args.show[0] != "show" or len(args.show) != 2:
            raise ValueError("usage: pypoker arena show FILE --hand N")
        print(show(Path(args.show[1]), args.hand))
        return 0
    from .match import match

    agents = [a for a in args.agents.split(",") if a.strip()]
    blinds = tuple(int(b) for b in args.blinds.split(","))
    result = match(agents, args.hands, args.seed, args.duplicate, stacks=args.stacks,
                   blinds=blinds, record=args.phh is not None, parquet=args.out,
                   threads=args.threads, progress=sys.stderr.isatty())  # fmt: skip
    if args.phh is not None:
        from .phh import write

        write(result.history, args.phh)
    print(result.table())
    if result.variance_cut is not None:
        print("dup/plain se: the duplicate standard error over the plain one on these hands")
    return 0


def show(path: Path, row: int) -> str:
    """Row ``row`` of a history file as text."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    if not 0 <= row < len(table):
        raise ValueError(f"--hand {row}: {path} holds hands 0..{len(table) - 1}")
    hand = table.slice(row, 1).to_pylist()[0]
    return "\n".join(_lines(hand))


def _cards(ids) -> str:
    from ..cards import format_cards

    known = [c for c in ids if c != 0xFF]
    return format_cards(known) if len(known) == len(ids) else "??"


def _lines(hand: dict) -> list[str]:
    out = [f"hand {hand['hand']} of table {hand['table']}: {hand['seats']} seats, button "
           f"{hand['button']}, blinds {hand['small_blind']}/{hand['big_blind']}"
           + (f", ante {hand['ante']}" if hand["ante"] else "")]  # fmt: skip
    seats = zip(hand["starting_stacks"], hand["hole_cards"], strict=True)
    for seat, (stack, hole) in enumerate(seats):
        out.append(f"  seat {seat}: {stack} chips, {_cards(hole)}")
    street = -1
    for action in hand["actions"]:
        if action["street"] != street:
            street = action["street"]
            board = _cards(hand["board"][: BOARD_SHOWN[street]]) if street else ""
            out.append(f"{STREETS[street]}{' ' + board if board else ''}:")
        amount = f" {action['amount']}" if action["kind"] >= 2 else ""
        out.append(f"  seat {action['seat']} {ACTIONS[action['kind']]}{amount}")
    if hand["board"]:
        out.append(f"board {_cards(hand['board'])}")
    for pot in hand["pots"]:
        out.append(f"pot {pot['amount']} to seat(s) {', '.join(map(str, pot['winners']))}")
    out.append("net: " + ", ".join(f"seat {s} {w:+d}" for s, w in enumerate(hand["winnings"])))
    return out
