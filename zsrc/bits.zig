//! Bit tricks on card sets: select the n-th set bit, deposit and extract bits (BMI2 PDEP and
//! PEXT where the CPU has them, which the kernels' CPU level decides at compile time).
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("eval.zig");
const random = @import("random.zig");

/// Whether this compilation's CPU has BMI2 (the avx2 and avx512 levels do).
pub const has_pdep = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .bmi2);

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

/// Select without BMI2, branch-free (Vigna's broadword select): the bytes' running
/// population counts in one multiply, the byte holding the bit found by comparing them all
/// with `n` at once, then a table for the bit within the byte. A loop over bytes and bits
/// mispredicts on every random deal: the baseline level dealt 7-card rows in 130 ns.
pub fn nth_set_bit_portable(set: u64, n: u32) u6 {
    const ones: u64 = 0x0101_0101_0101_0101;
    const high_bits: u64 = 0x8080_8080_8080_8080;
    var counts = set - ((set >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the set bits in bytes 0..i (at most 64, so the subtraction below never
    // borrows across bytes).
    const running = counts *% ones;
    // Bit 7 of byte i is set where bytes 0..i hold at most n set bits: below the bit.
    const at_most_n = ((@as(u64, n) *% ones | high_bits) - running) & high_bits;
    const byte: u6 = @intCast((((at_most_n >> 7) *% ones) >> 56) * 8);
    const before: u32 = @truncate(((running << 8) >> byte) & 0xff);
    const bits: u8 = @truncate(set >> byte);
    return byte + select_in_byte[bits][n - before];
}

/// Whether `nth_set_bit_lanes` selects in vectors: it counts bytes' and words' bits with
/// `vpopcntb`/`vpopcntq` (AVX-512 BITALG and VPOPCNTDQ, the avx512 level's).
pub const has_vector_select = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHasAll(builtin.cpu.features, .{ .avx512bw, .avx512bitalg, .avx512vpopcntdq });

/// `nth_set_bit` of each lane, the same bits: Vigna's broadword select, lane-wise. The
/// byte holding the bit comes as in `nth_set_bit_portable`; the bit within it the same way
/// one level down (the byte's bits spread one to a byte, counted by a multiply), where the
/// portable path reads a table: a vector has no cheap per-lane table read (a gather is slow
/// on Intel since the Downfall fix). About 20 vector instructions select for every lane at
/// once, against a PDEP, shifts and moves in and out of vectors per lane.
pub inline fn nth_set_bit_lanes(comptime lanes: usize, sets: @Vector(lanes, u64), n: @Vector(lanes, u64)) @Vector(lanes, u64) {
    const Lanes = @Vector(lanes, u64);
    const ones: Lanes = @splat(0x0101_0101_0101_0101);
    const high_bits: Lanes = @splat(0x8080_8080_8080_8080);
    const bytes: @Vector(lanes * 8, u8) = @bitCast(sets);
    const counts: Lanes = @bitCast(@as(@TypeOf(bytes), @popCount(bytes)));
    // Byte i: the set bits in bytes 0..i; bit 7 set where that is at most n (no borrows:
    // every byte of `n * ones | high_bits` is at least 0x80, every count at most 64).
    const running = counts *% ones;
    const at_most_n = ((spread_low_byte(lanes, n) | high_bits) -% running) & high_bits;
    const byte = @as(Lanes, @popCount(at_most_n)) << @splat(3);
    const shift: @Vector(lanes, u6) = @intCast(byte);
    const before = ((running << @splat(8)) >> shift) & @as(Lanes, @splat(0xff));
    const bits = (sets >> shift) & @as(Lanes, @splat(0xff));
    // Within the byte: byte i of `spread` is nonzero where bit i is set; adding 0x7f sets
    // its bit 7 exactly then (no carries: a byte is 0 or a power of two).
    const spread = spread_low_byte(lanes, bits) & @as(Lanes, @splat(0x8040_2010_0804_0201));
    const in_byte = ((spread +% @as(Lanes, @splat(0x7f7f_7f7f_7f7f_7f7f))) >> @splat(7)) & ones;
    const running_in_byte = in_byte *% ones;
    const wanted = n -% before;
    const below = ((spread_low_byte(lanes, wanted) | high_bits) -% running_in_byte) & high_bits;
    return byte + @as(Lanes, @popCount(below));
}

/// Each lane's low byte in all eight of its bytes (`x * 0x0101…01` for x < 256): a byte
/// shuffle (`vpshufb`, one op a cycle on both vendors) where a 64-bit multiply costs three
/// ops and 15 cycles on Intel's cores (one op, 3 cycles on Zen 4 and 5). The byte-wise
/// running sums stay multiplies: a shuffle cannot add.
inline fn spread_low_byte(comptime lanes: usize, x: @Vector(lanes, u64)) @Vector(lanes, u64) {
    const Bytes = @Vector(lanes * 8, u8);
    const every_low_byte = comptime mask: {
        @setEvalBranchQuota(10_000);
        var mask: [lanes * 8]i32 = undefined;
        for (&mask, 0..) |*m, j| m.* = @intCast(j / 8 * 8);
        break :mask mask;
    };
    return @bitCast(@shuffle(u8, @as(Bytes, @bitCast(x)), undefined, every_low_byte));
}

/// `select_in_byte[b][i]`: the position of the i-th set bit of the byte b.
const select_in_byte: [256][8]u3 = table: {
    @setEvalBranchQuota(10_000);
    var table: [256][8]u3 = @splat(@splat(0));
    for (0..256) |b| {
        var i = 0;
        for (0..8) |bit| {
            if (b >> bit & 1 != 0) {
                table[b][i] = bit;
                i += 1;
            }
        }
    }
    break :table table;
};

test "nth_set_bit: PDEP path and portable select agree" {
    var x: u64 = 12345;
    for (0..2000) |_| {
        x = random.mix64(x);
        const set = x & eval.full_deck;
        if (set == 0) continue;
        const n: u32 = @intCast(x % @popCount(set));
        try std.testing.expectEqual(nth_set_bit_portable(set, n), nth_set_bit(set, n));
        try std.testing.expect(set & (@as(u64, 1) << nth_set_bit(set, n)) != 0);
    }
}

test "nth_set_bit_lanes: every lane selects as nth_set_bit does" {
    var x: u64 = 777;
    for (0..4000) |_| {
        var sets: [8]u64 = undefined;
        var n: [8]u64 = undefined;
        for (0..8) |l| {
            x = random.mix64(x);
            // Decks of every size, down to a card, and the last card of each.
            sets[l] = x & eval.full_deck & (random.mix64(x) | random.mix64(x +% 1));
            if (sets[l] == 0) sets[l] = @as(u64, 1) << @intCast(x % 52);
            n[l] = if (x & 7 == 0) @popCount(sets[l]) - 1 else (x >> 8) % @popCount(sets[l]);
        }
        const selected: [8]u64 = nth_set_bit_lanes(8, sets, n);
        for (0..8) |l| try std.testing.expectEqual(
            @as(u64, nth_set_bit_portable(sets[l], @intCast(n[l]))),
            selected[l],
        );
    }
}
