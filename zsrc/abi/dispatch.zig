//! Which kernels run: the CPU levels this library was built with, what this CPU (and its
//! OS) supports, found with CPUID and XGETBV, and the level in use, process-wide.
//!
//! abi/kernels.zig is compiled once per level (build.zig) and each copy exports its functions
//! under its own prefix; `kernel_table.resolve` gathers one copy's functions into a table.
const std = @import("std");
const assert = std.debug.assert;
const builtin = @import("builtin");
const kernel_table = @import("kernel_table.zig");
const arena_deal = @import("../arena/deal.zig");

/// CPU levels with kernels in this library, each a superset of the one before. `avx2`
/// (AVX2 + BMI2, x86-64-v3) and `avx512` (x86-64-v4 + VBMI, BITALG, VPOPCNTDQ, VNNI, GFNI)
/// exist on x86-64 only; `baseline` runs on any CPU of the target architecture.
pub const Level = enum(u32) { baseline = 0, avx2 = 1, avx512 = 2 };

const is_x86_64 = builtin.cpu.arch == .x86_64;
const baseline_kernels = kernel_table.resolve("pp_k_baseline_");
const avx2_kernels = if (is_x86_64) kernel_table.resolve("pp_k_avx2_") else baseline_kernels;
const avx512_kernels = if (is_x86_64) kernel_table.resolve("pp_k_avx512_") else baseline_kernels;

/// Baseline until the loader selects a level (the Python layer does so at import).
var active_level: std.atomic.Value(u32) = .init(@backingInt(Level.baseline));

pub fn kernels() *const kernel_table.Kernels {
    const in_use = active_level.load(.monotonic);
    assert(in_use <= @backingInt(Level.avx512)); // `select` stores no other
    return switch (in_use) {
        @backingInt(Level.avx512) => &avx512_kernels,
        @backingInt(Level.avx2) => &avx2_kernels,
        else => &baseline_kernels,
    };
}

/// Whether this CPU (and its OS, which must save the AVX registers) runs the avx2 kernels.
fn cpu_has_avx2_level() bool {
    if (!is_x86_64) return false;
    const leaf1 = cpuid(1, 0);
    const osxsave = leaf1.ecx & (1 << 27) != 0;
    const avx = leaf1.ecx & (1 << 28) != 0;
    if (!osxsave or !avx) return false;
    if (xgetbv0() & 0b110 != 0b110) return false; // XMM and YMM state enabled by the OS
    const leaf7 = cpuid(7, 0);
    const avx2 = leaf7.ebx & (1 << 5) != 0;
    const bmi1 = leaf7.ebx & (1 << 3) != 0;
    const bmi2 = leaf7.ebx & (1 << 8) != 0;
    const leaf81 = cpuid(0x8000_0001, 0);
    const lzcnt = leaf81.ecx & (1 << 5) != 0;
    const fma = leaf1.ecx & (1 << 12) != 0;
    const movbe = leaf1.ecx & (1 << 22) != 0;
    return avx2 and bmi1 and bmi2 and lzcnt and fma and movbe;
}

/// Whether this CPU runs the avx512 kernels: the avx2 level, AVX-512 F, DQ, IFMA, CD, BW,
/// VL, VBMI, BITALG, VPOPCNTDQ, VNNI and GFNI (every CPU with VBMI has the rest: Ice Lake,
/// Zen 4 and later), and an OS that saves the mask and 512-bit registers.
fn cpu_has_avx512_level() bool {
    if (!is_x86_64 or !cpu_has_avx2_level()) return false;
    // XCR0: XMM, YMM, opmask, upper halves of ZMM0-15, ZMM16-31.
    if (xgetbv0() & 0b1110_0110 != 0b1110_0110) return false;
    const leaf7 = cpuid(7, 0);
    const ebx_wanted: u32 = (1 << 16) | (1 << 17) | (1 << 21) | (1 << 28) | (1 << 30) | (1 << 31); // F DQ IFMA CD BW VL
    // VBMI, GFNI, VNNI, BITALG, VPOPCNTDQ.
    const ecx_wanted: u32 = (1 << 1) | (1 << 8) | (1 << 11) | (1 << 12) | (1 << 14);
    return leaf7.ebx & ebx_wanted == ebx_wanted and leaf7.ecx & ecx_wanted == ecx_wanted;
}

const CpuidResult = struct { eax: u32, ebx: u32, ecx: u32, edx: u32 };

fn cpuid(leaf: u32, subleaf: u32) CpuidResult {
    var eax: u32 = undefined;
    var ebx: u32 = undefined;
    var ecx: u32 = undefined;
    var edx: u32 = undefined;
    asm volatile ("cpuid"
        : [_] "={eax}" (eax),
          [_] "={ebx}" (ebx),
          [_] "={ecx}" (ecx),
          [_] "={edx}" (edx),
        : [_] "{eax}" (leaf),
          [_] "{ecx}" (subleaf),
    );
    return .{ .eax = eax, .ebx = ebx, .ecx = ecx, .edx = edx };
}

fn xgetbv0() u32 {
    return asm volatile ("xgetbv"
        : [_] "={eax}" (-> u32),
        : [_] "{ecx}" (@as(u32, 0)),
        : .{ .edx = true });
}

/// The level in use, as `Level`'s number.
pub fn level() u32 {
    const in_use = active_level.load(.monotonic);
    assert(in_use <= @backingInt(Level.avx512)); // `select` stores no other
    return in_use;
}

/// Bit i set when this CPU can run level i (bit 0, baseline, always).
pub fn supported() u32 {
    const levels = 1 | (@as(u32, @intFromBool(cpu_has_avx2_level())) << 1) |
        (@as(u32, @intFromBool(cpu_has_avx512_level())) << 2);
    // Each level a superset of the one before: a CPU that runs one runs those below it.
    assert(levels == 0b001 or levels == 0b011 or levels == 0b111);
    return levels;
}

/// Switches every later call to `wanted`'s kernels; false (and no change) when this CPU
/// cannot run it.
pub fn select(wanted: u32) bool {
    if (wanted > @backingInt(Level.avx512)) return false;
    if (supported() & (@as(u32, 1) << @intCast(wanted)) == 0) return false;
    active_level.store(wanted, .monotonic);
    arena_deal.use_dealer(kernels().deal);
    assert(level() == wanted);
    return true;
}
