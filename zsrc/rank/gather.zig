//! AVX2 gathers of eight table entries at once, for the kernels that index small tables by
//! lane (features/isomorphism.zig), and AVX-512 gathers of a field of sixteen or eight table rows
//! (the Monte Carlo sampler's deals). Written as VPGATHERDD/VPGATHERDQ in inline assembly:
//! LLVM's generic gather lowering went through scalar loads here. The all-ones mask lives
//! in ymm15 (AVX2) or a mask register (AVX-512).
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

/// Whether this build's CPU level has the AVX-512 gathers (the avx512 kernel object).
pub const available512 = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512f);

/// Sixteen 32-bit words, each at `base` + 8 × its index: one field of sixteen rows of a
/// table whose rows are a multiple of 8 bytes, `base` the first row's field and the index
/// a row's number times its size / 8.
pub inline fn gather32_at8(base: [*]const u8, index: @Vector(16, u32)) @Vector(16, u32) {
    var mask: u16 = undefined; // all ones, cleared by the gather as it loads
    return asm ("kxnorw %[mask], %[mask], %[mask]\n\tvpgatherdd (%[base],%[index],8), %[out] {%[mask]}"
        : [out] "=&v" (-> @Vector(16, u32)),
          [mask] "=&^Yk" (mask),
        : [base] "r" (base),
          [index] "v" (index),
        : .{ .memory = true });
}

/// `gather32_at8` of eight 64-bit words.
pub inline fn gather64_at8(base: [*]const u8, index: @Vector(8, u32)) @Vector(8, u64) {
    var mask: u8 = undefined;
    return asm ("kxnorb %[mask], %[mask], %[mask]\n\tvpgatherdq (%[base],%[index],8), %[out] {%[mask]}"
        : [out] "=&v" (-> @Vector(8, u64)),
          [mask] "=&^Yk" (mask),
        : [base] "r" (base),
          [index] "v" (index),
        : .{ .memory = true });
}

test "gather32_at8 and gather64_at8: a field of every row asked for" {
    if (!available512) return error.SkipZigTest;
    const Row = extern struct { a: u64, b: u32, c: u32, d: u64 };
    var rows: [40]Row = undefined;
    for (&rows, 0..) |*row, r| row.* = .{ .a = r, .b = @intCast(1000 + r), .c = @intCast(7 * r), .d = (r << 40) | 3 };
    var numbers: [16]u32 = undefined;
    for (&numbers, 0..) |*n, l| n.* = @intCast((l * 13 + 5) % rows.len);
    const index = @as(@Vector(16, u32), numbers) * @as(@Vector(16, u32), @splat(@sizeOf(Row) / 8));
    const base: [*]const u8 = @ptrCast(&rows);
    const cs: [16]u32 = gather32_at8(base + @offsetOf(Row, "c"), index);
    const ds: [8]u64 = gather64_at8(base + @offsetOf(Row, "d"), @as([16]u32, index)[8..16].*);
    for (numbers, cs) |n, c| try std.testing.expectEqual(rows[n].c, c);
    for (numbers[8..16], ds) |n, d| try std.testing.expectEqual(rows[n].d, d);
}
