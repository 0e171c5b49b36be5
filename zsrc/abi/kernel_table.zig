//! The kernels: the hot loops compiled once per CPU level, and the table the exports call them
//! through.
//!
//! A kernel is declared once, beside its algorithm, in that file's `pub const kernels =
//! struct { pub fn name(…) callconv(.c) … }`; `sources` lists the files that declare some.
//! Everything else is derived from those declarations by reflection: abi/kernels.zig (one
//! copy per CPU level: `baseline` for any x86-64, `avx2` for x86-64-v3 with BMI2, `avx512` for
//! x86-64-v4 with VBMI) exports each under the level's prefix, `Kernels` has a field of the
//! same name and type, and `resolve` reads one level's set back for abi/dispatch.zig, which
//! picks a level when the library loads (or when asked, `pp_select_cpu`). A signature is
//! therefore the same at every level, so the sets are interchangeable.
const std = @import("std");
const assert = std.debug.assert;

/// Every file that declares kernels, in no particular order (names must not repeat).
pub const sources = [_]type{
    @import("../rank/batch.zig"),
    @import("../rank/columns.zig"),
    @import("../rank/best_five.zig"),
    @import("../rank/category_counts.zig"),
    @import("../omaha/rank.zig"),
    @import("../omaha/equity.zig"),
    @import("../equity/known_exact.zig"),
    @import("../equity/monte_carlo.zig"),
    @import("../equity/range_exact.zig"),
    @import("../features/strength.zig"),
    @import("../features/isomorphism.zig"),
    @import("../cards/deal.zig"),
    @import("../cards/enumerate.zig"),
};

/// One kernel: where it is declared and under which name.
pub const Declared = struct { source: type, name: [:0]const u8 };

/// Every kernel of every source, in `sources` order.
pub const declared: []const Declared = list: {
    var count: usize = 0;
    for (sources) |source| count += @typeInfo(source.kernels).@"struct".decl_names.len;
    var list: [count]Declared = undefined;
    var at: usize = 0;
    for (sources) |source| for (@typeInfo(source.kernels).@"struct".decl_names) |name| {
        check(source, name);
        list[at] = .{ .source = source, .name = name };
        at += 1;
    };
    assert(at == count);
    const final = list;
    break :list &final;
};

/// A kernel crosses from one object to another: it must use the C calling convention.
fn check(comptime source: type, comptime name: [:0]const u8) void {
    const info = @typeInfo(@TypeOf(@field(source.kernels, name)));
    if (info != .@"fn" or !std.meta.eql(info.@"fn".attrs.@"callconv", std.builtin.CallingConvention.c)) {
        @compileError(@typeName(source) ++ ".kernels." ++ name ++ " is not a callconv(.c) function");
    }
}

/// One field per declared kernel: a pointer to its function, under its name.
pub const Kernels = table: {
    var names: [declared.len][]const u8 = undefined;
    var types: [declared.len]type = undefined;
    for (declared, &names, &types) |d, *name, *Type| {
        name.* = d.name;
        Type.* = *const @TypeOf(@field(d.source.kernels, d.name));
    }
    break :table @Struct(.auto, null, &names, &types, &@splat(.{}));
};

/// The kernel set exported under `prefix` by one compiled copy of abi/kernels.zig: each field
/// is the symbol `prefix ++ field name`.
pub fn resolve(comptime prefix: []const u8) Kernels {
    comptime assert(@typeInfo(Kernels).@"struct".field_names.len == declared.len); // one field each
    var kernels: Kernels = undefined;
    inline for (declared) |d| {
        @field(kernels, d.name) = @extern(@FieldType(Kernels, d.name), .{ .name = prefix ++ d.name });
    }
    return kernels;
}
