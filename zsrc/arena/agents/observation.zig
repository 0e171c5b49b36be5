//! The RL environments' observation of a table from one seat (the viewer): a flat row of
//! float32 columns, laid out block by block (`Layout` gives each block's first column;
//! pypoker/arena/_learner.py names every column from it). Chips are in big blinds.
//!
//!   hole      52       1 at each of the viewer's hole cards (card id suit * 13 + value)
//!   board     52       1 at each board card shown
//!   street    5        one-hot: preflop, flop, turn, river, over (the hand has ended)
//!   position  S        one-hot: seats clockwise from the button to the viewer (0: button)
//!   seats     S * 7    seat by seat clockwise from the viewer (0: the viewer): stack, bet
//!                      on this street, chips put in this hand (bets, blinds; not antes),
//!                      in the hand (dealt, not folded), all in, has the button, to act
//!   numbers   5        pot (every chip in the middle), the street's largest bet, what the
//!                      viewer must call (capped at its stack), its min and max raise-to
//!                      (0 unless it is to act and may raise)
//!   history   H * (S + 11)  the hand's last H actions, most recent first (empty slots are
//!                      zeros): present, seat (one-hot S, clockwise from the viewer),
//!                      street (one-hot 4), kind (one-hot 5: fold, check, call, raise,
//!                      all in), amount (the seat's total bet on the street after it)
//!
//! with S the table's seats and H `Settings.history`. Only public facts and the viewer's
//! own cards enter: never another seat's cards.
const std = @import("std");
const table_zig = @import("../table.zig");
const rules = @import("../rules.zig");
const learner = @import("learner.zig");
const Table = table_zig.Table;
const Slot = learner.Slot;
const ActionRecord = @import("../play.zig").ActionRecord;
const Kind = rules.Kind;
const no_card = table_zig.no_card;
const assert = std.debug.assert;

pub const cards = 52;
pub const streets = 5;
pub const seat_columns = 7;
pub const numbers = 5;
/// Columns of a history action besides its seat's one-hot: present, street (4), kind (5),
/// amount.
pub const action_columns_fixed = 1 + 4 + Kind.count + 1;

/// Each block's first column, the columns of a seat and of an action, and the total.
pub const Layout = extern struct {
    hole: u32,
    board: u32,
    street: u32,
    position: u32,
    seats: u32,
    seat_columns: u32,
    numbers: u32,
    history: u32,
    action_columns: u32,
    columns: u32,

    pub const c_name = "pp_rl_layout";
};

pub fn layout(seats: u8, history: u8) Layout {
    assert(seats >= table_zig.seats_min and seats <= table_zig.seats_max);
    assert(history <= learner.history_max);
    const s: u32 = seats;
    const action_columns = s + action_columns_fixed;
    const position = 2 * cards + streets;
    const seats_first = position + s;
    const numbers_first = seats_first + s * seat_columns;
    const history_first = numbers_first + numbers;
    return .{
        .hole = 0,
        .board = cards,
        .street = 2 * cards,
        .position = position,
        .seats = seats_first,
        .seat_columns = seat_columns,
        .numbers = numbers_first,
        .history = history_first,
        .action_columns = action_columns,
        .columns = history_first + @as(u32, history) * action_columns,
    };
}

/// Writes the viewer's observation of the table into `out` (`layout(...).columns` long).
pub fn encode(table: *const Table, slot: *const Slot, viewer: u8, history: u8, out: []f32) void {
    const at = layout(table.seats, history);
    assert(out.len == at.columns);
    assert(viewer < table.seats);
    @memset(out, 0);
    const per_bb = 1.0 / @as(f32, @floatFromInt(table.big_blind));
    for (table.hole[viewer]) |card| {
        if (card != no_card) out[at.hole + card] = 1;
    }
    for (table.board[0..slot.shown]) |card| {
        if (card != no_card) out[at.board + card] = 1;
    }
    out[at.street + table.street] = 1;
    out[at.position + clockwise(table.button, viewer, table.seats)] = 1;
    encode_seats(table, viewer, at, per_bb, out);
    encode_numbers(table, viewer, per_bb, out[at.numbers..][0..numbers]);
    const shown = @min(history, slot.count);
    for (0..shown) |i| {
        const record = slot.actions[(slot.count - 1 - i) % learner.history_max];
        const row = out[at.history + i * at.action_columns ..][0..at.action_columns];
        encode_action(record, table.seats, viewer, per_bb, row);
    }
}

fn encode_seats(table: *const Table, viewer: u8, at: Layout, per_bb: f32, out: []f32) void {
    for (0..table.seats) |r| {
        const seat = clockwise(0, viewer + @as(u8, @intCast(r)), table.seats);
        const bit = @as(u16, 1) << @intCast(seat);
        const in_hand = table.in_hand & bit != 0;
        const row = out[at.seats + r * seat_columns ..][0..seat_columns];
        row.* = .{
            @as(f32, @floatFromInt(table.stack[seat])) * per_bb,
            @as(f32, @floatFromInt(table.bet[seat])) * per_bb,
            @as(f32, @floatFromInt(table.committed[seat])) * per_bb,
            @floatFromInt(@intFromBool(in_hand)),
            @floatFromInt(@intFromBool(in_hand and table.stack[seat] == 0)),
            @floatFromInt(@intFromBool(table.button == seat)),
            @floatFromInt(@intFromBool(table.actor == seat)),
        };
    }
}

fn encode_numbers(table: *const Table, viewer: u8, per_bb: f32, out: *[numbers]f32) void {
    var pot: u64 = table.antes;
    for (table.committed) |chips| pot += chips;
    const owed = @min(table.current_bet - table.bet[viewer], table.stack[viewer]);
    const options = if (table.actor == viewer) rules.legal(table) else rules.Legal.none;
    out.* = .{
        @as(f32, @floatFromInt(pot)) * per_bb,
        @as(f32, @floatFromInt(table.current_bet)) * per_bb,
        @as(f32, @floatFromInt(owed)) * per_bb,
        @as(f32, @floatFromInt(options.min_to)) * per_bb,
        @as(f32, @floatFromInt(options.max_to)) * per_bb,
    };
}

fn encode_action(record: ActionRecord, seats: u8, viewer: u8, per_bb: f32, row: []f32) void {
    assert(record.seat < seats);
    assert(record.street < streets - 1 and record.kind < Kind.count);
    row[0] = 1;
    row[1 + clockwise(viewer, record.seat, seats)] = 1;
    row[1 + seats + record.street] = 1;
    row[1 + seats + 4 + record.kind] = 1;
    row[1 + seats + 4 + Kind.count] = @as(f32, @floatFromInt(record.amount)) * per_bb;
}

/// Seats clockwise from `from` to `to` (both below `seats`, or `to` below twice it): a
/// subtraction where `%` would divide, several times an observation.
fn clockwise(from: u8, to: u8, seats: u8) u8 {
    assert(from < seats and to < 2 * seats);
    const ahead = if (to >= from) to - from else to + seats - from;
    return if (ahead >= seats) ahead - seats else ahead;
}

comptime {
    // The discrete scheme's six answers and the engine's five kinds are what the layout
    // and the masks assume.
    assert(Kind.count == 5);
    assert(action_columns_fixed == 11);
}

test "observation: the layout's blocks follow each other and add up" {
    const at = layout(6, 16);
    try std.testing.expectEqual(@as(u32, 52 + 52 + 5 + 6 + 6 * 7 + 5 + 16 * 17), at.columns);
    try std.testing.expectEqual(at.position + 6, at.seats);
    try std.testing.expectEqual(at.seats + 6 * seat_columns, at.numbers);
    try std.testing.expectEqual(at.history + 16 * at.action_columns, at.columns);
    try std.testing.expectEqual(@as(u32, 52 + 52 + 5 + 2 + 2 * 7 + 5), layout(2, 0).columns);
}

test "observation: the viewer's cards, the board shown, seats from the viewer, actions newest first" {
    const deal = @import("../deal.zig");
    var config = std.mem.zeroes(deal.Config);
    config.seed = 9;
    config.seats = 3;
    config.stacks = @splat(100);
    config.small_blind = 1;
    config.big_blind = 2;
    var table: Table = undefined;
    deal.start_hand(&table, &config, 0, 0, .first);
    var slot = std.mem.zeroes(Slot);
    // Button 0, small blind 1, big blind 2: seat 0 acts first; it calls, seat 1 raises to 6.
    learner.apply(&table, &slot, .{ .kind = Kind.call, .amount = 0 });
    learner.apply(&table, &slot, .{ .kind = Kind.raise, .amount = 6 });
    var out: [layout(3, 4).columns]f32 = undefined;
    encode(&table, &slot, 2, 4, &out);
    const at = layout(3, 4);
    var held: f32 = 0;
    for (out[at.hole..][0..cards]) |x| held += x;
    try std.testing.expectEqual(@as(f32, 2), held);
    try std.testing.expectEqual(@as(f32, 1), out[at.hole + table.hole[2][0]]);
    for (out[at.board..][0..cards]) |x| try std.testing.expectEqual(@as(f32, 0), x);
    try std.testing.expectEqual(@as(f32, 1), out[at.street]);
    try std.testing.expectEqual(@as(f32, 1), out[at.position + 2]);
    // Seat 2 (the viewer, big blind) first: 98 behind and 2 bet = 49 and 1 big blinds.
    try std.testing.expectEqual(@as(f32, 49), out[at.seats]);
    try std.testing.expectEqual(@as(f32, 1), out[at.seats + 1]);
    try std.testing.expectEqual(@as(f32, 1), out[at.seats + 6]); // to act
    // Then seat 0 (the button: 1 bet after calling), then seat 1 (raised to 6 = 3 bb).
    try std.testing.expectEqual(@as(f32, 1), out[at.seats + seat_columns + 5]);
    try std.testing.expectEqual(@as(f32, 3), out[at.seats + 2 * seat_columns + 1]);
    // Pot 2 + 6 + 2 = 10 chips = 5 bb; to call 4 = 2 bb; raise to at least 10 = 5 bb.
    try std.testing.expectEqual([numbers]f32{ 5, 3, 2, 5, 50 }, out[at.numbers..][0..numbers].*);
    // The newest action first: seat 1 (two seats after the viewer) raised to 3 bb.
    const newest = out[at.history..][0..at.action_columns];
    try std.testing.expectEqual(@as(f32, 1), newest[0]);
    try std.testing.expectEqual(@as(f32, 1), newest[1 + 2]);
    try std.testing.expectEqual(@as(f32, 1), newest[1 + 3 + 0]);
    try std.testing.expectEqual(@as(f32, 1), newest[1 + 3 + 4 + Kind.raise]);
    try std.testing.expectEqual(@as(f32, 3), newest[at.action_columns - 1]);
    const older = out[at.history + at.action_columns ..][0..at.action_columns];
    try std.testing.expectEqual(@as(f32, 1), older[1 + 1]);
    try std.testing.expectEqual(@as(f32, 1), older[1 + 3 + 4 + Kind.call]);
    try std.testing.expectEqual(@as(f32, 0), out[at.history + 2 * at.action_columns]);
}
