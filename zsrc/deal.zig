//! Uniform dealing from a card set, one random draw per card (seed 001).
//!
//! The n-th card still in the deck is found without a loop: PDEP deposits `1 << n` onto the
//! deck's n-th set bit and TZCNT reads its position (BMI2); elsewhere a portable select does
//! the same. Randomness is counter-based: the draw for card `j` of row `i` is a hash of
//! (seed, i, j), so row i is the same whatever the thread count, batch size or start row.
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("eval.zig");
const assert = std.debug.assert;

pub const full_deck: u64 = (@as(u64, 1) << eval.card_count) - 1;
pub const has_pdep = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .bmi2);

/// SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche.
pub inline fn mix64(x: u64) u64 {
    var z = x;
    z = (z ^ (z >> 30)) *% 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) *% 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

/// The random word for draw `draw` of row `row` under `seed`.
pub inline fn draw_word(key: u64, row: u64, draw: u64) u64 {
    return mix64(key +% (row *% 64 +% draw) *% 0x9e3779b97f4a7c15);
}

pub fn seed_key(seed: u64) u64 {
    return mix64(seed ^ 0x5eed_5eed_5eed_5eed);
}

/// Position of the `n`-th (from 0) set bit of `set`; `n < @popCount(set)`.
pub inline fn nth_set_bit(set: u64, n: u32) u6 {
    if (comptime has_pdep) {
        return @intCast(@ctz(pdep(@as(u64, 1) << @intCast(n), set)));
    }
    return nth_set_bit_portable(set, n);
}

pub inline fn pdep(source: u64, mask: u64) u64 {
    return asm ("pdepq %[mask], %[source], %[result]"
        : [result] "=r" (-> u64),
        : [source] "r" (source),
          [mask] "r" (mask),
    );
}

/// Gathers the bits of `source` at the set bits of `mask` into the low bits (BMI2 PEXT).
pub inline fn pext(source: u64, mask: u64) u64 {
    return asm ("pextq %[mask], %[source], %[result]"
        : [result] "=r" (-> u64),
        : [source] "r" (source),
          [mask] "r" (mask),
    );
}

/// Select without BMI2: skip whole bytes by population count, then bits.
pub fn nth_set_bit_portable(set: u64, n: u32) u6 {
    var remaining = n;
    var shift: u7 = 0;
    while (shift < 64) : (shift += 8) {
        const byte: u8 = @truncate(set >> @intCast(shift));
        const ones = @popCount(byte);
        if (remaining < ones) {
            var bits = byte;
            while (remaining > 0) : (remaining -= 1) bits &= bits - 1;
            return @intCast(shift + @ctz(bits));
        }
        remaining -= ones;
    }
    unreachable;
}

/// Uniform integer in [0, bound) from a 64-bit word, by multiply-high (no rejection loop;
/// the bias is below bound / 2^64, under 3e-18 for a deck).
pub inline fn below(word: u64, bound: u32) u32 {
    return @intCast((@as(u128, word) * bound) >> 64);
}

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
            const n = below(draw_word(key, row, j), deck_size - @as(u32, @intCast(j)));
            const card = nth_set_bit(remaining, n);
            remaining &= ~(@as(u64, 1) << card);
            out[i * k + j] = card;
        }
    }
}

test "nth_set_bit: PDEP path and portable select agree" {
    var x: u64 = 12345;
    for (0..2000) |_| {
        x = mix64(x);
        const set = x & full_deck;
        if (set == 0) continue;
        const n: u32 = @intCast(x % @popCount(set));
        try std.testing.expectEqual(nth_set_bit_portable(set, n), nth_set_bit(set, n));
        try std.testing.expect(set & (@as(u64, 1) << nth_set_bit(set, n)) != 0);
    }
}

test "deal_rows: distinct cards, never excluded ones, rows independent of the start" {
    const deck = full_deck & ~@as(u64, 0xF0F0);
    var all: [700]u8 = undefined;
    deal_rows(seed_key(7), 0, 7, deck, &all);
    for (0..100) |row| {
        var seen: u64 = 0;
        for (all[row * 7 ..][0..7]) |card| {
            try std.testing.expect(deck & (@as(u64, 1) << @intCast(card)) != 0);
            try std.testing.expect(seen & (@as(u64, 1) << @intCast(card)) == 0);
            seen |= @as(u64, 1) << @intCast(card);
        }
    }
    var tail: [70]u8 = undefined;
    deal_rows(seed_key(7), 90, 7, deck, &tail);
    try std.testing.expectEqualSlices(u8, all[630..700], &tail);
}
