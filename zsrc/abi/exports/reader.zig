//! Exports of the Range Reader (zsrc/reader/): examples from recorded hands, and the exact
//! posterior over a read seat's 1,326 combos.
//!
//! Hands cross as the arena records them (`pp_hand_record[n]`, `pp_action_record[]`), each
//! hand's actions at `action_first` in the action array given. A hand that cannot be read
//! is `bad_argument` with its row in `err.row`, the `pp_reader_fault` in `err.card` and
//! the action (or seat) at fault in `err.position`.
const std = @import("std");
const table_zig = @import("../../arena/table.zig");
const play = @import("../../arena/play.zig");
const replay_zig = @import("../../reader/replay.zig");
const examples_zig = @import("../../reader/examples.zig");
const posterior_zig = @import("../../reader/posterior.zig");
const combos = @import("../../cards/combos.zig");
const Population = @import("../../arena/agents/population.zig").Population;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const HandRecord = play.HandRecord;
const ActionRecord = play.ActionRecord;
const Example = examples_zig.Example;
const seats_max = table_zig.seats_max;

fn report(err: ?*Error, row: u64, problem: replay_zig.Problem) Status {
    return reports.report_hand_error(err, problem.at(row));
}

/// The hand's actions, or null when they lie outside the array.
fn actions_of(hand: *const HandRecord, actions: [*]const ActionRecord, n_actions: u64) ?[]const ActionRecord {
    if (hand.action_first > n_actions or hand.action_count > n_actions - hand.action_first) return null;
    return actions[hand.action_first..][0..hand.action_count];
}

/// The seats to read: `read_seat` (checked against the hand) or all.
fn read_mask(hand: *const HandRecord, read_seat: u8) union(enum) { mask: u16, problem: replay_zig.Problem } {
    if (read_seat == examples_zig.none) return .{ .mask = std.math.maxInt(u16) };
    if (read_seat >= hand.seats or read_seat >= seats_max or hand.start[read_seat] == 0) return .{ .problem = .{ .fault = .seat, .where = read_seat } };
    return .{ .mask = @as(u16, 1) << @intCast(read_seat) };
}

fn walk(hands: [*]const HandRecord, i: u64, actions: [*]const ActionRecord, n_actions: u64, styles: ?[*]const u8, read_seat: u8, out: []Example, err: ?*Error) union(enum) { count: u32, status: Status } {
    const hand = &hands[i];
    const mine = actions_of(hand, actions, n_actions) orelse return .{ .status = report(err, i, .{ .fault = .actions }) };
    const mask = switch (read_mask(hand, read_seat)) {
        .mask => |m| m,
        .problem => |p| return .{ .status = report(err, i, p) },
    };
    const options: examples_zig.Options = .{
        .hand_row = @intCast(i),
        .styles = if (styles) |s| s[i * seats_max ..][0..seats_max] else null,
        .read = mask,
    };
    return switch (examples_zig.walk_hand(hand, mine, options, out)) {
        .count => |c| .{ .count = c },
        .problem => |p| .{ .status = report(err, i, p) },
    };
}

pub const api = struct {
    /// Replays each of `n` hands and counts its examples into `counts[n]` (reading every
    /// seat, or only `read_seat` when it is not 0xFF); the first hand that cannot be read
    /// is `bad_argument` (see above).
    pub fn pp_reader_count(
        hands: ?[*]const HandRecord,
        n: u64,
        actions: ?[*]const ActionRecord,
        n_actions: u64,
        read_seat: u8,
        counts: ?[*]u32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const h = hands orelse return .null_pointer;
        const a = actions orelse return .null_pointer;
        const c = counts orelse return .null_pointer;
        for (0..n) |i| {
            switch (walk(h, i, a, n_actions, null, read_seat, &.{}, err)) {
                .count => |count| c[i] = count,
                .status => |status| return status,
            }
        }
        return .ok;
    }

    /// The examples of each of `n` hands into `out`: hand i's `counts[i]` examples (as
    /// `pp_reader_count` gave them) from `offsets[i]`, `hand_row` = `first_row + i`.
    /// `styles[n][PP_ARENA_SEATS_MAX]` (or null: unknown) gives each seat's style.
    pub fn pp_reader_examples(
        hands: ?[*]const HandRecord,
        n: u64,
        actions: ?[*]const ActionRecord,
        n_actions: u64,
        styles: ?[*]const u8,
        read_seat: u8,
        offsets: ?[*]const u64,
        counts: ?[*]const u32,
        first_row: u32,
        out: ?[*]Example,
        capacity: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const h = hands orelse return .null_pointer;
        const a = actions orelse return .null_pointer;
        const o = offsets orelse return .null_pointer;
        const c = counts orelse return .null_pointer;
        const e = out orelse return .null_pointer;
        for (0..n) |i| {
            if (c[i] == 0) continue;
            if (o[i] > capacity or c[i] > capacity - o[i]) return .bad_argument;
            const rows = e[o[i]..][0..c[i]];
            switch (walk(h, i, a, n_actions, styles, read_seat, rows, err)) {
                .count => |count| if (count != c[i]) return .bad_argument,
                .status => |status| return status,
            }
            for (rows) |*row| row.hand_row = first_row + @as(u32, @intCast(i));
        }
        return .ok;
    }

    /// The exact posterior (reader/posterior.zig) of each of `n` examples into
    /// `out[n][1326]`, for hands played by `population` (styles `known` from
    /// `styles[n_hands][PP_ARENA_SEATS_MAX]`, or hidden: mixed by its weights). An example
    /// that cannot be read is `bad_argument` with its index in `err.row`, the
    /// `pp_reader_fault` in `err.card` and the action or seat in `err.position`; `*cancel`
    /// becoming non-zero stops it between hands (`out` then holds what was done).
    pub fn pp_reader_posterior(
        hands: ?[*]const HandRecord,
        n_hands: u64,
        actions: ?[*]const ActionRecord,
        n_actions: u64,
        styles: ?[*]const u8,
        population: ?*const Population,
        known: u8,
        examples: ?[*]const Example,
        n: u64,
        out: ?[*]f64,
        cancel: ?*const u32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const h = hands orelse return .null_pointer;
        const a = actions orelse return .null_pointer;
        const p = population orelse return .null_pointer;
        const e = examples orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        if (p.fault().fault != .none) return .bad_argument;
        const scratch = std.heap.page_allocator.create(posterior_zig.Scratch) catch return .out_of_memory;
        defer std.heap.page_allocator.destroy(scratch);
        const input: posterior_zig.Input = .{
            .hands = h[0..n_hands],
            .actions = a[0..n_actions],
            .styles = if (styles) |s| s[0 .. n_hands * seats_max] else null,
            .population = p,
            .known = known != 0,
        };
        const failed = posterior_zig.run(input, e[0..n], o[0 .. n * combos.count], scratch, cancel) orelse return .ok;
        return reports.report_hand_error(err, failed);
    }
};
