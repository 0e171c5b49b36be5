"""PHH (Poker Hand History, https://phh.readthedocs.io) for arena histories: export history rows
to PHH text and import PHH text (one hand, or a ``.phhs`` file of ``[n]`` sections) to rows in
the arena's history schema. pokerkit's ``HandHistory`` is the reference implementation; these
functions need no pokerkit.

Mapping between the two (PHH on the left):

- Players ``p1..pN`` are numbered by position: ``p1`` is the small blind (the first seat left of
  the button), ``pN`` has the button; heads-up ``p1`` is the big blind and ``p2`` the button
  (PHH reverses the forced bets heads-up). Export numbers the dealt-in seats (stack > 0)
  clockwise from the button's left and writes ``seats`` (1-based) and ``seat_count``. Import
  uses ``seats`` + ``seat_count`` when both are present and consistent (seats distinct, in
  clockwise order, within the table); otherwise player ``pk`` sits at seat ``k - 1`` of an
  N-seat table and the button is seat ``N - 1``.
- Forced bets: ``antes`` all equal -> ``ante``; a single ante at index 1 -> ``bb_ante`` (index
  1 is the big blind from three players up; heads-up the reversal puts it on ``p1``, the big
  blind, too); ``blinds_or_straddles = [sb, bb, straddle, 0, ...]``; ``min_bet`` must be the big
  blind. Other ante or straddle patterns (button ante, double straddle) are refused by name.
- ``ante_trimming_status``: export writes ``true`` for antes paid by all (antes are ordinary
  contributions, side pots by committed levels, as in the engine) and ``false`` for a big-blind
  ante (pokerkit's ``true`` would refund a lone ante as uncalled). Import ignores it.
- Chips: PHH amounts may be decimals (``0.25``). Import scales every amount of the document by
  one power of ten, the smallest that makes them all whole (``scale`` = 10 ** the most decimal
  places among antes, blinds, min bet, stacks, bet amounts and finishing stacks), and stores
  the scale in the table's schema metadata under ``pypoker.chip_scale`` (absent = 1). Export
  divides by that scale (or by ``scale=``) and writes exact decimals.
- Cards: ``??`` <-> 0xFF. Cards shown at showdown (``pk sm AhKd``) fill a player's unknown hole
  cards and mark ``showed_down``; ``pk sm`` (muck) does not.
- Actions: ``f`` -> FOLD; ``cc`` -> CHECK when nothing is to be called, else CALL with amount =
  the seat's bet after the call; ``cbr x`` -> RAISE to x; a call or raise that puts the seat's
  last chip in imports as ALL_IN (PHH has no all-in action: RAISE and ALL_IN export as ``cbr``
  when they raise the bet, as ``cc`` when they only call). The street of an action is the
  number of board cards dealt before it (0, 3, 4, 5 -> 0..3).
- Import fills ``winnings`` from ``finishing_stacks`` when the PHH has them (null otherwise) and
  leaves ``pots`` empty: `pypoker.arena.replay` replays rows in the engine to get both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path

import pyarrow as pa

from .._atomic import atomic_target
from .._native import CARD_NAMES, ArgumentError, PokerError
from ._config import ALL_IN, CALL, CHECK, FOLD, NO_CARD, RAISE, SEATS_MAX
from .history import SCHEMA

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser from PyPI
    import tomli as tomllib

SCALE_KEY = b"pypoker.chip_scale"
SCALE_DIGITS_MAX = 9  # 10**9 keeps a million-chip decimal stack inside int64 with room to spare
_CARD_IDS = {name.lower(): i for i, name in enumerate(CARD_NAMES)}

# --- export ---------------------------------------------------------------------------------


def to_phh(history, *, scale: int | None = None) -> list[str]:
    """History rows (a pyarrow Table in the history schema, or a list of row dicts) -> one PHH
    text per hand. Amounts are divided by ``scale`` (default: the table's
    ``pypoker.chip_scale`` metadata, else 1)."""
    rows, table_scale = _rows_and_scale(history)
    scale = table_scale if scale is None else _check_scale(scale)
    return [_export_row(row, scale, index) for index, row in enumerate(rows)]


def dumps(history, *, scale: int | None = None) -> str:
    """History rows -> one ``.phhs`` text: ``[1]``, ``[2]``, ... sections, one hand each."""
    texts = to_phh(history, scale=scale)
    return "\n\n".join(f"[{i + 1}]\n{text}" for i, text in enumerate(texts)) + "\n"


def write(history, path, *, scale: int | None = None) -> None:
    """Writes history rows to ``path`` as one ``.phhs`` file, the text ``dumps`` gives, whole
    or not at all; a pyarrow Table is read a batch of rows at a time."""
    if isinstance(history, pa.Table):
        table_scale = _rows_and_scale(history.slice(0, 0))[1]
        chunks = (batch.to_pylist() for batch in history.to_batches(max_chunksize=4096))
    else:
        rows, table_scale = _rows_and_scale(history)
        chunks = iter([rows])
    scale = table_scale if scale is None else _check_scale(scale)
    with atomic_target(Path(path)) as temporary, temporary.open("w", encoding="utf-8") as out:
        index = 0
        for rows in chunks:
            for row in rows:
                separator = "\n\n" if index else ""
                out.write(f"{separator}[{index + 1}]\n{_export_row(row, scale, index)}")
                index += 1
        out.write("\n")


def read(path) -> pa.Table:
    """Reads a ``.phh`` or ``.phhs`` file into history rows (`loads`)."""
    return loads(Path(path).read_text(encoding="utf-8"))


def _rows_and_scale(history) -> tuple[list[dict], int]:
    if isinstance(history, pa.Table):
        metadata = history.schema.metadata or {}
        scale = int(metadata.get(SCALE_KEY, b"1"))
        return history.to_pylist(), _check_scale(scale)
    if isinstance(history, Sequence):
        return list(history), 1
    raise ArgumentError(f"history: expected a pyarrow Table or a list of rows, got {type(history)}")


def _check_scale(scale: int) -> int:
    if isinstance(scale, bool) or not isinstance(scale, int) or str(scale).rstrip("0") != "1":
        raise PokerError(f"scale: {scale!r} is not a power of ten (1, 10, 100, ...)")
    return scale


def _amount_text(units: int, scale: int) -> str:
    """Whole chip units -> the exact decimal PHH amount (``25`` at scale 100 -> ``0.25``)."""
    if scale == 1:
        return str(units)
    return format(Decimal(units).scaleb(-(len(str(scale)) - 1)), "f")


def dealt_in(row: dict) -> list[int]:
    """Dealt-in seats clockwise from the button's left, button last (PHH's p1..pN)."""
    seats, button, stacks = row["seats"], row["button"], row["starting_stacks"]
    order = [(button + 1 + k) % seats for k in range(seats)]
    return [s for s in order if stacks[s] > 0]


def _forced_bets(row: dict, n: int) -> tuple[list[int], list[int]]:
    antes = [0] * n
    if row["ante"]:
        if row["bb_ante"]:
            antes[1] = row["ante"]
        else:
            antes = [row["ante"]] * n
    blinds = [row["small_blind"], row["big_blind"]] + [0] * (n - 2)
    if row["straddle"] and n >= 3:
        blinds[2] = row["straddle"]
    return antes, blinds


def _export_row(row: dict, scale: int, index: int) -> str:
    players = dealt_in(row)
    if len(players) < 2:
        raise PokerError(f"row {index}: fewer than two seats have chips")
    number = {seat: k + 1 for k, seat in enumerate(players)}
    antes, blinds = _forced_bets(row, len(players))

    def amounts(values) -> str:
        return "[" + ", ".join(_amount_text(v, scale) for v in values) + "]"

    finishing = None
    if row.get("winnings") is not None:
        finishing = [row["starting_stacks"][s] + row["winnings"][s] for s in players]
    lines = [
        "variant = 'NT'",
        f"ante_trimming_status = {'false' if row['bb_ante'] else 'true'}",
        f"antes = {amounts(antes)}",
        f"blinds_or_straddles = {amounts(blinds)}",
        f"min_bet = {_amount_text(row['big_blind'], scale)}",
        f"starting_stacks = {amounts(row['starting_stacks'][s] for s in players)}",
        "actions = [" + ", ".join(f"'{a}'" for a in _export_actions(row, number, scale)) + "]",
        f"hand = {row['hand']}",
        f"table = {row['table']}",
        f"seats = [{', '.join(str(s + 1) for s in players)}]",
        f"seat_count = {row['seats']}",
    ]
    if finishing is not None:
        lines.append(f"finishing_stacks = {amounts(finishing)}")
    if scale != 1:
        lines.append(f"_pypoker_chip_scale = {scale}")
    # Table settings a hand cannot show (a straddle heads-up, a bb ante of 0), kept so that
    # import gives back the same row; PHH readers ignore fields that start with "_".
    if row["straddle"] and len(players) < 3:
        lines.append(f"_pypoker_straddle = {_amount_text(row['straddle'], scale)}")
    if row["bb_ante"] and not row["ante"]:
        lines.append("_pypoker_bb_ante = true")
    if row.get("rotation") is not None:  # a duplicate match's rotation of the hole cards
        lines.append(f"_pypoker_rotation = {row['rotation']}")
    return "\n".join(lines)


def _cards_text(cards: Iterable[int]) -> str:
    return "".join("??" if c == NO_CARD else CARD_NAMES[c] for c in cards)


def _export_actions(row: dict, number: dict[int, int], scale: int) -> list[str]:
    out = [f"d dh p{number[s]} {_cards_text(row['hole_cards'][s])}" for s in number]
    board, dealt, street = row["board"], 0, 0
    betting = _Betting(row, list(number))
    for action in row["actions"]:
        while action["street"] > street:
            street, dealt = street + 1, _deal_board(out, board, dealt)
            betting.new_street()
        k, kind, amount = number[action["seat"]] - 1, action["kind"], action["amount"]
        if kind == FOLD:
            out.append(f"p{k + 1} f")
        elif kind in (CHECK, CALL) or amount <= betting.top:
            betting.check_or_call(k)
            out.append(f"p{k + 1} cc")
        else:
            betting.raise_to(k, amount)
            out.append(f"p{k + 1} cbr {_amount_text(amount, scale)}")
    while dealt < len(board):
        dealt = _deal_board(out, board, dealt)
    showed = row.get("showed_down") or [False] * row["seats"]
    for seat in number:
        if showed[seat]:
            out.append(f"p{number[seat]} sm {_cards_text(row['hole_cards'][seat])}")
    return out


def _deal_board(out: list[str], board: Sequence[int], dealt: int) -> int:
    count = 3 if dealt == 0 else 1
    out.append(f"d db {_cards_text(board[dealt : dealt + count])}")
    return dealt + count


# --- import ---------------------------------------------------------------------------------


def loads(text: str) -> pa.Table:
    """A ``.phh`` (one hand) or ``.phhs`` (``[n]`` sections) text -> history rows."""
    try:
        document = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PokerError(f"PHH text is not TOML: {error}") from None
    if "variant" in document:
        return from_phh([document])
    return from_phh([section for section in document.values() if isinstance(section, dict)])


def from_phh(hands: Iterable[str | dict]) -> pa.Table:
    """PHH hands (texts or parsed TOML tables) -> a pyarrow Table in the history schema, with
    every amount scaled to whole chips by one power of ten (module docstring)."""
    parsed = [_parse(hand, i) for i, hand in enumerate(hands)]
    scale = _choose_scale(parsed)
    rows = [_import_hand(hand, scale, i) for i, hand in enumerate(parsed)]
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    return table.replace_schema_metadata({SCALE_KEY: str(scale).encode()})


def _parse(hand: str | dict, index: int) -> dict:
    if isinstance(hand, str):
        try:
            hand = tomllib.loads(hand, parse_float=Decimal)
        except tomllib.TOMLDecodeError as error:
            raise PokerError(f"hand {index}: PHH text is not TOML: {error}") from None
    if hand.get("variant") != "NT":
        raise PokerError(f"hand {index}: variant {hand.get('variant')!r} is not 'NT'")
    for key in ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"):
        if key not in hand:
            raise PokerError(f"hand {index}: required field {key!r} is missing")
    hand = dict(hand)
    hand["actions"] = [_parse_action(a, index) for a in hand["actions"]]
    return hand


_ACTOR = re.compile(r"^(d|p[1-9][0-9]*)$")
_VERBS = {"d": ("db", "dh"), "p": ("f", "cc", "cbr", "sm", "sd", "pb")}


def _parse_action(text: str, index: int) -> tuple[str, ...] | None:
    """``'p3 cbr 7000 # note'`` -> ``('p3', 'cbr', '7000')``; no-ops -> None."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    if len(words) < 2 or not _ACTOR.match(words[0]) or words[1] not in _VERBS[words[0][0]]:
        raise PokerError(f"hand {index}: action {text!r} is not PHH")
    return tuple(words)


def _decimal_places(value) -> int:
    if isinstance(value, int):
        return 0
    if not isinstance(value, Decimal) or not value.is_finite():
        raise PokerError(f"amount {value!r} is not a finite number (unknown stacks are refused)")
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent)


def _amounts(hand: dict) -> list:
    values = [*hand["antes"], *hand["blinds_or_straddles"], hand["min_bet"]]
    values += [*hand["starting_stacks"], *(hand.get("finishing_stacks") or [])]
    values += [hand["_pypoker_straddle"]] if "_pypoker_straddle" in hand else []
    values += [Decimal(a[2]) for a in hand["actions"] if a and a[1] == "cbr" and len(a) > 2]
    return values


def _choose_scale(hands: list[dict]) -> int:
    places = 0
    for index, hand in enumerate(hands):
        try:
            places = max([places, *(_decimal_places(v) for v in _amounts(hand))])
        except PokerError as error:
            raise PokerError(f"hand {index}: {error}") from None
    if places > SCALE_DIGITS_MAX:
        raise PokerError(f"amounts have {places} decimal places (at most {SCALE_DIGITS_MAX})")
    return 10**places


def _units(value, scale: int, what: str, index: int) -> int:
    units = Decimal(value) * scale
    if units != units.to_integral_value() or units < 0:
        raise PokerError(f"hand {index}: {what} {value} is not a whole number of chip units")
    return int(units)


def _card_ids(text: str, count: int, index: int) -> list[int]:
    pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
    if len(pairs) != count or any(p != "??" and p.lower() not in _CARD_IDS for p in pairs):
        raise PokerError(f"hand {index}: {text!r} is not {count} cards")
    return [NO_CARD if p == "??" else _CARD_IDS[p.lower()] for p in pairs]


def _table_seats(hand: dict, n: int) -> tuple[int, list[int]]:
    """(table seats, seat of each player): PHH's seats when consistent, else 0..n-1."""
    seats, count = hand.get("seats"), hand.get("seat_count")
    if (
        isinstance(seats, list)
        and isinstance(count, int)
        and len(seats) == n
        and count <= SEATS_MAX
    ):
        zero = [s - 1 for s in seats if isinstance(s, int)]
        steps = sum((zero[(k + 1) % n] - zero[k]) % count for k in range(n)) if count else 0
        if len(set(zero)) == n and all(0 <= s < count for s in zero) and steps == count:
            return count, zero
    if n > SEATS_MAX:
        raise PokerError(f"{n} players: an arena table has at most {SEATS_MAX} seats")
    return n, list(range(n))


def _import_forced(hand: dict, scale: int, index: int) -> dict:
    n = len(hand["starting_stacks"])
    antes = [_units(a, scale, "ante", index) for a in hand["antes"]]
    blinds = [_units(b, scale, "blind", index) for b in hand["blinds_or_straddles"]]
    if len(antes) != n or len(blinds) != n:
        raise PokerError(f"hand {index}: antes and blinds need one value per player ({n})")
    bb_ante = n > 1 and antes[1] > 0 and not any(a for i, a in enumerate(antes) if i != 1)
    if not bb_ante and len(set(antes)) > 1:
        raise PokerError(f"hand {index}: antes {hand['antes']} are neither equal nor a bb ante")
    straddle = blinds[2] if n >= 3 else 0
    if any(blinds[3:]):
        raise PokerError(f"hand {index}: only one straddle (the third forced bet) is supported")
    if _units(hand["min_bet"], scale, "min_bet", index) != blinds[1]:
        raise PokerError(f"hand {index}: min_bet {hand['min_bet']} is not the big blind")
    ante = antes[1] if bb_ante else antes[0]
    if "_pypoker_straddle" in hand and n < 3:
        straddle = _units(hand["_pypoker_straddle"], scale, "straddle", index)
    bb_ante = bb_ante or (not ante and hand.get("_pypoker_bb_ante") is True)
    return {
        "small_blind": blinds[0],
        "big_blind": blinds[1],
        "ante": ante,
        "bb_ante": bb_ante,
        "straddle": straddle,
    }


def _import_hand(hand: dict, scale: int, index: int) -> dict:
    n = len(hand["starting_stacks"])
    seats, seat_of = _table_seats(hand, n)
    row = {"table": 0, "hand": index, "seats": seats, "button": seat_of[-1]}
    for key in ("table", "hand"):
        if isinstance(hand.get(key), int) and 0 <= hand[key] < 2**32:
            row[key] = hand[key]
    row["hand_id"] = (row["table"] << 32) | row["hand"]
    row.update(_import_forced(hand, scale, index))
    start = [0] * seats
    for k, value in enumerate(hand["starting_stacks"]):
        start[seat_of[k]] = _units(value, scale, "starting stack", index)
    row["starting_stacks"] = start
    row.update(_import_actions(hand, row, seat_of, scale, index))
    finishing = hand.get("finishing_stacks")
    row["winnings"] = None
    if isinstance(finishing, list) and len(finishing) == n:
        row["winnings"] = [0] * seats
        for k, value in enumerate(finishing):
            seat = seat_of[k]
            row["winnings"][seat] = _units(value, scale, "finishing stack", index) - start[seat]
    row["pots"] = []
    return row


class _Betting:
    """Just enough of the betting to name PHH's actions in the arena's terms: each player's
    stack and bet this street after the forced bets (ante first, then small blind, big blind,
    straddle; a short stack posts what it has), and the bet to call: the largest bet made,
    as pokerkit and the engine count it (a short big blind's posted chips, not the blind)."""

    def __init__(self, row: dict, seat_of: list[int]):
        n = len(seat_of)
        self.stack = [row["starting_stacks"][s] for s in seat_of]
        self.bet = [0] * n
        big, small = (0, 1) if n == 2 else (1, 0)
        for k in range(n):
            ante = row["ante"] if (not row["bb_ante"] or k == big) else 0
            self.stack[k] -= min(ante, self.stack[k])
        forced = [(small, row["small_blind"]), (big, row["big_blind"])]
        if n >= 3:
            forced.append((2, row["straddle"]))
        for k, amount in forced:
            self.bet[k] = min(amount, self.stack[k])
            self.stack[k] -= self.bet[k]
        self.top = max(self.bet)

    def new_street(self) -> None:
        self.bet = [0] * len(self.bet)
        self.top = 0

    def check_or_call(self, k: int) -> tuple[int, int]:
        if self.top <= self.bet[k]:
            return CHECK, 0
        paid = min(self.stack[k], self.top - self.bet[k])
        self.stack[k] -= paid
        self.bet[k] += paid
        return (CALL if self.stack[k] else ALL_IN), self.bet[k]

    def raise_to(self, k: int, amount: int) -> tuple[int, int]:
        paid = amount - self.bet[k]
        if paid <= 0 or paid > self.stack[k]:
            raise ValueError(f"a raise to {amount} does not fit bet {self.bet[k]} + stack")
        self.stack[k] -= paid
        self.bet[k] = amount
        self.top = max(self.top, amount)
        return (RAISE if self.stack[k] else ALL_IN), amount


_STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}


def _import_actions(hand: dict, row: dict, seat_of: list[int], scale: int, index: int) -> dict:
    seats, n = row["seats"], len(seat_of)
    hole = [[NO_CARD, NO_CARD] for _ in range(seats)]
    showed, board, actions = [False] * seats, [], []
    betting = _Betting(row, seat_of)
    for parsed in hand["actions"]:
        if parsed is None:
            continue
        actor, verb, *args = parsed
        try:
            k = -1 if actor == "d" else int(actor[1:]) - 1
            if actor != "d" and not 0 <= k < n:
                raise ValueError(f"there is no player {actor}")
            if verb == "db":
                board += _card_ids(args[0], len(args[0]) // 2, index)
                if len(board) not in _STREET_OF_BOARD:
                    raise ValueError(f"{len(board)} board cards is not a street")
                betting.new_street()
            elif verb == "dh":
                player = int(args[0][1:]) - 1
                hole[seat_of[player]] = _card_ids(args[1], 2, index)
            elif verb == "sm":
                _show(hole, showed, seat_of[k], args, index)
            else:
                actions.append(_bet_action(betting, verb, k, args, seat_of, board, scale, index))
        except (ValueError, IndexError) as error:
            raise PokerError(f"hand {index}: action {' '.join(parsed)!r}: {error}") from None
    return {"hole_cards": hole, "board": board, "actions": actions, "showed_down": showed}


def _show(hole: list[list[int]], showed: list[bool], seat: int, args, index: int) -> None:
    if not args:
        return  # mucked
    if args[0] != "-":
        cards = _card_ids(args[0], 2, index)
        hole[seat] = [c if c != NO_CARD else h for c, h in zip(cards, hole[seat], strict=True)]
    showed[seat] = NO_CARD not in hole[seat]


def _bet_action(betting: _Betting, verb: str, k: int, args, seat_of, board, scale, index):
    if verb == "f":
        kind, amount = FOLD, 0
    elif verb == "cc":
        kind, amount = betting.check_or_call(k)
    elif verb == "cbr":
        kind, amount = betting.raise_to(k, _units(Decimal(args[0]), scale, "bet", index))
    else:
        raise ValueError(f"{verb!r} is not a no-limit hold'em action")
    street = _STREET_OF_BOARD[len(board)]
    return {"seat": seat_of[k], "street": street, "kind": kind, "amount": amount}
