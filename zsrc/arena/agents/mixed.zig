//! Native and caller (Python) agents at one table: `run` plays every table natively until
//! its seat to act is `external` or its hands are done, and applies the caller's answers
//! for the tables that waited. The caller answers all waiting tables of one agent with one
//! call of that agent, then runs again (pypoker/arena/agents.py).
//!
//! A table at rest always has a seat to act (hands without a decision are played out as
//! soon as they are dealt: play.advance), so "waiting" is a property of the table's state
//! plus the lineup, and a run changes nothing for a table whose hands are done.
const std = @import("std");
const table_zig = @import("../table.zig");
const rules = @import("../rules.zig");
const play = @import("../play.zig");
const deal = @import("../deal.zig");
const seating_zig = @import("seating.zig");
const Table = table_zig.Table;
const Config = deal.Config;
const Seating = seating_zig.Seating;
const no_seat = table_zig.no_seat;
const assert = std.debug.assert;

/// The first answer the rules refuse: its table and why; `.none` when all are legal.
pub const Refused = struct { row: usize = 0, why: rules.Refusal = .none };

/// Checks the answers of the waiting tables (`waiting[t] == 1`); changes nothing.
pub fn check_answers(tables: []const Table, waiting: []const u8, kinds: []const u8, amounts: []const i64) Refused {
    for (tables, waiting, kinds, amounts, 0..) |*table, wait, kind, amount, t| {
        if (wait == 0) continue;
        const why = rules.check(table, kind, clamp(amount));
        if (why != .none) return .{ .row = t, .why = why };
    }
    return .{};
}

/// Applies the checked answers of the waiting tables, then plays every table natively
/// until it waits again (`waiting[t] = 1`) or its `hands_left[t]` are done. Returns the
/// hands finished. `cancel` is read between tables and every `play.poll_hands` hands.
pub fn run(
    seating: *Seating,
    tables: []Table,
    config: *const Config,
    hands_left: []u32,
    waiting: []u8,
    kinds: []const u8,
    amounts: []const i64,
    cancel: ?*const u32,
) u64 {
    const key = deal.player_key(config.seed);
    var finished: u64 = 0;
    for (tables, hands_left, waiting, kinds, amounts) |*table, *left, *wait, kind, amount| {
        if (cancel) |flag| if (@atomicLoad(u32, flag, .monotonic) != 0) break;
        if (wait.* == 1) {
            wait.* = 0;
            rules.apply(table, kind, clamp(amount), null);
            finished += settle(seating, table, config, left);
        }
        while (left.* > 0) {
            if (seating.external(table)) {
                wait.* = 1;
                break;
            }
            const action = seating.choose(table, key);
            rules.apply(table, action.kind, action.amount, null);
            finished += settle(seating, table, config, left);
            if (finished % play.poll_hands == 0) if (cancel) |flag| if (@atomicLoad(u32, flag, .monotonic) != 0) break;
        }
    }
    return finished;
}

/// After an action: when the hand ended, reports it, deals the next (playing out hands
/// without a decision) and counts it down. Returns the hands finished.
fn settle(seating: *Seating, table: *Table, config: *const Config, left: *u32) u32 {
    if (table.actor != no_seat) return 0;
    // With no seat to act after an action the rules have played the hand to its end.
    assert(table.street == table_zig.Street.over);
    var finished: u32 = 0;
    while (table.actor == no_seat) {
        seating.finished(table);
        finished += 1;
        const start: deal.Start = if (finished > play.decisionless_max) .rebuy else .next;
        deal.start_hand(table, config, table.table, table.hand +% 1, start);
        seating.dealt(table);
        if (table.actor == no_seat) {
            const paid = rules.end_round(table, null);
            assert(paid);
        }
    }
    left.* -|= finished;
    return finished;
}

/// An answer's amount as the rules take it: one outside 0 .. 2^32-1 is refused as the
/// nearest is (capi/arena.zig's `clamped`).
pub fn clamp(amount: i64) u32 {
    return @intCast(std.math.clamp(amount, 0, std.math.maxInt(u32)));
}
