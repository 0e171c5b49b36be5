//! Paying a finished hand: main and side pots, ties and odd chips.
//!
//! Pots are formed as pokerkit forms them (the tests' oracle), so split pots pay the same
//! chips: every distinct level of `committed` among the dealt seats (folded ones too) closes
//! a pot holding each seat's chips up to that level; its players are the seats at the
//! showdown that reached it and win some pot (pokerkit mucks and kills every other hand
//! before it pushes chips, which changes no pot's winner but does change which pots merge).
//! A pot with the same players as the one before merges into it. Antes posted by every seat
//! count in each seat's level (`contributions`): a seat dealt in short of the ante wins from
//! each other seat only the ante it matched, the all-in rule of the TDA and Robert's Rules
//! applied to antes, and pokerkit's ante trimming. A big-blind ante is dead money in the
//! first pot (the big blind's live chips are what it can win from each caller, as the WSOP
//! plays it). Each pot goes to the best hand among its
//! players (pypoker's evaluator); a tie splits it, and the chips that do not divide evenly
//! all go to the first winner clockwise from the button (the issue's rule, and pokerkit's).
const std = @import("std");
const encoding = @import("../cards/encoding.zig");
const eval = @import("../rank/eval.zig");
const table_zig = @import("table.zig");
const Table = table_zig.Table;
const seats_max = table_zig.seats_max;
const no_card = table_zig.no_card;
const assert = std.debug.assert;

/// How a hand was paid: its pots (main first) and who won each, and who showed down.
pub const Settlement = struct {
    amounts: [seats_max]u32 = @splat(0),
    winners: [seats_max]u16 = @splat(0),
    count: u8 = 0,
    showed: u16 = 0,
    /// Board cards dealt when the hand ended: 0, 3, 4 or 5.
    board_count: u8 = 0,
};

/// Everyone else folded: the last seat in the hand takes every chip in the middle.
pub fn award_fold(table: *Table, settlement: ?*Settlement) void {
    assert(@popCount(table.in_hand) == 1);
    const winner: u8 = @ctz(table.in_hand);
    var total: u32 = table.antes;
    for (&table.committed) |*chips| {
        total += chips.*;
        chips.* = 0;
    }
    table.antes = 0;
    table.stack[winner] += total;
    if (settlement) |out| {
        out.* = .{ .count = 1, .board_count = table_zig.board_shown[table.street] };
        out.amounts[0] = total;
        out.winners[0] = @as(u16, 1) << @intCast(winner);
    }
    finish(table);
}

fn finish(table: *Table) void {
    table.street = table_zig.Street.over;
    table.actor = table_zig.no_seat;
    table.pending = 0;
    if (std.debug.runtime_safety) assert(table.chips_conserved());
}

/// Showdown of every seat in the hand. False, changing nothing, when a card it needs is
/// unknown (a replayed hand).
pub fn showdown(table: *Table, settlement: ?*Settlement) bool {
    assert(@popCount(table.in_hand) >= 2);
    var ranks: [seats_max]u16 = @splat(0);
    var board: encoding.Accumulator = .empty;
    for (table.board) |card| {
        if (card == no_card) return false;
        board.add(card);
    }
    var seats = table.in_hand;
    while (seats != 0) : (seats &= seats - 1) {
        const seat: u8 = @ctz(seats);
        const hole = table.hole[seat];
        if (hole[0] == no_card or hole[1] == no_card) return false;
        var hand = board;
        hand.add(hole[0]);
        hand.add(hole[1]);
        ranks[seat] = eval.rank_accumulator(hand);
    }
    // Which seats win something, from the pots of every seat at the showdown; then the
    // pots of those seats alone, paid.
    var formed: Settlement = .{ .showed = table.in_hand, .board_count = 5 };
    if (one_pot(table)) |total| {
        // Everyone at the showdown put in the most anyone did: one pot, no side pots.
        formed.count = 1;
        formed.amounts[0] = total;
        formed.winners[0] = table.in_hand;
    } else {
        form_pots(table, table.in_hand, &formed);
        var winning: u16 = 0;
        for (0..formed.count) |p| winning |= best_of(formed.winners[p], &ranks);
        formed.count = 0;
        form_pots(table, winning, &formed);
    }
    for (0..formed.count) |p| {
        formed.winners[p] = pay_pot(table, formed.amounts[p], formed.winners[p], &ranks);
    }
    table.committed = @splat(0);
    table.antes = 0;
    if (settlement) |out| out.* = formed;
    finish(table);
    return true;
}

/// Every chip in the middle when the seats at the showdown all put in the same, and no
/// folded seat more: the common case, one pot whose players are all of them.
fn one_pot(table: *const Table) ?u32 {
    var levels: [seats_max]u32 = undefined;
    _ = contributions(table, &levels);
    const level = levels[@ctz(table.in_hand)];
    var total: u32 = table.antes;
    for (levels[0..table.seats], table.committed[0..table.seats], 0..) |chips, bets, seat| {
        const in_hand = table.in_hand >> @intCast(seat) & 1 == 1;
        if (chips > level or (in_hand and chips != level)) return null;
        total += bets;
    }
    return total;
}

/// Each seat's chips in the middle as side pots count them (`committed`, plus its own ante
/// when every seat posts one) in `levels`; returns the dead chips, which go to the first pot:
/// a big-blind ante, or antes a hand-made state does not match to its seats' starting
/// stacks (each dealt seat posts min(ante, start) before anything else).
fn contributions(table: *const Table, levels: *[seats_max]u32) u32 {
    levels.* = table.committed;
    if (table.bb_ante == 1 or table.antes == 0) return table.antes;
    var shares: [seats_max]u32 = @splat(0);
    var attributed: u64 = 0;
    var seats = table.dealt;
    while (seats != 0) : (seats &= seats - 1) {
        const seat = @ctz(seats);
        shares[seat] = @min(table.ante, table.start[seat]);
        attributed += shares[seat];
    }
    if (attributed != table.antes) return table.antes;
    for (levels, shares) |*level, share| level.* += share;
    return 0;
}

/// The pots, each with its players (the seats of `players` that reached its level) in
/// `winners`, until `pay_pot` narrows them.
fn form_pots(table: *const Table, players_mask: u16, out: *Settlement) void {
    var contributed: [seats_max]u32 = undefined;
    var amount: u32 = contributions(table, &contributed);
    var levels: [seats_max]u32 = undefined;
    const level_count = distinct_levels(table.dealt, &contributed, &levels);
    var previous: u32 = 0;
    for (levels[0..level_count]) |level| {
        var players: u16 = 0;
        for (0..table.seats) |seat| {
            if (table.dealt >> @intCast(seat) & 1 == 0) continue;
            if (contributed[seat] < level) continue;
            amount += level - previous;
            players |= players_mask & (@as(u16, 1) << @intCast(seat));
        }
        // A pot no one in the hand reached (only a hand-made state can hold one) joins
        // the pot below, so no chip is lost.
        while (out.count > 0 and (out.winners[out.count - 1] == players or players == 0)) {
            out.count -= 1;
            amount += out.amounts[out.count];
            players = out.winners[out.count];
        }
        if (amount > 0) {
            out.amounts[out.count] = amount;
            out.winners[out.count] = players;
            out.count += 1;
        }
        amount = 0;
        previous = level;
    }
    assert(out.count <= seats_max);
    if (std.debug.runtime_safety) {
        // Every chip in the middle is in exactly one pot.
        var pots_total: u64 = 0;
        for (out.amounts[0..out.count]) |chips| pots_total += chips;
        var middle: u64 = table.antes;
        for (table.committed) |chips| middle += chips;
        assert(pots_total == middle);
    }
}

/// The distinct values of `chips` over the `dealt` seats, ascending; returns how many.
fn distinct_levels(dealt: u16, chips: *const [seats_max]u32, levels: *[seats_max]u32) usize {
    var count: usize = 0;
    var seats = dealt;
    while (seats != 0) : (seats &= seats - 1) {
        const value = chips[@ctz(seats)];
        var at: usize = 0;
        while (at < count and levels[at] < value) : (at += 1) {}
        if (at < count and levels[at] == value) continue;
        var move = count;
        while (move > at) : (move -= 1) levels[move] = levels[move - 1];
        levels[at] = value;
        count += 1;
    }
    return count;
}

/// The seats of `players` with the best rank.
fn best_of(players: u16, ranks: *const [seats_max]u16) u16 {
    var best: u16 = 0;
    var seats = players;
    while (seats != 0) : (seats &= seats - 1) best = @max(best, ranks[@ctz(seats)]);
    var winners: u16 = 0;
    seats = players;
    while (seats != 0) : (seats &= seats - 1) {
        const seat: u8 = @ctz(seats);
        if (ranks[seat] == best) winners |= @as(u16, 1) << @intCast(seat);
    }
    return winners;
}

/// Pays one pot to the best hands among `players`; returns the winners.
fn pay_pot(table: *Table, amount: u32, players: u16, ranks: *const [seats_max]u16) u16 {
    assert(players & ~table.in_hand == 0);
    // Only a hand-made state has a pot nobody at the showdown reached: every seat there
    // plays for it, so no chip is lost.
    const winners = best_of(if (players == 0) table.in_hand else players, ranks);
    const count: u32 = @popCount(winners);
    const share = amount / count;
    var seats = winners;
    while (seats != 0) : (seats &= seats - 1) table.stack[@ctz(seats)] += share;
    table.stack[table_zig.next_seat(winners, table.button)] += amount - share * count;
    return winners;
}
