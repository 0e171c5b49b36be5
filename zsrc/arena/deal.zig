//! Starting a hand: stacks, the button, forced bets and the cards.
//!
//! Cards of table `t`, hand `h`: row `(t << 32) | h` of the counter-based stream
//! (random.zig) under `cards_key(seed)`, `2 * seats + 5` distinct cards drawn as pp.deal
//! draws a row (draw j picks the `below(word, 52 - j)`-th card left). Seat i gets cards
//! 2i and 2i+1 (a seat sitting out too, unused), the board the last five. So a hand is a
//! pure function of (seed, table, hand): the same for any batch, thread count or CPU.
//!
//! Button: the seat `config.button` (or the next with chips) on a table's first hand,
//! then the next seat with chips clockwise each hand ("moving button": no dead button or
//! dead blinds). The small blind is the next seat with chips after the button, the big
//! blind the next after that; heads-up the button posts the small blind.
//!
//! Forced bets in order: antes (every dealt seat, or with `bb_ante` the big blind once for
//! the table), small blind, big blind, straddle (the seat after the big blind, when
//! `straddle` > 0 and at least three seats are dealt in). A seat short of a forced bet
//! posts what it has and is all-in.
const std = @import("std");
const encoding = @import("../cards/encoding.zig");
const dealing = @import("../cards/deal.zig");
const random = @import("../cards/random.zig");
const table_zig = @import("table.zig");
const rules = @import("rules.zig");
const Table = table_zig.Table;
const seats_max = table_zig.seats_max;
const assert = std.debug.assert;

/// How the hands' cards are dealt: `cards/deal.zig`'s `deal_rows` as a CPU level's kernel
/// object compiles it. abi/dispatch.zig hands the selected level's here each time it selects
/// one (`use_dealer`), so the arena deals with PDEP where the CPU has it without importing
/// anything from abi/: the library itself is built for the baseline, whose portable select
/// dealt a 17-card row (a 6-max hand) in 155 ns against 38 ns (`pp.deal`, baseline vs
/// avx2 level, Zen 4). Until a level is selected, as in the Zig tests, the portable one.
var dealer: std.atomic.Value(*const Dealer) = .init(&dealing.kernels.deal);

const Dealer = @TypeOf(dealing.kernels.deal);

pub fn use_dealer(kernel: *const Dealer) void {
    dealer.store(kernel, .monotonic);
}

/// An arena's settings: one for all its tables.
pub const Config = extern struct {
    seed: u64,
    /// Each seat's stack at the start of every hand (with `carry`: of the first hand, and
    /// after a rebuy).
    stacks: [seats_max]u32,
    small_blind: u32,
    big_blind: u32,
    ante: u32,
    straddle: u32,
    seats: u8,
    bb_ante: u8,
    /// 1: stacks carry over from hand to hand; a seat with no chips sits out, and when fewer
    /// than two seats have chips every seat is reset to its stack in `stacks` (a rebuy).
    carry: u8,
    /// The button's seat on every table's first hand.
    button: u8,

    pub const c_name = "pp_arena_config";

    /// Whether the settings are ones the rules can play: every fresh hand has a decision.
    pub fn valid(config: *const Config) bool {
        if (config.seats < table_zig.seats_min or config.seats > seats_max) return false;
        if (config.button >= config.seats or config.bb_ante > 1 or config.carry > 1) return false;
        if (config.small_blind < 1 or config.big_blind < config.small_blind) return false;
        if (config.straddle != 0 and config.straddle / 2 < config.big_blind) return false;
        const forced = @as(u64, config.ante) + @max(config.big_blind, config.straddle);
        var total: u64 = 0;
        for (config.stacks[0..config.seats]) |stack| {
            if (stack < forced) return false;
            total += stack;
        }
        return total <= table_zig.chips_max;
    }
};

/// The stream keys of an arena's cards and of its random player: both from the seed, each
/// distinct from pp.deal's (`random.seed_key(seed)`).
pub fn cards_key(seed: u64) u64 {
    return random.mix64(random.seed_key(seed) ^ 0xa2e4_a5ca_4d5c_0001);
}

pub fn player_key(seed: u64) u64 {
    return random.mix64(random.seed_key(seed) ^ 0xa2e4_a5ca_4d5c_0002);
}

/// The row of the stream that holds hand `hand` of table `table_number`.
pub fn row(table_number: u32, hand: u32) u64 {
    return @as(u64, table_number) << 32 | hand;
}

/// Which hand `start_hand` deals: a table's first (from the config alone, whatever the
/// table held), the next after a hand just over, the next with every stack reset, or one
/// from the stacks and button the caller wrote into the table (a replay: `stack` with two
/// seats or more holding chips, any amounts, and the button's seat in `button`).
pub const Start = enum { first, next, rebuy, given };

/// Deals hand `hand` at `table`. When no seat has a decision (everyone all in on forced
/// bets) `actor` is `no_seat` with the hand not over: the caller plays it out
/// (`rules.end_round`).
pub fn start_hand(table: *Table, config: *const Config, table_number: u32, hand: u32, start: Start) void {
    if (std.debug.runtime_safety) assert(config.valid());
    assert(start == .first or start == .given or table.street == table_zig.Street.over);
    const previous_button = table.button;
    const carried = table.stack;
    table.* = std.mem.zeroes(Table);
    table.seats = config.seats;
    table.stack = switch (start) {
        .next => if (config.carry == 1) carried else config.stacks,
        .given => carried,
        .first, .rebuy => config.stacks,
    };
    if (!table_zig.several(rules.with_chips(table))) {
        table.stack = config.stacks; // a rebuy: no table stalls
    }
    table.start = table.stack;
    table.dealt = rules.with_chips(table);
    table.in_hand = table.dealt;
    table.button = switch (start) {
        .first => table_zig.seat_from(table.dealt, config.button),
        .given => table_zig.seat_from(table.dealt, previous_button),
        .next, .rebuy => table_zig.next_seat(table.dealt, previous_button),
    };
    table.small_blind = config.small_blind;
    table.big_blind = config.big_blind;
    table.ante = config.ante;
    table.straddle = config.straddle;
    table.bb_ante = config.bb_ante;
    table.table = table_number;
    table.hand = hand;
    deal_cards(table, cards_key(config.seed));
    const opener = post_forced_bets(table);
    if (std.debug.runtime_safety) assert(table.chips_conserved());
    rules.begin_round(table, opener);
    assert(table_zig.several(table.dealt));
    assert(table.dealt >> @intCast(table.button) & 1 == 1);
    if (std.debug.runtime_safety) assert(table.valid());
}

fn deal_cards(table: *Table, key: u64) void {
    const hole_cards = 2 * @as(u32, table.seats);
    var cards: [2 * seats_max + 5]u8 = undefined;
    dealer.load(.monotonic)(key, row(table.table, table.hand), hole_cards + 5, encoding.full_deck, &cards, 1);
    for (&table.hole, 0..) |*hole, seat| {
        hole.* = if (seat < table.seats) cards[2 * seat ..][0..2].* else .{ table_zig.no_card, table_zig.no_card };
    }
    table.board = cards[hole_cards..][0..5].*;
}

/// Posts antes, blinds and the straddle; returns the seat the first betting round opens
/// from: the one after the poster of the largest forced bet (the later of equal posters,
/// as pokerkit opens it).
fn post_forced_bets(table: *Table) u8 {
    const heads_up = @popCount(table.dealt) == 2;
    const small = if (heads_up) table.button else table_zig.next_seat(table.dealt, table.button);
    const big = table_zig.next_seat(table.dealt, small);
    if (table.ante > 0) {
        if (table.bb_ante == 1) {
            post_ante(table, big);
        } else for (0..table.seats) |seat| {
            if (table.dealt >> @intCast(seat) & 1 == 1) post_ante(table, @intCast(seat));
        }
    }
    post_blind(table, small, table.small_blind);
    post_blind(table, big, table.big_blind);
    var posters = [3]u8{ small, big, big };
    if (table.straddle > 0 and @popCount(table.dealt) >= 3) {
        posters[2] = table_zig.next_seat(table.dealt, big);
        post_blind(table, posters[2], table.straddle);
    }
    // The largest (bet, position) among the posters; position counts from the button's left.
    var top = posters[0];
    for (posters[1..]) |poster| {
        if (table.bet[poster] > table.bet[top] or
            (table.bet[poster] == table.bet[top] and position(table, poster) > position(table, top)))
            top = poster;
    }
    if (table.bet[top] == 0) top = table.button; // every poster was all in on its ante
    return table_zig.next_seat(table.dealt, top);
}

/// Seats clockwise from the button's left: 0 for the seat after the button.
fn position(table: *const Table, seat: u8) u8 {
    return (seat + table.seats - table.button - 1) % table.seats;
}

fn post_ante(table: *Table, seat: u8) void {
    const chips = @min(table.ante, table.stack[seat]);
    table.stack[seat] -= chips;
    table.antes += chips;
}

fn post_blind(table: *Table, seat: u8, amount: u32) void {
    const chips = @min(amount, table.stack[seat]);
    table.stack[seat] -= chips;
    table.bet[seat] += chips;
    table.committed[seat] += chips;
    table.current_bet = @max(table.current_bet, table.bet[seat]);
}
