"""The arena (issue 46) against its bars, and the engines it is compared with.

    python bench/bench_arena.py [--runs 5] [--pokerkit-hands 2000]

- native play: the reference random player at 6-max, 100 big blinds (200 chips, blinds
  1/2), one thread, histories off and on (hands/s; bars 1,000,000 and 300,000);
- Python in the loop: a NumPy random policy acting for 4,096 tables through observe/step
  (decisions/s; bar 10,000,000);
- state: a table's size (bar 256 bytes) and a copy of 4,096 tables' state, per table
  (bar 20 ns);
- pokerkit and pokerfast (where installed) playing the same random player on the same
  cards, one hand at a time: hands/s, and how many hands end with the same chips as the
  arena's history (every one should).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import pypoker as pp
from pypoker import arena as ar
from pypoker._parallel import cpu_count
from pypoker.benchmark import machine

SEATS, STACK, BLINDS = 6, 200, (1, 2)


def best_seconds(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def native_play(runs: int, record: bool, threads: int | None = 1) -> float:
    tables, hands = 1024, 1000 if not record else 300
    arena = ar.Arena(tables, SEATS, stacks=STACK, blinds=BLINDS)
    seconds = best_seconds(lambda: arena.play(hands, record=record, threads=threads), runs)
    return tables * hands / seconds


def random_policy(seen: ar.Observation, rng: np.random.Generator):
    """Fold a fifth of the time facing a bet, raise a tenth (to a uniform amount), else
    check or call: every table at once."""
    draw = rng.random(len(seen.actor))
    kinds = np.where(seen.legal[:, ar.CHECK], ar.CHECK, ar.CALL)
    kinds[(draw < 0.2) & seen.legal[:, ar.FOLD]] = ar.FOLD
    raising = (draw > 0.9) & seen.legal[:, ar.RAISE]
    kinds[raising] = ar.RAISE
    span = seen.max_raise_to - seen.min_raise_to + 1
    amounts = seen.min_raise_to + (rng.random(len(draw)) * span).astype(np.int64)
    return kinds, np.where(raising, amounts, 0)


def python_in_the_loop(runs: int, tables: int = 4096, steps: int = 200) -> float:
    arena = ar.Arena(tables, SEATS, stacks=STACK, blinds=BLINDS)
    rng = np.random.default_rng(0)

    def loop():
        for _ in range(steps):
            arena.step(*random_policy(arena.observe(), rng))

    return tables * steps / best_seconds(loop, runs)


def state_copy_ns(runs: int, tables: int = 4096) -> float:
    """``Arena.state`` (a copy of every table), per table."""
    arena = ar.Arena(tables, SEATS)
    repeats = 1000

    def copies():
        for _ in range(repeats):
            arena.state  # noqa: B018 - each copy dropped at once, as a search would reuse it

    seconds = best_seconds(copies, runs)
    return seconds / repeats / tables * 1e9


def pokerkit_hand(row: dict, seed: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Plays the recorded hand's cards in pokerkit with the reference random player:
    (net chips per seat, (seat, kind) of every action)."""
    import warnings

    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
                   Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)  # fmt: skip
    seats, button, start = row["seats"], row["button"], row["starting_stacks"]
    dealt = [seat for seat in range(seats) if start[seat] > 0]
    # pokerkit's players: the seat after the button first, the button last.
    order = sorted(dealt, key=lambda seat: (seat - button - 1) % seats)
    forced = [row["small_blind"], row["big_blind"]]
    if row["straddle"] and len(order) >= 3:
        forced.append(row["straddle"])
    antes = {1: row["ante"]} if row["bb_ante"] else row["ante"]
    stacks = [start[seat] for seat in order]
    with warnings.catch_warnings():  # its own deck would deal other cards: ours are given
        warnings.simplefilter("ignore")
        state = NoLimitTexasHoldem.create_state(automations, False, antes, forced,
                                                row["big_blind"], stacks, len(order))  # fmt: skip
        for seat in order:
            state.deal_hole("".join(pp.CARD_NAMES[c] for c in row["hole_cards"][seat]))
        actions = _pokerkit_actions(state, row, order, seed)
    net = [0] * seats
    for index, seat in enumerate(order):
        net[seat] = state.stacks[index] - stacks[index]
    return net, actions


def _pokerkit_actions(state, row: dict, order: list[int], seed: int) -> list[tuple[int, int]]:
    board = [pp.CARD_NAMES[c] for c in row["board"]]
    decision, actions = 0, []
    while state.status:
        if state.can_deal_board():
            dealt = len(state.board_cards)
            state.deal_board("".join(board[dealt : 3 if dealt == 0 else dealt + 1]))
            continue
        seat = order[state.actor_index]
        kind, amount = ar.random_player.choose(
            seed, row["table"], row["hand"], decision, state.checking_or_calling_amount,
            state.can_complete_bet_or_raise_to(),
            state.min_completion_betting_or_raising_to_amount or 0,
            state.max_completion_betting_or_raising_to_amount or 0,
        )  # fmt: skip
        if kind == ar.FOLD:
            state.fold()
        elif kind == ar.RAISE:
            state.complete_bet_or_raise_to(amount)
        else:
            state.check_or_call()
        actions.append((seat, kind))
        decision += 1
    return actions


def pokerkit_play(hands: int, seed: int = 1, **settings) -> tuple[float, int]:
    """pokerkit's hands/s with the random player, and the hands that agree with pypoker."""
    settings = {"seats": SEATS, "stacks": STACK, "blinds": BLINDS, **settings}
    history = ar.Arena(1, seed=seed, **settings).play(hands, record=True)
    rows = history.to_pylist()
    started = time.perf_counter()
    results = [pokerkit_hand(row, seed) for row in rows]
    seconds = time.perf_counter() - started
    agree = sum(
        net == row["winnings"] and moves == [(a["seat"], a["kind"]) for a in row["actions"]]
        for (net, moves), row in zip(results, rows, strict=True)
    )
    return hands / seconds, agree


def pokerfast_hand(row: dict, seed: int) -> list[int]:
    """The recorded hand's cards in pokerfast's 6-max engine with the reference random
    player: net chips per seat."""
    from pokerfast.engine import FastHand

    seats, button = row["seats"], row["button"]
    order = [(button + 1 + i) % seats for i in range(seats)]  # its players, SB first
    hole = ["".join(pp.CARD_NAMES[c] for c in row["hole_cards"][seat]) for seat in order]
    board = [pp.CARD_NAMES[c] for c in row["board"]]
    stacks = [row["starting_stacks"][seat] for seat in order]
    hand = FastHand.for_cards(stacks, hole, board, small_blind=row["small_blind"],
                              big_blind=row["big_blind"])  # fmt: skip
    decision = 0
    while not hand.done:
        options = hand.get_action_space()
        bet = hand.state.bets[options["player"]]
        raising = "min_bet" in options
        kind, amount = ar.random_player.choose(
            seed, row["table"], row["hand"], decision, options.get("call", 0), raising,
            options["min_bet"] + bet if raising else 0, options["max_bet"] + bet if raising else 0,
        )  # fmt: skip
        if kind == ar.FOLD:
            hand.fold()
        elif kind == ar.RAISE:
            hand.bet_or_raise(amount - bet)
        elif kind == ar.CHECK:
            hand.check()
        else:
            hand.call()
        decision += 1
    net = [0] * seats
    for index, seat in enumerate(order):
        net[seat] = hand.state.payoffs[index]
    return net


def pokerfast_play(hands: int, seed: int = 1) -> tuple[float, int]:
    """pokerfast's hands/s with the random player, and the hands that end as pypoker's."""
    rows = ar.Arena(1, SEATS, stacks=STACK, blinds=BLINDS, seed=seed).play(hands, record=True)
    rows = rows.to_pylist()
    started = time.perf_counter()
    nets = [pokerfast_hand(row, seed) for row in rows]
    seconds = time.perf_counter() - started
    agree = sum(net == row["winnings"] for net, row in zip(nets, rows, strict=True))
    return hands / seconds, agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pokerkit-hands", type=int, default=2000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; 6-max, 100bb, random player\n")
    print(f"native play, 1 thread, no history:   {native_play(args.runs, False):>12,.0f} hands/s"
          "   (bar 1,000,000)")  # fmt: skip
    print(f"native play, 1 thread, with history: {native_play(args.runs, True):>12,.0f} hands/s"
          "   (bar 300,000)")  # fmt: skip
    cores = cpu_count()
    print(f"native play, {cores} threads, no history:  "
          f"{native_play(args.runs, False, cores):>11,.0f} hands/s")  # fmt: skip
    print(f"Python in the loop, 4,096 tables:    {python_in_the_loop(args.runs):>12,.0f} "
          "decisions/s (bar 10,000,000)")  # fmt: skip
    print(f"table state:                         {ar.TABLE_DTYPE.itemsize:>12} bytes "
          "(bar 256)")  # fmt: skip
    print(f"state copy, 4,096 tables:            {state_copy_ns(args.runs):>12.1f} ns a table"
          " (bar 20)")  # fmt: skip
    try:
        rate, agree = pokerkit_play(args.pokerkit_hands)
        print(f"pokerkit, same player and cards:     {rate:>12,.0f} hands/s "
              f"({agree:,} of {args.pokerkit_hands:,} hands end as pypoker's)")  # fmt: skip
    except ImportError:
        print("pokerkit: not installed")
    try:
        rate, agree = pokerfast_play(args.pokerkit_hands)
        print(f"pokerfast, same player and cards:    {rate:>12,.0f} hands/s "
              f"({agree:,} of {args.pokerkit_hands:,} hands end as pypoker's)")  # fmt: skip
    except ImportError:
        print("pokerfast: not installed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
