//! The Range Reader's examples: one per (hand, read seat, moment the read can change), each
//! what a spectator sees at that moment, in a fixed-size record (`Example`, NumPy's
//! `pypoker.reader.EXAMPLE_DTYPE`), labelled with the read seat's two cards.
//!
//! Moments of a seat: right after each of its own actions (the fold too), and right after
//! each street's board cards come (flop, turn, river) while it is still in the hand (all in
//! or not). A seat whose cards the record does not know is not read. In a hand, examples
//! come in the order the moments happen: after action i, first its actor's, then those of
//! any board cards it brought, street by street, seat by seat.
//!
//! Chips are in big blinds; seats are by position: 0 acts first after the flop (the small
//! blind; heads-up the big blind), the button last (`seats - 1`), counting dealt seats only.
//! The state after an action is the engine's (bets gathered and an uncalled bet returned
//! once the street ended); after the hand's last action, before the pots are paid.
const std = @import("std");
const table_zig = @import("../arena/table.zig");
const rules = @import("../arena/rules.zig");
const play = @import("../arena/play.zig");
const combos = @import("../cards/combos.zig");
const replay_zig = @import("replay.zig");
const Table = table_zig.Table;
const HandRecord = play.HandRecord;
const ActionRecord = play.ActionRecord;
const Replay = replay_zig.Replay;
const Problem = replay_zig.Problem;
const seats_max = table_zig.seats_max;
const no_card = table_zig.no_card;
const assert = std.debug.assert;

/// Public actions an example keeps: the last `actions_max` of the hand so far.
pub const actions_max = 32;
/// Padding and "none" in every byte field.
pub const none: u8 = 0xFF;

pub const Moment = struct {
    /// After the read seat's own action.
    pub const action: u8 = 0;
    /// After board cards came.
    pub const board: u8 = 1;
};

pub const Example = extern struct {
    /// The hand: `(table << 32) | hand`, and its row in the batch it was read from.
    hand_id: u64,
    hand_row: u32,
    /// Public actions of the hand so far (all of them, past `actions_max` too).
    actions_seen: u32,
    /// The read seat's cards: a combo index 0..1325 (`pp.COMBOS` order).
    label: u16,
    /// The read seat's number at the table, and its position.
    seat: u8,
    position: u8,
    /// Seats dealt into the hand.
    seats: u8,
    /// The read seat's style in the population; `none` unknown.
    style: u8,
    /// 0 preflop .. 3 river: the board shown.
    street: u8,
    moment: u8,
    /// The read seat's latest action kind so far (FOLD .. ALL_IN); `none` before its first.
    last_kind: u8,
    /// Board card ids shown; `none` past them.
    board: [5]u8,
    /// By position: 1 while the seat is in the hand (not folded), else 0.
    in_hand: [seats_max]u8,
    /// Every chip in the middle (antes and every bet), in big blinds.
    pot: f32,
    /// By position: chips behind, and chips put in this hand (antes aside), in big blinds.
    stacks: [seats_max]f32,
    committed: [seats_max]f32,
    /// The last `actions_max` public actions, oldest first, padded at the end: the actor's
    /// position, the street, the kind (`none`: padding), the actor's total bet on the street
    /// after it, the pot before it and what the actor had to call before it (big blinds).
    action_position: [actions_max]u8,
    action_street: [actions_max]u8,
    action_kind: [actions_max]u8,
    action_amount: [actions_max]f32,
    action_pot: [actions_max]f32,
    action_to_call: [actions_max]f32,

    pub const c_name = "pp_example";
};

comptime {
    assert(@sizeOf(Example) == 608);
    assert(@offsetOf(Example, "pot") == 40);
}

/// What the walk is given beside the hand.
pub const Options = struct {
    hand_row: u32,
    /// Each seat's style, or null (every style `none`).
    styles: ?*const [seats_max]u8 = null,
    /// Seats to read (bit s: seat s); seats not dealt or with unknown cards are skipped.
    read: u16 = std.math.maxInt(u16),
};

const Token = struct { position: u8, street: u8, kind: u8, amount: f32, pot: f32, to_call: f32 };

/// A hand walked moment by moment, writing its examples.
const Walk = struct {
    replay: Replay = undefined,
    options: Options,
    /// Examples written (or counted, with no `out`).
    count: u32 = 0,
    out: []Example,
    position: [seats_max]u8 = @splat(none),
    last_kind: [seats_max]u8 = @splat(none),
    tokens: [actions_max]Token = undefined,
    /// Tokens seen (the ring's next slot is `seen % actions_max`).
    seen: u32 = 0,
    big_blind: f32 = 1,

    fn readable(walk: *const Walk, seat: u8) bool {
        const record = walk.replay.record;
        return walk.options.read >> @intCast(seat) & 1 == 1 and record.start[seat] > 0 and
            record.hole[seat][0] != no_card;
    }

    fn chips(walk: *const Walk, amount: u64) f32 {
        return @as(f32, @floatFromInt(amount)) / walk.big_blind;
    }
};

/// Walks the hand: its examples into `out` (room for all of them, or empty to count them).
/// Returns the count, or the problem that stopped it.
pub fn walk_hand(record: *const HandRecord, actions: []const ActionRecord, options: Options, out: []Example) union(enum) { count: u32, problem: Problem } {
    var walk: Walk = .{ .options = options, .out = out };
    const started = replay_zig.start(&walk.replay, record, actions);
    if (started.fault != .none) return .{ .problem = started };
    walk.big_blind = @floatFromInt(record.big_blind);
    set_positions(&walk);
    if (actions.len == 0) return if (walk.replay.over()) .{ .count = 0 } else .{ .problem = .{ .fault = .short } };
    while (walk.replay.next < actions.len) {
        const table = walk.replay.table; // the state before the action
        const shown = walk.replay.shown;
        const problem = replay_zig.step(&walk.replay);
        if (problem.fault != .none) return .{ .problem = problem };
        after_action(&walk, &table, actions[walk.replay.next - 1], shown);
    }
    return .{ .count = walk.count };
}

/// Positions of the dealt seats: 0 after the button, the button last.
fn set_positions(walk: *Walk) void {
    const table = &walk.replay.table;
    var seat = table.button;
    var p: u8 = 0;
    for (0..table.seats) |_| {
        seat = table_zig.next_seat(table.dealt, seat);
        if (walk.position[seat] != none) break;
        walk.position[seat] = p;
        p += 1;
    }
    assert(walk.position[table.button] == p - 1);
}

fn after_action(walk: *Walk, before: *const Table, action: ActionRecord, shown_before: u8) void {
    const seat = action.seat;
    const put = replay_zig.chips_put(before, action.kind, action.amount);
    const legal = rules.legal(before);
    walk.tokens[walk.seen % actions_max] = .{
        .position = walk.position[seat],
        .street = action.street,
        .kind = action.kind,
        .amount = walk.chips(action.amount),
        .pot = walk.chips(pot_of(before)),
        .to_call = walk.chips(legal.to_call),
    };
    walk.seen += 1;
    walk.last_kind[seat] = action.kind;
    // The spectator's table: the engine's, or before the pots are paid at the hand's end.
    var view = walk.replay.table;
    if (walk.replay.over()) {
        view = before.*;
        view.stack[seat] -= put;
        view.committed[seat] += put;
        if (action.kind == rules.Kind.fold) view.in_hand &= ~(@as(u16, 1) << @intCast(seat));
    }
    if (walk.readable(seat)) emit(walk, &view, seat, Moment.action, shown_before);
    const shown = walk.replay.shown;
    for ([_]u8{ 3, 4, 5 }) |cards| {
        if (cards <= shown_before or cards > shown) continue;
        for (0..view.seats) |s| {
            const other: u8 = @intCast(s);
            if (view.in_hand >> @intCast(other) & 1 == 1 and walk.readable(other)) emit(walk, &view, other, Moment.board, cards);
        }
    }
}

fn pot_of(table: *const Table) u64 {
    var pot: u64 = table.antes;
    for (table.committed) |c| pot += c;
    return pot;
}

fn emit(walk: *Walk, view: *const Table, seat: u8, moment: u8, shown: u8) void {
    defer walk.count += 1;
    if (walk.out.len == 0) return;
    const record = walk.replay.record;
    const e = &walk.out[walk.count];
    const hole = record.hole[seat];
    e.* = .{
        .hand_id = @as(u64, record.table) << 32 | record.hand,
        .hand_row = walk.options.hand_row,
        .actions_seen = walk.seen,
        .label = combos.index[hole[0]][hole[1]],
        .seat = seat,
        .position = walk.position[seat],
        .seats = @popCount(view.dealt),
        .style = if (walk.options.styles) |styles| styles[seat] else none,
        .street = switch (shown) {
            0 => 0,
            3 => 1,
            4 => 2,
            else => 3,
        },
        .moment = moment,
        .last_kind = walk.last_kind[seat],
        .board = @splat(none),
        .in_hand = @splat(0),
        .pot = walk.chips(pot_of(view)),
        .stacks = @splat(0),
        .committed = @splat(0),
        .action_position = @splat(none),
        .action_street = @splat(none),
        .action_kind = @splat(none),
        .action_amount = @splat(0),
        .action_pot = @splat(0),
        .action_to_call = @splat(0),
    };
    @memcpy(e.board[0..shown], record.board[0..shown]);
    for (0..view.seats) |s| {
        const p = walk.position[s];
        if (p == none) continue;
        e.in_hand[p] = @intCast(view.in_hand >> @intCast(s) & 1);
        e.stacks[p] = walk.chips(view.stack[s]);
        e.committed[p] = walk.chips(view.committed[s]);
    }
    write_tokens(walk, e);
}

fn write_tokens(walk: *const Walk, e: *Example) void {
    const kept = @min(walk.seen, actions_max);
    for (0..kept) |i| {
        const token = walk.tokens[(walk.seen - kept + i) % actions_max];
        e.action_position[i] = token.position;
        e.action_street[i] = token.street;
        e.action_kind[i] = token.kind;
        e.action_amount[i] = token.amount;
        e.action_pot[i] = token.pot;
        e.action_to_call[i] = token.to_call;
    }
}

test "reader examples: moments of a hand, by hand" {
    // Heads-up, blinds 1/2, 100 chips each; seat 0 is the button (the small blind).
    var record = std.mem.zeroes(HandRecord);
    record.seats = 2;
    record.button = 0;
    record.small_blind = 1;
    record.big_blind = 2;
    record.start[0..2].* = .{ 100, 100 };
    record.hole[0] = .{ 12, 25 }; // As Ac
    record.hole[1] = .{ 0, 1 }; // 2s 3s
    for (record.hole[2..]) |*hole| hole.* = .{ no_card, no_card };
    record.board_count = 3;
    record.board[0..5].* = .{ 40, 41, 42, no_card, no_card };
    const actions = [_]ActionRecord{
        .{ .seat = 0, .street = 0, .kind = rules.Kind.raise, .amount = 6 },
        .{ .seat = 1, .street = 0, .kind = rules.Kind.call, .amount = 6 },
        .{ .seat = 1, .street = 1, .kind = rules.Kind.check, .amount = 0 },
        .{ .seat = 0, .street = 1, .kind = rules.Kind.raise, .amount = 8 },
        .{ .seat = 1, .street = 1, .kind = rules.Kind.fold, .amount = 0 },
    };
    var out: [16]Example = undefined;
    const counted = walk_hand(&record, &actions, .{ .hand_row = 7 }, &.{});
    try std.testing.expectEqual(@as(u32, 7), counted.count);
    const result = walk_hand(&record, &actions, .{ .hand_row = 7 }, &out);
    try std.testing.expectEqual(@as(u32, 7), result.count);
    // After the raise, the call, the flop for both (seat by seat), check, bet, fold.
    const seats = [_]u8{ 0, 1, 0, 1, 1, 0, 1 };
    const moments = [_]u8{ 0, 0, 1, 1, 0, 0, 0 };
    for (out[0..7], seats, moments) |e, seat, moment| {
        try std.testing.expectEqual(seat, e.seat);
        try std.testing.expectEqual(moment, e.moment);
        try std.testing.expectEqual(@as(u32, 7), e.hand_row);
    }
    try std.testing.expectEqual(combos.index[12][25], out[0].label);
    try std.testing.expectEqual(@as(u8, 1), out[0].position); // the button
    try std.testing.expectEqual(@as(f32, 6), out[1].pot); // 12 chips
    try std.testing.expectEqual(@as(u8, 1), out[2].street);
    try std.testing.expectEqual(@as(u8, 40), out[2].board[0]);
    try std.testing.expectEqual(@as(u8, none), out[1].board[0]);
    // The fold: the pot before the uncalled bet goes back, the folder out of the hand.
    const last = out[6];
    try std.testing.expectEqual(@as(u32, 5), last.actions_seen);
    try std.testing.expectEqual(@as(u8, rules.Kind.fold), last.last_kind);
    try std.testing.expectEqual(@as(u8, 0), last.in_hand[0]);
    try std.testing.expectEqual(@as(f32, 10), last.pot);
    try std.testing.expectEqual(@as(u8, rules.Kind.fold), last.action_kind[4]);
    try std.testing.expectEqual(@as(u8, none), last.action_kind[5]);
    try std.testing.expectEqual(@as(f32, 4), last.action_to_call[4]);
}
