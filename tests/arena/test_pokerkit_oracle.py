"""The pokerkit oracle against hands worked by hand: it must apply the arena spec's rules
before it can judge the engine. Each case is also a reproducer for the engine's own tests."""

from __future__ import annotations

import pytest

pytest.importorskip("pokerkit")

from pokerkit_oracle import (  # noqa: E402
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    ODD_CHIPS_ONE_AT_A_TIME,
    RAISE,
    HandSpec,
    PokerkitHand,
    card_id,
    card_text,
)

ROYAL = tuple(card_id(c) for c in ("As", "Ks", "Qs", "Js", "Ts"))
# Hole cards that never beat the royal flush on the board (so the board plays for everyone).
LOW_TEXT = "2c3d 4c5d 7c8d 9c6d 2h3h 4h5h 7h8h 9h6h 2d4d 3c5c".split()
LOW = [(card_id(t[:2]), card_id(t[2:])) for t in LOW_TEXT]


def spec(stacks, button, **kw) -> HandSpec:
    kw.setdefault("small_blind", 1)
    kw.setdefault("big_blind", 2)
    kw.setdefault("board", ROYAL)
    return HandSpec(tuple(stacks), button, hole=tuple(LOW[: len(stacks)]), **kw)


def play(hand: PokerkitHand, actions) -> None:
    for seat, kind, *amount in actions:
        assert hand.actor == seat, (hand.actor, seat)
        hand.apply(kind, *amount)


def test_cards_convert_both_ways():
    assert [card_text(c) for c in range(0, 52, 13)] == ["2s", "2c", "2h", "2d"]
    assert all(card_id(card_text(c)) == c for c in range(52))
    assert card_text(0xFF) == "??" and card_id("??") == 0xFF


def test_odd_chips_go_to_the_first_winner_left_of_the_button():
    # 5 seats, ante 1: pot 5 + 3*2 = 11 split three ways (the board plays) -> 3 each and the
    # two odd chips to seat 1 (the spec's "one at a time" would give one to seats 1 and 2).
    hand = PokerkitHand(spec([100] * 5, 0, ante=1))
    play(hand, [(3, CALL), (4, FOLD), (0, FOLD), (1, CALL), (2, CHECK)])
    for _ in range(3):
        play(hand, [(1, CHECK), (2, CHECK), (3, CHECK)])
    assert hand.done
    expected = [99, 101, 101, 100, 99] if ODD_CHIPS_ONE_AT_A_TIME else [99, 102, 100, 100, 99]
    assert hand.final_stacks() == expected


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    hand = PokerkitHand(spec([50, 50], 1))
    assert hand.actor == 1 and hand.to_call == 1 and hand.street == 0
    play(hand, [(1, CALL), (0, CHECK)])
    assert hand.street == 1 and hand.actor == 0
    play(hand, [(0, RAISE, 2), (1, FOLD)])
    assert hand.final_stacks() == [52, 48]


def test_heads_up_with_a_seat_sitting_out():
    # Seat 1 sits out: seats 2 (button, small blind) and 0 (big blind) play heads-up.
    hand = PokerkitHand(spec([50, 0, 50], 2))
    assert hand.actor == 2
    play(hand, [(2, FOLD)])
    assert hand.final_stacks() == [51, 0, 49]


def test_straddle_first_raise_is_straddle_plus_big_blind():
    hand = PokerkitHand(spec([100] * 4, 0, straddle=5))
    assert hand.actor == 0 and hand.to_call == 5
    assert (hand.min_raise_to, hand.max_raise_to) == (7, 100)


def test_no_straddle_heads_up():
    hand = PokerkitHand(spec([100, 100], 0, straddle=4))
    assert hand.actor == 0 and hand.to_call == 1


def test_several_short_all_ins_that_add_up_reopen_betting():
    # Seat 3 raises to 10 (increment 8); all-ins to 15 (+5) and 21 (+6) are short alone but sum
    # to 11 >= 8, so seat 3 may raise again, to 21 + 8.
    hand = PokerkitHand(spec([100, 100, 100, 100, 15, 21], 0))
    # seats: 0 button, 1 SB, 2 BB, 3 UTG, 4 (15), 5 (21)
    play(hand, [(3, RAISE, 10), (4, ALL_IN), (5, ALL_IN), (0, CALL), (1, FOLD), (2, FOLD)])
    assert hand.actor == 3 and hand.legal()[RAISE]
    assert hand.min_raise_to == 29


def test_one_short_all_in_does_not_reopen_betting():
    hand = PokerkitHand(spec([100, 100, 100, 100, 15], 0))
    play(hand, [(3, RAISE, 10), (4, ALL_IN), (0, CALL), (1, FOLD), (2, FOLD)])
    assert hand.actor == 3
    assert hand.legal() == [True, False, True, False, False]


def test_no_raise_when_everyone_else_is_all_in():
    # The small blind (seat 1) moves all in for 30; the big blind has chips to raise but no
    # one could answer a raise, so pokerkit allows only fold or call (and no ALL_IN).
    hand = PokerkitHand(spec([100, 30, 100], 0))
    play(hand, [(0, FOLD), (1, ALL_IN)])
    assert hand.actor == 2 and hand.to_call == 28
    assert hand.legal() == [True, False, True, False, False]
    play(hand, [(2, CALL)])
    assert hand.done


def test_covered_seat_may_only_call_all_in():
    hand = PokerkitHand(spec([100, 100, 30], 0))
    play(hand, [(0, FOLD), (1, RAISE, 30)])
    assert hand.actor == 2 and hand.to_call == 28
    assert hand.legal() == [True, False, True, False, True]
    play(hand, [(2, ALL_IN)])
    assert hand.done


def test_uncalled_bet_returns_and_short_ante_wins_only_what_it_matched():
    # Seat 3 has 1 chip: all-in on the ante (2). It holds the best hand (quads on a board
    # of four aces), so it wins the 4 x 1 chips it matched; the rest goes to the best other.
    board = tuple(card_id(c) for c in ("Ac", "Ad", "Ah", "As", "2s"))
    hole = ((card_id("3c"), card_id("4c")), (card_id("Kc"), card_id("Qc")),
            (card_id("3d"), card_id("4d")), (card_id("Kd"), card_id("Qd")))  # fmt: skip
    hand = PokerkitHand(HandSpec((50, 50, 50, 1), 0, 1, 2, hole, board, ante=2))
    # Seats 1 and 3 tie (quad aces, king): the 4-chip pot at seat 3's level is split 2/2; seat
    # 1 gets back 18 of its uncalled 20 and takes the 7 chips above seat 3's level alone.
    play(hand, [(0, FOLD), (1, RAISE, 20), (2, FOLD)])
    assert hand.final_stacks() == [48, 55, 46, 2]


def test_big_blind_ante_is_dead_and_the_all_in_big_blind_wins_its_live_chips():
    # 3 seats, blinds 1/2, big-blind ante 2, BB (seat 2) has 10: ante 2, blind 2, 6 behind.
    # Seat 0 raises to 20, seat 1 folds, the BB calls all in (8 live chips). pokerkit: the
    # ante is dead, seat 0 gets back the 12 the BB's live 8 did not match, BB wins
    # ante 2 + 8 + 8 + SB 1 = 19. (Side pots at levels of `committed` -- ante included --
    # would return only 10 and give the BB 21.)
    board = tuple(card_id(c) for c in ("Ac", "Kd", "7h", "5s", "2c"))
    hole = ((card_id("Qs"), card_id("Jh")), (card_id("9c"), card_id("8c")),
            (card_id("Ah"), card_id("Ad")))  # fmt: skip
    hand = PokerkitHand(HandSpec((100, 100, 10), 0, 1, 2, hole, board, ante=2, bb_ante=True))
    play(hand, [(0, RAISE, 20), (1, FOLD), (2, ALL_IN)])
    assert hand.final_stacks() == [92, 99, 19]


def test_heads_up_big_blind_ante_is_posted_by_the_big_blind():
    # pokerkit reverses forced bets heads-up; the big-blind ante must still land on the big
    # blind (seat 1 here, the button being seat 0 and the small blind).
    hand = PokerkitHand(spec([50, 50], 0, ante=2, bb_ante=True))
    assert hand.state.stacks[hand.index_of[1]] == 46 and hand.state.stacks[hand.index_of[0]] == 49
    play(hand, [(0, FOLD)])
    assert hand.final_stacks() == [49, 51]
