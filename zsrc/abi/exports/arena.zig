//! Exports of the no-limit hold'em arena (zsrc/arena/): dealing, observing and stepping
//! batches of tables, and native play with the reference random player.
//!
//! Tables live in the caller's memory (`pp_table[n]`, Python's structured array). Every
//! export checks the config and each table's invariants before it touches any, and `step`
//! checks every action of the batch before it applies one: a failure changes nothing.
const std = @import("std");
const assert = std.debug.assert;
const table_zig = @import("../../arena/table.zig");
const rules = @import("../../arena/rules.zig");
const deal = @import("../../arena/deal.zig");
const play = @import("../../arena/play.zig");
const random_player = @import("../../arena/random_player.zig");
const reports = @import("../status.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const Status = reports.Status;
const Error = reports.Error;
const Table = table_zig.Table;
const Config = deal.Config;

/// The first table (or config: row -1) whose state the rules cannot play, as `bad_argument`.
/// `full`: chips conserved too (a state from outside); else the facts that keep indexes in
/// bounds (an arena's own tables, which only the rules change).
fn check_tables(config: *const Config, tables: []const Table, full: bool, err: ?*Error) Status {
    assert(tables.len > 0); // an empty batch is answered before
    if (!config.valid()) return report(err, -1, 0, 0, .bad_argument);
    for (tables, 0..) |*table, t| {
        const fine = if (full) table.valid() else table.well_formed();
        if (table.seats != config.seats or !fine) return report(err, @intCast(t), 0, 0, .bad_argument);
    }
    return .ok;
}

fn report(err: ?*Error, row: i64, card: i32, position: i32, kind: HandError.Kind) Status {
    assert(row >= -1); // a table, or -1 for the config
    return reports.report_hand_error(err, .at(row, kind, card, position));
}

pub const api = struct {
    /// Deals hand `first_hand` at each of `n` tables, numbered `first_table + i` (their
    /// cards' rows), from the config alone; plays on until a seat must act.
    pub fn pp_arena_start(
        config: ?*const Config,
        tables: ?[*]Table,
        n: u64,
        first_table: u32,
        first_hand: u32,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        if (!c.valid()) return .bad_argument;
        if (n == 0) return .ok;
        if (n > @as(u64, std.math.maxInt(u32)) + 1 - first_table) return .bad_argument;
        const t = tables orelse return .null_pointer;
        var winnings: [table_zig.seats_max]i64 = undefined;
        for (t[0..n], 0..) |*table, i| {
            deal.start_hand(table, c, first_table + @as(u32, @intCast(i)), first_hand, .first);
            _ = play.advance(table, c, winnings[0..c.seats]);
        }
        // Dealt tables are what the rules take (the first and the last: the batch's ends).
        assert(t[0].valid() and t[n - 1].valid());
        return .ok;
    }

    /// Whether the config and each of `n` tables are ones the rules can play: on the first
    /// that is not, `bad_argument` with its index in `err.row` (-1: the config).
    pub fn pp_arena_check(
        config: ?*const Config,
        tables: ?[*]const Table,
        n: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        if (n == 0) return if (c.valid()) .ok else .bad_argument;
        return check_tables(c, (tables orelse return .null_pointer)[0..n], true, err);
    }

    /// What each of `n` tables shows the seat to act, one row a table: `actor` (-1: none),
    /// `street`, `pot` (every chip in the middle: antes and bets of all streets),
    /// `to_call`, `min_to` / `max_to` (0 when no raise is legal), `legal[n][5]` (1 where the
    /// kind is legal), `board[n][5]` (cards not yet shown 0xFF) and `hole[n][2]` (the
    /// actor's; 0xFF when none).
    pub fn pp_arena_observe(
        tables: ?[*]const Table,
        n: u64,
        actor: ?[*]i8,
        street: ?[*]u8,
        pot: ?[*]i64,
        to_call: ?[*]i64,
        min_to: ?[*]i64,
        max_to: ?[*]i64,
        legal: ?[*]u8,
        board: ?[*]u8,
        hole: ?[*]u8,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const t = tables orelse return .null_pointer;
        const outs = .{ actor, street, pot, to_call, min_to, max_to, legal, board, hole };
        inline for (outs) |out| if (out == null) return .null_pointer;
        for (t[0..n], 0..) |*table, i| {
            if (!table.well_formed()) return .bad_argument;
            const options = rules.legal(table);
            actor.?[i] = if (table.actor == table_zig.no_seat) -1 else @intCast(table.actor);
            street.?[i] = table.street;
            var chips: u64 = table.antes;
            for (table.committed) |c| chips += c;
            pot.?[i] = @intCast(chips);
            to_call.?[i] = options.to_call;
            min_to.?[i] = options.min_to;
            max_to.?[i] = options.max_to;
            for (0..rules.Kind.count) |k| legal.?[i * 5 + k] = @intFromBool(options.allows(@intCast(k)));
            const shown = table_zig.board_shown[table.street];
            for (0..5) |c| board.?[i * 5 + c] = if (c < shown) table.board[c] else table_zig.no_card;
            const cards = if (table.actor == table_zig.no_seat)
                [2]u8{ table_zig.no_card, table_zig.no_card }
            else
                table.hole[table.actor];
            hole.?[i * 2 ..][0..2].* = cards;
        }
        assert(street.?[0] < table_zig.Street.count and street.?[n - 1] < table_zig.Street.count);
        return .ok;
    }

    /// One action at each of `n` tables: `kinds[i]` (FOLD .. ALL_IN) with `amounts[i]` (a
    /// RAISE's total bet on the street; ignored otherwise). Every action is checked first:
    /// on the first illegal one nothing changes and `illegal_action` names its table in
    /// `row`, why (a `pp_refusal`) in `card` and its kind in `position`. Then each is
    /// applied; a finished hand is paid and the next dealt, `finished[i]` = the hands that
    /// finished (0 or 1, more only when hands without a decision followed) and
    /// `winnings[i][seats]` their net chips per seat.
    pub fn pp_arena_step(
        config: ?*const Config,
        tables: ?[*]Table,
        n: u64,
        kinds: ?[*]const u8,
        amounts: ?[*]const i64,
        finished: ?[*]u8,
        winnings: ?[*]i64,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        if (n == 0) return if (c.valid()) .ok else .bad_argument;
        const t = (tables orelse return .null_pointer)[0..n];
        const k = kinds orelse return .null_pointer;
        const a = amounts orelse return .null_pointer;
        const f = finished orelse return .null_pointer;
        const w = winnings orelse return .null_pointer;
        const checked = check_tables(c, t, false, err);
        if (checked != .ok) return checked;
        for (t, 0..) |*table, i| {
            const why = rules.check(table, k[i], clamped(a[i]));
            if (why != .none) return report(err, @intCast(i), @backingInt(why), k[i], .illegal_action);
        }
        const seats = c.seats;
        for (t, 0..) |*table, i| {
            const row = w[i * seats ..][0..seats];
            @memset(row, 0);
            rules.apply(table, k[i], clamped(a[i]), null);
            f[i] = @intCast(@min(play.advance(table, c, row), 255));
        }
        // The rules keep a well-formed table so (the batch's ends checked).
        assert(t[0].well_formed() and t[n - 1].well_formed());
        return .ok;
    }

    /// Abandons the hand in progress at each of `n` tables and deals the table's next hand
    /// from `stacks[n][seats]` (0: the seat sits out; any amounts, short of the blinds too;
    /// two seats or more with chips, at most PP_ARENA_CHIPS_MAX in all) with the button on
    /// `buttons[i]` (or the next seat with chips): hands to replay. Checked whole first: a
    /// bad row is `bad_argument` with its index in `err.row`, and nothing changes. Then as
    /// `step`: a hand without a decision is played out, `finished` and `winnings` say so.
    pub fn pp_arena_deal(
        config: ?*const Config,
        tables: ?[*]Table,
        n: u64,
        stacks: ?[*]const u32,
        buttons: ?[*]const u8,
        finished: ?[*]u8,
        winnings: ?[*]i64,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        if (n == 0) return if (c.valid()) .ok else .bad_argument;
        const t = (tables orelse return .null_pointer)[0..n];
        const s = stacks orelse return .null_pointer;
        const b = buttons orelse return .null_pointer;
        const f = finished orelse return .null_pointer;
        const w = winnings orelse return .null_pointer;
        const checked = check_tables(c, t, false, err);
        if (checked != .ok) return checked;
        const seats = c.seats;
        for (0..n) |i| {
            var total: u64 = 0;
            var with_chips: u32 = 0;
            for (s[i * seats ..][0..seats]) |chips| {
                total += chips;
                with_chips += @intFromBool(chips > 0);
            }
            if (b[i] >= seats or with_chips < 2 or total > table_zig.chips_max) {
                return report(err, @intCast(i), 0, 0, .bad_argument);
            }
        }
        for (t, 0..) |*table, i| {
            table.stack = @splat(0);
            @memcpy(table.stack[0..seats], s[i * seats ..][0..seats]);
            table.button = b[i];
            deal.start_hand(table, c, table.table, table.hand +% 1, .given);
            const row = w[i * seats ..][0..seats];
            @memset(row, 0);
            f[i] = @intCast(@min(play.advance(table, c, row), 255));
        }
        assert(t[0].well_formed() and t[n - 1].well_formed());
        return .ok;
    }

    /// The reference random player's three words for decision `decision` (counted from 0
    /// in the hand) of hand `hand` at table `table` under `seed`, into `out[3]`: for other
    /// engines to play the same player (random_player.zig defines its use of them).
    pub fn pp_arena_random_words(seed: u64, table: u32, hand: u32, decision: u16, out: ?[*]u64) callconv(.c) Status {
        const o = out orelse return .null_pointer;
        o[0..3].* = random_player.words(deal.player_key(seed), table, hand, decision);
        return .ok;
    }

    /// Plays `hands_left[i]` more hands at each of `n` tables with the reference random
    /// player at every seat, counting them down. With `hand_capacity` > 0 each finished
    /// hand is recorded into `hands` and its actions into `actions` (`action_first`
    /// counted from `actions_before`); `*hands_used` / `*actions_used` say how many.
    /// `*outcome`: 0 done, 1 cancelled (`*cancel` became non-zero), 2 a buffer is full:
    /// flush it and call again with the same tables and counts to go on. `*progress` (if
    /// given) grows by the hands played, as they are played.
    pub fn pp_arena_play(
        config: ?*const Config,
        tables: ?[*]Table,
        n: u64,
        hands_left: ?[*]u32,
        io: ?*play.Io,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        const record = io orelse return .null_pointer;
        record.finish(null, .done);
        if (n == 0) return if (c.valid()) .ok else .bad_argument;
        const t = (tables orelse return .null_pointer)[0..n];
        const left = (hands_left orelse return .null_pointer)[0..n];
        const checked = check_tables(c, t, false, null);
        if (checked != .ok) return checked;
        assert(c.valid() and t[0].seats == c.seats);
        var opened = record.recorder() catch return .null_pointer;
        const recorder: ?*play.Recorder = if (opened) |*r| r else null;
        record.finish(recorder, play.play_tables(t, c, left, recorder, record.cancel, record.progress));
        return .ok;
    }
};

/// An amount as the rules take it: one outside 0 .. 2^32-1 is refused as the nearest is
/// (no raise is to 0 or to 2^32-1: a table holds fewer chips).
fn clamped(amount: i64) u32 {
    return @intCast(std.math.clamp(amount, 0, std.math.maxInt(u32)));
}

test "pp_arena_step: a batch with an illegal action changes no table" {
    var config = std.mem.zeroes(Config);
    config.seats = 6;
    config.small_blind = 1;
    config.big_blind = 2;
    for (config.stacks[0..6]) |*stack| stack.* = 200;
    var tables: [3]Table = undefined;
    try std.testing.expectEqual(Status.ok, api.pp_arena_start(&config, &tables, 3, 0, 0));
    const before = tables;
    const kinds = [3]u8{ rules.Kind.call, rules.Kind.raise, rules.Kind.check };
    const amounts = [3]i64{ 0, 3, 0 }; // a raise to 3 is under the minimum, 4
    var finished: [3]u8 = undefined;
    var winnings: [18]i64 = undefined;
    var err: Error = undefined;
    const status = api.pp_arena_step(&config, &tables, 3, &kinds, &amounts, &finished, &winnings, &err);
    try std.testing.expectEqual(Status.illegal_action, status);
    try std.testing.expectEqual(@as(u64, 1), err.row);
    try std.testing.expectEqual(@as(i32, @backingInt(rules.Refusal.raise_below_min)), err.card);
    try std.testing.expect(std.mem.eql(u8, std.mem.asBytes(&before), std.mem.asBytes(&tables)));
    // The same batch with a legal raise goes through.
    const legal_amounts = [3]i64{ 0, 4, 0 };
    const calls = [3]u8{ rules.Kind.call, rules.Kind.raise, rules.Kind.call };
    try std.testing.expectEqual(Status.ok, api.pp_arena_step(&config, &tables, 3, &calls, &legal_amounts, &finished, &winnings, &err));
    try std.testing.expectEqual(@as(u32, 4), tables[1].current_bet);
}
