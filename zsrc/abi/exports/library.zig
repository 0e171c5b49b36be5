//! Exports about the library itself: its ABI version and the CPU level in use.
const assert = @import("std").debug.assert;
const dispatch = @import("../dispatch.zig");
const Status = @import("../status.zig").Status;

/// Bump on any change to an export's signature, a struct or a status; the Python layer
/// refuses a library of another version (`_native.ABI_VERSION`).
pub const abi_version: u32 = 26;

pub const api = struct {
    pub fn pp_abi_version() callconv(.c) u32 {
        return abi_version;
    }

    /// The kernels in use: 0 = baseline, 1 = avx2 (AVX2 + BMI2), 2 = avx512.
    pub fn pp_cpu_level() callconv(.c) u32 {
        return dispatch.level();
    }

    /// Bit i set when this CPU can run level i (bit 0, baseline, always).
    pub fn pp_cpu_supported() callconv(.c) u32 {
        const levels = dispatch.supported();
        assert(levels & 1 == 1); // baseline runs anywhere
        return levels;
    }

    /// Switches every later call to the kernels of `level`; process-wide, so do it before
    /// ranking from other threads. Refuses a level this CPU cannot run.
    pub fn pp_select_cpu(level: u32) callconv(.c) Status {
        if (!dispatch.select(level)) return .bad_argument;
        assert(dispatch.level() == level);
        return .ok;
    }
};
