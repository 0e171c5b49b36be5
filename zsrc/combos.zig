//! Two-card combos: the 1,326 hole-card pairs, numbered the way `pp.COMBOS` lists them.
//!
//! Combo `i` holds cards `first[i] < second[i]`, in lexicographic order: (0, 1), (0, 2), …,
//! (0, 51), (1, 2), …, (50, 51). Ranges cross the C ABI as one weight per combo in this order.
const std = @import("std");
const eval = @import("eval.zig");

pub const count = eval.card_count * (eval.card_count - 1) / 2;
/// `index[a][b]` for a pair of distinct cards (either order); `none` on the diagonal.
pub const none: u16 = std.math.maxInt(u16);

pub const first: [count]u8 = cards(0);
pub const second: [count]u8 = cards(1);

fn cards(comptime which: usize) [count]u8 {
    @setEvalBranchQuota(20_000);
    var out: [count]u8 = undefined;
    var i: usize = 0;
    for (0..eval.card_count) |a| {
        for (a + 1..eval.card_count) |b| {
            out[i] = if (which == 0) a else b;
            i += 1;
        }
    }
    return out;
}

pub const index: [eval.card_count][eval.card_count]u16 = table: {
    @setEvalBranchQuota(20_000);
    var out: [eval.card_count][eval.card_count]u16 = @splat(@splat(none));
    for (0..count) |i| {
        out[first[i]][second[i]] = i;
        out[second[i]][first[i]] = i;
    }
    break :table out;
};

/// `index` by arithmetic, lane by lane, for vectors of distinct cards in either order:
/// the combos of lower card `low` start at `low * 51 - low * (low - 1) / 2`.
pub inline fn index_lanes(comptime lanes: usize, a: @Vector(lanes, u8), b: @Vector(lanes, u8)) @Vector(lanes, u16) {
    const V = @Vector(lanes, u16);
    const low: V = @min(a, b);
    const high: V = @max(a, b);
    return ((low * (@as(V, @splat(2 * eval.card_count - 1)) - low)) >> @splat(1)) + high - low - @as(V, @splat(1));
}

test "index_lanes: the table's combo for every pair, either order" {
    for (0..eval.card_count) |a| {
        for (0..eval.card_count) |b| {
            if (a == b) continue;
            const got = index_lanes(2, .{ @intCast(a), @intCast(b) }, .{ @intCast(b), @intCast(a) });
            try std.testing.expectEqual(index[a][b], got[0]);
            try std.testing.expectEqual(index[a][b], got[1]);
        }
    }
}

/// The combo's two cards as a card set.
pub inline fn set(combo: u16) u64 {
    return sets[combo];
}

/// The combo's two cards as the two bytes of a word, the lower card first: how a player's
/// hole cards lie in a row of hands.
pub inline fn hole_word(combo: u16) u16 {
    return hole_words[combo];
}

// Tables, not arithmetic: where games are dealt from a table of deals, a player's cards are
// a load each rather than two byte loads and two shifts.
const sets: [count]u64 = table: {
    @setEvalBranchQuota(20_000);
    var out: [count]u64 = undefined;
    for (&out, first, second) |*s, a, b| s.* = (@as(u64, 1) << a) | (@as(u64, 1) << b);
    break :table out;
};
const hole_words: [count]u16 = table: {
    @setEvalBranchQuota(20_000);
    var out: [count]u16 = undefined;
    for (&out, first, second) |*w, a, b| w.* = a | @as(u16, b) << 8;
    break :table out;
};

/// The combo's two cards as an accumulator.
pub inline fn accumulator(combo: u16) eval.Accumulator {
    var hand: eval.Accumulator = .empty;
    hand.add(first[combo]);
    hand.add(second[combo]);
    return hand;
}

test "combos: 1,326 pairs, numbered in order, index and cards agree" {
    try std.testing.expectEqual(@as(usize, 1326), count);
    try std.testing.expectEqual(@as(u16, 0), index[0][1]);
    try std.testing.expectEqual(@as(u16, 50), index[0][51]);
    try std.testing.expectEqual(@as(u16, 51), index[2][1]);
    try std.testing.expectEqual(@as(u16, count - 1), index[50][51]);
    for (0..count) |i| {
        try std.testing.expect(first[i] < second[i]);
        try std.testing.expectEqual(@as(u16, @intCast(i)), index[first[i]][second[i]]);
        try std.testing.expectEqual(@as(u32, 2), @popCount(set(@intCast(i))));
    }
}
