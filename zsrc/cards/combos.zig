//! Two-card combos: the 1,326 hole-card pairs, numbered the way `pp.COMBOS` lists them.
//!
//! Combo `i` holds cards `first[i] < second[i]`, in lexicographic order: (0, 1), (0, 2), …,
//! (0, 51), (1, 2), …, (50, 51). Ranges cross the C ABI as one weight per combo in this order.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("encoding.zig");
const bits = @import("bits.zig");

pub const count = encoding.card_count * (encoding.card_count - 1) / 2;
/// `index[a][b]` for a pair of distinct cards (either order); `none` on the diagonal.
pub const none: u16 = std.math.maxInt(u16);

pub const first: [count]u8 = cards(0);
pub const second: [count]u8 = cards(1);

fn cards(comptime which: usize) [count]u8 {
    @setEvalBranchQuota(20_000);
    assert(which < 2);
    var out: [count]u8 = undefined;
    var i: usize = 0;
    for (0..encoding.card_count) |a| {
        for (a + 1..encoding.card_count) |b| {
            out[i] = if (which == 0) a else b;
            i += 1;
        }
    }
    assert(i == count);
    return out;
}

pub const index: [encoding.card_count][encoding.card_count]u16 = table: {
    @setEvalBranchQuota(20_000);
    var out: [encoding.card_count][encoding.card_count]u16 = @splat(@splat(none));
    for (0..count) |i| {
        out[first[i]][second[i]] = i;
        out[second[i]][first[i]] = i;
    }
    break :table out;
};

comptime {
    // C(52, 2), numbered in `u16` with `none` left over.
    assert(count == 1326);
    assert(count < none);
    // Pair of `first`/`second` and `index`: each combo's cards number it back.
    @setEvalBranchQuota(40_000);
    for (0..count) |i| {
        assert(first[i] < second[i]);
        assert(index[first[i]][second[i]] == i);
    }
    for (0..encoding.card_count) |c| assert(index[c][c] == none);
}

/// `index` by arithmetic, lane by lane, for vectors of distinct cards in either order:
/// the combos of lower card `low` start at `low * 51 - low * (low - 1) / 2`.
pub inline fn index_lanes(comptime lanes: usize, a: @Vector(lanes, u8), b: @Vector(lanes, u8)) @Vector(lanes, u16) {
    const V = @Vector(lanes, u16);
    const low: V = @min(a, b);
    const high: V = @max(a, b);
    return ((low * (@as(V, @splat(2 * encoding.card_count - 1)) - low)) >> @splat(1)) + high - low - @as(V, @splat(1));
}

/// `index_lanes` as its low and high bytes, which is how rows of combos are put together
/// byte by byte (`equity_sample.deal_random_rows`). On 64 lanes with byte permutes (the
/// avx512 level's VBMI) the start of the lower card's combos is two table lookups, its two
/// bytes, and the higher card is added with the carry found by a compare: no lane widened
/// to 16 bits and back (about 30 operations a player for 64 games on 512-bit vectors,
/// where this takes seven). The avx2 level's 32 lanes do the same, each lookup four
/// `vpshufb` (`start_byte`).
pub inline fn index_bytes(comptime lanes: usize, a: @Vector(lanes, u8), b: @Vector(lanes, u8)) struct {
    low: @Vector(lanes, u8),
    high: @Vector(lanes, u8),
} {
    const V = @Vector(lanes, u8);
    if (comptime by_start_bytes(lanes)) {
        const low_card = @min(a, b);
        const high_card = @max(a, b);
        const low = start_byte(lanes, 0, low_card) +% high_card;
        const carry = low < high_card;
        const high = start_byte(lanes, 1, low_card) +% @select(u8, carry, @as(V, @splat(1)), @as(V, @splat(0)));
        return .{ .low = low, .high = high };
    }
    const combo = index_lanes(lanes, a, b);
    return .{ .low = @truncate(combo), .high = @truncate(combo >> @splat(8)) };
}

/// Whether `index_bytes` on `lanes` lanes looks the lower card's start up by bytes: on 64
/// lanes with VBMI (`vpermb`) and on the avx2 level's 32 (four `vpshufb`, `lookup32`), with
/// no lane widened to 16 bits and packed back.
fn by_start_bytes(comptime lanes: usize) bool {
    return (lanes == 64 and bits.has_vbmi) or (lanes == 32 and bits.has_avx2_only);
}

/// Byte `k` of the start of each lane's lower card, by the level's byte lookup.
inline fn start_byte(comptime lanes: usize, comptime k: usize, low_card: @Vector(lanes, u8)) @Vector(lanes, u8) {
    comptime assert(by_start_bytes(lanes));
    return if (lanes == 64) bits.lookup64(start_bytes[k], low_card) else bits.lookup32(start_chunks[k], low_card);
}

/// `start_bytes` as `lookup32` reads them.
const start_chunks: [2][4]@Vector(32, u8) = .{ bits.chunks32(start_bytes[0]), bits.chunks32(start_bytes[1]) };

/// `start_bytes[k][c]`: byte k of the number that, with the higher card added, is the
/// combo of lower card c (`index_lanes`' formula less the higher card, modulo 2^16).
const start_bytes: [2]@Vector(64, u8) = table: {
    var out: [2][64]u8 = @splat(@splat(0));
    for (0..encoding.card_count) |c| {
        const start: u16 = @truncate((c * (2 * encoding.card_count - 1 - c)) / 2 -% c -% 1);
        out[0][c] = @truncate(start);
        out[1][c] = @truncate(start >> 8);
    }
    break :table .{ out[0], out[1] };
};

test "index_bytes: the table's combo for every pair, either order, on every width" {
    inline for (.{ 1, 8, 32, 64 }) |lanes| {
        for (0..encoding.card_count) |a| {
            for (0..encoding.card_count) |b| {
                if (a == b) continue;
                var first_cards: [lanes]u8 = @splat(@intCast(a));
                var second_cards: [lanes]u8 = @splat(@intCast(b));
                // Half the lanes in the other order.
                for (0..lanes / 2) |l| std.mem.swap(u8, &first_cards[l], &second_cards[l]);
                const got = index_bytes(lanes, first_cards, second_cards);
                const low: [lanes]u8 = got.low;
                const high: [lanes]u8 = got.high;
                for (low, high) |lo, hi| try std.testing.expectEqual(index[a][b], @as(u16, hi) << 8 | lo);
            }
        }
    }
}

test "index_lanes: the table's combo for every pair, either order" {
    for (0..encoding.card_count) |a| {
        for (0..encoding.card_count) |b| {
            if (a == b) continue;
            const got = index_lanes(2, .{ @intCast(a), @intCast(b) }, .{ @intCast(b), @intCast(a) });
            try std.testing.expectEqual(index[a][b], got[0]);
            try std.testing.expectEqual(index[a][b], got[1]);
        }
    }
}

/// The combo's two cards as a card set.
pub inline fn set(combo: u16) u64 {
    assert(combo < count);
    return sets[combo];
}

/// The combo's two cards as the two bytes of a word, the lower card first: how a player's
/// hole cards lie in a row of hands.
pub inline fn hole_word(combo: u16) u16 {
    assert(combo < count);
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
pub inline fn accumulator(combo: u16) encoding.Accumulator {
    assert(combo < count);
    var hand: encoding.Accumulator = .empty;
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
