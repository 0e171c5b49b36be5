"""Short-deck equity for ``pp.equity(..., game="shortdeck" | "shortdeck-straights")``: hands
known in full or in part (the rest dealt each game) or ``"random"``, ranked by the short-deck
batch kernels (``pp.rank(..., game=)`` on card sets) a chunk of runouts at a time.

Exact enumerates every runout of the board (``pp.combinations`` over the cards left of the
36) when every hole card is known; anything dealt runs Monte Carlo from ``pp.deal``'s
counter-based stream (the same seed gives the same games whatever the thread count), under
the same stopping rules as Hold'em. A range player (``"QQ+,AKs"``, its combos outside the
short deck dropped) draws a combo by weight each game from a generator seeded by (seed,
chunk, player); games where drawn combos meet each other or the dealt cards are redealt
(rejection keeps every consistent deal equally likely, weighted as the ranges say).
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from . import _equity_runs as runs
from ._games import Game
from ._native import ArgumentError, CardParseError, card_name, lib
from .cards import parse_cards
from .dealing import deal
from .enumeration import combinations
from .equity_result import EquityResult
from .ranges import Range, RangeSyntaxError, parse_range
from .ranking import rank_set_rows_game

EXACT_RUNOUTS_MAX = 3_000_000  # exact=None enumerates up to this many runouts
CHUNK = 1 << 16  # runouts ranked a call
BITS = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


def shortdeck_equity(players, game: Game, ask: runs.Ask) -> EquityResult:
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise ArgumentError("players must be a list of hands, e.g. ['AhAd', 'KsKc', 'random']")
    if not 2 <= len(players) <= 10:
        raise ArgumentError(f"{len(players)} players: equity takes 2 to 10")
    board, dead, exact = ask.board, ask.dead, ask.exact
    _check_deck(game, board, dead)
    known = [_hand(p, i) for i, p in enumerate(players)]
    ranges = [k if isinstance(k, Range) else None for k in known]
    known = [np.zeros(0, np.uint8) if isinstance(k, Range) else k for k in known]
    sets = [int(sum(1 << int(c) for c in cards)) for cards in known]
    used = _check_hands(game, known, sets, board | dead)
    ranges = [_short_range(r, i, used | game.missing) if r else None for i, r in enumerate(ranges)]
    board_cards = bin(board).count("1")
    if board_cards not in (0, 3, 4, 5):
        raise ArgumentError(f"a board of {board_cards} cards: 0, 3, 4 or 5")
    dealt = [0 if r else 2 - len(k) for k, r in zip(known, ranges, strict=True)]
    drawn = any(dealt) or any(ranges)
    if exact and drawn:
        raise ArgumentError(
            "exact short-deck equity needs every hole card known; "
            "use exact=False (Monte Carlo) for ranges, 'random' and partial hands"
        )
    runouts = math.comb(lib.PP_SHORT_DECK_CARDS - bin(used).count("1"), 5 - board_cards)
    if exact is None and ask.rules is None and not drawn and runouts <= EXACT_RUNOUTS_MAX:
        exact = True
    if board_cards == 5 and not drawn:
        exact = True  # nothing left to deal: the one showdown is the answer
    fields = {"hands": [_label(p, k, d, r) for p, k, d, r in zip(players, known, dealt, ranges,
                                                                  strict=True)],
              "board": _text(_ids(board)), "dead": _text(_ids(dead))}  # fmt: skip
    deals = Deals(sets, dealt, ranges, board, used | game.missing, board_cards)
    if exact:
        wins, ties, shares, played = _exact(game, sets, board, deals.out_of_deck, ask.threads)
        sums = Sums(wins, ties, shares, None, played, exact=True)
        return _result(sums, "exact: known hands, every board counted", ask.started, fields)
    return _monte_carlo(game, deals, ask, fields)


def _check_deck(game: Game, board: int, dead: int) -> None:
    for what, cards in (("board", board), ("dead", dead)):
        low = cards & game.missing
        if low:
            card = card_name((low & -low).bit_length() - 1)
            raise ArgumentError(f"{what}: card {card} is not in "
                                "the short deck (36 cards, sixes to aces)")  # fmt: skip


def _check_hands(game: Game, known, sets, used: int) -> int:
    """Every known card in the short deck and not yet used; returns the cards now used."""
    for i, (cards, s) in enumerate(zip(known, sets, strict=True)):
        for c in cards.tolist():
            if game.missing >> c & 1:
                raise ArgumentError(f"player {i + 1}: card {card_name(c)} is not in the short deck "
                                    "(36 cards, sixes to aces)")  # fmt: skip
            if used >> c & 1:
                raise ArgumentError(f"player {i + 1}: card {card_name(c)} is already in use")
        used |= s
    return used


def _short_range(found: Range, i: int, out: int) -> Range:
    kept = found.without(out)
    if len(kept) == 0:
        raise ArgumentError(f"player {i + 1}: range {found.text!r} has no combo left in the "
                            "short deck once the board, dead and known cards are out")  # fmt: skip
    return kept


def _label(player, cards, dealt: int, found) -> str:
    if found is not None:
        return str(player).replace(" ", "")
    return f"{_text(cards)}{'?' * dealt}" if dealt < 2 else "random"


def _hand(player, i: int):
    if isinstance(player, str) and player.strip().lower() == "random":
        return np.zeros(0, dtype=np.uint8)
    try:
        cards = parse_cards(player).reshape(-1)
    except (CardParseError, ValueError, TypeError):
        try:
            return parse_range(player)
        except (RangeSyntaxError, ValueError, TypeError):
            raise ArgumentError(f"player {i + 1}: {player!r} is not a hand or a range; short "
                                "deck takes hands ('AhAd'), partial hands ('Ah'), ranges "
                                "('QQ+,AKs') or 'random'") from None  # fmt: skip
    if len(cards) > 2:
        raise ArgumentError(f"player {i + 1}: {len(cards)} cards, a hold'em hand has 2")
    return cards


def _ids(cards: int) -> np.ndarray:
    return np.array([c for c in range(lib.PP_CARDS) if cards >> c & 1], dtype=np.uint8)


def _text(cards) -> str:
    return "".join(card_name(int(c)) for c in cards)


def _settle(ranks: np.ndarray):
    """Per player: wins, ties and pot shares over the games (columns) of ``ranks``."""
    best = ranks.max(axis=0)
    winners = ranks == best
    count = winners.sum(axis=0)
    alone = count == 1
    share = winners / count
    return (winners & alone).sum(axis=1), (winners & ~alone).sum(axis=1), share


def _exact(game: Game, sets, board: int, out_of_deck: int, threads):
    left = 5 - bin(board).count("1")
    runouts = combinations(left, exclude=np.uint64(out_of_deck)) if left else np.zeros(1, np.uint64)
    players = len(sets)
    wins = np.zeros(players)
    ties = np.zeros(players)
    shares = np.zeros(players)
    for first in range(0, len(runouts), CHUNK):
        boards = runouts[first : first + CHUNK] | np.uint64(board)
        ranks = np.stack(
            [rank_set_rows_game(boards | np.uint64(s), game, None, threads) for s in sets]
        )
        w, t, share = _settle(ranks)
        wins += w
        ties += t
        shares += share.sum(axis=1)
    return wins, ties, shares, len(runouts)


class Deals(NamedTuple):
    """What a short-deck game deals around: each player's known cards (``sets``), how many
    more each is dealt (``dealt``), the ranges drawn from (None: no range), the board (a
    set of ``board_cards`` cards) and the cards out of the deck."""

    sets: list
    dealt: list
    ranges: list
    board: int
    out_of_deck: int
    board_cards: int


class Sums(NamedTuple):
    """Per player: wins, ties, pot shares and their standard errors (None: exact), over
    ``played`` games."""

    wins: np.ndarray
    ties: np.ndarray
    shares: np.ndarray
    stderr: np.ndarray | None
    played: int
    exact: bool


def _monte_carlo(game, deals: Deals, ask: runs.Ask, fields) -> EquityResult:
    rules = ask.stop_rules
    sums = np.zeros((4, len(deals.sets)))  # wins, ties, shares, shares squared
    played = drawn_games = 0
    while rules.games is None or played < rules.games:
        count = CHUNK if rules.games is None else min(CHUNK, rules.games - played)
        hands = _deal_chunk(deals, ask.seed, drawn_games, count, ask.threads)
        drawn_games += count
        ranks = np.stack([rank_set_rows_game(h, game, None, ask.threads) for h in hands])
        w, t, share = _settle(ranks)
        sums += [w, t, share.sum(axis=1), (share * share).sum(axis=1)]
        played += ranks.shape[1]
        if played == 0 and drawn_games >= 64 * CHUNK:
            raise ArgumentError("the ranges never fit together with the cards in play")
        stderr = _stderr(sums[2], sums[3], max(played, 1))
        if rules.stderr is not None and played and stderr.max() <= rules.stderr:
            break
        if rules.seconds is not None and time.perf_counter() - ask.started >= rules.seconds:
            break
    if played == 0:
        raise ArgumentError("no game dealt: the ranges never fit together in the time given")
    reason = "monte carlo: hole cards dealt or drawn from ranges each game"
    found = Sums(sums[0], sums[1], sums[2], _stderr(sums[2], sums[3], played), played, False)
    return _result(found, reason, ask.started, fields)


def _deal_chunk(deals: Deals, seed: int, first: int, count: int, threads) -> list[np.ndarray]:
    """Each player's 7-card sets for games ``first .. first + count`` (the games where drawn
    range combos meet each other or the dealt cards left out)."""
    sets, dealt, ranges, board, out_of_deck, board_cards = deals
    per_game = (5 - board_cards) + sum(dealt)
    if per_game:
        cards = deal(count, per_game, seed=seed, start=first, exclude=np.uint64(out_of_deck),
                     threads=threads)  # fmt: skip
        bits = BITS[cards]
    else:
        bits = np.zeros((count, 0), np.uint64)
    runout = np.bitwise_or.reduce(bits[:, : 5 - board_cards], axis=1) | np.uint64(board)
    at = 5 - board_cards
    own = []
    for p, (s, d, found) in enumerate(zip(sets, dealt, ranges, strict=True)):
        if found is not None:
            generator = np.random.default_rng([seed, first, p])
            pick = generator.choice(len(found), size=count, p=found.weights / found.weights.sum())
            own.append(found.sets()[pick])
            continue
        mine = (
            np.bitwise_or.reduce(bits[:, at : at + d], axis=1) if d else np.zeros(count, np.uint64)
        )
        at += d
        own.append(mine | np.uint64(s))
    if any(r is not None for r in ranges):
        together = np.bitwise_or.reduce(np.stack(own), axis=0) | runout
        cards_each = sum(np.bitwise_count(o) for o in own) + np.bitwise_count(runout)
        fits = np.bitwise_count(together) == cards_each
        runout, own = runout[fits], [o[fits] for o in own]
    return [runout | o for o in own]


def _stderr(shares, squares, played: int) -> np.ndarray:
    mean = shares / played
    variance = np.maximum(squares / played - mean * mean, 0.0)
    return np.sqrt(variance / max(played - 1, 1))


def _result(sums: Sums, reason: str, started: float, fields) -> EquityResult:
    played = sums.played
    return EquityResult(
        **fields,
        exact=sums.exact,
        games=int(played),
        equity=sums.shares / played,
        win=sums.wins / played,
        tie=sums.ties / played,
        wins=sums.wins,
        ties=sums.ties,
        stderr=sums.stderr,
        seconds=time.perf_counter() - started,
        reason=reason,
    ).without_combos()  # short-deck hands are not Hold'em's combos
