//! No-limit hold'em betting: what the seat to act may do, checking an action, applying it,
//! ending betting rounds and streets.
//!
//! Where the issue leaves a rule open the engine does what pokerkit (the oracle the tests
//! cross-check against) does, so a hand played here and there ends the same:
//! - the amount to call is the largest bet in front of anyone (a big blind who could post
//!   only part of it is called for what was posted);
//! - a raise must add max(largest increment this street, big blind) to the current bet;
//!   the street's largest increment starts at 0, so an all-in under the big blind that
//!   opens a street counts as a full bet;
//! - a short all-in raise does not reopen betting for a seat that already acted: that seat
//!   may not raise while the chips it must call are under the last full increment, nor
//!   while the consecutive short all-ins since the last full raise add up to less than it
//!   (pokerkit's `consecutive_short_all_in_amounts`); once they add up, they reopen it;
//! - no seat may raise when no other seat in the hand could call more than the current bet;
//! - a seat with nothing left to decide is skipped: at the start of a round a seat acts
//!   only if it has chips and someone else in the hand covers more than its bet;
//! - an uncalled bet (the part of the street's largest bet above the second largest) goes
//!   back when the round ends.
const std = @import("std");
const table_zig = @import("table.zig");
const pots = @import("pots.zig");
const Table = table_zig.Table;
const Street = table_zig.Street;
const no_seat = table_zig.no_seat;
const assert = std.debug.assert;

/// Action kinds, the numbers at the C ABI and in histories.
pub const Kind = struct {
    pub const fold: u8 = 0;
    pub const check: u8 = 1;
    pub const call: u8 = 2;
    /// `amount` is the seat's total bet on this street after the raise ("raise to").
    pub const raise: u8 = 3;
    /// Everything behind: a call when the stack does not exceed the amount to call, else a
    /// raise to bet + stack.
    pub const all_in: u8 = 4;
    pub const count: u8 = 5;
};

/// What the seat to act may do. `mask` has bit k set when kind k is legal; `to_call` is
/// the chips a call puts in (capped at the stack); `min_to` / `max_to` bound a raise's
/// total (0 when no raise is legal).
pub const Legal = struct {
    mask: u8,
    to_call: u32,
    min_to: u32,
    max_to: u32,

    pub const none: Legal = .{ .mask = 0, .to_call = 0, .min_to = 0, .max_to = 0 };

    pub fn allows(legal_actions: Legal, kind: u8) bool {
        return kind < Kind.count and legal_actions.mask >> @intCast(kind) & 1 == 1;
    }
};

/// Why an action is refused (0: it is not). Numbers cross the C ABI in `pp_error.card`.
pub const Refusal = enum(u8) {
    none = 0,
    no_actor = 1,
    unknown_kind = 2,
    fold_without_bet = 3,
    check_facing_bet = 4,
    call_without_bet = 5,
    raise_closed = 6,
    raise_below_min = 7,
    raise_above_max = 8,
    all_in_closed = 9,
    /// The action would bring a seat whose hole cards (or a board card) are unknown to a
    /// showdown (a replayed hand).
    unknown_card_at_showdown = 10,

    pub const c_name = "pp_refusal";
};

pub fn legal(table: *const Table) Legal {
    if (table.actor == no_seat) return .none;
    const seat = table.actor;
    const stack = table.stack[seat];
    const bet = table.bet[seat];
    assert(stack > 0);
    assert(table.current_bet >= bet);
    const owed = table.current_bet - bet;
    var result: Legal = .{
        .mask = 0,
        .to_call = @min(stack, owed),
        .min_to = 0,
        .max_to = 0,
    };
    result.mask |= if (owed > 0) bit(Kind.fold) | bit(Kind.call) else bit(Kind.check);
    if (may_raise(table, seat)) {
        result.mask |= bit(Kind.raise) | bit(Kind.all_in);
        result.max_to = stack + bet;
        const step = @max(table.last_raise, table.big_blind);
        result.min_to = @min(result.max_to, table.current_bet +| step);
        assert(result.min_to > table.current_bet);
    } else if (stack <= owed) {
        result.mask |= bit(Kind.all_in);
    }
    return result;
}

fn bit(kind: u8) u8 {
    return @as(u8, 1) << @intCast(kind);
}

/// Whether betting is open to `seat` (pokerkit's `_verify_completion_betting_or_raising`).
fn may_raise(table: *const Table, seat: u8) bool {
    const owed = table.current_bet - table.bet[seat];
    if (table.stack[seat] <= owed) return false;
    if (owed < table.last_raise) return false;
    const seat_bit = @as(u16, 1) << @intCast(seat);
    if (table.short_sum > 0 and table.short_sum < table.last_raise and
        table.acted & seat_bit != 0) return false;
    var others = table.in_hand & ~seat_bit;
    while (others != 0) : (others &= others - 1) {
        const other: u8 = @ctz(others);
        if (table.reach(other) > table.current_bet) return true;
    }
    return false;
}

/// Why `kind` / `amount` is not legal now, or `.none`; changes nothing.
pub fn check(table: *const Table, kind: u8, amount: u32) Refusal {
    if (table.actor == no_seat) return .no_actor;
    if (kind >= Kind.count) return .unknown_kind;
    const options = legal(table);
    if (!options.allows(kind)) return switch (kind) {
        Kind.fold => .fold_without_bet,
        Kind.check => .check_facing_bet,
        Kind.call => .call_without_bet,
        Kind.raise => .raise_closed,
        else => .all_in_closed,
    };
    if (kind == Kind.raise) {
        if (amount < options.min_to) return .raise_below_min;
        if (amount > options.max_to) return .raise_above_max;
    }
    if (has_unknown_cards(table)) {
        // Only a replayed hand holds unknown cards: play the action on a copy to see
        // whether it reaches a showdown that would need them.
        var copy = table.*;
        if (!apply_known(&copy, kind, amount, null)) return .unknown_card_at_showdown;
    }
    return .none;
}

/// Whether a card of a seat at the table or of the board is unknown (0xFF): two 16-byte
/// compares over the struct's last 30 bytes (`hole`, `board`, then the seat count and
/// the like, masked off), where a loop over the seats in the hand cost more than the rest
/// of `check`. A folded seat's unknown cards count too: they only send a replayed hand's
/// actions through `check`'s slower, exact path.
fn has_unknown_cards(table: *const Table) bool {
    const Bytes = @Vector(16, u8);
    const base = @offsetOf(Table, "hole");
    comptime {
        assert(@offsetOf(Table, "board") == base + 2 * table_zig.seats_max);
        assert(@sizeOf(Table) - base == 30);
    }
    const bytes = std.mem.asBytes(table);
    const low: Bytes = bytes[base..][0..16].*;
    const high: Bytes = bytes[base + 14 ..][0..16].*;
    const unknown = @as(u32, @as(u16, @bitCast(low == @as(Bytes, @splat(table_zig.no_card))))) |
        @as(u32, @as(u16, @bitCast(high == @as(Bytes, @splat(table_zig.no_card))))) << 14;
    // Bits 0 .. 2 * seats - 1: the hole cards dealt; bits 20 .. 24: the board.
    const holes = (@as(u32, 1) << @intCast(2 * @as(u32, table.seats))) - 1;
    return unknown & (holes | 0x1F << 2 * table_zig.seats_max) != 0;
}

/// Applies a legal action (`check` returned `.none`); the hand may end (street `over`),
/// its pots paid and described in `settlement` when given.
pub fn apply(table: *Table, kind: u8, amount: u32, settlement: ?*pots.Settlement) void {
    if (std.debug.runtime_safety) assert(check(table, kind, amount) == .none);
    const applied = apply_known(table, kind, amount, settlement);
    assert(applied);
}

/// `apply` without the precondition: false when the hand reached a showdown whose cards
/// are unknown (the table is then left mid-showdown, for `check`'s copy only).
fn apply_known(table: *Table, kind: u8, amount: u32, settlement: ?*pots.Settlement) bool {
    if (std.debug.runtime_safety) assert(table.valid());
    const seat = table.actor;
    const seat_bit = @as(u16, 1) << @intCast(seat);
    const owed = table.current_bet - table.bet[seat];
    table.decision +%= 1;
    table.pending &= ~seat_bit;
    table.acted |= seat_bit;
    switch (kind) {
        Kind.fold => table.in_hand &= ~seat_bit,
        Kind.check => {},
        Kind.call => put(table, seat, @min(table.stack[seat], owed)),
        Kind.raise => raise_to(table, seat, amount),
        Kind.all_in => if (table.stack[seat] <= owed)
            put(table, seat, table.stack[seat])
        else
            raise_to(table, seat, table.stack[seat] + table.bet[seat]),
        else => unreachable,
    }
    if (std.debug.runtime_safety) assert(table.chips_conserved());
    if (table_zig.several(table.in_hand) and table.pending != 0) {
        table.actor = table_zig.next_seat(table.pending, seat);
        return true;
    }
    table.actor = no_seat;
    table.pending = 0;
    return end_round(table, settlement);
}

/// Moves `chips` from the seat's stack to its bet.
fn put(table: *Table, seat: u8, chips: u32) void {
    assert(chips <= table.stack[seat]);
    table.stack[seat] -= chips;
    table.bet[seat] += chips;
    table.committed[seat] += chips;
}

fn raise_to(table: *Table, seat: u8, amount: u32) void {
    assert(amount > table.current_bet);
    assert(amount <= table.reach(seat));
    const seat_bit = @as(u16, 1) << @intCast(seat);
    const increment = amount - table.current_bet;
    put(table, seat, amount - table.bet[seat]);
    // Everyone else in the hand with chips must answer it.
    table.pending = table.in_hand & with_chips(table) & ~seat_bit;
    if (increment >= table.last_raise) table.acted = seat_bit;
    table.last_raise = @max(table.last_raise, increment);
    if (table.stack[seat] > 0) {
        table.short_sum = 0;
    } else {
        table.short_sum += increment;
    }
    if (table.short_sum >= table.last_raise) table.short_sum = 0;
    table.current_bet = amount;
    assert(table.pending != 0);
}

/// Seats with chips behind.
pub fn with_chips(table: *const Table) u16 {
    var mask: u16 = 0;
    for (0..table.seats) |seat| {
        if (table.stack[seat] > 0) mask |= @as(u16, 1) << @intCast(seat);
    }
    return mask;
}

/// Opens a betting round: who may act, and the first of them clockwise from `opener`. No
/// one acts when no seat has a decision left (at most one seat can bet and its bet is
/// matched): then `actor` stays `no_seat` and the caller ends the round.
pub fn begin_round(table: *Table, opener: u8) void {
    assert(table.street < Street.over);
    table.acted = 0;
    table.last_raise = 0;
    table.short_sum = 0;
    table.actor = no_seat;
    table.pending = 0;
    // The two largest reaches (bet + stack) in the hand: a seat has something to decide
    // only if another seat could put in more than its bet.
    var first: u32 = 0;
    var second: u32 = 0;
    var seats = table.in_hand;
    while (seats != 0) : (seats &= seats - 1) {
        const reach = table.reach(@ctz(seats));
        if (reach > first) {
            second = first;
            first = reach;
        } else if (reach > second) second = reach;
    }
    var eligible: u16 = 0;
    seats = table.in_hand & with_chips(table);
    while (seats != 0) : (seats &= seats - 1) {
        const seat: u8 = @ctz(seats);
        if (second > table.bet[seat]) eligible |= @as(u16, 1) << @intCast(seat);
    }
    if (eligible == 0) return;
    if (table_zig.single(eligible) and table.bet[@ctz(eligible)] >= table.current_bet) return;
    table.pending = eligible;
    table.actor = table_zig.seat_from(eligible, opener);
    assert(table.stack[table.actor] > 0);
}

/// Ends the betting round: returns an uncalled bet, gathers the bets, and deals on (with no
/// betting while no seat has a decision) until a seat must act or the hand is over.
/// False only when a showdown needs unknown cards.
pub fn end_round(table: *Table, settlement: ?*pots.Settlement) bool {
    assert(table.actor == no_seat);
    // A bounded loop: one pass per street left.
    for (0..Street.over) |_| {
        return_uncalled(table);
        table.bet = @splat(0);
        table.current_bet = 0;
        if (table_zig.single(table.in_hand)) {
            pots.award_fold(table, settlement);
            return true;
        }
        if (table.street == Street.river) return pots.showdown(table, settlement);
        table.street += 1;
        begin_round(table, table_zig.next_seat(table.dealt, table.button));
        if (table.actor != no_seat) return true;
    }
    unreachable;
}

/// The part of the street's largest bet nobody matched goes back to its owner.
fn return_uncalled(table: *Table) void {
    var top_seat: u8 = 0;
    var first: u32 = 0;
    var second: u32 = 0;
    for (0..table.seats) |seat| {
        const bet = table.bet[seat];
        if (bet > first) {
            second = first;
            first = bet;
            top_seat = @intCast(seat);
        } else if (bet > second) second = bet;
    }
    if (first == second) return;
    const excess = first - second;
    table.bet[top_seat] -= excess;
    table.committed[top_seat] -= excess;
    table.stack[top_seat] += excess;
}
