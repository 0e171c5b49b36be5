//! Omaha rows ranked sixteen at a time (one player a row, the batch `pp.rank_omaha` case),
//! for the vector CPU levels. omaha/rank.zig ranks a row at a time: about 150 scalar operations
//! (the board's values sorted, its flush suit found, the hole's pairs numbered), where the
//! work per row that must stay scalar is one table load per hole pair. Here everything but
//! those loads runs on sixteen rows at once, in 16-bit lanes:
//! - the block's cards are one load each for boards and holes, spread into a vector per
//!   card place by a shuffle (VPERMB/VPERMI2B on AVX-512 VBMI);
//! - each board's row (omaha/boards.zig) from its values sorted by a min/max network and
//!   numbered colexicographically in arithmetic;
//! - flushes by suit counts: the usual two hole cards and three board cards of one suit are
//!   looked up like the pairs; the rare rest (more than two of the suit in the hole, or more
//!   than three on the board: 1-2% of random rows) is returned for omaha/rank.zig to settle;
//! - a row is bad when its card set, OR-ed in 64-bit lanes, lacks a card or a card is 52+.
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const board_tables = @import("boards.zig");
const gathers = @import("../rank/gather.zig");
const eight_low = @import("low.zig");

/// Whether this build's CPU level runs the vector path (the avx2 and avx512 objects).
pub const available = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx2);
pub const lanes = 16;

const Words = @Vector(lanes, u16);
const Indices = @Vector(lanes, u32);
const Sets = @Vector(lanes, u64);
const values = board_tables.values;

/// A block ranked: every lane's best hand, but for the lanes in `rare`, whose flushes
/// omaha/rank.zig settles from their patterns of the board's flush suit.
pub const Block = struct {
    bad: bool,
    rare: u16,
    hole_patterns: [lanes]u16,
    board_patterns: [lanes]u16,
};

/// Byte `place` of each of `lanes` rows of `width` bytes, widened.
inline fn column(comptime width: u32, block: *const [lanes * width]u8, comptime place: u32) Words {
    const mask = comptime m: {
        var m: [lanes]i32 = undefined;
        for (&m, 0..) |*x, i| x.* = i * width + place;
        break :m m;
    };
    const bytes: @Vector(lanes * width, u8) = block.*;
    return @shuffle(u8, bytes, undefined, mask);
}

inline fn both(a: @Vector(lanes, bool), b: @Vector(lanes, bool)) @Vector(lanes, bool) {
    return @select(bool, a, b, splat(@Vector(lanes, bool), false));
}

inline fn splat(comptime T: type, x: anytype) T {
    return @splat(x);
}

/// C(a + i, i + 1) * pair_count, lane by lane: `colex_starts` of omaha/boards.zig.
inline fn colex_term(comptime i: u32, a: Words) Indices {
    const x: Indices = a;
    var product: Indices = x;
    inline for (1..i + 1) |j| product *= x + splat(Indices, j);
    const factorial = comptime f: {
        var f = 1;
        for (1..i + 2) |j| f *= j;
        break :f f;
    };
    return @divExact(product, splat(Indices, factorial)) * splat(Indices, board_tables.pair_count);
}

/// Where each lane's board row starts in `board_tables.ranks(b)` (`board_tables.row`).
inline fn board_rows(comptime b: u32, v: *[b]Words) Indices {
    const network: []const [2]u8 = switch (b) {
        3 => &.{ .{ 0, 1 }, .{ 1, 2 }, .{ 0, 1 } },
        4 => &.{ .{ 0, 1 }, .{ 2, 3 }, .{ 0, 2 }, .{ 1, 3 }, .{ 1, 2 } },
        5 => &.{ .{ 0, 1 }, .{ 3, 4 }, .{ 2, 4 }, .{ 2, 3 }, .{ 0, 3 }, .{ 0, 2 }, .{ 1, 4 }, .{ 1, 3 }, .{ 1, 2 } },
        else => unreachable,
    };
    inline for (network) |e| {
        const low = @min(v[e[0]], v[e[1]]);
        v[e[1]] = @max(v[e[0]], v[e[1]]);
        v[e[0]] = low;
    }
    var start: Indices = @splat(0);
    inline for (0..b) |i| start += colex_term(i, v[i]);
    return start;
}

/// The pattern (a bit per value) and count of the cards of suit `suit` in each lane.
inline fn suit_cards(suits: []const Words, vals: []const Words, suit: Words) struct { Words, Words } {
    var pattern: Words = @splat(0);
    var count: Words = @splat(0);
    for (suits, vals) |s, v| {
        const match = s == suit;
        pattern |= @select(u16, match, splat(Words, 1) << @intCast(v), splat(Words, 0));
        count += @select(u16, match, splat(Words, 1), splat(Words, 0));
    }
    return .{ pattern, count };
}

comptime {
    std.debug.assert(lanes == 16); // `rare` is a lane mask of 16 bits
}

/// Each lane's low (omaha/low.zig) from its cards' values, board first: the low ranks of
/// board and hole, a mask each, then one load a row.
inline fn rank_lows(comptime b: u32, vals: []const Words, lows: *[lanes]u16) void {
    var board_low: Words = @splat(0);
    var hole_low: Words = @splat(0);
    for (vals[0..b]) |v| board_low |= eight_low.lane_bits(Words, v);
    for (vals[b..]) |v| hole_low |= eight_low.lane_bits(Words, v);
    const slots: [lanes]u16 = (hole_low << @splat(8)) | board_low;
    inline for (slots, lows) |slot, *l| l.* = eight_low.of_slot(slot);
}

/// Ranks `lanes` rows of one player: boards `b` cards a row, holes `k`, into `out`; with
/// `with_low` (hi-lo) each row's low (omaha/low.zig) into `lows` too, from the same values.
pub fn rank_block(
    comptime with_low: bool,
    comptime b: u32,
    comptime k: u32,
    boards: *const [lanes * b]u8,
    holes: *const [lanes * k]u8,
    out: *[lanes]u16,
    lows: *[lanes]u16,
) Block {
    var cards: [b + k]Words = undefined;
    inline for (0..b) |i| cards[i] = column(b, boards, i);
    inline for (0..k) |i| cards[b + i] = column(k, holes, i);
    var set: Sets = @splat(0);
    var top: Words = @splat(0);
    var vals: [b + k]Words = undefined;
    var suits: [b + k]Words = undefined;
    inline for (cards, 0..) |c, i| {
        set |= splat(Sets, 1) << @as(@Vector(lanes, u6), @truncate(c));
        top = @max(top, c);
        suits[i] = c / splat(Words, values);
        vals[i] = c - suits[i] * splat(Words, values);
    }
    const bad = @reduce(.Or, @popCount(set) != splat(@Vector(lanes, u7), b + k)) or
        @reduce(.Max, top) >= encoding.card_count;

    // The board's flush suit: the one with three or more (four when none does, matching no
    // card); its pattern and count.
    var flush_suit: Words = @splat(encoding.suit_count);
    inline for (0..encoding.suit_count) |suit| {
        _, const count = suit_cards(suits[0..b], vals[0..b], @splat(suit));
        flush_suit = @select(u16, count >= splat(Words, 3), splat(Words, suit), flush_suit);
    }
    const board_pattern, const board_count = suit_cards(suits[0..b], vals[0..b], flush_suit);
    const hole_pattern, const hole_count = suit_cards(suits[b..], vals[b..], flush_suit);
    const usual = both(hole_count == splat(Words, 2), board_count == splat(Words, 3));
    const flush = both(hole_count >= splat(Words, 2), board_count >= splat(Words, 3));
    const rare: u16 = @as(u16, @bitCast(flush)) & ~@as(u16, @bitCast(usual));

    var board_vals: [b]Words = vals[0..b].*;
    const rows = board_rows(b, &board_vals);
    // Every pair's place in its row: 13 lo - lo (lo - 1) / 2 + hi - lo, as omaha/rank.zig's
    // `pair_numbers` counts them (lo <= hi).
    const pairs = comptime board_tables.subsets(k, 2);
    var indices: [pairs.len][lanes]u32 = undefined;
    inline for (pairs, 0..) |pair, p| {
        const lo = @min(vals[b + pair[0]], vals[b + pair[1]]);
        const hi = @max(vals[b + pair[0]], vals[b + pair[1]]);
        const number = lo * splat(Words, values - 1) - (lo * (lo -| splat(Words, 1))) / splat(Words, 2) + hi;
        indices[p] = rows + @as(Indices, number);
    }
    if (with_low) rank_lows(b, &vals, lows);
    const flush_slots: [lanes]u16 = @select(u16, usual, hole_pattern | board_pattern, splat(Words, 0));
    const table = board_tables.ranks(b);
    // Eight rows a gather (VPGATHERDD): on the Xeon below, 11.1 ns a PLO4 row against 22.0
    // loading each rank with a scalar load (paired runs, one thread).
    inline for (0..lanes / gathers.lanes) |h| {
        var best: gathers.V = undefined;
        // Slot 0, no usual flush, ranks 0 (eval's flush table holds 0 below five values).
        inline for (0..gathers.lanes) |i| {
            best[i] = eval.rank_flush_pattern(@intCast(flush_slots[h * gathers.lanes + i]));
        }
        inline for (&indices) |column_| {
            best = @max(best, gathers.gather16(table, column_[h * gathers.lanes ..][0..gathers.lanes].*));
        }
        out[h * gathers.lanes ..][0..gathers.lanes].* = @as(@Vector(gathers.lanes, u16), @truncate(best));
    }
    return .{ .bad = bad, .rare = rare, .hole_patterns = hole_pattern, .board_patterns = board_pattern };
}
