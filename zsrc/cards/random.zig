//! The counter-based random stream (seed 001): the word for draw `j` of row `i` is a hash of
//! (seed, i, j), so row i is the same whatever the thread count, batch size or start row.

const std = @import("std");
const assert = std.debug.assert;
const builtin = @import("builtin");

/// 2^64 / φ, SplitMix64's Weyl increment: consecutive counters times it are spread over
/// all 64 bits before mixing.
pub const golden_gamma: u64 = 0x9e3779b97f4a7c15;

/// SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche.
pub inline fn mix64(x: u64) u64 {
    var z = x;
    z = (z ^ (z >> 30)) *% 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) *% 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

/// `mix64` of every lane: vector multiplies (`vpmullq`) mix eight words at once.
pub inline fn mix64_lanes(comptime lanes: usize, x: @Vector(lanes, u64)) @Vector(lanes, u64) {
    const V = @Vector(lanes, u64);
    var z = x;
    z = (z ^ (z >> @splat(30))) *% @as(V, @splat(0xbf58476d1ce4e5b9));
    z = (z ^ (z >> @splat(27))) *% @as(V, @splat(0x94d049bb133111eb));
    return z ^ (z >> @splat(31));
}

/// Counters reserved per row: a row draws at most 64 words (a deal of the whole deck and
/// more), so rows never share a counter.
pub const draws_per_row = 64;

/// The random word for draw `draw` of row `row` under `seed`.
pub inline fn draw_word(key: u64, row: u64, draw: u64) u64 {
    return mix64(key +% (row *% draws_per_row +% draw) *% golden_gamma);
}

/// `draw_word` for rows `first_row .. first_row + lanes`, one a lane.
pub inline fn draw_words(comptime lanes: usize, key: u64, first_row: u64, draw: u64) @Vector(lanes, u64) {
    const V = @Vector(lanes, u64);
    const rows = @as(V, @splat(first_row)) +% std.simd.iota(u64, lanes);
    const counters = rows *% @as(V, @splat(draws_per_row)) +% @as(V, @splat(draw));
    return mix64_lanes(lanes, @as(V, @splat(key)) +% counters *% @as(V, @splat(golden_gamma)));
}

test "draw_words: every lane is draw_word of its row" {
    const words = draw_words(8, 0x1234_5678_9abc_def0, 1 << 40, 3);
    inline for (0..8) |l| {
        try std.testing.expectEqual(draw_word(0x1234_5678_9abc_def0, (1 << 40) + l, 3), words[l]);
    }
}

/// The stream's key for a user's seed (mixed, so nearby seeds give unrelated streams).
pub fn seed_key(seed: u64) u64 {
    return mix64(seed ^ 0x5eed_5eed_5eed_5eed);
}

/// Uniform integer in [0, bound) from a 64-bit word, by multiply-high (no rejection loop;
/// the bias is below bound / 2^64, under 3e-18 for a deck).
pub inline fn below(word: u64, bound: u32) u32 {
    assert(bound > 0);
    const result: u32 = @intCast((@as(u128, word) * bound) >> 64);
    assert(result < bound);
    return result;
}

/// `below` of every lane, the same integers, for a bound under 2^32.
pub inline fn below_lanes(comptime lanes: usize, words: @Vector(lanes, u64), bound: u32) @Vector(lanes, u64) {
    return multiply_lanes(lanes, words, bound).high;
}

/// Each lane's word × `bound` (under 2^32) as a 128-bit product: its high word (`below`'s
/// draw) and its low word (the bits a multiply-shift draw leaves for the next draw). From
/// two 32x32-bit products (`vpmuludq`): a vector has no 64x64 -> 128.
pub inline fn multiply_lanes(comptime lanes: usize, words: @Vector(lanes, u64), bound: u32) struct {
    high: @Vector(lanes, u64),
    low: @Vector(lanes, u64),
} {
    const V = @Vector(lanes, u64);
    const b: V = @splat(bound);
    const low_half: V = @splat(0xffff_ffff);
    // word × bound = (high half × bound) << 32 + low half × bound, every part below 2^64.
    const low = (words & low_half) * b;
    const middle = (words >> @splat(32)) * b + (low >> @splat(32));
    return .{ .high = middle >> @splat(32), .low = (middle << @splat(32)) | (low & low_half) };
}

/// Words of 52 bits, as `multiply52_lanes` draws from them.
pub const word52_mask: u64 = (1 << 52) - 1;

/// Whether this compilation's CPU multiplies 52-bit integers into 104-bit products in
/// vectors (AVX512-IFMA, the avx512 level's: Ice Lake, Zen 4 and later).
const ifma = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHasAll(builtin.cpu.features, .{ .avx512f, .avx512ifma });

/// Each lane's 52-bit word × `bound` (under 2^12), split at bit 52: the high part, a draw
/// in [0, bound), and the low 52 bits, the word the next draw takes. A chain of draws from
/// one word w with bounds s1, s2, ... yields exactly the mixed-radix digits of
/// floor(w × s1 × s2 ... / 2^52), so a chain whose bounds multiply to S is uniform over its
/// S outcomes within S / 2^52 (about 1e-9 for four cards of a deck, 8e-8 for five).
///
/// With IFMA a split is two instructions an eight lanes (`vpmadd52huq`, `vpmadd52luq`);
/// without, the product is one 64-bit multiply (it fits), shifted and masked. The two give
/// the same numbers.
pub inline fn multiply52_lanes(comptime lanes: usize, words: @Vector(lanes, u64), bound: u32) struct {
    high: @Vector(lanes, u64),
    low: @Vector(lanes, u64),
} {
    const V = @Vector(lanes, u64);
    assert(bound < 1 << 12);
    assert(@reduce(.And, words <= @as(V, @splat(word52_mask))));
    if (comptime ifma and lanes % 8 == 0) {
        const V8 = @Vector(8, u64);
        const b: V8 = @splat(bound);
        const all: [lanes]u64 = words;
        var high: [lanes]u64 = undefined;
        var low: [lanes]u64 = undefined;
        inline for (0..lanes / 8) |k| {
            const w: V8 = all[k * 8 ..][0..8].*;
            high[k * 8 ..][0..8].* = asm ("vpxorq %[h], %[h], %[h]\n\tvpmadd52huq %[b], %[w], %[h]"
                : [h] "=&v" (-> V8),
                : [w] "v" (w),
                  [b] "v" (b),
            );
            low[k * 8 ..][0..8].* = asm ("vpxorq %[l], %[l], %[l]\n\tvpmadd52luq %[b], %[w], %[l]"
                : [l] "=&v" (-> V8),
                : [w] "v" (w),
                  [b] "v" (b),
            );
        }
        return .{ .high = high, .low = low };
    }
    const product = words * @as(V, @splat(bound));
    return .{ .high = product >> @splat(52), .low = product & @as(V, @splat(word52_mask)) };
}

/// Half a 52-bit word: `multiply26_lanes` keeps a word as its high and low 26 bits.
pub const half26_mask: u32 = (1 << 26) - 1;

/// `multiply52_lanes` on words kept as two 26-bit halves in 32-bit lanes (word = high ×
/// 2^26 + low), the same draws and the same next words: low × bound and high × bound plus
/// the first's carry each fit 32 bits for a bound up to 64, so AVX2's 32-bit multiply
/// (`vpmulld`, eight lanes) serves, where a 64-bit multiply is three `vpmuludq` and their
/// shifts and adds on four lanes (AVX2 has no `vpmullq`).
pub inline fn multiply26_lanes(comptime lanes: usize, high: @Vector(lanes, u32), low: @Vector(lanes, u32), bound: u32) struct {
    draw: @Vector(lanes, u32),
    high: @Vector(lanes, u32),
    low: @Vector(lanes, u32),
} {
    const V = @Vector(lanes, u32);
    assert(bound <= 64);
    const mask: V = @splat(half26_mask);
    const b: V = @splat(bound);
    // high < 2^26 and bound ≤ 64: high × bound + carry < 2^32 (the carry is below 64).
    const low_product = low * b;
    const high_product = high * b + (low_product >> @splat(26));
    return .{ .draw = high_product >> @splat(26), .high = high_product & mask, .low = low_product & mask };
}

test "multiply26_lanes: the draws and words of multiply52_lanes" {
    var x: u64 = 11;
    for (0..200) |round| {
        var words: [16]u64 = undefined;
        for (&words) |*w| {
            x = mix64(x);
            w.* = x >> 12;
        }
        words[0] = word52_mask;
        words[1] = 0;
        var chain: @Vector(16, u64) = words;
        var high: @Vector(16, u32) = @truncate(chain >> @splat(26));
        var low: @Vector(16, u32) = @truncate(chain & @as(@Vector(16, u64), @splat(half26_mask)));
        const first: u32 = @intCast(1 + round % 52);
        for (0..5) |d| {
            const bound = first - @min(first - 1, @as(u32, @intCast(d)));
            const wide = multiply52_lanes(16, chain, bound);
            const halves = multiply26_lanes(16, high, low, bound);
            try std.testing.expectEqual(wide.high, @as(@Vector(16, u64), halves.draw));
            try std.testing.expectEqual(wide.low, @as(@Vector(16, u64), halves.high) << @splat(26) | halves.low);
            chain = wide.low;
            high = halves.high;
            low = halves.low;
        }
    }
}

test "multiply52_lanes: the draws of a chain are the digits of word × bounds / 2^52" {
    var x: u64 = 5;
    for (0..200) |round| {
        var words: [64]u64 = undefined;
        for (&words) |*w| {
            x = mix64(x);
            w.* = x >> 12;
        }
        words[0] = word52_mask;
        words[1] = 0;
        var chain: @Vector(64, u64) = words;
        var digits: @Vector(64, u128) = @splat(0);
        var product: @Vector(64, u128) = words;
        const first: u32 = @intCast(1 + round % 52);
        for (0..5) |d| {
            const bound = first - @min(first - 1, @as(u32, @intCast(d)));
            const split = multiply52_lanes(64, chain, bound);
            try std.testing.expect(@reduce(.And, split.high < @as(@Vector(64, u64), @splat(bound))));
            chain = split.low;
            digits = digits * @as(@Vector(64, u128), @splat(bound)) + split.high;
            product *= @as(@Vector(64, u128), @splat(bound));
        }
        try std.testing.expectEqual(product >> @splat(52), digits);
    }
}

test "below_lanes: every lane is below of its word" {
    var x: u64 = 99;
    for (1..53) |bound| {
        var words: [8]u64 = undefined;
        for (&words) |*w| {
            x = mix64(x);
            w.* = x;
        }
        words[0] = std.math.maxInt(u64);
        const drawn: [8]u64 = below_lanes(8, words, @intCast(bound));
        const left: [8]u64 = multiply_lanes(8, words, @intCast(bound)).low;
        for (words, drawn, left) |w, d, l| {
            try std.testing.expectEqual(@as(u64, below(w, @intCast(bound))), d);
            try std.testing.expectEqual(w *% bound, l);
        }
    }
}
