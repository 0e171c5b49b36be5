//! The root of each kernel object: abi/kernels.zig compiled for one CPU level (build.zig
//! builds one per level and links them into the library), its functions exported under the
//! level's prefix `pp_k_<level>_`.
comptime {
    _ = @import("abi/kernels.zig");
}
