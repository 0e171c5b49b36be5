//! Large tables linked into the library once, however many objects read them.
//!
//! The library is libpypoker.zig's object plus one kernel object per CPU level (build.zig), each
//! its own compilation. A table written as a Zig constant is copied into every object that
//! reads it: eval's lookup tables and the text kernels' pair table were in the library four
//! and three times over, 2.6 MB of the 5.9. Instead one compilation, the *owner* (build
//! option `owns_tables`: libpypoker.zig's, and the test and tool executables'), defines each table
//! and exports it under a hidden symbol, and the kernel objects declare that symbol extern.
//! Hidden symbols are resolved inside the library by the linker, with the same PC-relative
//! loads as a local constant; a table the owner did not export fails the link ("undefined
//! hidden symbol"), so the owner's list (the `linked_tables` named in abi/exports.zig) cannot silently fall behind.
const options = @import("link_options");

/// The table `value` under the symbol `pp_table_<name>`: defined here in the owner, an
/// extern reference elsewhere. Every caller passing one name must pass the same value.
pub fn table(comptime name: []const u8, comptime value: anytype) *const @TypeOf(value) {
    const Table = @TypeOf(value);
    const symbol = "pp_table_" ++ name;
    if (!options.owns_tables) return @extern(
        *const Table,
        .{ .name = symbol, .visibility = .hidden },
    );
    const Holder = struct {
        const data: Table = value;
    };
    @export(&Holder.data, .{ .name = symbol, .visibility = .hidden });
    return &Holder.data;
}

/// A zeroed buffer of type `T` under the symbol `pp_buffer_<name>`, shared alike: tables
/// built at run time (omaha/boards.zig) are one copy that every object fills and reads.
pub fn buffer(comptime name: []const u8, comptime T: type) *T {
    const symbol = "pp_buffer_" ++ name;
    if (!options.owns_tables) return @extern(*T, .{ .name = symbol, .visibility = .hidden });
    const Holder = struct {
        // Named here so each name has its own Holder: a type declared in a function is one
        // type per value it captures, and with `T` alone two buffers of one type (the u32
        // "built" flags of omaha/boards.zig and omaha/low.zig) would be one variable.
        const exported_as = symbol;
        var data: T = @import("std").mem.zeroes(T);
    };
    @export(&Holder.data, .{ .name = symbol, .visibility = .hidden });
    return &Holder.data;
}
