//! The likelihood of a recorded action for every combo the actor might hold: the probability
//! its native agent plays that action (the kind, and for a RAISE that amount) at that state
//! holding the combo, as the agent's own policy gives it (arena/agents/policy.zig). The
//! agents' policies depend on the combo only through its class preflop (equity: the class's
//! EHS; chart: its top share) and its HS after the flop (equity), so each is asked once per
//! class (169) or once per live combo with strengths found in bulk (strengths.zig): the
//! numbers are the ones the agent drew its action from.
const std = @import("std");
const table_zig = @import("../arena/table.zig");
const rules = @import("../arena/rules.zig");
const combos = @import("../cards/combos.zig");
const policy_zig = @import("../arena/agents/policy.zig");
const registry = @import("../arena/agents/registry.zig");
const agents_strength = @import("../arena/agents/strength.zig");
const equity = @import("../arena/agents/equity.zig");
const chart = @import("../arena/agents/chart.zig");
const Strengths = @import("strengths.zig").Strengths;
const Table = table_zig.Table;
const Agent = policy_zig.Agent;
const Policy = policy_zig.Policy;
const Spot = policy_zig.Spot;
const Kind = rules.Kind;
const assert = std.debug.assert;

pub const Likelihoods = [combos.count]f64;

/// Each combo's starting-hand class, 0..168 (row * 13 + column of strength.zig's chart).
const class_of: [combos.count]u8 = table: {
    @setEvalBranchQuota(100_000);
    var out: [combos.count]u8 = undefined;
    for (&out, 0..) |*class, c| {
        const rc = agents_strength.class_of(c);
        class.* = rc[0] * 13 + rc[1];
        assert(class.* < 169); // the preflop classes `likelihoods` caches by
    }
    break :table out;
};

/// The probability `policy` gives the action (`kind`, and `amount` for a RAISE).
pub fn chance(policy: Policy, spot: Spot, kind: u8, amount: u32) f64 {
    if (kind >= Kind.count) return 0;
    const p = policy.prob[kind];
    if (kind != Kind.raise or p == 0) return p;
    if (policy.raise_uniform) {
        const low = spot.legal.min_to;
        const high = spot.legal.max_to;
        if (amount < low or amount > high) return 0;
        return p / @as(f64, @floatFromInt(high - low + 1));
    }
    return if (amount == policy.raise_to) p else 0;
}

/// `out[c]` = P(the action | the actor holds combo c) under `agent`, for the table's seat to
/// act; combos that meet the board shown get 0. `strengths` must hold the board's HS after
/// the flop (`Strengths.rank`).
pub fn likelihoods(agent: Agent, table: *const Table, kind: u8, amount: u32, strengths: *const Strengths, out: *Likelihoods) void {
    assert(table.actor != table_zig.no_seat);
    const spot = policy_zig.spot_of(table);
    const preflop = spot.street == table_zig.Street.preflop;
    if (agent.kind == registry.Kind.equity and !preflop) {
        assert(strengths.board == spot.board);
        var by_value: [combos.count]f64 = undefined;
        for (strengths.unique[0..strengths.unique_count], 0..) |e, u| {
            by_value[u] = chance(equity.policy_at(agent, spot, e), spot, kind, amount);
        }
        for (out, 0..) |*l, c| {
            l.* = if (combos.set(@intCast(c)) & spot.board != 0) 0 else by_value[strengths.slot[c]];
        }
        return;
    }
    if (preflop and (agent.kind == registry.Kind.equity or agent.kind == registry.Kind.chart)) {
        var by_class: [169]f64 = undefined;
        var done: [169]bool = @splat(false);
        for (out, 0..) |*l, c| {
            const class = class_of[c];
            if (!done[class]) {
                const combo: u16 = @intCast(c);
                const policy = if (agent.kind == registry.Kind.equity)
                    equity.policy_at(agent, spot, agents_strength.preflop_ehs(combo))
                else
                    chart.policy_at(agent, spot, agents_strength.preflop_top(combo));
                by_class[class] = chance(policy, spot, kind, amount);
                done[class] = true;
            }
            l.* = by_class[class];
        }
        return;
    }
    // Every other policy is the same for all cards.
    var unused: agents_strength.Board = .{};
    const constant = chance(registry.policy(agent, spot, first_live(spot.board), &unused), spot, kind, amount);
    for (out, 0..) |*l, c| l.* = if (combos.set(@intCast(c)) & spot.board != 0) 0 else constant;
}

fn first_live(board: u64) u16 {
    for (0..combos.count) |c| if (combos.set(@intCast(c)) & board == 0) return @intCast(c);
    unreachable;
}

test "reader likelihood: every combo's chance is its own policy's" {
    const deal = @import("../arena/deal.zig");
    var config = std.mem.zeroes(deal.Config);
    config.seats = 3;
    config.small_blind = 1;
    config.big_blind = 2;
    for (config.stacks[0..3]) |*stack| stack.* = 100;
    var table: Table = undefined;
    deal.start_hand(&table, &config, 0, 4, .first);
    rules.apply(&table, Kind.call, 0, null);
    rules.apply(&table, Kind.call, 0, null);
    rules.apply(&table, Kind.check, 0, null); // the flop
    var strengths: Strengths = .{};
    const spot = policy_zig.spot_of(&table);
    strengths.rank(spot.board);
    var board: agents_strength.Board = .{};
    var out: Likelihoods = undefined;
    for ([_]u8{ registry.Kind.equity, registry.Kind.chart, registry.Kind.random, registry.Kind.raise }) |kind| {
        const agent: Agent = .{ .kind = kind, .tightness = 0.2, .aggression = 0.6, .bet = 0.5, .raise = 1, .temperature = 0.1 };
        for ([_]u8{ Kind.check, Kind.raise }) |action| {
            const amount: u32 = if (action == Kind.raise) policy_zig.sizing(agent, spot) else 0;
            likelihoods(agent, &table, action, amount, &strengths, &out);
            for (0..combos.count) |c| {
                const combo: u16 = @intCast(c);
                if (combos.set(combo) & spot.board != 0) continue;
                const policy = registry.policy(agent, spot, combo, &board);
                try std.testing.expectEqual(chance(policy, spot, action, amount), out[c]);
            }
        }
    }
}
