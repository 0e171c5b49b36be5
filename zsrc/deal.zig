//! Uniform dealing from a card set, one random draw per card (seed 001).
//!
//! The n-th card still in the deck is found without a loop: PDEP deposits `1 << n` onto the
//! deck's n-th set bit and TZCNT reads its position (bits.zig); the draws come from the
//! counter-based stream (random.zig), so row i is the same whatever the thread count, batch
//! size or start row.
const std = @import("std");
const eval = @import("eval.zig");
const bits = @import("bits.zig");
const random = @import("random.zig");
const assert = std.debug.assert;

/// Deals `out.len / k` rows of `k` distinct cards from `deck`, rows numbered from `first_row`.
pub fn deal_rows(key: u64, first_row: u64, k: u32, deck: u64, out: []u8) void {
    assert(k >= 1 and @popCount(deck) >= k);
    assert(out.len % k == 0);
    const deck_size: u32 = @popCount(deck);
    const rows = out.len / k;
    for (0..rows) |i| {
        const row = first_row + i;
        var remaining = deck;
        for (0..k) |j| {
            const n = random.below(
                random.draw_word(key, row, j),
                deck_size - @as(u32, @intCast(j)),
            );
            const card = bits.nth_set_bit(remaining, n);
            remaining &= ~(@as(u64, 1) << card);
            out[i * k + j] = card;
        }
    }
}

test "deal_rows: distinct cards, never excluded ones, rows independent of the start" {
    const deck = eval.full_deck & ~@as(u64, 0xF0F0);
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
