//! A population: native agent styles dealt to the seats, a fresh draw for every seat of
//! every hand. Seat s of hand h at table t plays style
//!   k = the first k with u < w_0 + ... + w_k  (weights normalised to sum 1),
//!   u = (mix64(hand_key + (s + 1) * golden_gamma) >> 11) * 2^-53,
//!   hand_key = mix64(population_key(seed) + ((t << 32) | h) * golden_gamma)
//! so a seat's style is a pure function of (seed, table, hand, seat), like the cards, and
//! the Range Reader can say which style played each seat of a recorded hand
//! (`pp_population_styles`) without the history holding it.
const std = @import("std");
const random = @import("../../cards/random.zig");
const policy_zig = @import("policy.zig");
const registry = @import("registry.zig");
const Agent = policy_zig.Agent;
const assert = std.debug.assert;

/// The most styles a population holds.
pub const styles_max = 16;
/// A style index that names none (a seat not dealt, or a history without styles).
pub const no_style: u8 = 0xFF;

pub const Population = extern struct {
    agents: [styles_max]Agent,
    /// Each style's share of the seats (any non-negative numbers, not all 0).
    weights: [styles_max]f64,
    count: u8,
    pad: [7]u8 = @splat(0),

    pub const c_name = "pp_population";

    /// Whether every style is an agent the arena can play natively and the weights make
    /// a distribution: `.none`, else the first bad style's fault (`row` its index).
    pub fn fault(population: *const Population) struct { row: u8, fault: registry.Fault } {
        if (population.count == 0 or population.count > styles_max) return .{ .row = 0, .fault = .kind };
        var total: f64 = 0;
        for (population.agents[0..population.count], population.weights[0..population.count], 0..) |agent, weight, k| {
            const f = registry.fault(agent);
            if (f != .none or agent.kind == registry.Kind.external) return .{ .row = @intCast(k), .fault = if (f == .none) .kind else f };
            if (!(weight >= 0) or weight > 1e300) return .{ .row = @intCast(k), .fault = .weight };
            total += weight;
        }
        if (!(total > 0)) return .{ .row = 0, .fault = .weight };
        return .{ .row = 0, .fault = .none };
    }

    /// The style of `seat` in hand `hand` of table `table_number`.
    pub fn style(population: *const Population, key: u64, table_number: u32, hand: u32, seat: u8) u8 {
        assert(population.count >= 1 and population.count <= styles_max);
        const hand_row = @as(u64, table_number) << 32 | hand;
        const hand_key = random.mix64(key +% hand_row *% random.golden_gamma);
        const word = random.mix64(hand_key +% (@as(u64, seat) + 1) *% random.golden_gamma);
        var total: f64 = 0;
        for (population.weights[0..population.count]) |w| total += w;
        const u = @as(f64, @floatFromInt(word >> 11)) * 0x1.0p-53 * total;
        var sum: f64 = 0;
        var last: u8 = 0;
        for (population.weights[0..population.count], 0..) |w, k| {
            if (w <= 0) continue;
            last = @intCast(k);
            sum += w;
            if (u < sum) break;
        }
        assert(population.weights[last] > 0);
        return last;
    }
};

comptime {
    assert(@sizeOf(Population) == styles_max * (@sizeOf(Agent) + 8) + 8);
}

/// The key of a seed's style draws: distinct from its cards' and its decisions' keys
/// (deal.zig's `cards_key`, `player_key`).
pub fn population_key(seed: u64) u64 {
    return random.mix64(random.seed_key(seed) ^ 0xa2e4_a5ca_4d5c_0003);
}

test "population: styles follow the weights, and a zero weight is never dealt" {
    var population: Population = .{ .agents = undefined, .weights = @splat(0), .count = 3 };
    for (&population.agents) |*agent| agent.* = .{ .kind = registry.Kind.equity, .tightness = 0.2, .aggression = 0.5, .bet = 0.75, .raise = 1, .temperature = 0.1 };
    population.weights[0..3].* = .{ 1, 0, 3 };
    try std.testing.expectEqual(registry.Fault.none, population.fault().fault);
    var counts: [3]u32 = @splat(0);
    const key = population_key(7);
    for (0..4000) |h| for (0..6) |s| {
        counts[population.style(key, 1, @intCast(h), @intCast(s))] += 1;
    };
    try std.testing.expectEqual(@as(u32, 0), counts[1]);
    try std.testing.expect(counts[2] > 2 * counts[0] and counts[2] < 4 * counts[0]);
    // The same seat of the same hand: the same style.
    try std.testing.expectEqual(population.style(key, 3, 9, 2), population.style(key, 3, 9, 2));
    population.weights[0..3].* = .{ 0, 0, 0 };
    try std.testing.expectEqual(registry.Fault.weight, population.fault().fault);
}
