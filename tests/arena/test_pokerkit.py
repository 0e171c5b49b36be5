"""pypoker's arena engine against pokerkit (tests/arena/pokerkit_oracle.py), hand by hand.

Three ways, all over 2, 3, 6 and 9 seats, unequal and short stacks, antes, big-blind antes and
straddles, with a random player and an all-in-heavy one:

- lockstep, pokerkit drives: the player reads pokerkit's view and picks; both apply it;
- lockstep, pypoker drives: the player reads the engine's `observe()` and picks;
- native play: `Arena.play(record=True)` histories (the engine's own random player, stacks
  carried hand to hand so seats bust and sit out) replayed action by action in pokerkit.

At every decision the actor, the legal mask, to_call and (when RAISE is legal) the raise-to
range must agree, and at the end every seat's final stack. A disagreement fails the test
with a reproducer (the hand's spec and actions).

pokerkit manages a few hundred hands a second, so the default sample is small; the full
check is ``PYPOKER_POKERKIT_HANDS=100000`` (split over ``PYPOKER_POKERKIT_WORKERS`` processes,
default 2), about five minutes on two EPYC Zen 4 cores.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from dataclasses import asdict

import numpy as np
import pytest

pytest.importorskip("pokerkit")
pytest.importorskip("pyarrow")

from pokerkit_oracle import (  # noqa: E402
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    PLAYERS,
    RAISE,
    HandSpec,
    PokerkitHand,
    random_spec,
)

from pypoker.arena.replay import start_arena  # noqa: E402

HANDS = int(os.environ.get("PYPOKER_POKERKIT_HANDS", "3000"))
WORKERS = int(os.environ.get("PYPOKER_POKERKIT_WORKERS", "2"))
SEATS = (2, 3, 6, 9)
CHUNK = 500


class EngineHand:
    """The engine at one hand, through the public API, with the oracle's view."""

    def __init__(self, spec: HandSpec):
        self.row = spec_row(spec)
        self.players = spec.order  # engine seat j plays table seat players[j]
        self.arena = start_arena(self.row, self.players)
        self.result = None
        self._observe()

    def _observe(self) -> None:
        self.obs = self.arena.observe()
        actor = int(self.obs.actor[0])
        self.actor = self.players[actor] if actor >= 0 and self.result is None else -1

    @property
    def done(self) -> bool:
        return self.result is not None

    def legal(self) -> list[bool]:
        return [bool(x) for x in self.obs.legal[0]]

    @property
    def to_call(self) -> int:
        return int(self.obs.to_call[0])

    @property
    def call_amount(self) -> int:
        return self.to_call  # the engine's to_call is what a call puts in

    @property
    def min_raise_to(self) -> int:
        return int(self.obs.min_raise_to[0])

    @property
    def max_raise_to(self) -> int:
        return int(self.obs.max_raise_to[0])

    def apply(self, kind: int, amount: int = 0) -> None:
        step = self.arena.step(np.array([kind], np.uint8), np.array([amount], np.int64))
        if step.finished[0]:
            self.result = [int(w) for w in step.winnings[0]]
        self._observe()

    def final_stacks(self) -> list[int]:
        out = [0] * len(self.row["starting_stacks"])
        for j, seat in enumerate(self.players):
            out[seat] = self.row["starting_stacks"][seat] + self.result[j]
        return out


def spec_row(spec: HandSpec) -> dict:
    """The history-row fields `start_arena` reads, for a spec."""
    return {
        "seats": len(spec.stacks), "button": spec.button, "small_blind": spec.small_blind,
        "big_blind": spec.big_blind, "ante": spec.ante, "bb_ante": spec.bb_ante,
        "straddle": spec.straddle, "starting_stacks": list(spec.stacks),
        "hole_cards": [list(h) for h in spec.hole], "board": list(spec.board),
    }  # fmt: skip


def view(hand) -> tuple:
    """What both sides must agree on at a decision (to_call as the chips a call puts in:
    the engine caps it at the stack, the spec's wording does not)."""
    if hand.done or hand.actor < 0:
        return ("no actor",)
    legal = hand.legal()
    raise_range = (hand.min_raise_to, hand.max_raise_to) if legal[RAISE] else None
    return (hand.actor, legal, hand.call_amount, raise_range)


def engine_spec(rng, seats: int, style: str) -> HandSpec:
    """`random_spec` with every stack covering ante + the largest blind (what an arena's
    settings require); short stacks still go all in on the first raises."""
    spec = random_spec(rng, seats, style)
    floor = spec.ante + max(spec.big_blind, spec.straddle)
    stacks = tuple(max(s, floor) for s in spec.stacks)
    return HandSpec(**{**asdict(spec), "stacks": stacks})


def lockstep(spec: HandSpec, style: str, driver: str, rng) -> str | None:
    """Play one hand in both; None when they agree, else a reproducer."""
    oracle, engine = PokerkitHand(spec), EngineHand(spec)
    player, actions = PLAYERS[style], []
    while True:
        seen = (view(oracle), view(engine))
        if seen[0] != seen[1]:
            return reproducer(spec, actions, f"decision {len(actions)}: pokerkit {seen[0]} "
                              f"vs pypoker {seen[1]}")  # fmt: skip
        if oracle.done:
            break
        kind, amount = player(oracle if driver == "pokerkit" else engine, rng)
        actions.append((oracle.actor, kind, amount))
        oracle.apply(kind, amount)
        engine.apply(kind, amount)
    final = (oracle.final_stacks(), engine.final_stacks())
    if final[0] != final[1]:
        return reproducer(spec, actions, f"final stacks: pokerkit {final[0]} vs pypoker {final[1]}")
    return None


def reproducer(spec: HandSpec, actions, what: str) -> str:
    names = {FOLD: "FOLD", CHECK: "CHECK", CALL: "CALL", RAISE: "RAISE", ALL_IN: "ALL_IN"}
    steps = [(seat, names[kind], amount) for seat, kind, amount in actions]
    return f"{what}\n  spec: {json.dumps(asdict(spec))}\n  actions (seat, kind, amount): {steps}"


def summary(problems: list[str], played: int) -> str:
    """'N of M hands disagree (final stacks: a, decision: b, ...); first: ...'."""
    kinds: dict[str, int] = {}
    for problem in problems:
        kind = problem.split(":")[0].split(" ")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items()))
    return f"{len(problems)} of {played} hands disagree ({counts}); first:\n{problems[0]}"


def run_chunk(task: tuple[int, int, str]) -> tuple[int, list[str]]:
    """`count` hands from `seed` for one driver: (hands played, disagreements)."""
    seed, count, driver = task
    rng = random.Random(seed)
    found = []
    for i in range(count):
        style = ("random", "all_in")[i % 2]
        spec = engine_spec(rng, SEATS[(i // 2) % len(SEATS)], style)
        problem = lockstep(spec, style, driver, rng)
        if problem is not None:
            found.append(problem)
    return count, found


def run_parallel(tasks) -> tuple[int, list[str]]:
    if WORKERS <= 1 or len(tasks) == 1:
        results = [run_chunk(t) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
            results = pool.map(run_chunk, tasks)
    return sum(r[0] for r in results), [p for r in results for p in r[1]]


def chunks(total: int, driver: str, seed: int) -> list[tuple[int, int, str]]:
    sizes = [CHUNK] * (total // CHUNK) + ([total % CHUNK] if total % CHUNK else [])
    return [(seed * 1_000_003 + k, size, driver) for k, size in enumerate(sizes)]


@pytest.mark.parametrize("driver", ["pokerkit", "pypoker"])
def test_lockstep_agrees_with_pokerkit(driver):
    share = HANDS * 2 // 5  # 40% each way; native-play histories make up the rest
    played, problems = run_parallel(chunks(share, driver, seed=1 if driver == "pokerkit" else 2))
    assert played == share
    assert not problems, summary(problems, played)


# --- native play histories, replayed in pokerkit ---------------------------------------------


def spec_of_row(row: dict) -> HandSpec:
    """A history row as a HandSpec; board cards the hand never dealt are filled with unused
    cards (pokerkit then must not deal them: the hand has to end where the row's does)."""
    used = {c for hole in row["hole_cards"] for c in hole} | set(row["board"])
    spare = [c for c in range(52) if c not in used]
    board = list(row["board"]) + spare[: 5 - len(row["board"])]
    return HandSpec(
        tuple(row["starting_stacks"]), row["button"], row["small_blind"], row["big_blind"],
        tuple(tuple(h) for h in row["hole_cards"]), tuple(board), row["ante"],
        row["bb_ante"], row["straddle"],
    )  # fmt: skip


def replay_in_pokerkit(row: dict) -> str | None:
    """None when pokerkit plays the row's actions the same way to the same stacks."""
    spec = spec_of_row(row)
    oracle = PokerkitHand(spec)
    actions = [(a["seat"], a["kind"], a["amount"]) for a in row["actions"]]
    for number, (seat, kind, amount) in enumerate(actions):
        legal = None if oracle.done else oracle.legal()
        ok = legal is not None and oracle.actor == seat and legal[kind]
        if ok and kind == RAISE:
            ok = oracle.min_raise_to <= amount <= oracle.max_raise_to
        if not ok:
            return reproducer(spec, actions, f"action {number} is not pokerkit's: {view(oracle)}")
        oracle.apply(kind, amount)
    final = [s + w for s, w in zip(row["starting_stacks"], row["winnings"], strict=True)]
    if not oracle.done or oracle.board_count != len(row["board"]):
        return reproducer(spec, actions, "pokerkit's hand does not end where the row's does")
    if oracle.final_stacks() != final:
        return reproducer(spec, actions, f"final: pokerkit {oracle.final_stacks()} vs {final}")
    return None


NATIVE_CONFIGS = [
    # seats, blinds, ante, bb_ante, straddle; carried stacks reach below the forced bets
    (2, (1, 2), 0, False, 0),
    (2, (1, 2), 2, True, 0),
    (3, (1, 2), 3, False, 0),
    (6, (5, 10), 0, False, 25),
    (6, (1, 2), 2, True, 0),
    (9, (2, 4), 1, False, 8),
    (9, (1, 2), 2, True, 5),
]


def native_chunk(task: tuple[int, int, int]) -> tuple[int, list[str]]:
    """Native play at one config: `count` hands over 16 tables with carried stacks."""
    from pypoker.arena import Arena

    seed, count, config = task
    seats, blinds, ante, bb_ante, straddle = NATIVE_CONFIGS[config]
    rng = np.random.default_rng(seed)
    floor = ante + max(blinds[1], straddle)
    stacks = rng.integers(floor, 60 * blinds[1], size=seats)
    tables = 16
    arena = Arena(tables, seats, stacks=stacks, blinds=blinds, ante=ante, bb_ante=bb_ante,
                  straddle=straddle, seed=seed, carry=True, button=int(seed % seats))  # fmt: skip
    history = arena.play(-(-count // tables), record=True)
    rows = history.to_pylist()[:count]
    problems = [p for p in map(replay_in_pokerkit, rows) if p is not None]
    return len(rows), problems


def short_of_ante(row: dict) -> bool:
    """A seat dealt in with less than an ante paid by every seat."""
    if row["bb_ante"] or not row["ante"]:
        return False
    return any(0 < stack < row["ante"] for stack in row["starting_stacks"])


def test_short_ante_seat_wins_only_the_antes_it_matched():
    """Native play at 3 seats with an ante of 3 and carried stacks: the hands where a seat is
    dealt in with less than the ante. pokerkit (antes in the committed levels, the all-in
    rule applied to antes) pays that seat only the antes it matched, as the engine does."""
    from pypoker.arena import Arena

    arena = Arena(16, 3, stacks=[40, 60, 80], blinds=(1, 2), ante=3, seed=9, carry=True)
    rows = [row for row in arena.play(100, record=True).to_pylist() if short_of_ante(row)]
    assert len(rows) > 5
    problems = [p for p in map(replay_in_pokerkit, rows) if p is not None]
    assert not problems, summary(problems, len(rows))


def test_native_play_histories_replay_in_pokerkit():
    share = HANDS - 2 * (HANDS * 2 // 5)
    per = -(-share // len(NATIVE_CONFIGS))
    tasks = []
    for config in range(len(NATIVE_CONFIGS)):
        sizes = [CHUNK] * (per // CHUNK) + ([per % CHUNK] if per % CHUNK else [])
        tasks += [(1000 * config + k + 1, size, config) for k, size in enumerate(sizes)]
    if WORKERS <= 1:
        results = [native_chunk(t) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
            results = pool.map(native_chunk, tasks)
    played = sum(r[0] for r in results)
    problems = [p for r in results for p in r[1]]
    assert played >= share
    assert not problems, summary(problems, played)
