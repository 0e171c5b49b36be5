//! AVX2 ranking of seven-card rows (uint8 `(N, 7)`), four rows to a 256-bit vector.
//!
//! The scalar path adds a 16-byte accumulator per card: seven dependent table loads a row.
//! Here one load brings four rows, spread to one row per 64-bit lane, and every card is
//! worked on at once, without a table load:
//! - suit = (id > 12) + (id > 25) + (id > 38), value = id - 13 * suit;
//! - the fingerprint (Σ rank multiplier of each value) is three byte planes of the multiplier
//!   looked up by `vpshufb` (values fit its 16-entry tables) and summed per lane by
//!   `vpsadbw`;
//! - suit counts are two more `vpshufb` + `vpsadbw` into four 4-bit counters, the flush test
//!   of eval.zig's accumulator;
//! - a row is bad if an id exceeds 51, or if one equals another: each card is compared with
//!   the card 1, 2 and 3 places on, round the row (those three rotations meet all 21 pairs).
//! Then each row's fingerprint is looked up by eval.rank_fingerprint (two `vpgatherdd` for
//! eight rows measured slower on Zen 4). The rare row with a flush (3% of random hands) is
//! ranked by the scalar path.
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("eval.zig");
const tables = @import("tables");

/// Whether this build's CPU level has these kernels (kernels.zig's avx2 level does).
pub const available = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx2);

const Bytes = @Vector(32, u8);
const Lanes = @Vector(4, u64);
const cards_per_row = 7;
const rows_per_vector = 4;

extern fn @"llvm.x86.avx2.pshuf.b"(Bytes, Bytes) Bytes;
extern fn @"llvm.x86.avx2.psad.bw"(Bytes, Bytes) Lanes;

/// `vpshufb`: each byte of `index` picks `table[index & 15]` within its 128-bit half, or 0
/// when the index's top bit is set.
inline fn lookup16(table: Bytes, index: Bytes) Bytes {
    return @"llvm.x86.avx2.pshuf.b"(table, index);
}

/// `vpsadbw` against zero: the sum of each lane's eight bytes.
inline fn lane_sums(bytes: Bytes) Lanes {
    return @"llvm.x86.avx2.psad.bw"(bytes, @splat(0));
}

/// A 16-entry table, repeated in both 128-bit halves as `vpshufb` wants it.
fn table16(entries: [16]u8) Bytes {
    var bytes: [32]u8 = undefined;
    for (0..32) |i| bytes[i] = entries[i % 16];
    return bytes;
}

/// Byte `plane` of each value's rank multiplier (values 13..15 are never looked up: 0).
fn multiplier_plane(comptime plane: u5) Bytes {
    var entries: [16]u8 = @splat(0);
    for (eval.value_fingerprints, 0..) |multiplier, value| {
        entries[value] = @truncate(multiplier >> (8 * plane));
    }
    return table16(entries);
}

comptime {
    for (eval.value_fingerprints) |multiplier| std.debug.assert(multiplier < 1 << 24);
}

/// Byte j of the spread vector: row j / 8's card j % 8, or (j % 8 = 7) a zero byte, which
/// reads as card 0 (the deuce of spades): see `filler_fingerprint` and the suit counters.
const spread: [32]i32 = mask: {
    var mask: [32]i32 = undefined;
    for (0..32) |j| mask[j] = if (j % 8 < cards_per_row) (j / 8) * cards_per_row + j % 8 else -1;
    break :mask mask;
};
const filler_fingerprint: u64 = eval.value_fingerprints[0];

/// The card `distance` places on, round the row of seven (the filler meets itself).
fn rotation(comptime distance: u32) [32]i32 {
    var mask: [32]i32 = undefined;
    for (0..32) |j| {
        mask[j] = if (j % 8 < cards_per_row) (j / 8) * 8 + (j % 8 + distance) % cards_per_row else j;
    }
    return mask;
}

const is_card: @Vector(32, bool) = mask: {
    var mask: [32]bool = undefined;
    for (0..32) |j| mask[j] = j % 8 < cards_per_row;
    break :mask mask;
};

pub const Four = struct { fingerprints: Lanes, flush: @Vector(4, bool), bad: bool };

/// Rows `first .. first + 4`, reading 32 bytes from the first row's (the caller keeps them
/// inside `cards`): each row's fingerprint, whether it holds a flush, whether any is bad.
pub inline fn tally_four(cards: []const u8, first: usize) Four {
    const raw: Bytes = cards[first * cards_per_row ..][0..32].*;
    const ids = @shuffle(u8, raw, @as(Bytes, @splat(0)), spread);

    const signed: @Vector(32, i8) = @bitCast(ids);
    const one: Bytes = @splat(1);
    const zero: Bytes = @splat(0);
    const suit = @select(u8, signed > @as(@Vector(32, i8), @splat(12)), one, zero) +
        @select(u8, signed > @as(@Vector(32, i8), @splat(25)), one, zero) +
        @select(u8, signed > @as(@Vector(32, i8), @splat(38)), one, zero);
    const value = ids -% lookup16(comptime table16(.{ 0, 13, 26, 39 } ++ @as([12]u8, @splat(0))), suit);

    const fingerprints = lane_sums(lookup16(comptime multiplier_plane(0), value)) +
        (lane_sums(lookup16(comptime multiplier_plane(1), value)) << @splat(8)) +
        (lane_sums(lookup16(comptime multiplier_plane(2), value)) << @splat(16)) -
        @as(Lanes, @splat(filler_fingerprint));

    // Four 4-bit suit counters preloaded so bit 3 sets at five cards; the filler counts as a
    // spade, so the spade counter starts one lower.
    const low_suits = comptime table16(.{ 1, 16 } ++ @as([14]u8, @splat(0)));
    const high_suits = comptime table16(.{ 0, 0, 1, 16 } ++ @as([12]u8, @splat(0)));
    const counters = lane_sums(lookup16(low_suits, suit)) +
        (lane_sums(lookup16(high_suits, suit)) << @splat(8)) + @as(Lanes, @splat(0x3332));

    const out_of_range = ids > @as(Bytes, @splat(eval.card_count - 1));
    var repeated = ids == @shuffle(u8, ids, undefined, rotation(1));
    repeated = repeated | (ids == @shuffle(u8, ids, undefined, rotation(2)));
    repeated = repeated | (ids == @shuffle(u8, ids, undefined, rotation(3)));
    return .{
        .fingerprints = fingerprints,
        .flush = counters & @as(Lanes, @splat(0x8888)) != @as(Lanes, @splat(0)),
        .bad = @reduce(.Or, (out_of_range | repeated) & is_card),
    };
}

/// Rows a block: its fingerprints stay in L1 between the passes.
pub const block_rows = 64;

/// Ranks rows `first .. first + block_rows` in three passes, each a tight loop: the vector
/// tally, the table lookups, then the scalar path for the few rows holding a flush (a branch
/// per row on a 3% event would mispredict more often than it is taken). Returns whether any
/// row is bad.
pub inline fn rank_block(cards: []const u8, out: []u16, first: usize) bool {
    var fingerprints: [block_rows]u64 align(32) = undefined;
    var flushes: [block_rows / 64]u64 = @splat(0);
    var bad: u32 = 0;
    var row: usize = 0;
    while (row < block_rows) : (row += rows_per_vector) {
        const four = tally_four(cards, first + row);
        fingerprints[row..][0..rows_per_vector].* = four.fingerprints;
        const flush_bits: u4 = @bitCast(four.flush);
        flushes[row / 64] |= @as(u64, flush_bits) << @intCast(row % 64);
        bad |= @intFromBool(four.bad);
    }
    for (fingerprints, out[first..][0..block_rows]) |fingerprint, *rank| {
        // At most seven multipliers, whatever the ids (the planes hold nothing else).
        rank.* = eval.rank_fingerprint_unmasked(@truncate(fingerprint));
    }
    for (flushes, 0..) |word, w| {
        var left = word;
        while (left != 0) : (left &= left - 1) {
            const flush_row = first + w * 64 + @ctz(left);
            var hand: eval.Accumulator = .empty;
            inline for (cards[flush_row * cards_per_row ..][0..cards_per_row]) |card| hand.add(card);
            out[flush_row] = eval.rank_accumulator(hand);
        }
    }
    return bad != 0;
}

/// The rows of `rows` that whole blocks cover, leaving at least one row after them: a
/// block's vectors read four bytes past its last row.
pub fn blocks_end(rows: usize) usize {
    if (rows == 0) return 0;
    return (rows - 1) / block_rows * block_rows;
}

/// Ranks the rows `blocks_end` allows (the caller ranks the rest) and returns how many that
/// was, and whether any was bad.
pub fn rank_seven_rows(cards: []const u8, out: []u16) struct { rows: usize, bad: bool } {
    std.debug.assert(cards.len == out.len * cards_per_row);
    const end = blocks_end(out.len);
    var bad: u32 = 0;
    var row: usize = 0;
    while (row < end) : (row += block_rows) bad |= @intFromBool(rank_block(cards, out, row));
    return .{ .rows = end, .bad = bad != 0 };
}

test "avx2 rows: every seven-card hand, its cards in shifting orders, ranks as the scalar path" {
    if (!available) return error.SkipZigTest;
    const rows_per_batch = 64 * block_rows;
    var cards: [(rows_per_batch + 1) * cards_per_row]u8 = undefined;
    var ranks: [rows_per_batch + 1]u16 = undefined;
    var expected: [rows_per_batch]u16 = undefined;
    var filled: usize = 0;
    var hands: u64 = 0;
    var hand: [cards_per_row]u8 = undefined;
    var combo: u64 = (1 << cards_per_row) - 1; // Gosper over the 52 ids
    while (combo < 1 << eval.card_count) {
        var bits = combo;
        for (&hand) |*card| {
            card.* = @intCast(@ctz(bits));
            bits &= bits - 1;
        }
        // Rotate the row by the hand's number, so every card meets every position.
        const shift = hands % cards_per_row;
        for (0..cards_per_row) |i| cards[filled * cards_per_row + i] = hand[(i + shift) % cards_per_row];
        expected[filled] = eval.rank_cards(&hand);
        filled += 1;
        hands += 1;
        const smeared = combo | (combo - 1);
        combo = (smeared + 1) | (((~smeared & (smeared + 1)) - 1) >> @intCast(@ctz(combo) + 1));
        if (filled == rows_per_batch or combo >= 1 << eval.card_count) {
            // One spare row past the batch: the vectors read four bytes beyond their rows.
            const done = rank_seven_rows(cards[0 .. (filled + 1) * cards_per_row], ranks[0 .. filled + 1]);
            try std.testing.expect(!done.bad);
            try std.testing.expectEqualSlices(u16, expected[0..done.rows], ranks[0..done.rows]);
            try std.testing.expect(done.rows + block_rows >= filled);
            for (expected[done.rows..filled], done.rows..) |rank, row| {
                try std.testing.expectEqual(rank, eval.rank_cards(cards[row * cards_per_row ..][0..cards_per_row]));
            }
            filled = 0;
        }
    }
    try std.testing.expectEqual(@as(u64, 133_784_560), hands);
}

test "avx2 rows: a card out of range or repeated anywhere marks the block bad" {
    if (!available) return error.SkipZigTest;
    const deal = @import("deal.zig");
    const rows = 2 * block_rows + 1;
    var cards: [rows * cards_per_row]u8 = undefined;
    var ranks: [rows]u16 = undefined;
    var state: u64 = 11;
    for (0..400) |trial| {
        deal.deal_rows(deal.seed_key(trial), 0, cards_per_row, deal.full_deck, &cards);
        const clean = rank_seven_rows(&cards, &ranks);
        try std.testing.expect(!clean.bad);
        try std.testing.expectEqual(@as(usize, 2 * block_rows), clean.rows);
        for (ranks[0..clean.rows], 0..) |rank, row| {
            try std.testing.expectEqual(eval.rank_cards(cards[row * cards_per_row ..][0..cards_per_row]), rank);
        }
        state = deal.mix64(state);
        const row = state % clean.rows;
        const position = (state >> 16) % cards_per_row;
        const cell = &cards[row * cards_per_row + position];
        if (trial % 2 == 0) {
            // Out of range: 52..255, the filler's 0x80 among them.
            cell.* = @intCast(eval.card_count + (state >> 32) % (256 - eval.card_count));
        } else {
            const other = (position + 1 + (state >> 32) % (cards_per_row - 1)) % cards_per_row;
            cell.* = cards[row * cards_per_row + other];
        }
        try std.testing.expect(rank_seven_rows(&cards, &ranks).bad);
    }
}
