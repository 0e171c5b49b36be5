//! Bit tricks on card sets: select the n-th set bit, deposit and extract bits (BMI2 PDEP and
//! PEXT where the CPU has them, which the kernels' CPU level decides at compile time).
const std = @import("std");
const assert = std.debug.assert;
const builtin = @import("builtin");
const encoding = @import("encoding.zig");
const random = @import("random.zig");

/// Whether this compilation's CPU has BMI2 (the avx2 and avx512 levels do).
pub const has_pdep = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .bmi2);

/// Whether this compilation's CPU permutes bytes across a 64-byte vector (`vpermb`,
/// `lookup64`: AVX-512 VBMI, the avx512 level's).
pub const has_vbmi = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHasAll(builtin.cpu.features, .{ .avx512bw, .avx512vbmi });

/// AVX2 without VBMI's byte permutes (the avx2 level): 64-byte tables are looked up by
/// four 16-byte shuffles (`lookup32`).
pub const has_avx2_only = !has_vbmi and builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx2);

/// The calling convention LLVM's vector intrinsics are declared with (`extern fn
/// @"llvm.x86…"`): SysV passes vectors in registers on every OS. Windows x64's C convention
/// would pass them by reference, which LLVM cannot select as an intrinsic, so the Windows
/// build would fail with the C default.
pub const intrinsic: std.builtin.CallingConvention = .{ .x86_64_sysv = .{} };

extern fn @"llvm.x86.avx512.permvar.qi.512"(@Vector(64, u8), @Vector(64, u8)) callconv(intrinsic) @Vector(64, u8);

/// `vpermb` (AVX-512 VBMI, the avx512 level's): each byte of `index` picks
/// `table[index & 63]`.
pub inline fn lookup64(table: @Vector(64, u8), index: @Vector(64, u8)) @Vector(64, u8) {
    return @"llvm.x86.avx512.permvar.qi.512"(table, index);
}

/// Position of the `n`-th (from 0) set bit of `set`; `n < @popCount(set)`.
pub inline fn nth_set_bit(set: u64, n: u32) u6 {
    assert(n < @popCount(set));
    if (comptime has_pdep) {
        const position: u6 = @intCast(@ctz(pdep(@as(u64, 1) << @intCast(n), set)));
        assert(set >> position & 1 != 0);
        return position;
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
    assert(n < @popCount(set));
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
    // The byte holds the bit: more set bits in it than those of `n` before it.
    assert(n - before < @popCount(bits));
    const position = byte + select_in_byte[bits][n - before];
    // The bit found is set, with exactly `n` set bits below it.
    assert(set >> position & 1 != 0);
    assert(@popCount(set & ((@as(u64, 1) << position) - 1)) == n);
    return position;
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
        const set = x & encoding.full_deck;
        if (set == 0) continue;
        const n: u32 = @intCast(x % @popCount(set));
        try std.testing.expectEqual(nth_set_bit_portable(set, n), nth_set_bit(set, n));
        try std.testing.expect(set & (@as(u64, 1) << nth_set_bit(set, n)) != 0);
    }
}

/// A 64-byte table as `lookup32` reads it: four 16-byte chunks, chunk k the XOR of the
/// table's bytes 16k.. with 16(k-1).. (so the XOR of chunks 0..k is bytes 16k..), each
/// repeated in both halves of a 32-byte vector (`vpshufb` looks within each half).
pub fn chunks32(bytes: @Vector(64, u8)) [4]@Vector(32, u8) {
    const all: [64]u8 = bytes;
    var out: [4]@Vector(32, u8) = undefined;
    for (&out, 0..) |*chunk, k| {
        var v: [32]u8 = undefined;
        for (0..16) |j| {
            const byte = all[16 * k + j] ^ if (k > 0) all[16 * (k - 1) + j] else 0;
            v[j] = byte;
            v[16 + j] = byte;
        }
        chunk.* = v;
    }
    return out;
}

extern fn @"llvm.x86.avx2.pshuf.b"(@Vector(32, u8), @Vector(32, u8)) callconv(intrinsic) @Vector(32, u8);

/// Byte `index[l]` (below 64) of the table whose chunks are `chunks` (`chunks32`), each lane:
/// chunk k is looked up with index - 16k, which is negative (bit 7 set: `vpshufb` gives 0)
/// below 16k and otherwise has the index's low four bits; the XOR of the chunks at or below
/// the index's is its table's byte. Four shuffles, three subtractions and three XORs.
pub inline fn lookup32(chunks: [4]@Vector(32, u8), index: @Vector(32, u8)) @Vector(32, u8) {
    var result = @"llvm.x86.avx2.pshuf.b"(chunks[0], index);
    inline for (1..4) |k| {
        result ^= @"llvm.x86.avx2.pshuf.b"(chunks[k], index -% @as(@Vector(32, u8), @splat(16 * k)));
    }
    return result;
}
