//! Uniform dealing from a card set, one random draw per card (seed 001).
//!
//! The n-th card still in the deck is found without a loop: PDEP deposits `1 << n` onto the
//! deck's n-th set bit and TZCNT reads its position (cards/bits.zig); the draws come from the
//! counter-based stream (cards/random.zig), so row i is the same whatever the thread count, batch
//! size or start row.
//!
//! On the avx512 level rows are dealt `lanes` abreast in vectors: the same words, the same
//! draws, and the same cards as every other level, each found by its place in the deck
//! (`cards/deck_lanes.zig`), where the scalar loop spends a hash, a 128-bit multiply, a PDEP and a
//! byte store on each card in turn.
const std = @import("std");
const encoding = @import("encoding.zig");
const bits = @import("bits.zig");
const random = @import("random.zig");
const deck_lanes = @import("deck_lanes.zig");
const assert = std.debug.assert;

/// Deals `out.len / k` rows of `k` distinct cards from `deck`, rows numbered from `first_row`.
pub fn deal_rows(key: u64, first_row: u64, k: u32, deck: u64, out: []u8) void {
    assert(k >= 1);
    assert(@popCount(deck) >= k);
    assert(out.len % k == 0);
    const rows = out.len / k;
    var i: usize = 0;
    // The lanes' table of the deck costs more than a few rows dealt one by one (an arena
    // deals one row a hand).
    if (comptime deck_lanes.available) {
        if (rows >= lanes) {
            const table: deck_lanes.Table = .of(deck);
            while (i + lanes <= rows) : (i += lanes) deal_lanes(key, first_row + i, k, deck, table, out[i * k ..]);
        }
    }
    assert(i <= rows);
    for (i..rows) |r| deal_row(key, first_row + r, deck, out[r * k ..][0..k]);
}

/// Rows dealt side by side on the vector level: a byte each in one AVX-512 vector.
const lanes = deck_lanes.lanes;

/// Row `row`: `out.len` cards.
fn deal_row(key: u64, row: u64, deck: u64, out: []u8) void {
    const deck_size: u32 = @popCount(deck);
    assert(out.len <= deck_size);
    assert(out.len <= random.draws_per_row);
    var remaining = deck;
    for (out, 0..) |*card, j| {
        const n = random.below(random.draw_word(key, row, j), deck_size - @as(u32, @intCast(j)));
        const drawn = bits.nth_set_bit(remaining, n);
        remaining &= ~(@as(u64, 1) << drawn);
        card.* = drawn;
    }
    // Pair of the draws: each took a card of the deck, a different one.
    assert(@popCount(deck) - @popCount(remaining) == out.len);
    assert(remaining & ~deck == 0);
}

/// Rows `first_row .. first_row + lanes` into the start of `out`, as `deal_row` deals them.
/// `out` runs to the end of the caller's buffer: a row is written a word at a time, the
/// bytes past its end overwritten by the rows after it, and only the buffer's last bytes
/// are written one by one.
fn deal_lanes(key: u64, first_row: u64, k: u32, deck: u64, table: deck_lanes.Table, out: []u8) void {
    const Lanes = @Vector(lanes, u64);
    const deck_size: u32 = @popCount(deck);
    assert(k <= deck_size);
    assert(out.len >= lanes * k);
    // `draw_word`'s counter, row × draws_per_row + j, times the gamma: the row's part once.
    const rows = @as(Lanes, @splat(first_row)) +% std.simd.iota(u64, lanes);
    const bases = @as(Lanes, @splat(key)) +% rows *% @as(Lanes, @splat(random.draws_per_row *% random.golden_gamma));
    var places: deck_lanes.DeckLanes(encoding.card_count) = .{ .table = table };
    // Card j of row l in byte j % 8 of `packed_words[j / 8][l]`.
    var packed_words: [(encoding.card_count + 7) / 8][lanes]u64 = undefined;
    var chunk: Lanes = @splat(0);
    var j: u32 = 0;
    while (j < k) : (j += 1) {
        const words = random.mix64_lanes(lanes, bases +% @as(Lanes, @splat(@as(u64, j) *% random.golden_gamma)));
        const n: deck_lanes.Bytes = @intCast(random.below_lanes(lanes, words, deck_size - j));
        const cards: Lanes = places.take(n);
        chunk |= cards << @splat(@as(u6, @intCast(j % 8 * 8)));
        if (j % 8 == 7 or j + 1 == k) {
            packed_words[j / 8] = chunk;
            chunk = @splat(0);
        }
    }
    var offset: usize = 0;
    for (0..lanes) |l| {
        var c: usize = 0;
        while (c < k) : (c += 8) {
            const word = packed_words[c / 8][l];
            const at = offset + c;
            if (out.len - at >= 8) {
                std.mem.writeInt(u64, out[at..][0..8], word, .little);
            } else for (0..k - c) |b| {
                out[at + b] = @truncate(word >> @intCast(b * 8));
            }
        }
        offset += k;
    }
    assert(offset == lanes * k);
}

/// This file's kernel, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// `deal_rows` on key, first row, k, deck, out, rows.
pub const kernels = struct {
    pub fn deal(key: u64, first_row: u64, k: u32, deck: u64, out: [*]u8, rows: u64) callconv(.c) void {
        deal_rows(key, first_row, k, deck, out[0 .. rows * k]);
    }
};

test "deal_rows: distinct cards, never excluded ones, rows independent of the start" {
    const deck = encoding.full_deck & ~@as(u64, 0xF0F0);
    var all: [700]u8 = undefined;
    deal_rows(random.seed_key(7), 0, 7, deck, &all);
    for (0..100) |row| {
        var seen: u64 = 0;
        for (all[row * 7 ..][0..7]) |card| {
            try std.testing.expect(deck & (@as(u64, 1) << @intCast(card)) != 0);
            try std.testing.expect(seen & (@as(u64, 1) << @intCast(card)) == 0);
            seen |= @as(u64, 1) << @intCast(card);
        }
    }
    var tail: [70]u8 = undefined;
    deal_rows(random.seed_key(7), 90, 7, deck, &tail);
    try std.testing.expectEqualSlices(u8, all[630..700], &tail);
}

test "deal_rows: the vector level deals every row as deal_row does" {
    var out: [(3 * lanes + 5) * 52]u8 = undefined;
    var row: [52]u8 = undefined;
    const decks = [_]u64{ encoding.full_deck, encoding.full_deck & ~@as(u64, 0x0F00_0000_F0F0), @as(u64, 0x7F) << 30 };
    for (decks) |deck| {
        for ([_]u32{ 1, 2, 5, 7, 8, 9, 17, @popCount(deck) }) |k| {
            if (k > @popCount(deck)) continue;
            for ([_]usize{ 1, lanes - 1, lanes, 3 * lanes + 5 }) |rows| {
                const cards = out[0 .. rows * k];
                deal_rows(random.seed_key(k), 1 << 40, k, deck, cards);
                for (0..rows) |r| {
                    deal_row(random.seed_key(k), (1 << 40) + r, deck, row[0..k]);
                    try std.testing.expectEqualSlices(u8, row[0..k], cards[r * k ..][0..k]);
                }
            }
        }
    }
}
