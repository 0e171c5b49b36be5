//! The C ABI: every function libpypoker exports, and the only place that does.
//!
//! Rules every export follows:
//! - it returns a `Status` (or a plain value that cannot fail); it never aborts the process;
//! - it checks its pointers and lengths before touching memory, and card ids as it ranks;
//! - on failure it fills `*err` (row, card, position) when given one and writes no result
//!   that looks valid (rank outputs are zeroed: 0 is never a rank);
//! - it validates, dispatches to the kernels of the CPU level in use (dispatch.zig), and
//!   turns what failed into a status (status.zig): it holds no algorithm of its own.
//!
//! The exports live in `capi/`, a file per area; `groups` lists them. `gen_header.zig` turns
//! their declarations into the C header the Python layer hands to cffi, so the two cannot
//! drift; `abi_version` guards against a stale library.
const std = @import("std");
const eval = @import("eval.zig");
const equity = @import("equity.zig");
const combos = @import("combos.zig");
const features = @import("features.zig");
const spot = @import("spot.zig");

/// The export groups: each file's `api` holds `pub fn pp_…` declarations, and its source is
/// where gen_header.zig reads their parameter names (a function's type has none).
pub const groups = .{
    .{ .api = @import("capi/library.zig").api, .source = @embedFile("capi/library.zig") },
    .{ .api = @import("capi/ranking.zig").api, .source = @embedFile("capi/ranking.zig") },
    .{ .api = @import("capi/cards.zig").api, .source = @embedFile("capi/cards.zig") },
    .{ .api = @import("capi/equity.zig").api, .source = @embedFile("capi/equity.zig") },
    .{ .api = @import("capi/features.zig").api, .source = @embedFile("capi/features.zig") },
    .{ .api = @import("capi/arena.zig").api, .source = @embedFile("capi/arena.zig") },
    .{ .api = @import("capi/agents.zig").api, .source = @embedFile("capi/agents.zig") },
};

/// The types the exports pass, written into the header.
pub const Status = @import("status.zig").Status;
pub const Error = @import("status.zig").Error;
pub const Tally = equity.Tally;
pub const Sums = spot.Sums;
pub const HandFeatures = features.HandFeatures;
pub const Accumulator = eval.Accumulator;
pub const arena = struct {
    pub const Table = @import("arena/table.zig").Table;
    pub const Config = @import("arena/deal.zig").Config;
    pub const HandRecord = @import("arena/play.zig").HandRecord;
    pub const ActionRecord = @import("arena/play.zig").ActionRecord;
    pub const Refusal = @import("arena/rules.zig").Refusal;
    pub const Agent = @import("arena/agents/policy.zig").Agent;
    pub const AgentFault = @import("arena/agents/registry.zig").Fault;
};

/// Constants the Python layer reads from the generated header, as `PP_<name>`: each is
/// defined here and only here.
pub const header_constants = .{
    .{ "POT_UNITS", equity.pot_units },
    .{ "PLAYERS_MAX", equity.players_max },
    .{ "COMBOS", combos.count },
    .{ "CATEGORY_SHIFT", eval.category_shift },
    .{ "EMPTY_HAND_RANK", eval.empty_hand_rank },
    .{ "HISTOGRAM_BINS_MAX", features.bins_max },
    .{ "SHOWDOWN_PLAYERS_MAX", @import("showdown.zig").players_max },
} ++ @import("arena/constants.zig").header_constants ++ @import("arena/agents/constants.zig").header_constants;

/// The ABI's version (capi/library.zig holds it), written into the header.
pub const abi_version = @import("capi/library.zig").abi_version;

comptime {
    // This object owns the tables the kernel objects link to (linked.zig): each file that
    // holds some lists them, and naming the list here exports them.
    _ = eval.linked_tables;
    _ = @import("columns.zig").linked_tables;
    _ = @import("isomorphism.zig").linked_tables;
    _ = @import("omaha_boards.zig").linked_tables;
}

comptime {
    // Only the library exports (gen_header.zig imports this file for its declarations).
    if (@import("root") == @This()) for (groups) |group| {
        for (@typeInfo(group.api).@"struct".decl_names) |name| {
            @export(&@field(group.api, name), .{ .name = name, .linkage = .strong });
        }
    };
}

test {
    inline for (groups) |group| std.testing.refAllDecls(group.api);
    _ = @import("capi/ranking.zig");
}
