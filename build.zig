//! Builds libpypoker (the shared library the Python package loads) and its tests.
//!
//! `zig build -Doptimize=ReleaseFast`  → zig-out/lib/libpypoker.so (the Python build hook runs this)
//! `zig build test`                     → the Zig unit tests and the exhaustive checks
const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});
    const tables = generatedTables(b);

    // Which compilations define the tables linked into the library once
    // (zsrc/rank/linked_tables.zig): every one but the kernel objects, which link to the library's (or a test's) copies.
    const in_kernel = linkOptions(b, false);
    const owner = linkOptions(b, true);

    // The library's own code targets the architecture's baseline CPU, so it loads anywhere;
    // the hot loops come in kernel objects, one per CPU level, chosen at run time.
    const is_x86_64 = target.result.cpu.arch == .x86_64;
    const lib_target = cpuTarget(b, target, target.result.cpu.arch, .baseline, .empty);
    const kernel_objects = kernelObjects(b, target, lib_target, optimize, tables, in_kernel);

    const library = b.createModule(.{
        .root_source_file = b.path("zsrc/libpypoker.zig"),
        .target = if (is_x86_64) lib_target else target,
        .optimize = optimize,
        .strip = optimize != .debug,
        .imports = &.{
            .{ .name = "tables", .module = tables },
            .{ .name = "link_options", .module = owner },
        },
    });
    for (kernel_objects) |object| library.addObject(object);
    const lib = b.addLibrary(.{ .name = "pypoker", .linkage = .dynamic, .root_module = library });
    b.installArtifact(lib);
    const header = installHeader(b, tables, owner);
    if (b.option([]const u8, "python-include", "Also build the CPython extension pypoker/_fastcall against the Python headers here")) |python_include| {
        addFastcall(b, target, optimize, python_include, header);
    }
    addDevelopmentSteps(b, target, tables, owner, kernel_objects);
}

/// The lookup tables, generated at build time by zsrc/rank/gen_tables.zig, as a module. The
/// generator always runs natively and optimised: it does real work.
fn generatedTables(b: *std.Build) *std.Build.Module {
    const gen = b.addExecutable(.{
        .name = "gen_tables",
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/rank/gen_tables.zig"),
            .target = b.graph.host,
            .optimize = .ReleaseSafe,
        }),
    });
    const tables_zig = b.addRunArtifact(gen).addOutputFileArg("tables.zig");
    return b.createModule(.{ .root_source_file = tables_zig });
}

/// zsrc/abi/kernels.zig compiled once per CPU level (one level off x86-64; the root of each
/// is zsrc/kernel_object.zig), each exporting its functions under its own prefix
/// (`pp_k_<level>_`).
fn kernelObjects(
    b: *std.Build,
    target: std.Build.ResolvedTarget,
    lib_target: std.Build.ResolvedTarget,
    optimize: std.builtin.OptimizeMode,
    tables: *std.Build.Module,
    in_kernel: *std.Build.Module,
) []*std.Build.Step.Compile {
    const kernel_levels = [_]struct { name: []const u8, target: std.Build.ResolvedTarget }{
        .{ .name = "baseline", .target = lib_target },
        .{ .name = "avx2", .target = cpuTarget(b, target, .x86_64, .{ .explicit = &std.Target.x86.cpu.x86_64_v3 }, .empty) },
        // x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) plus the byte permutes, bit counts, byte dot
        // products (VNNI) and bit transposes (GFNI) the row tallies use, and the 52-bit
        // multiplies (IFMA) Monte Carlo draws with: Ice Lake, Zen 4 and later.
        .{ .name = "avx512", .target = cpuTarget(b, target, .x86_64, .{ .explicit = &std.Target.x86.cpu.x86_64_v4 }, std.Target.x86.featureSet(&.{ .avx512vbmi, .avx512bitalg, .avx512vpopcntdq, .avx512vnni, .gfni, .avx512ifma })) },
    };
    const count: usize = if (target.result.cpu.arch == .x86_64) kernel_levels.len else 1;
    const objects = b.allocator.alloc(*std.Build.Step.Compile, count) catch @panic("out of memory");
    for (kernel_levels[0..count], objects) |level, *object| {
        const options = b.addOptions();
        options.addOption([]const u8, "prefix", b.fmt("pp_k_{s}_", .{level.name}));
        const module = b.createModule(.{
            .root_source_file = b.path("zsrc/kernel_object.zig"),
            .target = level.target,
            .optimize = if (optimize == .debug) .safe else optimize,
            .strip = optimize != .debug,
            .pic = true,
            .imports = &.{
                .{ .name = "tables", .module = tables },
                .{ .name = "link_options", .module = in_kernel },
            },
        });
        module.addOptions("kernel_options", options);
        object.* = b.addObject(.{
            .name = b.fmt("kernels_{s}", .{level.name}),
            .root_module = module,
        });
    }
    return objects;
}

/// The C header, generated from the exports' declarations (see zsrc/abi/gen_header.zig),
/// installed beside the library.
fn installHeader(b: *std.Build, tables: *std.Build.Module, owner: *std.Build.Module) std.Build.LazyPath {
    const header_gen = b.addExecutable(.{
        .name = "gen_header",
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/abi/gen_header.zig"),
            .target = b.graph.host,
            .optimize = .Debug,
            .imports = &.{.{ .name = "library", .module = b.createModule(.{
                .root_source_file = b.path("zsrc/libpypoker.zig"),
                .target = b.graph.host,
                .imports = &.{
                    .{ .name = "tables", .module = tables },
                    .{ .name = "link_options", .module = owner },
                },
            }) }},
        }),
    });
    const header = b.addRunArtifact(header_gen).addOutputFileArg("pypoker.h");
    b.getInstallStep().dependOn(&b.addInstallFileWithDir(header, .lib, "pypoker.h").step);
    return header;
}

/// zsrc/pyext/fastcall.c, pp.rank's one-hand and small-batch calls as a CPython extension
/// (lib/libpypoker_fastcall.so or .dylib, bin/pypoker_fastcall.dll on Windows; the Python build
/// hook names it `pypoker/_fastcall.abi3.so` or `pypoker/_fastcall.pyd`). It links nothing of
/// the library: Python hands it the exports' addresses. Its Python symbols (the stable ABI's)
/// resolve against the interpreter that imports it, as every extension's do: on ELF and
/// Mach-O at load time, on Windows through python3.dll, the stable ABI's DLL, whose import
/// library `zig dlltool` makes from zsrc/pyext/python3.def. Of NumPy it reads the array
/// struct's fields only, no header and no symbol.
fn addFastcall(
    b: *std.Build,
    target: std.Build.ResolvedTarget,
    optimize: std.builtin.OptimizeMode,
    python_include: []const u8,
    header: std.Build.LazyPath,
) void {
    const module = b.createModule(.{
        .target = target,
        .optimize = optimize,
        .strip = optimize != .debug,
        .pic = true,
        .link_libc = true, // Python.h includes the C library's headers
    });
    module.addCSourceFile(.{
        .file = b.path("zsrc/pyext/fastcall.c"),
        .flags = &.{ "-std=c11", "-Wall", "-Wextra", "-Werror" },
    });
    module.addIncludePath(header.dirname());
    const windows = target.result.os.tag == .windows;
    module.addSystemIncludePath(if (windows) windowsPythonHeaders(b, python_include) else .{ .cwd_relative = python_include });
    if (windows) module.addObjectFile(python3ImportLibrary(b, target));
    const extension = b.addLibrary(.{ .name = "pypoker_fastcall", .linkage = .dynamic, .root_module = module });
    if (!windows) extension.linker_allow_shlib_undefined = true;
    b.installArtifact(extension);
}

/// The Python headers for a Windows target: CPython's headers are the same on every platform
/// but pyconfig.h, so a copy of the given ones with zsrc/pyext/windows/pyconfig.h in its place
/// (Python.h includes it as "pyconfig.h", from its own directory first).
fn windowsPythonHeaders(b: *std.Build, python_include: []const u8) std.Build.LazyPath {
    const headers = b.addWriteFiles();
    _ = headers.addCopyDirectory(.{ .cwd_relative = python_include }, "", .{ .exclude_extensions = &.{"pyconfig.h"} });
    _ = headers.addCopyFile(b.path("zsrc/pyext/windows/pyconfig.h"), "pyconfig.h");
    return headers.getDirectory();
}

/// The import library of python3.dll for the target's machine, from zsrc/pyext/python3.def.
fn python3ImportLibrary(b: *std.Build, target: std.Build.ResolvedTarget) std.Build.LazyPath {
    const machine = switch (target.result.cpu.arch) {
        .x86_64 => "i386:x86-64",
        .aarch64 => "arm64",
        else => @panic("pypoker._fastcall: Windows on x86-64 or arm64 only"),
    };
    const dlltool = b.addSystemCommand(&.{ b.graph.zig_exe, "dlltool", "-m", machine, "-d" });
    dlltool.addFileArg(b.path("zsrc/pyext/python3.def"));
    dlltool.addArg("-l");
    return dlltool.addOutputFileArg("libpython3.a");
}

/// `zig build test` and `zig build microbench`.
fn addDevelopmentSteps(
    b: *std.Build,
    target: std.Build.ResolvedTarget,
    tables: *std.Build.Module,
    owner: *std.Build.Module,
    kernel_objects: []*std.Build.Step.Compile,
) void {
    // Tests run optimised with safety checks: the exhaustive ones rank 150 M hands.
    // `-Dtest-filter=deal_rows` runs only the tests whose names hold that text.
    const filter = b.option([]const u8, "test-filter", "Run only the tests whose names contain this");
    const tests = b.addTest(.{
        .filters = if (filter) |text| b.dupeStrings(&.{text}) else &.{},
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/tests.zig"),
            .target = target,
            .optimize = .ReleaseSafe,
            .imports = &.{
                .{ .name = "tables", .module = tables },
                .{ .name = "link_options", .module = owner },
            },
        }),
    });
    for (kernel_objects) |object| tests.root_module.addObject(object);

    // A development tool: where one ranking's time goes (`zig build microbench`).
    const microbench = b.addExecutable(.{
        .name = "microbench",
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/microbench.zig"),
            .target = target,
            .optimize = .fast,
            .imports = &.{
                .{ .name = "tables", .module = tables },
                .{ .name = "link_options", .module = owner },
            },
        }),
    });
    b.step("microbench", "Time the parts of one ranking").dependOn(&b.addRunArtifact(microbench).step);
    const test_step = b.step("test", "Run the Zig tests (exhaustive over 5-, 6- and 7-card hands)");
    test_step.dependOn(&b.addRunArtifact(tests).step);
}

fn linkOptions(b: *std.Build, owns_tables: bool) *std.Build.Module {
    const options = b.addOptions();
    options.addOption(bool, "owns_tables", owns_tables);
    return options.createModule();
}

/// `target` (its OS, OS version range and ABI: a wheel's macOS 11.0 or glibc 2.17 floor)
/// with another CPU.
fn cpuTarget(
    b: *std.Build,
    target: std.Build.ResolvedTarget,
    arch: std.Target.Cpu.Arch,
    model: std.Target.Query.CpuModel,
    features: std.Target.Cpu.Feature.Set,
) std.Build.ResolvedTarget {
    var query = std.Target.Query.fromTarget(&target.result);
    query.cpu_arch = arch;
    query.cpu_model = model;
    query.cpu_features_add = features;
    query.cpu_features_sub = .empty;
    return b.resolveTargetQuery(query);
}
