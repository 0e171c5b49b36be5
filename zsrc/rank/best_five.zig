//! The five cards that make a Hold'em hand's rank (`pp.best_five`), for hands of 5 to 7 card
//! ids, ordered as a player reads them: the group first (quads, trips, the higher pair), then
//! the rest (a full house's pair, the kickers high to low); straights and flushes high to low,
//! the wheel as 5-4-3-2-A.
//!
//! Tie rule: when several fives make the rank (a pair held in three suits, a kicker or a
//! straight's card in two), each card is the lowest id its place can take: of the fives that
//! tie, the one whose ids, read in order, are lowest. Within a group ids rise (K♠ before K♥).
//!
//! No search over the 21 fives of a seven-card hand: the rank says which values the five
//! hold, in reading order, and whether they are a flush (`five_layouts`, generated from the
//! ranks' payloads by rank/gen_tables.zig). Each value's suits in the hand are four bits of a
//! value-major set (bit 4 * value + suit); a card's suit is the lowest suit its value holds
//! that the five have not taken yet (its `occurrence`-th), or for a flush the one suit all
//! five values share. So a row costs its rank (the batch kernels, vectors where the CPU has
//! them), one table load and a few shifts per card, with no branch: `lanes` rows at once.
//! Measured (bench/bench_best_five.py, 4M 7-card hands, one thread, Intel Xeon family 6
//! model 167 with AVX-512, a shared and noisy 2-core VM, 2026-12-06): avx512 7.1 ns a hand
//! = 3.06x a rank, avx2 13.2 = 3.97x, baseline 33.0 = 4.76x. Issue #51's bar is 3x: the
//! picking (3.8, 6.7 and 16 ns a row) still costs more than two ranks.
const std = @import("std");
const builtin = @import("builtin");
const tables = @import("tables");
const eval = @import("eval.zig");
const batch = @import("batch.zig");
const linked = @import("linked_tables.zig");
const encoding = @import("../cards/encoding.zig");
const HandError = @import("../cards/failure.zig").HandError;
const assert = std.debug.assert;

const layouts = linked.table("five_layouts", tables.five_layouts);
/// What the library's object exports for the kernel objects (see rank/linked_tables.zig).
pub const linked_tables = .{layouts};

comptime {
    assert(tables.five_layouts.len == tables.describe_payloads.len);
}

pub const cards_min = 5;
pub const five = 5;
/// A layout's flush bit: the five share a suit.
const flush_bit = 20;

/// Rows picked at once: one 64-bit lane a row, a vector register of them where the CPU
/// has variable 64-bit shifts (AVX2's four, AVX-512's eight); one at a time below that.
pub const lanes: usize = if (builtin.cpu.arch != .x86_64)
    1
else if (std.Target.x86.featureSetHas(builtin.cpu.features, .avx512f))
    8
else if (std.Target.x86.featureSetHas(builtin.cpu.features, .avx2))
    4
else
    1;

/// Rows ranked, then picked, per step: their ranks (8 KB) stay in L1 between the two
/// passes. At 512 a step, the vector ranker's setup and its scalar last block cost more
/// than the picking (22 against 8 ns a hand, avx512).
const chunk_rows = 4096;

/// The `j`-th lowest suit of a 4-bit suit mask, for `j` 0..3: 2 bits at `2 * mask` of word
/// `j`; words 0 and 1 make the low constant, 2 and 3 the high one.
const nth_suit_words: [2]u64 = words: {
    var words: [2]u64 = .{ 0, 0 };
    for (0..4) |j| {
        for (0..16) |mask| {
            var left = mask;
            for (0..j) |_| left &= left -% 1; // drop the j lowest suits
            const suit = if (left == 0) 0 else @ctz(@as(u4, @intCast(left)));
            words[j / 2] |= @as(u64, suit) << @intCast(32 * (j % 2) + 2 * mask);
        }
    }
    break :words words;
};

fn Lanes(comptime L: usize) type {
    return @Vector(L, u64);
}

/// Value-major bits of `L` hands of `k` ids (id `i` of a row in its byte `i`): bit
/// `4 * value + suit` per card, at `4 * id - 51 * suit` (`id = 13 * suit + value`), the
/// suit counted by comparisons (no 64-bit multiply: AVX2 has none).
inline fn value_major(comptime L: usize, comptime k: u32, hands: Lanes(L)) Lanes(L) {
    const V = Lanes(L);
    const zero: V = @splat(0);
    const step: V = @splat(51);
    var held: V = @splat(0);
    inline for (0..k) |i| {
        const id = (hands >> @splat(8 * i)) & @as(V, @splat(0xFF));
        var position = id << @splat(2);
        inline for (1..encoding.suit_count) |suit| {
            const past = id >= @as(V, @splat(suit * encoding.value_count));
            position -%= @select(u64, past, step, zero);
        }
        held |= @as(V, @splat(1)) << @as(@Vector(L, u6), @truncate(position));
    }
    return held;
}

/// The five card ids of `L` rows, byte `i` of a lane the five's `i`-th card: from the
/// rows' value-major sets and their ranks' layouts.
inline fn pick(comptime L: usize, held: Lanes(L), layout: Lanes(L)) Lanes(L) {
    const V = Lanes(L);
    const one: V = @splat(1);
    const nibble: V = @splat(0xF);
    const flush = (layout >> @splat(flush_bit)) & one != @as(V, @splat(0));
    var values: [five]V = undefined;
    var suits: [five]V = undefined;
    var common: V = nibble;
    inline for (0..five) |i| {
        values[i] = (layout >> @splat(4 * i)) & nibble;
        suits[i] = (held >> @as(@Vector(L, u6), @truncate(values[i] << @splat(2)))) & nibble;
        common &= suits[i];
    }
    var occurrence: V = @splat(0);
    var cards: V = @splat(0);
    inline for (0..five) |i| {
        if (i > 0) occurrence = @select(u64, values[i] == values[i - 1], occurrence +% one, @as(V, @splat(0)));
        const mask = @select(u64, flush, common, suits[i]);
        const word = @select(u64, occurrence >= @as(V, @splat(2)), @as(V, @splat(nth_suit_words[1])), @as(V, @splat(nth_suit_words[0])));
        const shift = ((occurrence & one) << @splat(5)) | (mask << @splat(1));
        const suit = (word >> @as(@Vector(L, u6), @truncate(shift))) & @as(V, @splat(3));
        const card = (suit << @splat(3)) +% (suit << @splat(2)) +% suit +% values[i];
        cards |= card << @splat(8 * i);
    }
    return cards;
}

/// Picks the five of `L` rows of `k` valid, distinct ids whose ranks are `ranks`: row `r`'s
/// ids are the first `k` of the 8 bytes at `window[r * k]`, and the block reads `L * 8`
/// bytes from `window[0]`: one load and one byte shuffle spread the rows into lanes, and one
/// shuffle packs the lanes' fives back (inserting and extracting lane by lane cost more
/// than the picking).
inline fn pick_block(comptime L: usize, comptime k: u32, window: []const u8, ranks: *const [L]u16, out: *[L * five]u8) void {
    assert(window.len >= L * 8);
    const Bytes = @Vector(L * 8, u8);
    const bytes: Bytes = window[0 .. L * 8].*;
    const spread: Bytes = @shuffle(u8, bytes, undefined, spread_mask(L, k));
    const hands: Lanes(L) = @bitCast(spread);
    var layout_words: [L]u64 = undefined;
    inline for (0..L) |lane| layout_words[lane] = layouts[ranks[lane]];
    const cards: Bytes = @bitCast(pick(L, value_major(L, k, hands), layout_words));
    out.* = @shuffle(u8, cards, undefined, pack_mask(L));
}

/// Byte `i` of lane `j` ← byte `j * k + i` of the rows (past `k`, any byte of the row).
fn spread_mask(comptime L: usize, comptime k: u32) @Vector(L * 8, i32) {
    var mask: [L * 8]i32 = undefined;
    for (0..L) |j| for (0..8) |i| {
        mask[j * 8 + i] = @intCast(j * k + @min(i, k - 1));
    };
    return mask;
}

/// Card `i` of lane `j`'s five ← byte `i` of lane `j`.
fn pack_mask(comptime L: usize) @Vector(L * five, i32) {
    var mask: [L * five]i32 = undefined;
    for (0..L) |j| for (0..five) |i| {
        mask[j * five + i] = @intCast(j * 8 + i);
    };
    return mask;
}

/// The five of one hand of 5..7 valid, distinct ids of rank `rank` (rank/eval.zig's).
pub fn pick_one(hand: []const u8, rank: u16) [five]u8 {
    assert(hand.len >= cards_min and hand.len <= encoding.hand_cards_max);
    assert(layouts[rank] != 0);
    var row: u64 = 0;
    for (hand, 0..) |card, i| row |= @as(u64, card) << @intCast(8 * i);
    // Seven ids, the first repeated past the hand's: a card twice sets its one bit.
    for (hand.len..encoding.hand_cards_max) |i| row |= @as(u64, hand[0]) << @intCast(8 * i);
    const hands: Lanes(1) = @splat(row);
    const layout: Lanes(1) = @splat(layouts[rank]);
    const cards: [1]u64 = pick(1, value_major(1, encoding.hand_cards_max, hands), layout);
    var out: [five]u8 = undefined;
    for (&out, 0..) |*card, i| card.* = @truncate(cards[0] >> @intCast(8 * i));
    return out;
}

/// The best five of `out.len / 5` rows of `k` (5..7) card ids each (row-major) into `out`
/// (five ids a row); on a bad row, its error and `out` zeroed.
pub fn best_five_rows(ids: []const u8, k: u32, out: []u8) ?HandError {
    assert(k >= cards_min and k <= encoding.hand_cards_max);
    assert(ids.len / k == out.len / five and out.len % five == 0);
    return switch (k) {
        inline cards_min...encoding.hand_cards_max => |cards| rows_fixed(cards, ids, out),
        else => unreachable,
    };
}

fn rows_fixed(comptime k: u32, ids: []const u8, out: []u8) ?HandError {
    const n = out.len / five;
    var ranks: [chunk_rows]u16 = undefined;
    var start: usize = 0;
    while (start < n) {
        const rows: usize = @min(chunk_rows, n - start); // usize: @min would narrow it to u13
        const chunk = ids[start * k ..][0 .. rows * k];
        if (batch.rank_card_rows(chunk, k, ranks[0..rows])) |e| {
            @memset(out, 0);
            var failure = e;
            failure.row += start;
            return failure;
        }
        pick_rows(k, ids[start * k ..], ranks[0..rows], out[start * five ..][0 .. rows * five]);
        start += rows;
    }
    return null;
}

/// Picks rows of valid hands (`window` from the first row's ids to the end of the input),
/// `lanes` at a time while a block's load stays inside the input, then one by one.
fn pick_rows(comptime k: u32, window: []const u8, ranks: []const u16, out: []u8) void {
    // Blocks whose `lanes * 8`-byte load stays inside the input.
    const loadable = if (window.len >= lanes * 8) (window.len - lanes * 8) / (lanes * k) + 1 else 0;
    const blocks = @min(ranks.len / lanes, loadable);
    for (0..blocks) |b| {
        const r = b * lanes;
        pick_block(lanes, k, window[r * k ..], ranks[r..][0..lanes], out[r * five ..][0 .. lanes * five]);
    }
    for (blocks * lanes..ranks.len) |r| {
        var row: [8]u8 = @splat(0);
        @memcpy(row[0..k], window[r * k ..][0..k]);
        pick_block(1, k, &row, ranks[r..][0..1], out[r * five ..][0..five]);
    }
}

fn expect_five_of(hand: []const u8, picked: [five]u8) !void {
    var hand_set: u64 = 0;
    for (hand) |card| hand_set |= @as(u64, 1) << @intCast(card);
    var five_set: u64 = 0;
    for (picked) |card| {
        if (card >= encoding.card_count) return error.TestUnexpectedResult;
        five_set |= @as(u64, 1) << @intCast(card);
    }
    try std.testing.expectEqual(@as(u32, five), @popCount(five_set));
    try std.testing.expectEqual(five_set, five_set & hand_set);
    try std.testing.expectEqual(eval.rank_cards(hand), eval.rank_cards(&picked));
}

test "best five: reading order, the wheel, flushes and the tie rule" {
    const Case = struct { hand: []const u8, five: [5]u8 };
    // Ids: suit * 13 + value, deuce = 0 … ace = 12; suits s c h d.
    const cases = [_]Case{
        // Pair of kings in spades and hearts (the lowest ids first), then A-Q-9 kickers.
        .{ .hand = &.{ 37, 12, 11, 23, 7, 0, 14 }, .five = .{ 11, 37, 12, 23, 7 } },
        // Wheel: 5-4-3-2-A, each card its lowest suit.
        .{ .hand = &.{ 12, 0, 14, 2, 3, 29, 22 }, .five = .{ 3, 2, 14, 0, 12 } },
        // Full house, trips then pair: three sevens and three deuces, the deuces' lowest two.
        .{ .hand = &.{ 5, 18, 31, 0, 13, 26, 12 }, .five = .{ 5, 18, 31, 0, 13 } },
        // Six hearts: the flush's top five, high to low.
        .{ .hand = &.{ 26, 28, 30, 33, 35, 38, 1 }, .five = .{ 38, 35, 33, 30, 28 } },
        // Quads then the best kicker.
        .{ .hand = &.{ 4, 17, 30, 43, 12, 25, 11 }, .five = .{ 4, 17, 30, 43, 12 } },
    };
    for (cases) |case| {
        var out: [five]u8 = undefined;
        try std.testing.expectEqual(@as(?HandError, null), best_five_rows(case.hand, @intCast(case.hand.len), &out));
        try std.testing.expectEqualSlices(u8, &case.five, &out);
        try std.testing.expectEqualSlices(u8, &case.five, &pick_one(case.hand, eval.rank_cards(case.hand)));
    }
}

test "best five: a bad row is named, the output zeroed" {
    const hands = [_]u8{ 0, 1, 2, 3, 4, 5, 6 } ++ [_]u8{ 0, 1, 2, 3, 4, 5, 5 };
    var out: [10]u8 = @splat(9);
    const e = best_five_rows(&hands, 7, &out) orelse return error.TestUnexpectedResult;
    try std.testing.expectEqual(@as(u64, 1), e.row);
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e.kind);
    const zeros: [10]u8 = @splat(0);
    try std.testing.expectEqualSlices(u8, &zeros, &out);
}

test "best five: the vector blocks agree with one row at a time on random hands" {
    var prng = std.Random.DefaultPrng.init(51);
    const random = prng.random();
    const rows = 3 * chunk_rows + 5;
    inline for (cards_min..encoding.hand_cards_max + 1) |k| {
        var ids: [rows * k]u8 = undefined;
        for (0..rows) |r| {
            var deck: [encoding.card_count]u8 = undefined;
            for (&deck, 0..) |*card, i| card.* = @intCast(i);
            random.shuffle(u8, &deck);
            @memcpy(ids[r * k ..][0..k], deck[0..k]);
        }
        var out: [rows * five]u8 = undefined;
        try std.testing.expectEqual(@as(?HandError, null), best_five_rows(&ids, k, &out));
        for (0..rows) |r| {
            const hand = ids[r * k ..][0..k];
            const picked = out[r * five ..][0..five].*;
            try expect_five_of(hand, picked);
            try std.testing.expectEqualSlices(u8, &pick_one(hand, eval.rank_cards(hand)), &picked);
        }
    }
}

/// Visits every 7-card hand in increasing id order, `batch_rows` at a time.
const Exhaustive = struct {
    const batch_rows = 4096;
    ids: [batch_rows * 7]u8 = undefined,
    rows: usize = 0,
    hands: u64 = 0,

    fn flush(self: *Exhaustive) !void {
        var out: [batch_rows * five]u8 = undefined;
        const ids = self.ids[0 .. self.rows * 7];
        if (best_five_rows(ids, 7, out[0 .. self.rows * five])) |_| return error.TestUnexpectedResult;
        for (0..self.rows) |r| {
            const hand = ids[r * 7 ..][0..7];
            expect_five_of(hand, out[r * five ..][0..five].*) catch |e| {
                std.debug.print("hand {any}: five {any}\n", .{ hand, out[r * five ..][0..five] });
                return e;
            };
        }
        self.hands += self.rows;
        self.rows = 0;
    }
};

test "exhaustive: every 7-card hand's five are five of its cards, and rank as the hand" {
    var state: Exhaustive = .{};
    var c: [7]u8 = undefined;
    c[0] = 0;
    while (c[0] < 46) : (c[0] += 1) {
        c[1] = c[0] + 1;
        while (c[1] < 47) : (c[1] += 1) {
            c[2] = c[1] + 1;
            while (c[2] < 48) : (c[2] += 1) {
                c[3] = c[2] + 1;
                while (c[3] < 49) : (c[3] += 1) {
                    c[4] = c[3] + 1;
                    while (c[4] < 50) : (c[4] += 1) {
                        c[5] = c[4] + 1;
                        while (c[5] < 51) : (c[5] += 1) {
                            c[6] = c[5] + 1;
                            while (c[6] < 52) : (c[6] += 1) {
                                @memcpy(state.ids[state.rows * 7 ..][0..7], &c);
                                state.rows += 1;
                                if (state.rows == Exhaustive.batch_rows) try state.flush();
                            }
                        }
                    }
                }
            }
        }
    }
    try state.flush();
    try std.testing.expectEqual(@as(u64, 133_784_560), state.hands);
}
