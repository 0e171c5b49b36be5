//! A recorded hand (`pp_hand_record` and its `pp_action_record`s, as the arena records them
//! and pypoker.arena.history reads them back) replayed in the rules engine, action by
//! action, so every public fact of every moment is the engine's own: who acts, what is
//! legal, the pot, the stacks. Whatever does not add up is a `Fault` naming the action:
//! the Range Reader never reads a hand the rules would not have played.
const std = @import("std");
const HandError = @import("../cards/failure.zig").HandError;
const table_zig = @import("../arena/table.zig");
const rules = @import("../arena/rules.zig");
const deal = @import("../arena/deal.zig");
const play = @import("../arena/play.zig");
const pots = @import("../arena/pots.zig");
const encoding = @import("../cards/encoding.zig");
const Table = table_zig.Table;
const HandRecord = play.HandRecord;
const ActionRecord = play.ActionRecord;
const no_card = table_zig.no_card;
const no_seat = table_zig.no_seat;
const assert = std.debug.assert;

/// Why a recorded hand cannot be read (`pp_error.card` at the ABI; `position` names the
/// action, `row` the hand).
pub const Fault = enum(u8) {
    none = 0,
    /// Seats, button, blinds, ante, straddle or stacks the rules cannot deal.
    settings = 1,
    /// A card id above 51, a card dealt twice, a seat with one card known and one not, or
    /// a board count other than 0, 3, 4, 5.
    cards = 2,
    /// The action's seat is not the seat to act.
    actor = 3,
    /// The rules refuse the action (`detail`: the `pp_refusal`).
    illegal = 4,
    /// The action's street is not the street being played.
    street = 5,
    /// A call's or all-in's amount differs from what the rules put in.
    amount = 6,
    /// Actions after the hand ended.
    over = 7,
    /// The actions end before the hand does.
    short = 8,
    /// The board holds more or fewer cards than the streets the hand reached.
    board = 9,
    /// A seat asked for is not dealt into the hand.
    seat = 10,
    /// The hand's actions lie outside the action array given.
    actions = 11,
    /// A style index outside the population (or unknown where styles are to be known).
    style = 12,
    /// The population's policies give the hand's actions no chance: not its play.
    impossible = 13,

    pub const c_name = "pp_reader_fault";
};

pub const Problem = struct {
    fault: Fault = .none,
    /// The action at fault (or the seat, for `seat`; the card, for `cards`).
    where: u32 = 0,
    detail: u8 = 0,

    /// The failure record of the call's `row` (a hand, an example) failing so: the fault in
    /// `card`, where in `position`.
    pub fn at(problem: Problem, row: u64) HandError {
        std.debug.assert(problem.fault != .none);
        return .{ .row = row, .kind = .bad_argument, .card = @backingInt(problem.fault), .position = @intCast(problem.where) };
    }
};

/// One hand being replayed: `table` is the state before action `next`.
pub const Replay = struct {
    table: Table,
    record: *const HandRecord,
    actions: []const ActionRecord,
    next: u32 = 0,
    /// Board cards shown: the street's, or at the end the hand's.
    shown: u8 = 0,
    settlement: pots.Settlement = .{},

    pub fn over(replay: *const Replay) bool {
        return replay.table.street == table_zig.Street.over or replay.table.actor == no_seat;
    }
};

/// Starts the replay of `record` (its actions `actions`), or says why it cannot.
pub fn start(replay: *Replay, record: *const HandRecord, actions: []const ActionRecord) Problem {
    const settings = check_settings(record);
    if (settings.fault != .none) return settings;
    const cards = check_cards(record);
    if (cards.fault != .none) return cards;
    const forced = @as(u64, record.ante) + @max(record.big_blind, record.straddle);
    var config = std.mem.zeroes(deal.Config);
    config.seats = record.seats;
    config.small_blind = record.small_blind;
    config.big_blind = record.big_blind;
    config.ante = record.ante;
    config.straddle = record.straddle;
    config.bb_ante = record.bb_ante;
    // Stacks come from the record (`.given`); the config's only need to be valid.
    for (config.stacks[0..record.seats]) |*stack| stack.* = @intCast(forced);
    replay.* = .{ .table = std.mem.zeroes(Table), .record = record, .actions = actions };
    const table = &replay.table;
    table.seats = record.seats;
    table.stack = record.start;
    table.button = record.button;
    table.street = table_zig.Street.over;
    deal.start_hand(table, &config, record.table, record.hand, .given);
    table.hole = record.hole;
    table.board = @splat(no_card);
    @memcpy(table.board[0..record.board_count], record.board[0..record.board_count]);
    if (table.button != record.button) return .{ .fault = .settings };
    replay.shown = table_zig.board_shown[table.street];
    // A hand without a decision (every seat all in on forced bets) has no actions to read.
    if (table.actor == no_seat and actions.len > 0) return .{ .fault = .over };
    return .{};
}

fn check_settings(record: *const HandRecord) Problem {
    const bad: Problem = .{ .fault = .settings };
    if (record.seats < table_zig.seats_min or record.seats > table_zig.seats_max) return bad;
    if (record.button >= record.seats or record.bb_ante > 1) return bad;
    if (record.small_blind < 1 or record.big_blind < record.small_blind) return bad;
    if (record.straddle != 0 and record.straddle / 2 < record.big_blind) return bad;
    const forced = @as(u64, record.ante) + @max(record.big_blind, record.straddle);
    if (forced * record.seats > table_zig.chips_max) return bad;
    var total: u64 = 0;
    var with_chips: u32 = 0;
    for (record.start[0..record.seats]) |chips| {
        total += chips;
        with_chips += @intFromBool(chips > 0);
    }
    for (record.start[record.seats..]) |chips| if (chips != 0) return bad;
    if (with_chips < 2 or total > table_zig.chips_max) return bad;
    if (record.start[record.button] == 0) return bad;
    return .{};
}

fn check_cards(record: *const HandRecord) Problem {
    var seen: u64 = 0;
    const count = record.board_count;
    if (count != 0 and count != 3 and count != 4 and count != 5) return .{ .fault = .cards, .where = count };
    for (record.board[0..count]) |card| {
        if (card >= encoding.card_count or seen >> @intCast(card) & 1 == 1) return .{ .fault = .cards, .where = card };
        seen |= @as(u64, 1) << @intCast(card);
    }
    for (record.hole[0..record.seats], 0..) |hole, seat| {
        if (record.start[seat] == 0) continue;
        if ((hole[0] == no_card) != (hole[1] == no_card)) return .{ .fault = .cards, .where = no_card };
        if (hole[0] == no_card) continue;
        for (hole) |card| {
            if (card >= encoding.card_count or seen >> @intCast(card) & 1 == 1) return .{ .fault = .cards, .where = card };
            seen |= @as(u64, 1) << @intCast(card);
        }
    }
    return .{};
}

/// The chips the action puts in (bet + these is its recorded amount for CALL, RAISE and
/// ALL_IN), before it is applied.
pub fn chips_put(table: *const Table, kind: u8, amount: u32) u32 {
    const seat = table.actor;
    const record = play.action_record(table, .{ .kind = kind, .amount = amount });
    return if (kind >= rules.Kind.call) record.amount - table.bet[seat] else 0;
}

/// Applies the next recorded action, or says why it cannot be.
pub fn step(replay: *Replay) Problem {
    assert(replay.next < replay.actions.len);
    const at = replay.next;
    const action = replay.actions[at];
    const table = &replay.table;
    if (replay.over()) return .{ .fault = .over, .where = at };
    if (action.seat != table.actor) return .{ .fault = .actor, .where = at, .detail = table.actor };
    if (action.street != table.street) return .{ .fault = .street, .where = at, .detail = table.street };
    const refusal = rules.check(table, action.kind, action.amount);
    const last = at + 1 == replay.actions.len;
    if (refusal == .unknown_card_at_showdown and last) {
        // A replayed hand whose showdown needs cards it does not know: it ends here.
        replay.next += 1;
        table.actor = no_seat;
        table.street = table_zig.Street.over;
        replay.shown = replay.record.board_count;
        return .{};
    }
    if (refusal != .none) return .{ .fault = .illegal, .where = at, .detail = @backingInt(refusal) };
    const expected = play.action_record(table, .{ .kind = action.kind, .amount = action.amount });
    if (expected.amount != action.amount) return .{ .fault = .amount, .where = at };
    rules.apply(table, action.kind, action.amount, &replay.settlement);
    replay.next += 1;
    replay.shown = if (table.street == table_zig.Street.over) replay.settlement.board_count else table_zig.board_shown[table.street];
    if (replay.shown > replay.record.board_count) return .{ .fault = .board, .where = at };
    if (replay.next == replay.actions.len) return finish(replay);
    return .{};
}

/// After the last action: the hand must be over with the board the record holds.
fn finish(replay: *const Replay) Problem {
    const at: u32 = @intCast(replay.actions.len);
    if (!replay.over()) return .{ .fault = .short, .where = at };
    if (replay.shown != replay.record.board_count) return .{ .fault = .board, .where = at };
    return .{};
}

/// Replays a whole hand: the first problem, or none.
pub fn check_hand(record: *const HandRecord, actions: []const ActionRecord) Problem {
    var replay: Replay = undefined;
    const started = start(&replay, record, actions);
    if (started.fault != .none) return started;
    if (actions.len == 0) return if (replay.over()) .{} else .{ .fault = .short };
    while (replay.next < actions.len) {
        const problem = step(&replay);
        if (problem.fault != .none) return problem;
    }
    return .{};
}

test "reader replay: every hand the agents play replays, and a changed action is caught" {
    const registry = @import("../arena/agents/registry.zig");
    const seating_zig = @import("../arena/agents/seating.zig");
    var config = std.mem.zeroes(deal.Config);
    config.seats = 6;
    config.small_blind = 1;
    config.big_blind = 2;
    config.seed = 5;
    for (config.stacks[0..6]) |*stack| stack.* = 200;
    var tables: [4]Table = undefined;
    for (&tables, 0..) |*table, t| deal.start_hand(table, &config, @intCast(t), 0, .first);
    var lineup: [table_zig.seats_max]@import("../arena/agents/policy.zig").Agent = undefined;
    for (&lineup) |*agent| agent.* = .{ .kind = registry.Kind.equity, .tightness = 0.1, .aggression = 0.5, .bet = 0.75, .raise = 1, .temperature = 0.1 };
    var seating: seating_zig.Seating = .{ .lineup = &lineup };
    var hands: [400]HandRecord = undefined;
    var actions: [400 * 40]ActionRecord = undefined;
    var recorder: play.Recorder = .{ .hands = &hands, .actions = &actions };
    var left: [4]u32 = @splat(100);
    _ = play.play_seated(&seating, &tables, &config, &left, &recorder, null, null);
    try std.testing.expectEqual(@as(usize, 400), recorder.hands_used);
    for (hands[0..recorder.hands_used]) |*hand| {
        const mine = actions[hand.action_first..][0..hand.action_count];
        try std.testing.expectEqual(Fault.none, check_hand(hand, mine).fault);
    }
    // A call turned into a check is refused where it happens.
    const hand = &hands[0];
    var changed: [64]ActionRecord = undefined;
    @memcpy(changed[0..hand.action_count], actions[hand.action_first..][0..hand.action_count]);
    changed[0].kind = rules.Kind.check;
    changed[0].amount = 0;
    const problem = check_hand(hand, changed[0..hand.action_count]);
    try std.testing.expectEqual(Fault.illegal, problem.fault);
    try std.testing.expectEqual(@as(u32, 0), problem.where);
    // A hand cut short.
    try std.testing.expectEqual(Fault.short, check_hand(hand, actions[hand.action_first..][0 .. hand.action_count - 1]).fault);
}
