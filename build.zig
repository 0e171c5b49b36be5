//! Builds libpypoker (the shared library the Python package loads) and its tests.
//!
//! `zig build -Doptimize=ReleaseFast`  → zig-out/lib/libpypoker.so (the Python build hook runs this)
//! `zig build test`                     → the Zig unit tests and the exhaustive checks
const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});

    // The table generator always runs natively and optimised: it does real work.
    const gen = b.addExecutable(.{
        .name = "gen_tables",
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/gen_tables.zig"),
            .target = b.graph.host,
            .optimize = .ReleaseSafe,
        }),
    });
    const gen_run = b.addRunArtifact(gen);
    const tables_zig = gen_run.addOutputFileArg("tables.zig");
    const tables = b.createModule(.{ .root_source_file = tables_zig });

    const capi = b.createModule(.{
        .root_source_file = b.path("zsrc/capi.zig"),
        .target = target,
        .optimize = optimize,
        .strip = optimize != .debug,
        .imports = &.{.{ .name = "tables", .module = tables }},
    });
    const lib = b.addLibrary(.{ .name = "pypoker", .linkage = .dynamic, .root_module = capi });
    b.installArtifact(lib);

    // The C header, generated from capi.zig's declarations (see zsrc/gen_header.zig).
    const header_gen = b.addExecutable(.{
        .name = "gen_header",
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/gen_header.zig"),
            .target = b.graph.host,
            .optimize = .Debug,
            .imports = &.{.{ .name = "capi", .module = b.createModule(.{
                .root_source_file = b.path("zsrc/capi.zig"),
                .target = b.graph.host,
                .imports = &.{.{ .name = "tables", .module = tables }},
            }) }},
        }),
    });
    const header = b.addRunArtifact(header_gen).addOutputFileArg("pypoker.h");
    b.getInstallStep().dependOn(&b.addInstallFileWithDir(header, .lib, "pypoker.h").step);

    // Tests run optimised with safety checks: the exhaustive ones rank 150 M hands.
    const tests = b.addTest(.{
        .root_module = b.createModule(.{
            .root_source_file = b.path("zsrc/tests.zig"),
            .target = target,
            .optimize = .ReleaseSafe,
            .imports = &.{.{ .name = "tables", .module = tables }},
        }),
    });
    const test_step = b.step("test", "Run the Zig tests (exhaustive over 5-, 6- and 7-card hands)");
    test_step.dependOn(&b.addRunArtifact(tests).step);
}
