//! The kernels of one CPU level: kernel_object.zig is the root of each copy, compiled for its
//! level, and every kernel `kernel_table.sources` declares is exported here under that level's
//! prefix (the build passes it in `kernel_options`), where kernel_table.resolve finds it.
const options = @import("kernel_options");
const kernel_table = @import("kernel_table.zig");

comptime {
    for (kernel_table.declared) |d| {
        const kernel: @FieldType(kernel_table.Kernels, d.name) = &@field(d.source.kernels, d.name);
        @export(kernel, .{ .name = options.prefix ++ d.name, .visibility = .hidden });
    }
}
