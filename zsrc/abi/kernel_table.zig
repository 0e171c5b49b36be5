//! The contract between the exports (exports/) and the kernel objects abi/dispatch.zig picks.
//!
//! abi/kernels.zig is compiled once per CPU level (on x86-64: `baseline` for any x86-64, `avx2`
//! for x86-64-v3, AVX2 + BMI2, and `avx512` for x86-64-v4 + VBMI), each copy exporting its
//! functions under its own prefix; abi/dispatch.zig picks one set when the library loads (or when
//! asked, `pp_select_cpu`).
//! Every function here has the same signature at every level, so they are interchangeable.
const encoding = @import("../cards/encoding.zig");
const equity = @import("../equity/known_exact.zig");
const spot = @import("../equity/spot.zig");
const equity_sample = @import("../equity/monte_carlo.zig");
const isomorphism = @import("../features/isomorphism.zig");
const features = @import("../features/strength.zig");
const omaha_equity = @import("../omaha/equity.zig");

/// A failed batch's record, filled by the kernel and read by the export (abi/status.zig).
pub const HandError = @import("../cards/failure.zig").HandError;

/// Each returns true on success; on false, `*failure` says which row and why.
pub const RankCards = fn ([*]const u8, u64, u32, [*]u16, *HandError) callconv(.c) bool;
pub const RankSets = fn ([*]const u64, u64, [*]u16, *HandError) callconv(.c) bool;
/// `RankCards` and `RankSets` under a game's rules (rank/eval.zig's `Game`), its number
/// after the row count.
pub const RankCardsIn = fn ([*]const u8, u64, u32, u32, [*]u16, *HandError) callconv(.c) bool;
pub const RankSetsIn = fn ([*]const u64, u64, u32, [*]u16, *HandError) callconv(.c) bool;
pub const RankAccumulators = fn ([*]const encoding.Accumulator, u64, [*]u16, *HandError) callconv(.c) bool;
pub const RankAccumulatorsTrusted = fn ([*]const encoding.Accumulator, u64, [*]u16) callconv(.c) void;
pub const RankShowdown = fn (
    [*]const u8, // boards (may dangle when board_cards is 0)
    u32, // board_cards
    [*]const u8, // holes
    u32, // players
    u64, // rows
    [*]u16, // out
    *HandError,
) callconv(.c) bool;
/// The best five of Hold'em hands (rank/best_five.zig): ids (rows x k, 5..7), rows, k, out
/// (rows x 5).
pub const BestFive = fn ([*]const u8, u64, u32, [*]u8, *HandError) callconv(.c) bool;
/// Omaha (omaha/rank.zig): boards, board cards (3..5), holes, hole cards (4..6), players, rows,
/// out (rows x players).
pub const RankOmaha = fn ([*]const u8, u32, [*]const u8, u32, u32, u64, [*]u16, *HandError) callconv(.c) bool;
/// Omaha hi-lo (omaha/low.zig): as `RankOmaha`, the lows into the last output, the highs
/// into the one before it unless null (both in one pass).
pub const RankLowOmaha = fn ([*]const u8, u32, [*]const u8, u32, u32, u64, ?[*]u16, [*]u16, *HandError) callconv(.c) bool;
/// Omaha equity (omaha/equity.zig) on a checked spot: exact (part, parts → runouts settled)
/// or Monte Carlo (key, first game, games), adding to one Sums per player.
pub const OmahaExact = fn (*const omaha_equity.Spot, u32, u32, [*]spot.Sums) callconv(.c) u64;
pub const OmahaSample = fn (*const omaha_equity.Spot, u64, u64, u64, [*]spot.Sums) callconv(.c) void;
pub const Deal = @import("../cards/deal.zig").DealRows;
pub const Combinations = fn (u64, *u64, [*]u64, u64) callconv(.c) u64;
pub const CategoryCounts = fn (u64, u32, u32, u32, *[16]u64) callconv(.c) void;

/// Column kernels (rank/columns.zig): a rank and a status byte (0 good, 1 bad) for every row.
/// `offset_width` is 4 (Arrow's list / string) or 8 (large_list / large_string).
pub const RankCardsStatus = fn ([*]const u8, u64, u32, [*]u16, [*]u8) callconv(.c) void;
pub const RankListsStatus = fn ([*]const u8, *const anyopaque, u32, u64, [*]u16, [*]u8) callconv(.c) void;
pub const RankSetsStatus = fn ([*]const u64, u64, [*]u16, [*]u8) callconv(.c) void;
pub const RankStringsStatus = fn ([*]const u8, *const anyopaque, u32, u64, [*]u16, [*]u8) callconv(.c) void;

/// Equity (equity/known_exact.zig): hole accumulators per player, the board's, the deck left; tallies
/// per player are added to, and `*games` grows by the games settled.
pub const EquityExact = fn ([*]const encoding.Accumulator, u32, *const encoding.Accumulator, u64, u32, u32, u32, [*]equity.Tally, *u64) callconv(.c) void;
/// Boards (rows x board cards: 0, 3, 4 or 5), holes (rows x players x 2) → each row's exact
/// equity per player.
pub const EquityRows = fn ([*]const u8, u32, [*]const u8, u32, u64, [*]f64) callconv(.c) void;
/// Boards (rows x 5) and holes (rows x players x 2) → each player's flop and turn equity.
pub const StreetEquities = fn ([*]const u8, [*]const u8, u32, u64, [*]f32, [*]f32) callconv(.c) void;

/// Equity over ranges (equity/monte_carlo.zig, equity/range_exact.zig) on a prepared spot: games
/// (key, first game, count; integer counts as scratch) or count items (order, first item, count, scratch), adding to
/// `players * spot.slots` Sums.
pub const EquitySample = fn (*const spot.Spot, u64, u64, u64, [*]equity_sample.Counts, [*]spot.Sums) callconv(.c) void;
pub const EquityCount = fn (*const spot.Spot, [*]const u8, u64, u64, [*]f64, [*]spot.Sums) callconv(.c) void;

/// Hand isomorphism (features/isomorphism.zig): layout (hole cards, board cards, per street), then
/// rows; on false `*failure` says which row (kind 0 card out of range, 1 duplicate card,
/// 2 index out of range).
pub const HandIndex = fn (u32, [*]const u8, u32, [*]const u8, bool, u64, [*]u64, *HandError) callconv(.c) bool;
pub const HandUnindex = fn (u32, u32, bool, [*]const u64, u64, [*]u8, [*]u8, *HandError) callconv(.c) bool;

/// Features (features/strength.zig), on rows already checked: boards (rows x board cards), weights
/// (1,326, or per board), per board, to the river, bins → equity, E[HS²] and histograms per
/// board and combo (the last two may be empty: length 0); scratch for the counts.
pub const BoardValues = fn ([*]const u8, u32, u64, [*]const f64, bool, bool, u32, [*]f64, [*]f64, u64, [*]f64, u64, *features.Scratch) callconv(.c) void;
/// Holes (rows x 2), boards (rows x board cards), bins → features per row, histograms.
pub const HandFeatures = fn ([*]const u8, [*]const u8, u32, u64, u32, [*]features.HandFeatures, [*]f64) callconv(.c) void;

pub const Kernels = struct {
    board_values: *const BoardValues,
    hand_features: *const HandFeatures,
    hand_index: *const HandIndex,
    hand_unindex: *const HandUnindex,
    equity_sample: *const EquitySample,
    equity_count: *const EquityCount,
    equity_exact: *const EquityExact,
    equity_rows: *const EquityRows,
    street_equities: *const StreetEquities,
    rank_cards_status: *const RankCardsStatus,
    rank_lists_status: *const RankListsStatus,
    rank_sets_status: *const RankSetsStatus,
    rank_strings_status: *const RankStringsStatus,
    rank_cards: *const RankCards,
    rank_sets: *const RankSets,
    rank_cards_in: *const RankCardsIn,
    rank_sets_in: *const RankSetsIn,
    rank_accumulators: *const RankAccumulators,
    rank_accumulators_trusted: *const RankAccumulatorsTrusted,
    rank_showdown: *const RankShowdown,
    rank_omaha: *const RankOmaha,
    rank_low_omaha: *const RankLowOmaha,
    best_five: *const BestFive,
    omaha_exact: *const OmahaExact,
    omaha_sample: *const OmahaSample,
    deal: *const Deal,
    combinations: *const Combinations,
    category_counts: *const CategoryCounts,
};

/// The kernel set exported under `prefix` by one compiled copy of abi/kernels.zig: each field
/// is the symbol `prefix ++ field name`.
pub fn resolve(comptime prefix: []const u8) Kernels {
    const info = @typeInfo(Kernels).@"struct";
    var kernels: Kernels = undefined;
    inline for (info.field_names, info.field_types) |name, Type| {
        @field(kernels, name) = @extern(Type, .{ .name = prefix ++ name });
    }
    return kernels;
}
