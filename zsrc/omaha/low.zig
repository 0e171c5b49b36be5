//! Omaha hi-lo's low, eight or better (`plo4-8`, `plo5-8`): the ace-to-five low of exactly
//! two hole cards and three board cards, five distinct ranks of eight or lower (straights and
//! flushes do not count against it). A hand with no such five has no low.
//!
//! A low is a u16 where higher is better, as ranks are: 255 minus the mask of its five ranks,
//! ace bit 0, deuce bit 1 … eight bit 7. Two lows compare ace-to-five (the highest card first,
//! then the next…), which for two masks of five bits each is the order of the masks as numbers,
//! so the better low has the smaller mask and the larger value: 5-4-3-2-A is `best` (224),
//! 8-7-6-5-4 is `worst` (7) and `no_low` is 0, below every low.
//!
//! The low depends only on which low ranks the hole holds and which the board holds (suits
//! and pairs play no part), two 8-bit masks: `table[hole << 8 | board]` holds the best low of
//! every pair of the hole's ranks with three of the board's, built on first use (`ready`,
//! a few hundred microseconds). The best three board ranks for a pair are the three lowest
//! left once the pair's ranks are taken out: any other three is worse place by place. So a
//! hand's low costs a mask OR-ed from its cards and one load, beside the high's six to fifteen.
const std = @import("std");
const encoding = @import("../cards/encoding.zig");
const linked = @import("../rank/linked_tables.zig");
const assert = std.debug.assert;

/// No five distinct ranks of eight or lower: below every low.
pub const no_low: u16 = 0;
/// The low of five ranks (a bit each, ace bit 0 … eight bit 7).
pub fn of_mask(mask: u8) u16 {
    assert(@popCount(mask) == 5);
    return 255 - @as(u16, mask);
}
/// 5-4-3-2-A, the wheel: the best low.
pub const best: u16 = 255 - 0b0001_1111;
/// 8-7-6-5-4: the worst low that qualifies.
pub const worst: u16 = 255 - 0b1111_1000;
/// A hi-lo pot is split in this many halves, high and low (the odd chip to the high).
pub const pot_parts = 2;

comptime {
    assert(best == 224 and worst == 7 and no_low < worst and worst < best);
}

const ace = encoding.value_count - 1;

/// A card's low bit: ace bit 0, deuce bit 1 … eight bit 7; 0 for nine to king and for ids
/// 52..255 (whose rows are bad and found so by their card sets).
pub const card_bits: [256]u8 = table: {
    var t: [256]u8 = @splat(0);
    for (0..encoding.card_count) |card| {
        const value = card % encoding.value_count; // 0 deuce … 12 ace
        t[card] = if (value == ace) 1 else if (value <= 6) 2 << value else 0;
    }
    break :table t;
};

/// The low ranks among `cards` (any count), a bit each.
pub inline fn mask_of(cards: anytype) u8 {
    var mask: u8 = 0;
    inline for (0..cards.len) |i| mask |= card_bits[cards[i]];
    return mask;
}

/// `card_bits` of a lane of card ids (any value: bits past eight and ids past 51 give 0 or
/// garbage confined to rows found bad), without a table: 1 << (value + 1) keeps deuce to
/// eight in bits 1..7, and the ace's 1 << 13 folds down to bit 0.
pub inline fn lane_bits(comptime V: type, values: V) V {
    const info = @typeInfo(V).vector;
    const Shift = @Vector(info.len, std.math.Log2Int(info.child));
    const shifted = @as(V, @splat(1)) << @as(Shift, @intCast(values + @as(V, @splat(1))));
    return (shifted | (shifted >> @as(Shift, @splat(13)))) & @as(V, @splat(0xFF));
}

const entries = 1 << 16;
/// The best low of a hole's and a board's low ranks: `table[hole << 8 | board]`.
const table = linked.buffer("omaha_low", [entries]u8);
/// 1 once `table` holds its lows.
const built = linked.buffer("omaha_low_built", u32);

/// What the library's object exports for the kernel objects (see rank/linked_tables.zig).
pub const linked_tables = .{ table, built };

/// Builds the table unless built. As omaha/boards.zig's `ready`: each caller that finds it
/// unbuilt builds it itself, storing atomically, so no caller waits on another.
pub fn ready() void {
    if (@atomicLoad(u32, built, .acquire) == 1) return;
    build();
    @atomicStore(u32, built, 1, .release);
}

noinline fn build() void {
    for (0..256) |hole| for (0..256) |board| {
        const low = best_of_masks(@intCast(hole), @intCast(board));
        @atomicStore(u8, &table[hole << 8 | board], @intCast(low), .monotonic);
    };
}

/// The best low of two of `hole`'s ranks and three of `board`'s, or `no_low`.
fn best_of_masks(hole: u8, board: u8) u16 {
    var result: u16 = no_low;
    var firsts = hole;
    while (firsts != 0) : (firsts &= firsts - 1) {
        var seconds = firsts & (firsts - 1);
        while (seconds != 0) : (seconds &= seconds - 1) {
            const pair = lowest(firsts) | lowest(seconds);
            var rest = board & ~pair;
            if (@popCount(rest) < 3) continue;
            var three: u8 = 0;
            for (0..3) |_| {
                three |= lowest(rest);
                rest &= rest - 1;
            }
            result = @max(result, of_mask(pair | three));
        }
    }
    return result;
}

inline fn lowest(bits: u8) u8 {
    return bits & (~bits +% 1);
}

/// The best low of a hole whose low ranks are `hole` and a board whose are `board`. Call
/// `ready` first.
pub inline fn of_masks(hole: u8, board: u8) u16 {
    return table[@as(u32, hole) << 8 | board];
}

/// `of_masks` of `hole << 8 | board`.
pub inline fn of_slot(slot: u16) u16 {
    return table[slot];
}

/// The best low of `hole` (card ids) on `board`: `of_masks` of their masks.
pub inline fn of_cards(hole: anytype, board: anytype) u16 {
    return of_masks(mask_of(hole), mask_of(board));
}

/// The plain rule, for tests: every two of the hole and three of the board, a low when the
/// five ranks are distinct and eight or lower, the best by the ace-to-five order.
pub fn brute_force(hole: []const u8, board: []const u8) u16 {
    var result: u16 = no_low;
    for (0..hole.len) |a| for (a + 1..hole.len) |b| for (0..board.len) |c| for (c + 1..board.len) |d| for (d + 1..board.len) |e| {
        const five = [5]u8{ hole[a], hole[b], board[c], board[d], board[e] };
        var ranks: [5]u8 = undefined; // ace 1 … king 13
        for (five, &ranks) |card, *r| {
            const value = card % encoding.value_count;
            r.* = if (value == ace) 1 else @intCast(value + 2);
        }
        std.mem.sort(u8, &ranks, {}, std.sort.desc(u8));
        if (ranks[0] > 8 or has_repeat(ranks)) continue; // a straight is no matter
        // The value: 255 - mask, where the mask's order from the top is the ace-to-five order.
        var mask: u8 = 0;
        for (ranks) |r| mask |= @as(u8, 1) << @intCast(r - 1);
        result = @max(result, of_mask(mask));
    };
    return result;
}

fn has_repeat(sorted: [5]u8) bool {
    for (sorted[0..4], sorted[1..5]) |a, b| if (a == b) return true;
    return false;
}

test "omaha low: the masks' order is ace-to-five's" {
    // 7-5-4-3-2 beats 7-6-4-3-2 beats 8-4-3-2-A; the wheel is best, 8-7-6-5-4 worst.
    const seven_five = of_mask(0b0101_1110);
    const seven_six = of_mask(0b0110_1110);
    const eight_four = of_mask(0b1000_1111);
    try std.testing.expect(best > seven_five and seven_five > seven_six and seven_six > eight_four);
    try std.testing.expect(eight_four > worst and worst > no_low);
}

test "omaha low: the table equals every two-and-three choice" {
    ready();
    var prng = std.Random.DefaultPrng.init(5);
    const random = prng.random();
    for (0..100_000) |_| {
        var deck: [52]u8 = undefined;
        for (&deck, 0..) |*c, i| c.* = @intCast(i);
        random.shuffle(u8, &deck);
        // Low cards crowded in, so lows and near-misses are common.
        if (random.boolean()) std.mem.sort(u8, &deck, {}, struct {
            fn low_first(_: void, a: u8, b: u8) bool {
                return card_bits[a] != 0 and card_bits[b] == 0;
            }
        }.low_first);
        if (random.boolean()) random.shuffle(u8, deck[0..20]);
        const k = random.intRangeAtMost(u32, 4, 6);
        const b = random.intRangeAtMost(u32, 3, 5);
        const hole = deck[0..k];
        const board = deck[k .. k + b];
        var hole_mask: u8 = 0;
        var board_mask: u8 = 0;
        for (hole) |c| hole_mask |= card_bits[c];
        for (board) |c| board_mask |= card_bits[c];
        try std.testing.expectEqual(brute_force(hole, board), of_masks(hole_mask, board_mask));
    }
}

test "omaha low: lane bits equal the table's" {
    const V = @Vector(16, u16);
    for (0..4) |block| {
        var cards: [16]u16 = undefined;
        for (&cards, 0..) |*c, i| c.* = @intCast(block * 16 + i);
        const values = @as(V, cards) % @as(V, @splat(encoding.value_count));
        const bits: [16]u16 = lane_bits(V, values);
        for (cards, bits) |c, bit| if (c < encoding.card_count) {
            try std.testing.expectEqual(@as(u16, card_bits[c]), bit);
        };
    }
}
