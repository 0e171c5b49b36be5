//! Playing hands natively: the reference random player at every seat of many tables, hand
//! after hand, optionally recorded into caller buffers (hand and action records); and the
//! bookkeeping `step` shares with it (finishing a hand, dealing the next).
//!
//! A long run answers Ctrl-C: the caller's `cancel` word is read every `poll_hands` hands
//! (about a millisecond of play), and `progress` counts the hands played, for the caller to
//! poll from another thread.
const std = @import("std");
const table_zig = @import("table.zig");
const rules = @import("rules.zig");
const pots = @import("pots.zig");
const deal = @import("deal.zig");
const random_player = @import("random_player.zig");
const Seating = @import("agents/seating.zig").Seating;
const Table = table_zig.Table;
const Config = deal.Config;
const seats_max = table_zig.seats_max;
const no_seat = table_zig.no_seat;
const assert = std.debug.assert;

/// One finished hand, as the history's row holds it (`pypoker/arena/history.py`).
pub const HandRecord = extern struct {
    /// This hand's actions: `action_count` records from `action_first` in the action buffer
    /// (counted over the whole run, across buffer flushes).
    action_first: u64,
    table: u32,
    hand: u32,
    small_blind: u32,
    big_blind: u32,
    ante: u32,
    straddle: u32,
    start: [seats_max]u32,
    /// Net chips of the hand per seat: end - start.
    winnings: [seats_max]i32,
    /// The pots, main first, after uncalled bets went back; `pot_count` of them.
    pots: [seats_max]u32,
    action_count: u32,
    pot_winners: [seats_max]u16,
    /// Seats that showed their cards at a showdown.
    showed: u16,
    hole: [seats_max][2]u8,
    /// Cards dealt (`board_count` of them); the rest `no_card`.
    board: [5]u8,
    board_count: u8,
    seats: u8,
    button: u8,
    bb_ante: u8,
    pot_count: u8,

    pub const c_name = "pp_hand_record";
};

/// One action. `amount`: for CALL, RAISE and ALL_IN the seat's total bet on the street
/// after it; 0 for FOLD and CHECK. Forced bets are not actions.
pub const ActionRecord = extern struct {
    seat: u8,
    street: u8,
    kind: u8,
    pad: u8 = 0,
    amount: u32,

    pub const c_name = "pp_action_record";
};

comptime {
    assert(@sizeOf(HandRecord) == 208);
    assert(@sizeOf(ActionRecord) == 8);
}

/// Hands played between reads of the cancel word (and progress updates).
pub const poll_hands = 1024;
/// Hands in a row without a decision after which a table rebuys (so `advance` is bounded;
/// only carried short stacks make such hands).
pub const decisionless_max = 64;

/// The caller's buffers, filled from `hands_used` / `actions_used` on.
pub const Recorder = struct {
    hands: []HandRecord,
    actions: []ActionRecord,
    hands_used: usize = 0,
    actions_used: usize = 0,
    /// Actions recorded before this buffer (so `action_first` counts over the run).
    actions_before: u64 = 0,
};

/// One play call's records and reports, as the C ABI passes them (`pp_play_io`): the
/// caller's record buffers (recording when `hand_capacity > 0`: then `hands` must be there,
/// and `actions` when `action_capacity > 0`), the cancel word and progress counter the call
/// polls, and what the call writes back (records used, its `Outcome`). One struct, so the
/// three play exports do not each spell ten parameters.
pub const Io = extern struct {
    hands: ?[*]HandRecord,
    hand_capacity: u64,
    actions: ?[*]ActionRecord,
    action_capacity: u64,
    /// Actions recorded before this buffer (so `action_first` counts over the run).
    actions_before: u64,
    /// Written: the records filled.
    hands_used: u64,
    actions_used: u64,
    /// Read every `poll_hands` hands a table: non-zero stops the call.
    cancel: ?*const u32,
    /// Grows by the hands played, as they are played.
    progress: ?*u64,
    /// Written: an `Outcome`.
    outcome: u32,

    pub const c_name = "pp_play_io";

    /// The recorder over the buffers; null when not recording. A buffer with a capacity but
    /// no address is `error.NullPointer`.
    pub fn recorder(io: *const Io) error{NullPointer}!?Recorder {
        if (io.hand_capacity == 0) return null;
        const hands = io.hands orelse return error.NullPointer;
        const actions: []ActionRecord = if (io.action_capacity == 0) &.{} else (io.actions orelse return error.NullPointer)[0..io.action_capacity];
        return .{ .hands = hands[0..io.hand_capacity], .actions = actions, .actions_before = io.actions_before };
    }

    /// Writes back how the play ended and how much of the buffers it filled.
    pub fn finish(io: *Io, filled: ?*const Recorder, outcome: Outcome) void {
        if (filled) |r| {
            assert(r.hands_used <= r.hands.len);
            assert(r.actions_used <= r.actions.len);
        } else assert(outcome != .buffer_full); // no buffer, nothing to fill
        io.hands_used = if (filled) |r| r.hands_used else 0;
        io.actions_used = if (filled) |r| r.actions_used else 0;
        io.outcome = @backingInt(outcome);
    }
};

pub const Outcome = enum(u32) { done = 0, cancelled = 1, buffer_full = 2 };

/// Deals the table's next hand, or a rebuy after `decisionless_max` hands without one.
fn next_hand(table: *Table, config: *const Config, decisionless: u32) void {
    const start: deal.Start = if (decisionless >= decisionless_max) .rebuy else .next;
    deal.start_hand(table, config, table.table, table.hand +% 1, start);
}

/// Plays on a table no seat can act at: hands without decisions are played out and the next
/// dealt, until a seat must act. Adds each finished hand's net chips to `winnings` and
/// returns how many finished.
pub fn advance(table: *Table, config: *const Config, winnings: []i64) u32 {
    assert(winnings.len == config.seats);
    var finished: u32 = 0;
    while (table.actor == no_seat) {
        if (table.street != table_zig.Street.over) {
            const paid = rules.end_round(table, null);
            assert(paid);
        }
        for (winnings, table.stack[0..config.seats], table.start[0..config.seats]) |*net, end, start| {
            net.* += @as(i64, end) - start;
        }
        next_hand(table, config, finished);
        finished += 1;
        assert(finished <= decisionless_max + 1);
    }
    return finished;
}

/// Plays `hands_left[t]` more hands at each table with the random player (counting them
/// down), recording them when `recorder` is given. Returns early when `cancel` is set or a
/// buffer is full; the tables and counts then say how far each got, and a call with the
/// same arguments goes on (a hand is only ever recorded whole).
pub fn play_tables(
    tables: []Table,
    config: *const Config,
    hands_left: []u32,
    recorder: ?*Recorder,
    cancel: ?*const u32,
    progress: ?*u64,
) Outcome {
    var seating: Seating = .{};
    return play_seated(&seating, tables, config, hands_left, recorder, cancel, progress);
}

/// `play_tables` with the seats played as `seating` says (agents/seating.zig: native agents
/// per seat; none of them external) and each finished hand reported to it.
pub fn play_seated(
    seating: *Seating,
    tables: []Table,
    config: *const Config,
    hands_left: []u32,
    recorder: ?*Recorder,
    cancel: ?*const u32,
    progress: ?*u64,
) Outcome {
    assert(tables.len == hands_left.len);
    const key = deal.player_key(config.seed);
    for (tables, hands_left) |*table, *left| {
        while (left.* > 0) {
            if (cancel) |flag| if (@atomicLoad(u32, flag, .monotonic) != 0) return .cancelled;
            const batch = @min(left.*, poll_hands);
            const played = play_hands(seating, table, config, key, batch, recorder);
            left.* -= played;
            if (progress) |counter| _ = @atomicRmw(u64, counter, .Add, played, .monotonic);
            if (played < batch) return .buffer_full;
        }
    }
    return .done;
}

/// Plays up to `count` hands at one table; fewer when the recorder fills (the hand that
/// did not fit is not played).
fn play_hands(seating: *Seating, table: *Table, config: *const Config, key: u64, count: u32, recorder: ?*Recorder) u32 {
    var decisionless: u32 = 0;
    for (0..count) |played| {
        if (recorder) |r| if (r.hands_used == r.hands.len) return @intCast(played);
        const saved = table.*;
        const actions_used = if (recorder) |r| r.actions_used else 0;
        const acted = play_hand(seating, table, key, recorder) orelse {
            // The action buffer filled mid-hand: the hand is played again after a flush.
            table.* = saved;
            recorder.?.actions_used = actions_used;
            return @intCast(played);
        };
        decisionless = if (acted) 0 else decisionless + 1;
        seating.finished(table);
        next_hand(table, config, decisionless);
        seating.dealt(table);
    }
    return count;
}

/// Plays the table's hand to its end; records it when `recorder` is given. Returns whether
/// any seat acted, or null when the recorder's actions ran out (the table is then mid-hand).
fn play_hand(seating: *Seating, table: *Table, key: u64, recorder: ?*Recorder) ?bool {
    var record: HandRecord = undefined;
    if (recorder) |r| begin_record(&record, table, r);
    var settlement: pots.Settlement = .{};
    const first_decision = table.decision;
    while (table.street != table_zig.Street.over) {
        if (table.actor == no_seat) {
            const paid = rules.end_round(table, &settlement);
            assert(paid);
            break;
        }
        const action = seating.choose(table, key);
        if (recorder) |r| {
            if (r.actions_used == r.actions.len) return null;
            r.actions[r.actions_used] = action_record(table, action);
            r.actions_used += 1;
        }
        rules.apply(table, action.kind, action.amount, &settlement);
    }
    if (recorder) |r| end_record(&record, table, &settlement, r);
    return table.decision != first_decision;
}

/// The record of `action` by the seat to act, before it is applied.
pub fn action_record(table: *const Table, action: random_player.Action) ActionRecord {
    const seat = table.actor;
    const bet = table.bet[seat];
    const stack = table.stack[seat];
    return .{
        .seat = seat,
        .street = table.street,
        .kind = action.kind,
        .amount = switch (action.kind) {
            rules.Kind.call => bet + @min(stack, table.current_bet - bet),
            rules.Kind.raise => action.amount,
            rules.Kind.all_in => bet + stack,
            else => 0,
        },
    };
}

fn begin_record(record: *HandRecord, table: *const Table, recorder: *const Recorder) void {
    record.* = .{
        .action_first = recorder.actions_before + recorder.actions_used,
        .table = table.table,
        .hand = table.hand,
        .small_blind = table.small_blind,
        .big_blind = table.big_blind,
        .ante = table.ante,
        .straddle = table.straddle,
        .start = table.start,
        .winnings = @splat(0),
        .pots = @splat(0),
        .action_count = 0,
        .pot_winners = @splat(0),
        .showed = 0,
        .hole = table.hole,
        .board = table.board,
        .board_count = 0,
        .seats = table.seats,
        .button = table.button,
        .bb_ante = table.bb_ante,
        .pot_count = 0,
    };
}

fn end_record(record: *HandRecord, table: *const Table, settlement: *const pots.Settlement, recorder: *Recorder) void {
    assert(table.street == table_zig.Street.over);
    record.action_count = @intCast(recorder.actions_before + recorder.actions_used - record.action_first);
    for (0..seats_max) |seat| {
        record.winnings[seat] = @intCast(@as(i64, table.stack[seat]) - table.start[seat]);
    }
    record.pots = settlement.amounts;
    record.pot_winners = settlement.winners;
    record.pot_count = settlement.count;
    record.showed = settlement.showed;
    record.board_count = settlement.board_count;
    for (record.board[settlement.board_count..]) |*card| card.* = table_zig.no_card;
    recorder.hands[recorder.hands_used] = record.*;
    recorder.hands_used += 1;
}

test "Io: no capacity records nothing; a capacity without an address is refused" {
    var hands: [2]HandRecord = undefined;
    var io = std.mem.zeroes(Io);
    try std.testing.expectEqual(@as(?Recorder, null), try io.recorder());
    io.finish(null, .done);
    try std.testing.expectEqual([3]u64{ 0, 0, 0 }, [3]u64{ io.hands_used, io.actions_used, io.outcome });
    io.hands = &hands;
    io.hand_capacity = 2;
    io.action_capacity = 4;
    try std.testing.expectError(error.NullPointer, io.recorder());
    io.action_capacity = 0;
    io.actions_before = 7;
    var opened = (try io.recorder()).?;
    try std.testing.expectEqual(@as(usize, 2), opened.hands.len);
    try std.testing.expectEqual(@as(u64, 7), opened.actions_before);
    opened.hands_used = 1;
    io.finish(&opened, .cancelled);
    try std.testing.expectEqual([3]u64{ 1, 0, 1 }, [3]u64{ io.hands_used, io.actions_used, io.outcome });
}
