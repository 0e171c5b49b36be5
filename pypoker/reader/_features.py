"""The Reader's inputs: each example's fixed-size record (``EXAMPLE_DTYPE``) as a row of
``FEATURES`` numbers, and the combos its board leaves (``live_combos``).

A row, in order (chips in big blinds; "by position" as in ``EXAMPLE_DTYPE``):

- the street (4, one-hot), the moment (2), seats / 10, the read seat's position (10,
  one-hot), its place from first to act (0) to the button (1), whether it is the button;
- its style (``STYLES`` one-hot) and a flag "style unknown" (then the style is all zeros);
- its latest action (5 kinds, one-hot, and "none yet");
- the board: each card shown (52), the count of each rank (13), the largest count of one
  suit / 5, whether a rank is paired;
- log(1 + pot), its stack / 100, what it has put in / 100, how many seats are still in /
  10, and who is still in (10, by position);
- its own last ``OWN`` actions, latest first, each: there (1), kind (5), street (4), the bet
  after it / the pot before it, the amount to call / (pot + to call);
- its own actions counted by street and kind (20), the others' likewise (20);
- the last ``RECENT`` public actions, latest first, each: there, its own (1), kind (5),
  bet / pot, to call / (pot + to call).
"""

from __future__ import annotations

import numpy as np

from .._native import lib

STYLES = lib.PP_POPULATION_STYLES_MAX
OWN = 6
RECENT = 8
KINDS = 5

_SIZES = (("street", 4), ("moment", 2), ("seats", 1), ("position", 10), ("place", 1),
          ("button", 1), ("style", STYLES), ("style_unknown", 1), ("last_kind", KINDS + 1),
          ("board", 52), ("ranks", 13), ("suited", 1), ("paired", 1), ("pot", 1),
          ("stack", 1), ("committed", 1), ("players", 1), ("in_hand", 10),
          ("own", OWN * (3 + KINDS + 4)), ("own_counts", 20), ("other_counts", 20),
          ("recent", RECENT * (4 + KINDS)))  # fmt: skip
SLICES = {}
_at = 0
for _name, _size in _SIZES:
    SLICES[_name] = slice(_at, _at + _size)
    _at += _size
FEATURES = _at

_COMBO_SETS = None


def _combo_sets() -> np.ndarray:
    global _COMBO_SETS
    if _COMBO_SETS is None:
        from .. import COMBOS

        c = COMBOS.astype(np.uint64)
        _COMBO_SETS = (np.uint64(1) << c[:, 0]) | (np.uint64(1) << c[:, 1])
    return _COMBO_SETS


def live_combos(data: np.ndarray) -> np.ndarray:
    """(N, 1326) bool: the combos each example's board leaves."""
    board = data["board"].astype(np.uint64)
    bits = np.where(board < 52, np.uint64(1) << np.minimum(board, np.uint64(63)), np.uint64(0))
    sets = np.bitwise_or.reduce(bits, axis=1)
    return (_combo_sets()[None, :] & sets[:, None]) == 0


def _one_hot(out, values, width) -> None:
    values = values.astype(np.int64)
    inside = (values >= 0) & (values < width)
    rows = np.flatnonzero(inside)
    out[rows, values[inside]] = 1.0


def _ratio(a, b):
    return np.clip(a / np.maximum(b, 1e-3), 0.0, 10.0)


def features(data: np.ndarray, known_styles: bool = True) -> np.ndarray:
    """(N, FEATURES) float32: the rows of ``data`` (``EXAMPLE_DTYPE`` records) as the
    Reader reads them; ``known_styles=False`` marks every style unknown."""
    n = len(data)
    out = np.zeros((n, FEATURES), np.float32)

    def part(name):
        return out[:, SLICES[name]]

    _one_hot(part("street"), data["street"], 4)
    _one_hot(part("moment"), data["moment"], 2)
    seats = data["seats"].astype(np.float32)
    position = data["position"].astype(np.float32)
    part("seats")[:, 0] = seats / 10
    _one_hot(part("position"), data["position"], 10)
    part("place")[:, 0] = position / np.maximum(seats - 1, 1)
    part("button")[:, 0] = position == seats - 1
    style = data["style"].astype(np.int64)
    if known_styles:
        _one_hot(part("style"), style, STYLES)
        part("style_unknown")[:, 0] = style >= STYLES
    else:
        part("style_unknown")[:, 0] = 1.0
    last = data["last_kind"].astype(np.int64)
    _one_hot(part("last_kind"), np.where(last < KINDS, last, KINDS), KINDS + 1)
    _board(data["board"], part("board"), part("ranks"), part("suited"), part("paired"))
    pot = data["pot"].astype(np.float32)
    part("pot")[:, 0] = np.log1p(np.maximum(pot, 0))
    pos = np.minimum(data["position"].astype(np.int64), 9)
    rows = np.arange(n)
    part("stack")[:, 0] = data["stacks"][rows, pos] / 100
    part("committed")[:, 0] = data["committed"][rows, pos] / 100
    in_hand = data["in_hand"].astype(np.float32)
    part("players")[:, 0] = in_hand.sum(1) / 10
    part("in_hand")[:] = in_hand
    _actions(data, out)
    return out


def _board(board, cards, ranks, suited, paired) -> None:
    shown = board < 52
    n = len(board)
    rows = np.repeat(np.arange(n), 5).reshape(n, 5)
    ids = board.astype(np.int64)
    cards[rows[shown], ids[shown]] = 1.0
    # card id = suit * 13 + value (pp.COMBOS order: values % 13, suits // 13)
    np.add.at(ranks, (rows[shown], ids[shown] % 13), 1.0)
    suits = np.zeros((n, 4), np.float32)
    np.add.at(suits, (rows[shown], ids[shown] // 13), 1.0)
    suited[:, 0] = suits.max(1) / 5
    paired[:, 0] = ranks.max(1) >= 2


def _actions(data, out) -> None:
    kind = data["action_kind"].astype(np.int64)
    valid = kind < KINDS
    own = valid & (data["action_position"] == data["position"][:, None])
    street = np.minimum(data["action_street"].astype(np.int64), 3)
    pot = data["action_pot"].astype(np.float32)
    call = data["action_to_call"].astype(np.float32)
    bet = _ratio(data["action_amount"].astype(np.float32), pot)
    odds = _ratio(call, pot + call)
    n = len(data)
    rows = np.arange(n)
    # the actions counted by street and kind: own, others'
    slot = np.where(valid, street * KINDS + np.minimum(kind, KINDS - 1), 0)
    for name, which in (("own_counts", own), ("other_counts", valid & ~own)):
        counts = np.zeros((n, 20), np.float32)
        r, c = np.nonzero(which)
        np.add.at(counts, (r, slot[r, c]), 1.0)
        out[:, SLICES[name]] = counts / 4
    width = 3 + KINDS + 4
    block = out[:, SLICES["own"]]
    latest = np.cumsum(own[:, ::-1], axis=1)[:, ::-1]  # 1 at an own action = its latest
    for k in range(OWN):
        chosen = own & (latest == k + 1)
        there = chosen.any(1)
        at = chosen.argmax(1)
        r = rows[there]
        a = at[there]
        base = k * width
        block[r, base] = 1.0
        block[r, base + 1 + kind[r, a]] = 1.0
        block[r, base + 1 + KINDS + street[r, a]] = 1.0
        block[r, base + 1 + KINDS + 4] = bet[r, a]
        block[r, base + 2 + KINDS + 4] = odds[r, a]
    width = 4 + KINDS
    block = out[:, SLICES["recent"]]
    count = valid.sum(1)
    for k in range(RECENT):
        there = count > k
        r = rows[there]
        a = count[there] - 1 - k
        base = k * width
        block[r, base] = 1.0
        block[r, base + 1] = own[r, a]
        block[r, base + 2 + kind[r, a]] = 1.0
        block[r, base + 2 + KINDS] = bet[r, a]
        block[r, base + 3 + KINDS] = odds[r, a]


# The combos' own features, per example, that the output layer weighs (``combo_features``):
# each live combo's strength with the board as a share of the live combos it beats (ties
# half; 0 preflop), its square, bins of it, and whether the combo holds four or more cards
# of one suit with the board (a flush draw or better) before the river.
_BINS = (0.5, 0.7, 0.8, 0.9, 0.95)
COMBO_FEATURES = 3 + len(_BINS) + 1


def _suits() -> np.ndarray:
    from .. import COMBOS

    return COMBOS // 13


def strengths(boards: np.ndarray) -> np.ndarray:
    """(M, 1326) uint8: each combo's strength with each board (M, 5) as a share of the live
    combos it beats, ties half, in 255ths; 0 for a board of fewer than 3 cards and for
    combos the board holds."""
    from ..ranking import rank

    out = np.zeros((len(boards), 1326), np.uint8)
    post = np.flatnonzero((boards < 52).sum(1) >= 3)
    if not len(post):
        return out
    board = boards[post].astype(np.uint64)
    bits = np.where(board < 52, np.uint64(1) << np.minimum(board, np.uint64(63)), np.uint64(0))
    sets = np.bitwise_or.reduce(bits, axis=1)
    alive = (_combo_sets()[None, :] & sets[:, None]) == 0
    hands = (sets[:, None] | _combo_sets()[None, :]).ravel()
    ranks = rank(hands, threads=1).reshape(len(post), -1)
    ranks[~alive] = 0  # below any hand of 5 to 7 cards: they sort first (a radix sort)
    strength = _mid_ranks(ranks)
    strength -= (~alive).sum(1, keepdims=True)
    strength *= 255 / np.maximum(alive.sum(1, keepdims=True) - 1, 1)
    np.clip(strength, 0, 255, out=strength)
    strength *= alive
    out[post] = np.rint(strength)
    return out


def combo_features(data: np.ndarray, live: np.ndarray, strength=None) -> np.ndarray:
    """(COMBO_FEATURES, N, 1326) float32 for the rows of ``data`` (records with ``board``
    and ``street``, as ``EXAMPLE_DTYPE``) and their live combos (all 0 preflop and on dead
    combos); ``strength``: their ``strengths`` when known already."""
    n = len(data)
    out = np.zeros((COMBO_FEATURES, n, live.shape[1]), np.float32)
    post = np.flatnonzero(data["street"] > 0)
    if not len(post):
        return out
    ids = data["board"][post]
    alive = live[post]
    found = strengths(ids) if strength is None else strength[post]
    part = np.empty((COMBO_FEATURES, len(post), live.shape[1]), np.float32)
    np.multiply(found, np.float32(1 / 255), out=part[0])
    np.multiply(part[0], part[0], out=part[1])
    part[2] = alive
    for k, edge in enumerate(_BINS):
        np.greater_equal(part[0], edge, out=part[3 + k])
    suits = np.zeros((len(post), 4), np.int64)
    shown = ids < 52
    np.add.at(suits, (np.nonzero(shown)[0], ids[shown] // 13), 1)
    first, second = _suits()[:, 0], _suits()[:, 1]
    same = (first == second)[None, :]
    most = np.maximum(suits[:, first] + 1 + same, suits[:, second] + 1 + same)
    part[3 + len(_BINS)] = (most >= 4) & (data["street"][post] < 3)[:, None] & alive
    if len(post) == n:
        return part
    out[:, post] = part
    return out


def _mid_ranks(values: np.ndarray) -> np.ndarray:
    """Each value's place in its row (0 = lowest), ties given their mean place."""
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    width = values.shape[1]
    index = np.arange(width)
    new = np.ones(values.shape, bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first = np.maximum.accumulate(np.where(new, index, 0), axis=1)
    end = np.ones(values.shape, bool)
    end[:, :-1] = new[:, 1:]
    last = np.minimum.accumulate(np.where(end, index, width - 1)[:, ::-1], axis=1)[:, ::-1]
    out = np.empty(values.shape, np.float32)
    np.put_along_axis(out, order, (first + last) / 2, axis=1)
    return out
