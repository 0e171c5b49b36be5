"""The arena (issue 46) against its bars, and the engines it is compared with.

    python bench/bench_arena.py [--runs 5] [--peer-hands 2000]

- native play: the reference random player at 6-max, 100 big blinds (200 chips, blinds
  1/2), one thread, histories off and on (hands/s; bars 1,000,000 and 300,000);
- Python in the loop: a NumPy random policy acting for 4,096 tables through observe/step
  (decisions/s; bar 10,000,000);
- state: a table's size (bar 256 bytes) and a copy of 4,096 tables' state, per table
  (bar 20 ns);
- the peers (where installed: pokerkit, pokerfast, OpenSpiel's universal_poker, RLCard's
  no-limit-holdem) playing the same random player one hand at a time from Python, as their
  users do: hands/s and decisions/s beside pypoker's, and how many hands end with the same
  actions and chips as the arena's history. pokerkit, pokerfast and OpenSpiel are dealt the
  arena's cards (every hand should agree); OpenSpiel also plays dealing its own cards as its
  examples do (the chance outcomes sampled with NumPy: how the arena issue measured it);
  RLCard deals its own and its no-limit is
  simplified (five abstract actions: fold, check/call, raise half the pot, raise the pot,
  all-in; fold is legal when checking is free; no minimum raise), so its raises are the legal
  size nearest the player's amount and its hands are not compared. The peers come with
  ``pip install -e '.[bench]'``; one not installed is skipped.
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


def python_in_the_loop(runs: int, tables: int = 4096, steps: int = 200) -> tuple[float, float]:
    """(decisions/s, hands/s) of the NumPy policy: hands/s from the hands the runs finished."""
    arena = ar.Arena(tables, SEATS, stacks=STACK, blinds=BLINDS)
    rng = np.random.default_rng(0)

    def loop():
        for _ in range(steps):
            arena.step(*random_policy(arena.observe(), rng))

    started = arena.state["hand"].sum()
    rate = tables * steps / best_seconds(loop, runs)
    return rate, rate * (arena.state["hand"].sum() - started) / (tables * steps * runs)


def decisions_per_hand(tables: int = 1024, hands: int = 100) -> float:
    """The reference random player's mean decisions a hand, from a recorded history."""
    import pyarrow.compute as pc

    history = ar.Arena(tables, SEATS, stacks=STACK, blinds=BLINDS).play(hands, record=True)
    return pc.mean(pc.list_value_length(history["actions"])).as_py()


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


def pokerfast_hand(row: dict, seed: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The recorded hand's cards in pokerfast's 6-max engine with the reference random
    player: (net chips per seat, (seat, kind) of every action)."""
    from pokerfast.engine import FastHand

    seats, button = row["seats"], row["button"]
    order = [(button + 1 + i) % seats for i in range(seats)]  # its players, SB first
    hole = ["".join(pp.CARD_NAMES[c] for c in row["hole_cards"][seat]) for seat in order]
    board = [pp.CARD_NAMES[c] for c in row["board"]]
    stacks = [row["starting_stacks"][seat] for seat in order]
    hand = FastHand.for_cards(stacks, hole, board, small_blind=row["small_blind"],
                              big_blind=row["big_blind"])  # fmt: skip
    decision, actions = 0, []
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
        actions.append((order[options["player"]], kind))
        decision += 1
    net = [0] * seats
    for index, seat in enumerate(order):
        net[seat] = hand.state.payoffs[index]
    return net, actions


# pypoker's cards as OpenSpiel's (ACPC's): rank * 4 + suit, ranks from the deuce, suits c d h s.
ACPC_CARDS = tuple("23456789TJQKA".index(name[0]) * 4 + "cdhs".index(name[1])
                   for name in pp.CARD_NAMES)  # fmt: skip


def openspiel_player():
    """OpenSpiel's universal_poker as the arena's table, and its hand player. The ACPC game
    definition: no-limit, 4 rounds dealing 0/3/1/1 board cards, 2 hole cards from 13 ranks x 4
    suits; its players numbered from the small blind (blinds 1 and 2 on players 1 and 2,
    1-based), 200 chips each; first to act (1-based) the third player preflop and the first
    after; fullgame betting, so every raise-to in chips is an action (fcpa, its default,
    allows only fold, call, pot and all-in)."""
    import functools

    import pyspiel

    blinds = [*BLINDS, *[0] * (SEATS - 2)]
    game = pyspiel.load_game("universal_poker", {
        "betting": "nolimit", "bettingAbstraction": "fullgame", "numPlayers": SEATS,
        "numRounds": 4, "numBoardCards": "0 3 1 1", "numHoleCards": 2, "numRanks": 13,
        "numSuits": 4, "blind": " ".join(map(str, blinds)), "firstPlayer": "3 1 1 1",
        "stack": " ".join([str(STACK)] * SEATS),
    })  # fmt: skip
    return functools.partial(openspiel_hand, game)


def openspiel_own_cards_player():
    """OpenSpiel's universal_poker dealing its own cards, as its examples play it: each chance
    node's outcome drawn from ``chance_outcomes()`` with NumPy. This is how the arena issue
    measured its ~1,800 hands/s; the row above, dealt the arena's cards, skips the sampling."""
    import functools

    game = openspiel_player().args[0]
    return functools.partial(openspiel_hand, game, deal=np.random.default_rng(1))


def openspiel_hand(
    game, row: dict, seed: int, deal: np.random.Generator | None = None
) -> tuple[list[int], list[tuple[int, int]]]:
    """The recorded hand's cards in universal_poker with the reference random player: (net
    chips per seat, (seat, kind) of every action). Its actions: 0 folds (legal only facing a
    bet, so the player's ``to_call`` is only told whether there is one), 1 checks or calls,
    and each legal raise is its own action, the raise-to in chips put in over the hand. With
    ``deal``, its chance nodes draw their own cards from it instead."""
    seats, button = row["seats"], row["button"]
    order = [(button + 1 + i) % seats for i in range(seats)]  # its players, SB first
    state = game.new_initial_state()
    if deal is None:  # its chance nodes deal each player's two cards in turn, then the board
        for seat in order:
            for card in row["hole_cards"][seat]:
                state.apply_action(ACPC_CARDS[card])
    board, decision, actions = iter(row["board"]), 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            if deal is None:
                state.apply_action(ACPC_CARDS[next(board)])
            else:
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(deal.choice(outcomes, p=chances)))
            continue
        legal = state.legal_actions()
        facing = legal[0] == 0
        raises = legal[2 if facing else 1 :]
        kind, amount = ar.random_player.choose(
            seed, row["table"], row["hand"], decision, int(facing), bool(raises),
            raises[0] if raises else 0, raises[-1] if raises else 0,
        )  # fmt: skip
        actions.append((order[state.current_player()], kind))
        state.apply_action(0 if kind == ar.FOLD else amount if kind == ar.RAISE else 1)
        decision += 1
    net = [0.0] * seats  # floats: it splits a pot's odd chip into fractions of a chip
    for index, chips in enumerate(state.returns()):
        net[order[index]] = chips
    return net, actions


def rlcard_player(seed: int = 1):
    """RLCard's no-limit-holdem as the arena's table (its blinds are 1 and 2 always), and its
    hand player."""
    import functools

    import rlcard

    config = {"game_num_players": SEATS, "chips_for_each": STACK, "seed": seed}
    env = rlcard.make("no-limit-holdem", config=config)
    assert (env.game.small_blind, env.game.big_blind) == BLINDS
    return functools.partial(rlcard_hand, env)


def rlcard_hand(env, row: dict, seed: int) -> tuple[list[int], list[tuple[int, int]]]:
    """A hand of RLCard's own cards (the row gives the player's stream alone) with the
    reference random player: (net chips per seat, (seat, kind) of every action). Its raises
    put in half the pot, the pot or the whole stack: a raise goes to the legal size nearest
    the player's amount."""
    from rlcard.games.nolimitholdem.round import Action

    state, actor = env.reset()
    decision, actions = 0, []
    while not env.is_over():
        seen = state["raw_obs"]
        # Its chips are NumPy integers once bet (the player's arithmetic needs Python's).
        put_in, pot, stack = int(seen["my_chips"]), int(seen["pot"]), int(seen["stakes"][actor])
        adds = {Action.RAISE_HALF_POT: pot // 2, Action.RAISE_POT: pot, Action.ALL_IN: stack}
        sizes = {a: put_in + adds[a] for a in state["raw_legal_actions"] if a in adds}
        kind, amount = ar.random_player.choose(
            seed, row["table"], row["hand"], decision, int(max(seen["all_chips"])) - put_in,
            bool(sizes), min(sizes.values(), default=0), max(sizes.values(), default=0),
        )  # fmt: skip
        if kind == ar.RAISE:
            action = min(sizes, key=lambda a: abs(sizes[a] - amount))
        else:
            action = Action.FOLD if kind == ar.FOLD else Action.CHECK_CALL
        actions.append((actor, kind))
        state, actor = env.step(action.value)
        decision += 1
    return [round(chips) for chips in env.get_payoffs()], actions


# The peers: name, the module that brings it (a missing one: "not installed"), its
# distribution (for its version), what makes its hand player, whether it plays the
# arena's cards (RLCard deals its own, and its hands are not compared), how it is played.
ONE_AT_A_TIME = "one hand at a time"
PEERS = (
    ("pokerkit", "pokerkit", "pokerkit", lambda: pokerkit_hand, True, ONE_AT_A_TIME),
    ("pokerfast", "pokerfast.engine", "pokerfast", lambda: pokerfast_hand, True, ONE_AT_A_TIME),
    ("OpenSpiel", "pyspiel", "open_spiel", openspiel_player, True, ONE_AT_A_TIME),
    ("OpenSpiel", "pyspiel", "open_spiel", openspiel_own_cards_player, False, "dealing itself"),
    ("RLCard", "rlcard", "rlcard", rlcard_player, False, ONE_AT_A_TIME),
)


def peer_play(player, hands: int, seed: int = 1, **settings) -> tuple[float, float, int, int]:
    """A peer's hands/s and decisions/s playing the arena's recorded hands one at a time
    from Python, and how many end with pypoker's actions, and with its actions and chips.
    ``player(row, seed)`` plays one: (net chips per seat, (seat, kind) of every action)."""
    settings = {"seats": SEATS, "stacks": STACK, "blinds": BLINDS, **settings}
    rows = ar.Arena(1, seed=seed, **settings).play(hands, record=True).to_pylist()
    started = time.perf_counter()
    results = [player(row, seed) for row in rows]
    seconds = time.perf_counter() - started
    acts = [
        moves == [(a["seat"], a["kind"]) for a in row["actions"]]
        for (_, moves), row in zip(results, rows, strict=True)
    ]
    chips = [net == row["winnings"] for (net, _), row in zip(results, rows, strict=True)]
    decisions = sum(len(moves) for _, moves in results)
    return hands / seconds, decisions / seconds, sum(acts), sum(map(min, acts, chips))


def bars(runs: int) -> tuple[float, tuple[float, float]]:
    """Prints pypoker's figures against the issue's bars: (native hands/s on one thread,
    Python in the loop's (decisions/s, hands/s))."""
    native = native_play(runs, False)
    print(f"native play, 1 thread, no history:   {native:>12,.0f} hands/s   (bar 1,000,000)")
    print(f"native play, 1 thread, with history: {native_play(runs, True):>12,.0f} hands/s"
          "   (bar 300,000)")  # fmt: skip
    cores = cpu_count()
    print(f"native play, {cores} threads, no history:  "
          f"{native_play(runs, False, cores):>11,.0f} hands/s")  # fmt: skip
    loop = python_in_the_loop(runs)
    print(f"Python in the loop, 4,096 tables:    {loop[0]:>12,.0f} decisions/s (bar 10,000,000)")
    print(f"table state:                         {ar.TABLE_DTYPE.itemsize:>12} bytes "
          "(bar 256)")  # fmt: skip
    print(f"state copy, 4,096 tables:            {state_copy_ns(runs):>12.1f} ns a table"
          " (bar 20)")  # fmt: skip
    return native, loop


def side_by_side(native: float, loop: tuple[float, float], hands: int) -> None:
    """Prints pypoker and every installed peer, hands/s and decisions/s, one run."""
    from importlib import import_module
    from importlib.metadata import version

    print(f"\n{'side by side, one run':<34}{'hands/s':>11}{'decisions/s':>14}"
          f"{'native / it':>13}  hands with pypoker's actions, and chips")  # fmt: skip
    row = "{:<34}{:>11,.0f}{:>14,.0f}{:>13}  {}"
    print(row.format("pypoker native, 1 thread", native, native * decisions_per_hand(), "1", ""))
    print(row.format("pypoker Python in the loop", loop[1], loop[0], f"{native / loop[1]:,.0f}",
                     "(its NumPy policy, 4,096 tables)"))  # fmt: skip
    for name, module, distribution, make, same_cards, how in PEERS:
        try:
            import_module(module)
        except ImportError:
            print(f"{name}: not installed")
            continue
        rate, decisions, acts, both = peer_play(make(), hands)
        same = f"{acts:,}, {both:,} of {hands:,}" if same_cards else "(its own cards: not compared)"
        label = f"{name} {version(distribution)}, {how}"
        print(row.format(label, rate, decisions, f"{native / rate:,.0f}", same))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peer-hands", type=int, default=2000)
    args = parser.parse_args()
    print(f"pypoker {pp.__version__}; machine: {machine()}; 6-max, 100bb, random player\n")
    native, loop = bars(args.runs)
    side_by_side(native, loop, args.peer_hands)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
