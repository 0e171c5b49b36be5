//! The C ABI: every function libpypoker exports, and the only place that does.
//!
//! Rules every export follows:
//! - it returns a `Status` (or a plain value that cannot fail); it never aborts the process;
//! - it checks its pointers and lengths before touching memory, and card ids as it ranks;
//! - on failure it fills `*err` (row, card, position) when given one and writes no result
//!   that looks valid (rank outputs are zeroed: 0 is never a rank);
//! - it validates, dispatches to the kernels of the CPU level in use (abi/dispatch.zig), and
//!   turns what failed into a status (abi/status.zig): it holds no algorithm of its own.
//!
//! The exports live in `exports/`, a file per area; `groups` lists them. `abi/gen_header.zig` turns
//! their declarations into the C header the Python layer hands to cffi, so the two cannot
//! drift; `abi_version` guards against a stale library.
const std = @import("std");
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const equity = @import("../equity/known_exact.zig");
const combos = @import("../cards/combos.zig");
const features = @import("../features/strength.zig");
const spot = @import("../equity/spot.zig");

/// The export groups: each file's `api` holds `pub fn pp_…` declarations, and its source is
/// where abi/gen_header.zig reads their parameter names (a function's type has none).
pub const groups = .{
    .{ .api = @import("exports/library.zig").api, .source = @embedFile("exports/library.zig") },
    .{ .api = @import("exports/ranking.zig").api, .source = @embedFile("exports/ranking.zig") },
    .{ .api = @import("exports/columns.zig").api, .source = @embedFile("exports/columns.zig") },
    .{ .api = @import("exports/cards.zig").api, .source = @embedFile("exports/cards.zig") },
    .{ .api = @import("exports/equity.zig").api, .source = @embedFile("exports/equity.zig") },
    .{ .api = @import("exports/features.zig").api, .source = @embedFile("exports/features.zig") },
    .{ .api = @import("exports/arena.zig").api, .source = @embedFile("exports/arena.zig") },
    .{ .api = @import("exports/agents.zig").api, .source = @embedFile("exports/agents.zig") },
    .{ .api = @import("exports/rl.zig").api, .source = @embedFile("exports/rl.zig") },
    .{ .api = @import("exports/reader.zig").api, .source = @embedFile("exports/reader.zig") },
    .{ .api = @import("exports/games.zig").api, .source = @embedFile("exports/games.zig") },
    .{ .api = @import("exports/best_five.zig").api, .source = @embedFile("exports/best_five.zig") },
};

/// The types the exports pass, written into the header: the enums with their constants'
/// prefix, and each struct in this order (a struct must follow any it holds).
pub const Status = @import("status.zig").Status;
pub const header_enums = .{
    .{ Status, "PP_" },
    .{ @import("../arena/rules.zig").Refusal, "PP_REFUSED_" },
    .{ @import("../arena/agents/registry.zig").Fault, "PP_AGENT_FAULT_" },
    .{ equity.ResultRow, "PP_KNOWN_" },
    .{ @import("../reader/replay.zig").Fault, "PP_READER_FAULT_" },
};
pub const header_structs = .{
    @import("status.zig").Error,
    equity.Tally,
    spot.Sums,
    encoding.Accumulator,
    features.HandFeatures,
    @import("../arena/table.zig").Table,
    @import("../arena/deal.zig").Config,
    @import("../arena/play.zig").HandRecord,
    @import("../arena/play.zig").ActionRecord,
    @import("../arena/play.zig").Io,
    @import("../arena/agents/policy.zig").Agent,
    @import("../arena/agents/learner.zig").Settings,
    @import("../arena/agents/learner.zig").Slot,
    @import("../arena/agents/observation.zig").Layout,
    @import("../arena/agents/population.zig").Population,
    @import("../reader/examples.zig").Example,
};

/// Constants the Python layer reads from the generated header, as `PP_<name>`: each is
/// defined here and only here.
pub const header_constants = .{
    .{ "CARDS", encoding.card_count },
    .{ "VALUES", encoding.value_count },
    .{ "SUITS", encoding.suit_count },
    .{ "SHORT_DECK_CARDS", eval.short_deck_cards },
    .{ "HAND_CARDS_MAX", encoding.hand_cards_max },
    .{ "BOARD_CARDS_MIN", encoding.board_cards_min },
    .{ "BOARD_CARDS_MAX", encoding.board_cards_max },
    .{ "NO_CARD", encoding.no_card },
    .{ "OMAHA_HOLE_CARDS_MIN", @import("../omaha/rank.zig").hole_cards_min },
    .{ "OMAHA_HOLE_CARDS_MAX", @import("../omaha/rank.zig").hole_cards_max },
    .{ "POT_UNITS", equity.pot_units },
    .{ "PLAYERS_MIN", equity.players_min },
    .{ "PLAYERS_MAX", equity.players_max },
    .{ "KNOWN_ROWS", equity.result_rows },
    .{ "COMBOS", combos.count },
    .{ "CATEGORY_SHIFT", eval.category_shift },
    .{ "EMPTY_HAND_RANK", eval.empty_hand_rank },
    .{ "HISTOGRAM_BINS_MAX", features.bins_max },
    .{ "SHOWDOWN_PLAYERS_MAX", @import("../rank/showdown.zig").players_max },
    .{ "OMAHA_HILO_PARTS", @import("../omaha/equity.zig").hilo_sums },
    .{ "NO_LOW", @import("../omaha/low.zig").no_low },
    .{ "LOW_BEST", @import("../omaha/low.zig").best },
    .{ "LOW_WORST", @import("../omaha/low.zig").worst },
} ++ @import("../arena/constants.zig").header_constants ++
    @import("../arena/agents/constants.zig").header_constants ++
    @import("../reader/constants.zig").header_constants;

/// The ABI's version (exports/library.zig holds it), written into the header.
pub const abi_version = @import("exports/library.zig").abi_version;

comptime {
    // This object owns the tables the kernel objects link to (rank/linked_tables.zig): each file that
    // holds some lists them, and naming the list here exports them.
    _ = eval.linked_tables;
    _ = @import("../rank/columns.zig").linked_tables;
    _ = @import("../features/isomorphism.zig").linked_tables;
    _ = @import("../omaha/boards.zig").linked_tables;
    _ = @import("../omaha/low.zig").linked_tables;
    _ = @import("../rank/best_five.zig").linked_tables;
}

test {
    inline for (groups) |group| std.testing.refAllDecls(group.api);
    _ = @import("exports/ranking.zig");
    _ = @import("exports/games.zig");
}
