//! Build-time generator of `pypoker.h`, the C declarations of every export in capi/.
//!
//! The Python layer feeds this header to cffi, so the declarations it calls are the ones the
//! library was compiled from: a signature cannot drift between Zig and Python.
const std = @import("std");
const capi = @import("capi");

fn c_type(comptime T: type) []const u8 {
    if (T == c_char) return "char"; // so cffi passes Python bytes without a copy
    return switch (@typeInfo(T)) {
        .void, .@"opaque" => "void",
        .bool => "_Bool", // C99's own spelling: no <stdbool.h> needed
        .float => |float| switch (float.bits) {
            32 => "float",
            64 => "double",
            else => @compileError("no C spelling for " ++ @typeName(T)),
        },
        .int => |int| std.fmt.comptimePrint("{s}int{d}_t", .{
            if (int.signedness == .unsigned) "u" else "",
            int.bits,
        }),
        .optional => |optional| c_type(optional.child),
        .pointer => |pointer| (if (pointer.attrs.@"const") "const " else "") ++
            c_type(pointer.child) ++ "*",
        .@"struct", .@"enum" => T.c_name,
        else => @compileError("no C spelling for " ++ @typeName(T)),
    };
}

fn write_struct(w: *std.Io.Writer, comptime T: type) !void {
    try w.writeAll("typedef struct {\n");
    const info = @typeInfo(T).@"struct";
    inline for (info.field_names, info.field_types) |name, field_type| {
        try w.print("    {s} {s}{s};\n", .{ comptime c_type(element_type(field_type)), name, comptime dimensions(field_type) });
    }
    try w.print("}} {s};\n\n", .{T.c_name});
}

fn write_enum(w: *std.Io.Writer, comptime T: type, comptime prefix: []const u8) !void {
    try w.writeAll("typedef enum {\n");
    const info = @typeInfo(T).@"enum";
    inline for (info.field_names, info.field_values) |field_name, value| {
        var upper: [64]u8 = undefined;
        const name = std.ascii.upperString(&upper, field_name);
        try w.print("    {s}{s} = {d},\n", .{ prefix, name, value });
    }
    try w.print("}} {s};\n\n", .{T.c_name});
}

/// The element type of a (nested) array field, or the type itself.
fn element_type(comptime T: type) type {
    return switch (@typeInfo(T)) {
        .array => |array| element_type(array.child),
        else => T,
    };
}

/// A field's C array dimensions, `[10][2]`, or "".
fn dimensions(comptime T: type) []const u8 {
    return switch (@typeInfo(T)) {
        .array => |array| std.fmt.comptimePrint("[{d}]", .{array.len}) ++ dimensions(array.child),
        else => "",
    };
}

/// Parameter names are not in a function's type, so they are read from its declaration,
/// `pub fn name(a: A, b: B) …`, in the source of its export group (`capi.groups`).
fn write_function(
    w: *std.Io.Writer,
    comptime name: []const u8,
    comptime F: type,
    comptime source: []const u8,
) !void {
    const info = @typeInfo(F).@"fn";
    try w.print("{s} {s}(", .{ comptime c_type(info.return_type.?), name });
    if (info.param_types.len == 0) try w.writeAll("void");
    var names = ParameterNames.of(name, source);
    inline for (info.param_types, 0..) |param_type, i| {
        if (i > 0) try w.writeAll(", ");
        try w.print("{s} {s}", .{ comptime c_type(param_type.?), names.next() orelse return error.ParameterNames });
    }
    if (names.next() != null) return error.ParameterNames;
    try w.writeAll(");\n");
}

/// The names in `pub fn name(…)`, in order: what precedes each top-level `:`.
const ParameterNames = struct {
    list: []const u8,
    at: usize = 0,

    fn of(comptime name: []const u8, comptime source: []const u8) ParameterNames {
        const head = "pub fn " ++ name ++ "(";
        const start = (std.mem.indexOf(u8, source, head) orelse @panic("no declaration of " ++ name)) + head.len;
        var depth: usize = 0;
        var end = start;
        while (source[end] != ')' or depth > 0) : (end += 1) {
            switch (source[end]) {
                '(' => depth += 1,
                ')' => depth -= 1,
                else => {},
            }
        }
        return .{ .list = source[start..end] };
    }

    fn next(names: *ParameterNames) ?[]const u8 {
        // One parameter: up to the next comma outside brackets (or the end).
        var depth: usize = 0;
        var end = names.at;
        while (end < names.list.len and (names.list[end] != ',' or depth > 0)) : (end += 1) {
            switch (names.list[end]) {
                '(', '[' => depth += 1,
                ')', ']' => depth -= 1,
                else => {},
            }
        }
        const parameter = std.mem.trim(u8, names.list[names.at..end], " \n");
        names.at = @min(end + 1, names.list.len);
        const colon = std.mem.indexOfScalar(u8, parameter, ':') orelse return null;
        return std.mem.trim(u8, parameter[0..colon], " ");
    }
};

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    const args = try init.minimal.args.toSlice(init.arena.allocator());
    if (args.len != 2) return error.Usage;
    const file = try std.Io.Dir.cwd().createFile(io, args[1], .{});
    defer file.close(io);
    var buffer: [4096]u8 = undefined;
    var file_writer = file.writer(io, &buffer);
    const w = &file_writer.interface;

    try w.print(
        \\/* Generated from zsrc/capi/ by zsrc/gen_header.zig. Do not edit. */
        \\#define PP_ABI_VERSION {d}
        \\
        \\
    , .{capi.abi_version});
    inline for (capi.header_constants) |constant| {
        try w.print("#define PP_{s} {d}\n", .{ constant[0], constant[1] });
    }
    try w.writeAll("\n");
    try write_enum(w, capi.Status, "PP_");
    try write_struct(w, capi.Error);
    try write_struct(w, capi.Tally);
    try write_struct(w, capi.Sums);
    try write_struct(w, capi.Accumulator);
    try write_struct(w, capi.HandFeatures);
    try write_enum(w, capi.arena.Refusal, "PP_REFUSED_");
    try write_enum(w, capi.arena.AgentFault, "PP_AGENT_FAULT_");
    inline for (.{ capi.arena.Table, capi.arena.Config, capi.arena.HandRecord, capi.arena.ActionRecord, capi.arena.Agent }) |T| {
        try write_struct(w, T);
    }
    inline for (capi.groups) |group| {
        inline for (@typeInfo(group.api).@"struct".decl_names) |name| {
            try write_function(w, name, @TypeOf(@field(group.api, name)), group.source);
        }
    }
    try w.flush();
}
