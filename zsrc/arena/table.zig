//! One no-limit hold'em table: every fact the rules need, in one plain struct.
//!
//! No pointers, no slices: a copy is a `memcpy` (search clones a table by assignment), N
//! tables are one array that Python sees as a NumPy structured array, and a saved array is
//! a table restored. The struct holds its own forced-bet sizes, so a table alone is enough
//! to apply the rules; only dealing the next hand needs the arena's config (seed, stacks).
//!
//! Chips: `u32` everywhere. The invariant every function keeps (`chips_conserved`):
//!   Σ stack + Σ committed + antes == Σ start
//! while a hand runs; once it is over `committed` and `antes` are 0 and Σ stack == Σ start.
//!
//! Seats are 0..seats-1 clockwise; masks are `u16` with bit i for seat i.
//!
//! Assertions that walk a table (`chips_conserved`, `valid`, re-checking an action) are
//! written `if (std.debug.runtime_safety) assert(…)`: they run wherever safety checks are on
//! (Debug and ReleaseSafe: the Zig tests and the fuzz) and are not compiled in ReleaseFast,
//! where a bare `assert` of a call LLVM cannot prove pure would still compute it.
const std = @import("std");
const encoding = @import("../cards/encoding.zig");
const assert = std.debug.assert;

pub const seats_max = 10;
/// The most chips a table may hold: every sum of chips fits a u32 and every seat's net
/// result of a hand an i32 (the hand records').
pub const chips_max: u32 = std.math.maxInt(i32);
pub const seats_min = 2;
/// A card not known (a replayed hand's folded or mucked hole cards), or not dealt.
pub const no_card = encoding.no_card;
/// `actor` when no seat is to act.
pub const no_seat: u8 = 0xFF;

pub const Street = struct {
    pub const preflop: u8 = 0;
    pub const flop: u8 = 1;
    pub const turn: u8 = 2;
    pub const river: u8 = 3;
    /// The hand is over: pots are paid, `committed` is 0.
    pub const over: u8 = 4;
    /// Street numbers run 0..count-1; Python names them once (arena/_config.py `STREETS`).
    pub const count: u8 = over + 1;
};

/// Board cards seen on each street (preflop, flop, turn, river, over): the board sizes
/// cards/encoding.zig allows, in dealing order (Python's arena/_config.py `BOARD_SHOWN`
/// builds the same from the header's sizes).
pub const board_shown = [Street.count]u8{
    0,
    encoding.board_cards_min,
    encoding.board_cards_min + 1,
    encoding.board_cards_max,
    encoding.board_cards_max,
};

comptime {
    std.debug.assert(board_shown[Street.turn] < board_shown[Street.river]); // one card a street
}

pub const Table = extern struct {
    /// Chips behind, not yet put in.
    stack: [seats_max]u32,
    /// Chips put in on this street (blinds and straddle count; antes do not).
    bet: [seats_max]u32,
    /// Chips put in as bets over the whole hand, this street's included. Antes are not
    /// here but in `antes`: they call no bet. Side pots add each seat's own ante back
    /// (`pots.contributions`), so a seat short of the ante wins only the antes it matched.
    committed: [seats_max]u32,
    /// Each seat's stack when the hand started (winnings = end - start).
    start: [seats_max]u32,
    /// The largest bet of this street (what every seat must match or fold).
    current_bet: u32,
    /// The largest bet or raise increment of this street (pokerkit's
    /// `completion_betting_or_raising_amount`): 0 when the street opens. A raise must add
    /// at least max(this, big blind) to the current bet.
    last_raise: u32,
    /// Sum of the increments of consecutive short all-in raises since the last full raise
    /// (0 = none); once it reaches `last_raise` they count as a full raise.
    short_sum: u32,
    /// Antes posted this hand (each dealt seat's min(ante, start), or the big blind's one).
    antes: u32,
    small_blind: u32,
    big_blind: u32,
    ante: u32,
    straddle: u32,
    /// The table's number in its arena and the hand's number at the table: with the
    /// arena's seed they name the hand's cards.
    table: u32,
    hand: u32,
    /// Seats dealt into this hand (they had chips when it started).
    dealt: u16,
    /// Dealt seats that have not folded.
    in_hand: u16,
    /// Seats that must still act in this betting round.
    pending: u16,
    /// Seats that acted since the last full raise (they may not raise over a short all-in).
    acted: u16,
    /// Actions taken in this hand so far (the random player's counter).
    decision: u16,
    hole: [seats_max][2]u8,
    board: [5]u8,
    seats: u8,
    button: u8,
    /// The seat to act, or `no_seat`.
    actor: u8,
    street: u8,
    /// 1: the big blind posts one ante for the table instead of every seat posting one.
    bb_ante: u8,

    pub const c_name = "pp_table";

    pub fn seat_mask(table: *const Table) u16 {
        return @intCast((@as(u32, 1) << @intCast(table.seats)) - 1);
    }

    /// Σ start == Σ stack + Σ committed + antes.
    pub fn chips_conserved(table: *const Table) bool {
        var started: u64 = 0;
        var held: u64 = table.antes;
        for (0..seats_max) |seat| {
            started += table.start[seat];
            held += @as(u64, table.stack[seat]) + table.committed[seat];
        }
        return started == held;
    }

    /// `well_formed` and chips conserved: what a table from outside (a restored state) must
    /// be before the rules take it.
    pub fn valid(table: *const Table) bool {
        return table.well_formed() and table.chips_conserved();
    }

    /// The facts that keep every index in bounds (seat counts, masks, the actor, the
    /// street): checked on every table of every batch, at a few instructions a table.
    pub fn well_formed(table: *const Table) bool {
        if (table.seats < seats_min or table.seats > seats_max) return false;
        const seats = table.seat_mask();
        if (table.dealt & ~seats != 0 or table.in_hand & ~table.dealt != 0) return false;
        if (table.pending & ~table.in_hand != 0) return false;
        if (table.street > Street.over) return false;
        if (table.actor != no_seat and (table.actor >= table.seats or
            table.pending >> @intCast(table.actor) & 1 == 0)) return false;
        return table.button < table.seats;
    }

    /// The seat's total in front of it this street plus behind: what it can bet to.
    pub fn reach(table: *const Table, seat: u8) u32 {
        return table.stack[seat] + table.bet[seat];
    }
};

comptime {
    // The issue's bound: one table of ten seats in at most 256 bytes (four cache lines).
    assert(@sizeOf(Table) <= 256);
    assert(@sizeOf(Table) == 240);
    // Masks hold a bit per seat.
    assert(seats_max <= 16);
}

/// Whether `mask` holds two seats or more (the library's baseline CPU has no popcnt: a
/// clear of the lowest bit is one instruction where a population count is a dozen).
pub fn several(mask: u16) bool {
    return mask & (mask -% 1) != 0;
}

/// Whether `mask` holds exactly one seat.
pub fn single(mask: u16) bool {
    return mask != 0 and !several(mask);
}

/// The first seat of `mask` clockwise strictly after `after` (wrapping); `mask` non-empty.
pub fn next_seat(mask: u16, after: u8) u8 {
    assert(mask != 0);
    assert(after < 16);
    const above = mask & ~((@as(u16, 2) << @intCast(after)) -% 1);
    const seat: u8 = if (above != 0) @ctz(above) else @ctz(mask);
    assert(mask >> @intCast(seat) & 1 == 1);
    return seat;
}

/// The first seat of `mask` clockwise from `from` itself (wrapping); `mask` non-empty.
pub fn seat_from(mask: u16, from: u8) u8 {
    if (mask >> @intCast(from) & 1 == 1) return from;
    return next_seat(mask, from);
}

test "arena: next_seat wraps clockwise" {
    try std.testing.expectEqual(@as(u8, 3), next_seat(0b1001000, 0));
    try std.testing.expectEqual(@as(u8, 6), next_seat(0b1001000, 3));
    try std.testing.expectEqual(@as(u8, 3), next_seat(0b1001000, 6));
    try std.testing.expectEqual(@as(u8, 3), next_seat(0b0001000, 3));
    try std.testing.expectEqual(@as(u8, 0), next_seat(0b1000000001, 9));
    try std.testing.expectEqual(@as(u8, 3), seat_from(0b1001000, 3));
}
