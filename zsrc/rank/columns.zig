//! Ranking Arrow-layout columns with a status per row instead of a first error.
//!
//! An Arrow column may hold null rows (whose values are anything) and, with
//! `errors="null"`, bad rows that become nulls; so these kernels never stop: every row gets
//! a rank (0 when bad) and a status byte (0 good, 1 bad). The Python layer masks out null
//! rows, and for `errors="raise"` re-diagnoses the first bad one with the strict kernels.
//! Layouts (Arrow's): fixed-size lists of uint8 ids (k per row), lists of uint8 ids
//! (`n + 1` offsets of i32 or i64 into the values), uint64 card sets, and strings of card
//! text (`n + 1` offsets into the bytes).
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const blocks = @import("blocks.zig");
const row_sources = @import("row_sources.zig");
const parse = @import("../cards/parse.zig");
const bits = @import("../cards/bits.zig");
const linked = @import("linked_tables.zig");
const columns = @This();

pub fn rank_card_rows(cards: []const u8, k: u32, out: []u16, status: []u8) void {
    assert(k <= encoding.hand_cards_max);
    assert(cards.len == out.len * k);
    assert(status.len == out.len);
    switch (k) {
        inline 0...encoding.hand_cards_max => |kc| {
            var first: usize = 0;
            if (kc >= 5 and row_sources.available) {
                const Rows = row_sources.CardRows(kc);
                const end = blocks.blocks_end(Rows, out.len);
                while (first < end) : (first += blocks.block_rows) {
                    const block = blocks.block_rows;
                    // A bad row is rare: rank its whole block again, row by row.
                    if (blocks.rank_block(Rows{ .cards = cards }, out, first)) {
                        rank_card_rows_from(
                            kc,
                            cards,
                            first,
                            out[first..][0..block],
                            status[first..][0..block],
                        );
                    } else @memset(status[first..][0..block], 0);
                }
            }
            rank_card_rows_from(kc, cards, first, out[first..], status[first..]);
        },
        else => unreachable,
    }
}

fn rank_card_rows_from(
    comptime k: u32,
    cards: []const u8,
    first: usize,
    out: []u16,
    status: []u8,
) void {
    for (out, status, first..) |*rank, *bad, row| {
        var hand: encoding.Accumulator = .empty;
        inline for (cards[row * k ..][0..k]) |card| hand.add(card);
        finish(hand, k, rank, bad);
    }
}

/// Writes the rank, or 0 and status 1 when the hand did not get `cards` distinct valid cards.
inline fn finish(hand: encoding.Accumulator, cards: u32, rank: *u16, bad: *u8) void {
    const invalid = hand.card_total() != cards or cards > encoding.hand_cards_max;
    rank.* = if (invalid) 0 else eval.rank_accumulator(hand);
    bad.* = @intFromBool(invalid);
}

pub fn rank_lists(
    comptime Offset: type,
    values: [*]const u8,
    offsets: []const Offset,
    out: []u16,
    status: []u8,
) void {
    assert(offsets.len == out.len + 1);
    assert(status.len == out.len);
    for (out, status, 0..) |*rank, *bad, row| {
        const start = offsets[row];
        const end = offsets[row + 1];
        const length: u64 = if (end >= start) @intCast(end - start) else 0;
        if (end < start or length > encoding.hand_cards_max) {
            rank.* = 0;
            bad.* = 1;
            continue;
        }
        var hand: encoding.Accumulator = .empty;
        for (values[@intCast(start)..@intCast(end)]) |card| hand.add(card);
        finish(hand, @intCast(length), rank, bad);
    }
}

pub fn rank_sets(sets: []const u64, out: []u16, status: []u8) void {
    assert(sets.len == out.len);
    assert(status.len == out.len);
    var first: usize = 0;
    if (row_sources.available) {
        const block = blocks.block_rows;
        while (first + block <= sets.len) : (first += block) {
            // A bad row is rare: rank its whole block again, row by row.
            if (blocks.rank_block(row_sources.SetRows{ .sets = sets }, out, first)) {
                rank_sets_from(
                    sets[first..][0..block],
                    out[first..][0..block],
                    status[first..][0..block],
                );
            } else @memset(status[first..][0..block], 0);
        }
    }
    rank_sets_from(sets[first..], out[first..], status[first..]);
}

fn rank_sets_from(sets: []const u64, out: []u16, status: []u8) void {
    for (sets, out, status) |set, *rank, *bad| {
        const cards = @popCount(set);
        const invalid = set & encoding.set_invalid_bits != 0 or cards > encoding.hand_cards_max;
        rank.* = if (invalid) 0 else eval.rank_set(set);
        bad.* = @intFromBool(invalid);
    }
}

/// Card text per row, parsed and ranked in one pass (no ids are stored).
pub fn rank_strings(
    comptime Offset: type,
    text: [*]const u8,
    offsets: []const Offset,
    out: []u16,
    status: []u8,
) void {
    // Every row 14 bytes (seven compact cards) or 20 (seven spaced), as most card text is:
    // a fixed-width road, which checks every row's length first and hands over to the
    // general one if any row is not. (Equal totals keep its reads inside the text whatever
    // the rows are.)
    assert(offsets.len == out.len + 1);
    assert(status.len == out.len);
    const total = offsets[out.len] -% offsets[0];
    inline for (.{ 2, 3 }) |stride| {
        const width = stride * encoding.hand_cards_max - (stride - 2);
        if (total == width * @as(Offset, @intCast(out.len))) {
            if (rank_strings_fixed(stride, Offset, text, offsets, out, status)) return;
        }
    }
    for (out, status, 0..) |*rank, *bad, row| {
        const start = offsets[row];
        const end = offsets[row + 1];
        if (end < start) {
            rank.* = 0;
            bad.* = 1;
            continue;
        }
        const string = text[@intCast(start)..@intCast(end)];
        if (rank_string_fast(string, rank, bad)) continue;
        rank_string_general(string, rank, bad);
    }
}

/// Rows of exactly `width` bytes (seven cards, `stride` bytes a card but the last's two) back
/// to back from `offsets[0]`; returns false, having ranked nothing, when some row's offsets
/// say otherwise. With AVX2 or AVX-512, blocks of rows are parsed and ranked by vectors
/// (rank/blocks.zig); a block holding a row of another shape ("10", other separators, bad
/// bytes), like the rows after the last block, goes row by row, each to the fastest parser
/// that takes it.
fn rank_strings_fixed(
    comptime stride: u32,
    comptime Offset: type,
    text: [*]const u8,
    offsets: []const Offset,
    out: []u16,
    status: []u8,
) bool {
    comptime assert(stride == 2 or stride == 3); // compact, or one separator a card
    const width = stride * encoding.hand_cards_max - (stride - 2);
    var differs: Offset = 0;
    for (offsets[0..out.len], offsets[1..]) |start, end| differs |= (end -% start) ^ width;
    if (differs != 0) return false;
    assert(offsets[out.len] -% offsets[0] == @as(Offset, @intCast(width * out.len)));
    const rows = text + @as(usize, @intCast(offsets[0]));
    var first: usize = 0;
    if (row_sources.available) {
        const Rows = if (stride == 2) row_sources.TextRows else row_sources.SpacedTextRows;
        const end = blocks.blocks_end(Rows, out.len);
        const block = blocks.block_rows;
        while (first < end) : (first += block) {
            if (blocks.rank_block(Rows{ .text = rows }, out, first)) {
                rank_fixed_rows(
                    width,
                    rows,
                    first,
                    out[first..][0..block],
                    status[first..][0..block],
                );
            } else @memset(status[first..][0..block], 0);
        }
    }
    rank_fixed_rows(width, rows, first, out[first..], status[first..]);
    return true;
}

fn rank_fixed_rows(
    comptime width: usize,
    rows: [*]const u8,
    first: usize,
    out: []u16,
    status: []u8,
) void {
    assert(status.len == out.len);
    for (out, status, first..) |*rank, *bad, row| {
        const string = rows[row * width ..][0..width];
        if (comptime bits.has_pdep and width == 2 * encoding.hand_cards_max) {
            if (rank_compact_pext(encoding.hand_cards_max, string, rank, bad)) continue;
        } else if (rank_string_fast(string, rank, bad)) continue;
        rank_string_general(string, rank, bad);
    }
}

/// Any card text: values, suits, "10", separators; bad rows get rank 0 and status 1.
fn rank_string_general(string: []const u8, rank: *u16, bad: *u8) void {
    var hand: encoding.Accumulator = .empty;
    var cards: u32 = 0;
    var i: usize = 0;
    while (true) switch (parse.next_card(string, &i)) {
        .card => |card| {
            hand.add(card.id);
            cards += 1;
        },
        .end => break,
        .bad_value, .bad_suit => {
            rank.* = 0;
            bad.* = 1;
            return;
        },
    };
    finish(hand, cards, rank, bad);
}

/// The common shapes — "AhKd7c" (two bytes a card) and "Ah Kd 7c" (three, one separator) —
/// parsed at fixed positions, unrolled, without a branch per byte. Returns false, having
/// written nothing, when the string is of another shape or holds anything unexpected ("10",
/// double spaces, a bad byte): the general parser then decides.
inline fn rank_string_fast(string: []const u8, rank: *u16, bad: *u8) bool {
    const length = string.len;
    const compact = length > 0 and length <= 2 * encoding.hand_cards_max and length % 2 == 0;
    // The commonest shape first, tried blind: a spaced string fails its pair lookups.
    if (comptime bits.has_pdep) if (compact) switch (length / 2) {
        inline 4...encoding.hand_cards_max => |k| if (rank_compact_pext(k, string, rank, bad)) return true,
        else => {},
    };
    if (length > 2 and parse.char_class[string[2]] == parse.separator) {
        if (length > 3 * encoding.hand_cards_max - 1 or length % 3 != 2) return false;
        return rank_fixed_stride(3, (length + 1) / 3, string, rank, bad);
    }
    if (!compact) return false;
    return rank_fixed_stride(2, length / 2, string, rank, bad);
}

/// "AhKd7c2s…" of 4 to 7 cards with BMI2: two 8-byte loads cover the string, and PEXT packs
/// the low 7 bits of every byte, so each card's pair index (value byte | suit byte << 7) is
/// already in place, 14 bits apart: no per-byte work at all.
inline fn rank_compact_pext(comptime k: u32, string: []const u8, rank: *u16, bad: *u8) bool {
    const low_bits: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const head = std.mem.readInt(u64, string[0..8], .little);
    const tail_bytes = 2 * k - 8;
    const tail: u64 = if (tail_bytes == 0) 0 else std.mem.readInt(u64, string[2 * k - 8 ..][0..8], .little) >> (8 * (8 - tail_bytes));
    if ((head | tail) & ~low_bits != 0) return false;
    const head_pairs = bits.pext(head, low_bits);
    const tail_pairs = bits.pext(tail, low_bits);
    var hand: encoding.Accumulator = .empty;
    inline for (0..k) |j| {
        const pairs = if (j < 4) head_pairs else tail_pairs;
        const index: u14 = @truncate(pairs >> (14 * (j % 4)));
        const card = &pair_cards[index];
        hand.key +%= card.key;
        hand.mask |= card.mask;
    }
    if (hand.card_total() != k) return false;
    rank.* = eval.rank_accumulator(hand);
    bad.* = 0;
    return true;
}

inline fn rank_fixed_stride(
    comptime stride: usize,
    k: usize,
    string: []const u8,
    rank: *u16,
    bad: *u8,
) bool {
    var hand: encoding.Accumulator = .empty;
    var bytes_or: u16 = 0;
    var unexpected: u8 = 0;
    for (0..k) |j| {
        const pair = std.mem.readInt(u16, string[stride * j ..][0..2], .little);
        bytes_or |= pair;
        // Two ASCII bytes, seven bits each, index the 2^14-entry `pair_cards` table.
        const index = (pair & 0x7F) | ((pair >> 1) & 0x3F80);
        const card = &pair_cards[index];
        hand.key +%= card.key;
        hand.mask |= card.mask;
        // With three bytes a card, the third (absent after the last) must separate.
        if (stride == 3 and j + 1 < k) unexpected |= parse.char_class[string[3 * j + 2]] ^ parse.separator;
    }
    // A pair that is not a card adds no bit, and nor does a repeated card: either way the
    // general parser takes the row and says which it was.
    // 0x8080: a byte past ASCII, which the 7-bit index above would have misread.
    if (bytes_or & 0x8080 != 0 or unexpected != 0 or hand.card_total() != k) return false;
    rank.* = eval.rank_accumulator(hand);
    bad.* = 0;
    return true;
}

/// Per pair of ASCII bytes (value char, suit char; 7 bits each): the card's accumulator key
/// and its bit, or 0 and 0 when the pair is not a card. One load each per card, where
/// classifying the two bytes first would take four.
const pair_cards = linked.table("pair_cards", pair_table());
/// What the library's object exports for the kernel objects (see rank/linked_tables.zig).
pub const linked_tables = .{pair_cards};

/// Each entry is the card's key contribution and its bit, side by side, so one cache line
/// serves both loads; a pair that is not a card is all zero.
fn pair_table() [1 << 14]encoding.Accumulator {
    @setEvalBranchQuota(1 << 20);
    var table: [1 << 14]encoding.Accumulator = @splat(.{ .key = 0, .mask = 0 });
    for (0..128) |value_char| {
        const value = parse.value_of(@intCast(value_char)) orelse continue;
        for (0..128) |suit_char| {
            const suit = parse.suit_of(@intCast(suit_char)) orelse continue;
            const card = suit * encoding.value_count + value;
            table[value_char | suit_char << 7] = .{
                .key = encoding.card_keys[card],
                .mask = encoding.card_masks[card],
            };
        }
    }
    return table;
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// the C-ABI face of the column functions above. Every row gets a rank (0 when bad) and a
/// status byte (0 good, 1 bad); `offset_width` is 4 (Arrow's list / string) or 8
/// (large_list / large_string), `n + 1` offsets.
pub const kernels = struct {
    pub fn rank_cards_status(cards: [*]const u8, n: u64, k: u32, out: [*]u16, status: [*]u8) callconv(.c) void {
        rank_card_rows(cards[0 .. n * k], k, out[0..n], status[0..n]);
    }

    pub const rank_lists_status = offsets_kernel(rank_lists);

    pub fn rank_sets_status(sets: [*]const u64, n: u64, out: [*]u16, status: [*]u8) callconv(.c) void {
        columns.rank_sets(sets[0..n], out[0..n], status[0..n]);
    }

    pub const rank_strings_status = offsets_kernel(rank_strings);
};

/// A kernel over Arrow offsets (i32 for list / string, i64 for the large types) from a
/// function generic over the offset type.
fn offsets_kernel(comptime rank_rows: anytype) fn ([*]const u8, *const anyopaque, u32, u64, [*]u16, [*]u8) callconv(.c) void {
    return struct {
        fn call(bytes: [*]const u8, offsets: *const anyopaque, offset_width: u32, n: u64, out: [*]u16, status: [*]u8) callconv(.c) void {
            std.debug.assert(offset_width == 4 or offset_width == 8);
            switch (offset_width) {
                inline 4, 8 => |width| {
                    const Offset = if (width == 4) i32 else i64;
                    const typed: [*]const Offset = @ptrCast(@alignCast(offsets));
                    rank_rows(Offset, bytes, typed[0 .. n + 1], out[0..n], status[0..n]);
                },
                else => unreachable,
            }
        }
    }.call;
}

test "rank_strings: agrees with parse + rank, flags every kind of bad row" {
    const rows = [_][]const u8{
        "AhKd7c2s3sQhJd", "ah kd,7C 10s", "", "Ax", "1h", "AhAh", "Kd A", "2c3c4c5c6c7c8c9c", "Ts",
    };
    var text: [128]u8 = undefined;
    var offsets: [rows.len + 1]i32 = undefined;
    var length: usize = 0;
    for (rows, 0..) |row, i| {
        offsets[i] = @intCast(length);
        @memcpy(text[length..][0..row.len], row);
        length += row.len;
    }
    offsets[rows.len] = @intCast(length);
    var out: [rows.len]u16 = undefined;
    var status: [rows.len]u8 = undefined;
    rank_strings(i32, &text, &offsets, &out, &status);
    try std.testing.expectEqualSlices(u8, &.{ 0, 0, 0, 1, 1, 1, 1, 1, 0 }, &status);
    try std.testing.expectEqual(eval.empty_hand_rank, out[2]); // no cards: a hand
    try std.testing.expectEqual(eval.rank_cards(&.{ 38, 50, 18, 0, 1, 36, 48 }), out[0]);
    try std.testing.expectEqual(eval.rank_cards(&.{ 38, 50, 18, 8 }), out[1]);
    try std.testing.expectEqual(eval.rank_cards(&.{8}), out[8]);
    try std.testing.expectEqual(@as(u16, 0), out[3]);
}

test "rank_lists and rank_card_rows: ragged and fixed rows, bad ones flagged" {
    const values = [_]u8{ 12, 25, 38, 51, 0, 13, 7, 60, 1, 1, 5 };
    const offsets = [_]i64{ 0, 7, 8, 10, 11, 11 };
    var out: [5]u16 = undefined;
    var status: [5]u8 = undefined;
    rank_lists(i64, &values, &offsets, &out, &status);
    try std.testing.expectEqualSlices(u8, &.{ 0, 1, 1, 0, 0 }, &status);
    try std.testing.expectEqual(eval.rank_cards(values[0..7]), out[0]);
    try std.testing.expectEqual(eval.rank_cards(values[10..11]), out[3]);
    try std.testing.expectEqual(eval.empty_hand_rank, out[4]); // no cards: a hand

    var fixed_out: [1]u16 = undefined;
    var fixed_status: [1]u8 = undefined;
    rank_card_rows(values[0..7], 7, &fixed_out, &fixed_status);
    try std.testing.expectEqual(out[0], fixed_out[0]);
    try std.testing.expectEqual(@as(u8, 0), fixed_status[0]);
    rank_card_rows(&.{}, 0, &fixed_out, &fixed_status);
    try std.testing.expectEqual(eval.empty_hand_rank, fixed_out[0]);
    try std.testing.expectEqual(@as(u8, 0), fixed_status[0]);
}

test "rank_string_fast: takes the common shapes, leaves the rest" {
    var rank: u16 = 0;
    var bad: u8 = 9;
    try std.testing.expect(rank_string_fast("AhKd7c2s3sQhJd", &rank, &bad));
    try std.testing.expectEqual(@as(u8, 0), bad);
    try std.testing.expectEqual(eval.rank_cards(&.{ 38, 50, 18, 0, 1, 36, 48 }), rank);
    try std.testing.expect(rank_string_fast("Ah Kd 7c", &rank, &bad));
    try std.testing.expect(!rank_string_fast("Ah10d", &rank, &bad));
    try std.testing.expect(!rank_string_fast("AhAh", &rank, &bad));
    try std.testing.expect(!rank_string_fast("Ah  Kd", &rank, &bad));
    try std.testing.expect(rank_string_fast("Ah Kd 7c 2s 3s", &rank, &bad)); // 14 bytes too
    try std.testing.expectEqual(eval.rank_cards(&.{ 38, 50, 18, 0, 1 }), rank);
}

test "rank_strings: equal totals but uneven rows leave the fixed-width road" {
    const text = "AhKd7c2s3sQh" ++ "AhKd7c2s3sQhJdTs"; // 12 + 16 bytes: 28, like two of 14
    const offsets = [_]i64{ 0, 12, 28 };
    var out: [2]u16 = undefined;
    var status: [2]u8 = undefined;
    rank_strings(i64, text, &offsets, &out, &status);
    try std.testing.expectEqualSlices(u8, &.{ 0, 1 }, &status);
    try std.testing.expectEqual(eval.rank_cards(&.{ 38, 50, 18, 0, 1, 36 }), out[0]);
    try std.testing.expectEqual(@as(u16, 0), out[1]);
}
