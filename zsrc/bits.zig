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
