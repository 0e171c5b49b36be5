//! AVX2 gathers of eight table entries at once, for the kernels that index small tables by
//! lane (isomorphism.zig). Written as VPGATHERDD in inline assembly: LLVM's
//! generic gather lowering went through scalar loads here. The all-ones mask lives in ymm15.
const std = @import("std");
const builtin = @import("builtin");

/// Whether this build's CPU level has VPGATHERDD (the avx2 and avx512 kernel objects).
pub const available = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx2);
pub const lanes = 8;
pub const V = @Vector(lanes, u32);

/// Eight 32-bit table words.
pub inline fn gather(table: [*]const u32, index: V) V {
    return asm ("vpcmpeqd %%ymm15, %%ymm15, %%ymm15\n\tvpgatherdd %%ymm15, (%[base],%[index],4), %[out]"
        : [out] "=&x" (-> V),
        : [base] "r" (table),
          [index] "x" (index),
        : .{ .ymm15 = true, .memory = true });
}

/// Eight 16-bit table entries: a 32-bit gather at 2-byte steps, the high half dropped. The
/// last entry's gather reads two bytes past it, so such a table keeps a spare entry at its end.
pub inline fn gather16(table: [*]const u16, index: V) V {
    const words = asm ("vpcmpeqd %%ymm15, %%ymm15, %%ymm15\n\tvpgatherdd %%ymm15, (%[base],%[index],2), %[out]"
        : [out] "=&x" (-> V),
        : [base] "r" (table),
          [index] "x" (index),
        : .{ .ymm15 = true, .memory = true });
    return words & @as(V, @splat(0xFFFF));
}
