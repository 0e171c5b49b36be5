//! The root of libpypoker, the shared library the Python package loads: it exports every
//! function of the export groups (abi/exports.zig) under its own name, and owns the tables
//! the kernel objects link to (rank/linked_tables.zig). The kernels themselves come in one
//! object per CPU level (kernel_object.zig), linked in by build.zig.
//!
//! abi/gen_header.zig imports this file as the module `library` to read the same
//! declarations; only the library's own compilation exports them.
pub const exports = @import("abi/exports.zig");

comptime {
    if (@import("root") == @This()) for (exports.groups) |group| {
        for (@typeInfo(group.api).@"struct".decl_names) |name| {
            @export(&@field(group.api, name), .{ .name = name, .linkage = .strong });
        }
    };
}
