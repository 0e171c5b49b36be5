"""pokerkit as an independent oracle for pypoker's arena, in the arena's conventions.

`PokerkitHand(spec)` builds a pokerkit `NoLimitTexasHoldem` state for one hand of the arena
(`HandSpec`: per-seat stacks, button, blinds, ante or big-blind ante, straddle, and the cards)
and exposes it step by step as the arena does: the acting seat, the 5-bit legal mask
(FOLD, CHECK, CALL, RAISE, ALL_IN), to_call, min/max raise-to, `apply(kind, amount)`, and the
final stacks per seat. Seats, chips and cards are pypoker's (card id = suit*13 + value).

Where pokerkit's defaults differ from the arena's rules (README's "The arena"; zsrc/arena/rules.zig
and pots.zig), and how the adapter configures or maps each:

1. Player order. pokerkit numbers players by position: player 0 is the first seat left of the
   button (the small blind), the last player has the button. Heads-up it still puts the
   button last, and reverses the forced bets ("reversed by rule": player 0 posts the big
   blind, the button posts the small blind). So the adapter orders the dealt-in seats (stack
   > 0) clockwise from the seat after the button, button last; with that order pokerkit's
   heads-up rule is the spec's (button = small blind, acts first preflop, last after).
2. Antes. pokerkit's `ante_trimming_status=False` (its default in PHH) puts every ante into
   the first pot whatever a short seat could match; `True` makes antes ordinary
   contributions with side pots at committed levels, as the spec says. But with `True` the
   collection after the antes returns any ante above the second largest as "uncalled", which
   refunds a big-blind ante (pokerkit 0.7.7 does so even to the WSOP hands of the PHH
   dataset). So: ante for all seats -> `True`; big-blind ante -> `False` (the ante is dead
   money in the first pot, and the big blind's live chips are what it can win from each
   caller). The big-blind ante is given at the big blind's pokerkit index (1; pokerkit
   reverses antes heads-up, so `{1: ante}` lands on the heads-up big blind, player 0, too).
   A seat that cannot cover its ante posts all it has (pokerkit's effective ante); the blind
   is then posted from what is left (ante first, as the spec orders the forced bets).
   The two settings differ for antes paid by all only when a seat is short of its ante (with
   `True` it wins only the antes it matched). The engine counts each seat's ante in its
   side-pot level (`True`: the all-in rule of the TDA and Robert's Rules, applied to antes);
   `ANTES_DEAD = True` checks the other reading, every ante dead in the first pot.
3. Straddle. pokerkit takes forced bets as a list by position: `(sb, bb, straddle)`; the adapter
   passes the straddle only with >= 3 seats dealt in (spec). pokerkit's first preflop actor is
   the seat after the largest forced bet (ties to the later seat), i.e. after the straddle.
4. Min raise. pokerkit: min raise-to = max(bets) + max(last bet/raise increment of this
   street, min_bet) with `min_bet = big blind`; forced bets do not count as increments. So
   with a straddle the first raise is to straddle + big blind (not 2 * straddle), the spec's
   "current_bet + max(last full raise increment, big blind)" with increment 0 preflop.
5. Raise-to semantics. pokerkit's `complete_bet_or_raise_to(x)` is the spec's RAISE to x
   (this street's total); max raise-to = bet + stack; when bet + stack < min, min = max =
   all-in. ALL_IN maps to a raise to bet + stack when a raise is legal, else to a call.
6. Who may raise. pokerkit refuses a raise (a) to a seat whose call amount is below the last
   full increment (a short all-in does not reopen), (b) to a seat that acted when the short
   all-ins since then sum to less than a full increment (several short all-ins that add up to
   a full raise DO reopen betting), (c) when every other seat still in is all-in or covered
   (no one could respond), and (d) when the seat's stack <= its call. The spec names (a), (d)
   and the acted rule; (b) and (c) are pokerkit's definite rules where the spec is silent.
7. Fold. `Mode.TOURNAMENT` makes pokerkit reject a fold when nothing is to be called (spec:
   "no fold when a check is free"); tournament mode also means one runout and forced shows.
8. Odd chips. The issue gives a split pot's odd chips to the first winner left of the button;
   pokerkit gives the whole remainder to its first winner in player order, which is the same
   seat, so its default is kept. The spec's text says "one at a time to the winners in seat
   order", which differs with three or more winners and two or more odd chips (11 chips,
   three winners: 5/3/3 against 4/4/3); `ODD_CHIPS_ONE_AT_A_TIME = True` checks that reading
   instead (an exact `divmod`, then each pushed pot re-split in whole chips). pokerkit also
   kills every hand that cannot win any pot before it pushes chips and forms the pots again
   from the hands left, merging pots whose contenders are now the same: odd chips are per
   merged pot (the engine does the same since arena 0620bce).
9. Automations. Ante, blind, bet collection, showdown (show when needed), hand killing, chip
   pushing and pulling are automatic; cards are not: the adapter deals the spec's hole cards
   and board (burns are unknown cards `??`, so no card of the hand is ever burned).
10. Short forced bets. pokerkit's amount to call is the largest *posted* bet; the spec wants the
   full big blind (or straddle) even when its poster is short. pokerkit cannot be configured to
   that. The engine uses the posted bet too, so the native-play cross-check (carried stacks,
   short blinds included) compares them as they are; `HandSpec.forced_bets_covered` names the
   hands where both readings agree.
11. To call. pokerkit's `checking_or_calling_amount` is capped at the stack; the adapter's
   `to_call` is the spec's `current bet - bet` and `call_amount` the capped one (what the
   engine's `to_call` reports).
12. Uncalled bets. pokerkit returns, when it collects a street's bets, the part of the largest
   bet above the second largest (folded seats' bets count): the spec's rule, street by street.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from pokerkit import Automation, Mode, NoLimitTexasHoldem, StandardHighHand
from pokerkit.state import ChipsPushing
from pokerkit.utilities import divmod as pokerkit_divmod

FOLD, CHECK, CALL, RAISE, ALL_IN = range(5)
NO_CARD = 0xFF
RANKS = "23456789TJQKA"
SUITS = "schd"

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _memoize_hand_evaluation() -> None:
    """pokerkit ranks a hand by trying all 21 five-card subsets in Python, and ranks the same
    hands again and again (every showdown check, every pot). A cache keyed by the cards keeps
    its results -- a pure function's, so the oracle's answers are unchanged -- and makes the
    cross-check about 3x faster."""
    original = StandardHighHand.from_game.__func__
    if getattr(original, "memoized", False):
        return
    cache: dict = {}

    def from_game(cls, hole_cards, board_cards=()):
        if isinstance(hole_cards, str) or isinstance(board_cards, str):
            return original(cls, hole_cards, board_cards)
        key = (cls, tuple(hole_cards), tuple(board_cards))
        hand = cache.get(key)
        if hand is None:
            hand = original(cls, key[1], key[2])
            if len(cache) >= 200_000:
                cache.clear()
            cache[key] = hand
        return hand

    from_game.memoized = True
    StandardHighHand.from_game = classmethod(from_game)


_memoize_hand_evaluation()


def card_text(card: int) -> str:
    """pypoker card id -> pokerkit/PHH text ("Ah"); 0xFF -> "??"."""
    if card == NO_CARD:
        return "??"
    return RANKS[card % 13] + SUITS[card // 13]


def card_id(text: str) -> int:
    """ "Ah" -> pypoker card id; "??" -> 0xFF."""
    if text == "??":
        return NO_CARD
    return SUITS.index(text[1].lower()) * 13 + RANKS.index(text[0].upper())


# The rule (see the docstring, item 8); True checks the spec's other reading.
ODD_CHIPS_ONE_AT_A_TIME = False
# Antes paid by every seat count in the committed levels of the side pots (the spec; pokerkit's
# ante_trimming_status=True). True: dead money in the first pot, as a big-blind ante is
# (docstring, item 2) -- they differ only when a seat cannot cover its ante.
ANTES_DEAD = False


def exact_divmod(dividend, divisor):
    """Split exactly, so the adapter can hand out odd chips the spec's way afterwards."""
    return Fraction(dividend) / divisor, 0


@dataclasses.dataclass(frozen=True)
class HandSpec:
    """One hand at a table of `len(stacks)` seats; seats with stack 0 sit out."""

    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    hole: tuple[tuple[int, int], ...]
    board: tuple[int, ...]
    ante: int = 0
    bb_ante: bool = False
    straddle: int = 0

    @property
    def order(self) -> list[int]:
        """Dealt-in seats clockwise from the button's left, button last (pokerkit's order)."""
        n = len(self.stacks)
        seats = [(self.button + 1 + k) % n for k in range(n)]
        return [s for s in seats if self.stacks[s] > 0]

    @property
    def straddle_posted(self) -> bool:
        return self.straddle > 0 and len(self.order) >= 3

    def forced_bets_covered(self) -> bool:
        """Whether the big blind (and straddler) can post their full blind after the ante:
        the hands where pokerkit's amount to call is the spec's (docstring, item 10)."""
        order = self.order
        big = order[0] if len(order) == 2 else order[1]
        ante = self.ante
        if self.stacks[big] < ante + self.big_blind:
            return False
        if self.straddle_posted:
            each = 0 if self.bb_ante else ante
            return self.stacks[order[2]] >= each + self.straddle
        return True


class PokerkitHand:
    """A pokerkit state for one `HandSpec`, driven in the arena's conventions."""

    def __init__(self, spec: HandSpec):
        self.spec = spec
        self.order = spec.order
        self.seat_of = dict(enumerate(self.order))
        self.index_of = {s: i for i, s in enumerate(self.order)}
        self.state = self._create()
        self._board_dealt = 0
        self._advance()

    def _create(self):
        spec, n = self.spec, len(self.order)
        if spec.bb_ante:
            antes, trimming = {1: spec.ante}, False
        else:
            antes, trimming = spec.ante, not ANTES_DEAD
        forced = [spec.small_blind, spec.big_blind]
        if spec.straddle_posted:
            forced.append(spec.straddle)
        return NoLimitTexasHoldem.create_state(
            AUTOMATIONS,
            trimming,
            antes,
            forced,
            spec.big_blind,
            [spec.stacks[s] for s in self.order],
            n,
            mode=Mode.TOURNAMENT,
            divmod=oracle_divmod(),
        )

    def _advance(self) -> None:
        """Deal the spec's cards wherever pokerkit waits for the dealer."""
        state = self.state
        while True:
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_deal_hole():
                index = state.hole_dealee_index
                cards = "".join(card_text(c) for c in self.spec.hole[self.seat_of[index]])
                state.deal_hole(cards, index)
            elif state.can_deal_board():
                count = 3 if self._board_dealt == 0 else 1
                cards = self.spec.board[self._board_dealt : self._board_dealt + count]
                state.deal_board("".join(card_text(c) for c in cards))
                self._board_dealt += count
            else:
                return

    # --- the arena's view -------------------------------------------------------------

    @property
    def done(self) -> bool:
        return not self.state.status

    @property
    def actor(self) -> int:
        index = self.state.actor_index
        return -1 if index is None else self.seat_of[index]

    @property
    def street(self) -> int:
        return 4 if self.done or self.state.street_index is None else self.state.street_index

    @property
    def board_count(self) -> int:
        return self._board_dealt

    def _actor_index(self) -> int:
        index = self.state.actor_index
        assert index is not None, "no seat to act"
        return index

    @property
    def to_call(self) -> int:
        i = self._actor_index()
        return max(self.state.bets) - self.state.bets[i]

    @property
    def call_amount(self) -> int:
        """The chips a call puts in: to_call capped at the stack (what the engine reports
        as `to_call`)."""
        return min(self.to_call, self.stack)

    @property
    def stack(self) -> int:
        return self.state.stacks[self._actor_index()]

    @property
    def bet(self) -> int:
        return self.state.bets[self._actor_index()]

    def can_raise(self) -> bool:
        return self.state.can_complete_bet_or_raise_to()

    @property
    def min_raise_to(self) -> int:
        return self.state.min_completion_betting_or_raising_to_amount

    @property
    def max_raise_to(self) -> int:
        return self.state.max_completion_betting_or_raising_to_amount

    def legal(self) -> list[bool]:
        """The 5-bit legal mask in kind order."""
        to_call, raise_ok = self.to_call, self.can_raise()
        return [
            self.state.can_fold(),
            to_call == 0,
            to_call > 0,
            raise_ok,
            raise_ok or self.stack <= to_call,
        ]

    def bet_after(self, kind: int, amount: int = 0) -> int:
        """The history's amount for an action: the seat's bet this street after it (0 for
        FOLD and CHECK)."""
        if kind in (FOLD, CHECK):
            return 0
        if kind == RAISE:
            return amount
        if kind == CALL:
            return min(self.bet + self.stack, self.bet + self.to_call)
        return self.bet + self.stack

    def apply(self, kind: int, amount: int = 0) -> None:
        """Apply one arena action; raises ValueError when pokerkit refuses it."""
        if not self.legal()[kind]:
            raise ValueError(f"seat {self.actor}: action {kind} is not legal")
        state = self.state
        if kind == FOLD:
            state.fold()
        elif kind in (CHECK, CALL):
            state.check_or_call()
        elif kind == RAISE:
            state.complete_bet_or_raise_to(amount)
        elif self.can_raise():
            state.complete_bet_or_raise_to(self.stack + self.bet)
        else:
            state.check_or_call()
        self._advance()

    def final_stacks(self) -> list[int]:
        """Every seat's stack at the end (sitting-out seats keep 0), odd chips per the spec."""
        assert self.done, "the hand is not over"
        stacks = spec_stacks(self.state)
        out = [0] * len(self.spec.stacks)
        for i, seat in self.seat_of.items():
            assert stacks[i].denominator == 1, "a pot was not split into whole chips"
            out[seat] = int(stacks[i])
        return out

    def showed_down(self) -> list[bool]:
        """Seats whose cards pokerkit showed (all known) at the end."""
        out = [False] * len(self.spec.stacks)
        for i, seat in self.seat_of.items():
            out[seat] = bool(self.state.statuses[i]) and all(self.state.hole_card_statuses[i])
        return out


def _resplit(stacks: list[Fraction], amounts) -> None:
    """Undo pokerkit's exact split of one pot and split it in chips: quotient to each winner,
    odd chips one at a time to the winners in order from the button's left."""
    winners = [i for i, a in enumerate(amounts) if a > 0]
    total = sum(Fraction(a) for a in amounts)
    assert total.denominator == 1
    quotient, remainder = divmod(int(total), len(winners))
    for k, i in enumerate(winners):
        stacks[i] += quotient + (1 if k < remainder else 0) - Fraction(amounts[i])


def oracle_divmod():
    """The `divmod` pokerkit states need for the odd-chip rule in force (docstring, item 8);
    pass it to `HandHistory.loads(..., divmod=oracle_divmod())` too."""
    return exact_divmod if ODD_CHIPS_ONE_AT_A_TIME else pokerkit_divmod


def spec_stacks(state) -> list[Fraction | int]:
    """A finished pokerkit state's stacks (player order), odd chips by the rule in force
    (for a state made with `oracle_divmod()`)."""
    if not ODD_CHIPS_ONE_AT_A_TIME:
        return list(state.stacks)
    stacks = [Fraction(x) for x in state.stacks]
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            _resplit(stacks, op.amounts)
    return stacks


# --- players and hands for the cross-checks ----------------------------------------------


def random_player(hand: PokerkitHand, rng) -> tuple[int, int]:
    """The spec's reference random player's rule, on Python's random numbers."""
    legal, to_call = hand.legal(), hand.to_call
    if to_call > 0 and rng.randrange(4) == 0:
        return FOLD, 0
    if legal[RAISE] and rng.randrange(5) == 0:
        return RAISE, rng.randint(hand.min_raise_to, hand.max_raise_to)
    return (CHECK, 0) if to_call == 0 else (CALL, 0)


def all_in_player(hand: PokerkitHand, rng) -> tuple[int, int]:
    """Shoves and min-raises a lot: short all-ins, side pots and reopened betting."""
    legal, to_call = hand.legal(), hand.to_call
    if to_call > 0 and rng.randrange(6) == 0:
        return FOLD, 0
    if legal[ALL_IN] and rng.randrange(3) == 0:
        return ALL_IN, 0
    if legal[RAISE] and rng.randrange(3) == 0:
        return RAISE, hand.min_raise_to
    return (CHECK, 0) if to_call == 0 else (CALL, 0)


PLAYERS = {"random": random_player, "all_in": all_in_player}


def random_spec(rng, seats: int, style: str = "random", *, covered: bool = True) -> HandSpec:
    """A hand at `seats` seats: unequal stacks (some short, for all-ins), blinds 1/2 to 5/10,
    antes or a big-blind ante, straddles of 2 bb or more; forced bets covered (docstring 10)
    unless `covered` is False."""
    while True:
        small = rng.choice([1, 1, 2, 5])
        big = 2 * small
        ante = rng.choice([0, 0, 0, small, big, 1])
        bb_ante = ante > 0 and rng.random() < 0.4
        straddle = rng.choice([0, 0, 0, 2 * big, 2 * big + small, 3 * big])
        deep = 20 if style == "all_in" else 100
        stacks = tuple(
            rng.randint(1, 12 * big) if rng.random() < 0.3 else rng.randint(big, deep * big)
            for _ in range(seats)
        )
        cards = rng.sample(range(52), 2 * seats + 5)
        hole = tuple((cards[2 * i], cards[2 * i + 1]) for i in range(seats))
        spec = HandSpec(
            stacks, rng.randrange(seats), small, big, hole, tuple(cards[-5:]),
            ante, bb_ante, straddle,
        )  # fmt: skip
        if spec.forced_bets_covered() or not covered:
            return spec


def play_row(spec: HandSpec, player, rng, *, table: int = 0, hand: int = 0) -> dict:
    """Play one hand in pokerkit with `player` at every seat; the hand as a history row."""
    game = PokerkitHand(spec)
    actions = []
    while not game.done:
        seat, street = game.actor, game.street
        kind, amount = player(game, rng)
        after, all_in = game.bet_after(kind, amount), amount == game.bet + game.stack
        all_in = all_in or (kind == CALL and game.stack <= game.to_call)
        game.apply(kind, amount)
        kind = ALL_IN if all_in and kind != FOLD else kind  # PHH's (and the import's) form
        actions.append({"seat": seat, "street": street, "kind": kind, "amount": after})
    final = game.final_stacks()
    n = len(spec.stacks)
    return {
        "hand_id": (table << 32) | hand, "table": table, "hand": hand, "seats": n,
        "button": spec.button, "small_blind": spec.small_blind, "big_blind": spec.big_blind,
        "ante": spec.ante, "bb_ante": spec.bb_ante, "straddle": spec.straddle,
        "starting_stacks": list(spec.stacks), "hole_cards": [list(h) for h in spec.hole],
        "board": list(spec.board[: game.board_count]), "actions": actions, "pots": [],
        "winnings": [f - s for f, s in zip(final, spec.stacks, strict=True)],
        "showed_down": game.showed_down(),
    }  # fmt: skip
