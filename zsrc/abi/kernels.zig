//! The hot loops, compiled once per CPU level (kernel_object.zig is the root of each copy)
//! and exported under that level's prefix (the build passes it in `kernel_options`). See
//! kernel_table.zig for the contract.
const std = @import("std");
const options = @import("kernel_options");
const abi = @import("kernel_table.zig");
const batch = @import("../rank/batch.zig");
const dealing = @import("../cards/deal.zig");
const enumerate = @import("../cards/enumerate.zig");
const hand_categories = @import("../rank/category_counts.zig");
const columns = @import("../rank/columns.zig");
const equity = @import("../equity/known_exact.zig");
const encoding = @import("../cards/encoding.zig");
const spot_zig = @import("../equity/spot.zig");
const sampler = @import("../equity/monte_carlo.zig");
const counter = @import("../equity/range_exact.zig");
const isomorphism = @import("../features/isomorphism.zig");
const features = @import("../features/strength.zig");
const combos = @import("../cards/combos.zig");
const omaha = @import("../omaha/rank.zig");
const omaha_equity = @import("../omaha/equity.zig");
const fives = @import("../rank/best_five.zig");

fn board_values(
    boards: [*]const u8,
    board_cards: u32,
    n: u64,
    weights: [*]const f64,
    per_board: bool,
    to_river: bool,
    bins: u32,
    equity_out: [*]f64,
    ehs2: [*]f64,
    ehs2_len: u64,
    histogram: [*]f64,
    histogram_len: u64,
    scratch: *features.Scratch,
) callconv(.c) void {
    const cells = n * combos.count;
    features.board_value_rows(
        boards[0 .. n * board_cards],
        board_cards,
        weights[0..if (per_board) cells else combos.count],
        per_board,
        to_river,
        bins,
        equity_out[0..cells],
        ehs2[0..ehs2_len],
        histogram[0..histogram_len],
        scratch,
    );
}

fn hand_features(
    holes: [*]const u8,
    boards: [*]const u8,
    board_cards: u32,
    n: u64,
    bins: u32,
    out: [*]features.HandFeatures,
    histogram: [*]f64,
) callconv(.c) void {
    features.feature_rows(
        holes[0 .. 2 * n],
        boards[0 .. n * board_cards],
        board_cards,
        bins,
        out[0..n],
        histogram[0 .. n * bins],
    );
}

fn hand_index(
    hole: u32,
    holes: [*]const u8,
    board: u32,
    boards: [*]const u8,
    per_street: bool,
    n: u64,
    out: [*]u64,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = isomorphism.index_rows(hole, holes[0 .. n * hole], board, boards[0 .. n * board], per_street, out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

fn hand_unindex(
    hole: u32,
    board: u32,
    per_street: bool,
    indices: [*]const u64,
    n: u64,
    holes: [*]u8,
    boards: [*]u8,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = isomorphism.unindex_rows(hole, board, per_street, indices[0..n], holes[0 .. n * hole], boards[0 .. n * board]) orelse return true;
    failure.* = e;
    return false;
}

fn equity_sample(
    spot: *const spot_zig.Spot,
    key: u64,
    first_game: u64,
    games: u64,
    counts: [*]sampler.Counts,
    out: [*]spot_zig.Sums,
) callconv(.c) void {
    const n = spot.players * spot_zig.slots;
    sampler.sample(spot, key, first_game, games, counts[0..n], out[0..n]);
}

fn equity_count(
    spot: *const spot_zig.Spot,
    order: [*]const u8,
    first_item: u64,
    items: u64,
    scratch: [*]f64,
    out: [*]spot_zig.Sums,
) callconv(.c) void {
    const sums = out[0 .. spot.players * spot_zig.slots];
    counter.count(
        spot,
        order[0..spot.players],
        first_item,
        items,
        scratch[0..counter.scratch_len],
        sums,
    );
}

fn equity_exact(
    holes: [*]const encoding.Accumulator,
    players: u32,
    board: *const encoding.Accumulator,
    deck: u64,
    missing: u32,
    part: u32,
    parts: u32,
    tallies: [*]equity.Tally,
    games: *u64,
) callconv(.c) void {
    var table: equity.Table = .{ .holes = holes[0..players], .tallies = tallies[0..players] };
    equity.exact(&table, board.*, deck, missing, part, parts);
    games.* += table.games;
}

fn equity_rows(
    boards: [*]const u8,
    board_cards: u32,
    holes: [*]const u8,
    players: u32,
    rows: u64,
    out: [*]f64,
) callconv(.c) void {
    const n = rows * players;
    equity.equity_rows(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * 2], players, out[0..n]);
}

fn street_equities(
    boards: [*]const u8,
    holes: [*]const u8,
    players: u32,
    rows: u64,
    flop_out: [*]f32,
    turn_out: [*]f32,
) callconv(.c) void {
    const n = rows * players;
    equity.street_equities(
        boards[0 .. rows * equity.board_cards_max],
        holes[0 .. n * 2],
        players,
        flop_out[0..n],
        turn_out[0..n],
    );
}

fn rank_cards_status(
    cards: [*]const u8,
    n: u64,
    k: u32,
    out: [*]u16,
    status: [*]u8,
) callconv(.c) void {
    columns.rank_card_rows(cards[0 .. n * k], k, out[0..n], status[0..n]);
}

/// A kernel over Arrow offsets (`n + 1` of them, i32 for list / string, i64 for the large
/// types) from a `columns` function generic over the offset type.
fn offsets_kernel(comptime rank_rows: anytype) abi.RankListsStatus {
    return struct {
        fn call(
            bytes: [*]const u8,
            offsets: *const anyopaque,
            offset_width: u32,
            n: u64,
            out: [*]u16,
            status: [*]u8,
        ) callconv(.c) void {
            switch (offset_width) {
                inline 4, 8 => |width| {
                    const Offset = if (width == 4) i32 else i64;
                    const typed: [*]const Offset = @ptrCast(@alignCast(offsets));
                    rank_rows(Offset, bytes, typed[0 .. n + 1], out[0..n], status[0..n]);
                },
                else => unreachable,
            }
        }
    }.call;
}

const rank_lists_status = offsets_kernel(columns.rank_lists);
const rank_strings_status = offsets_kernel(columns.rank_strings);

fn rank_sets_status(sets: [*]const u64, n: u64, out: [*]u16, status: [*]u8) callconv(.c) void {
    columns.rank_sets(sets[0..n], out[0..n], status[0..n]);
}

fn rank_cards(
    cards: [*]const u8,
    n: u64,
    k: u32,
    out: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = batch.rank_card_rows(cards[0 .. n * k], k, out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

/// `rank_cards` under the rules of `game` (rank/eval.zig's `Game`, checked by the caller).
fn rank_cards_in(
    cards: [*]const u8,
    n: u64,
    k: u32,
    game: u32,
    out: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = batch.rank_card_rows_in(@fromBackingInt(@intCast(game)), cards[0 .. n * k], k, out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

/// `rank_sets` under the rules of `game`.
fn rank_sets_in(sets: [*]const u64, n: u64, game: u32, out: [*]u16, failure: *abi.HandError) callconv(.c) bool {
    const e = batch.rank_sets_in(@fromBackingInt(@intCast(game)), sets[0..n], out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

fn rank_sets(sets: [*]const u64, n: u64, out: [*]u16, failure: *abi.HandError) callconv(.c) bool {
    const e = batch.rank_sets(sets[0..n], out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

fn rank_accumulators(
    accumulators: [*]const encoding.Accumulator,
    n: u64,
    out: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = batch.rank_accumulators(accumulators[0..n], out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

fn rank_accumulators_trusted(
    accumulators: [*]const encoding.Accumulator,
    n: u64,
    out: [*]u16,
) callconv(.c) void {
    batch.rank_accumulators_trusted(accumulators[0..n], out[0..n]);
}

fn rank_showdown(
    boards: [*]const u8,
    board_cards: u32,
    holes: [*]const u8,
    players: u32,
    rows: u64,
    out: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const e = batch.rank_showdown(
        boards[0 .. rows * board_cards],
        board_cards,
        holes[0 .. rows * players * 2],
        players,
        out[0 .. rows * players],
    ) orelse return true;
    failure.* = e;
    return false;
}

fn rank_omaha(
    boards: [*]const u8,
    board_cards: u32,
    holes: [*]const u8,
    hole_cards: u32,
    players: u32,
    rows: u64,
    out: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const n = rows * players;
    const e = omaha.rank_rows(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * hole_cards], hole_cards, players, out[0..n]) orelse return true;
    failure.* = e;
    return false;
}

/// Omaha hi-lo's low (omaha/low.zig) of every hand, and its high too when `highs` is given
/// (one pass); as `rank_omaha` otherwise.
fn rank_low_omaha(
    boards: [*]const u8,
    board_cards: u32,
    holes: [*]const u8,
    hole_cards: u32,
    players: u32,
    rows: u64,
    highs: ?[*]u16,
    lows: [*]u16,
    failure: *abi.HandError,
) callconv(.c) bool {
    const n = rows * players;
    const high_out: []u16 = if (highs) |h| h[0..n] else &.{};
    const e = omaha.rank_rows_hilo(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * hole_cards], hole_cards, players, high_out, lows[0..n]) orelse return true;
    failure.* = e;
    return false;
}

fn best_five(cards: [*]const u8, n: u64, k: u32, out: [*]u8, failure: *abi.HandError) callconv(.c) bool {
    const e = fives.best_five_rows(cards[0 .. n * k], k, out[0 .. n * fives.five]) orelse return true;
    failure.* = e;
    return false;
}

fn omaha_exact(
    s: *const omaha_equity.Spot,
    part: u32,
    parts: u32,
    out: [*]spot_zig.Sums,
) callconv(.c) u64 {
    return omaha_equity.exact(s.*, part, parts, out[0 .. s.players * s.sums_per_player()]);
}

fn omaha_sample(
    s: *const omaha_equity.Spot,
    key: u64,
    first_game: u64,
    games: u64,
    out: [*]spot_zig.Sums,
) callconv(.c) void {
    omaha_equity.sample(s.*, key, first_game, games, out[0 .. s.players * s.sums_per_player()]);
}

fn deal(key: u64, first_row: u64, k: u32, deck: u64, out: [*]u8, rows: u64) callconv(.c) void {
    dealing.deal_rows(key, first_row, k, deck, out[0 .. rows * k]);
}

fn combinations(deck: u64, state: *u64, out: [*]u64, capacity: u64) callconv(.c) u64 {
    return enumerate.combinations(deck, state, out[0..capacity]);
}

fn category_counts(
    deck: u64,
    k: u32,
    first_slot: u32,
    stride: u32,
    counts: *[16]u64,
) callconv(.c) void {
    hand_categories.category_counts(deck, k, first_slot, stride, counts);
}

comptime {
    // Every field of the contract's table, exported under this level's prefix from the
    // function of the same name here; the declared type makes a wrong signature a compile
    // error. kernel_table.resolve reads the same names back.
    for (@typeInfo(abi.Kernels).@"struct".field_names) |name| {
        const kernel: @FieldType(abi.Kernels, name) = &@field(@This(), name);
        @export(kernel, .{ .name = options.prefix ++ name, .visibility = .hidden });
    }
}
