//! Exports of the solver and ML features: every hand against a range on a board, per-hand
//! features (HS, EHS, EHS², potentials, histograms), and hand isomorphism.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../../cards/encoding.zig");
const batch = @import("../../rank/batch.zig");
const combos = @import("../../cards/combos.zig");
const features = @import("../../features/strength.zig");
const isomorphism = @import("../../features/isomorphism.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const HandFeatures = features.HandFeatures;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;
const report_hand_error = reports.report_hand_error;

pub const api = struct {
    /// Every two-card combo against a weighted range on each of `n` boards (`boards[n][3..5]`):
    /// `weights[1326]` (or `[n][1326]` with `per_board`, finite, ≥ 0) is the range before card
    /// removal. Over every runout to the river when `to_river`, else on the board as it is.
    /// Writes `equity[n][1326]` and, where not null, `ehs2[n][1326]` (E[equity²] over
    /// runouts) and `histogram[n][1326][bins]` (each runout's weight in the bin of the combo's
    /// equity on it, as fractions). NaN where a combo meets the board or no opponent is left.
    /// A bad board names its row and card; a bad weight its row (-1: the shared range) in
    /// `row` and combo in `position`.
    pub fn pp_board_values(
        boards: ?[*]const u8,
        board_cards: u32,
        n: u64,
        weights: ?[*]const f64,
        per_board: u32,
        to_river: u32,
        bins: u32,
        equity_out: ?[*]f64,
        ehs2_out: ?[*]f64,
        histogram_out: ?[*]f64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards < encoding.board_cards_min or board_cards > features.board_cards_max) return .bad_argument;
        if ((histogram_out != null) != (bins > 0) or bins > features.bins_max) return .bad_argument;
        if (n == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const w = weights orelse return .null_pointer;
        const e = equity_out orelse return .null_pointer;
        if (batch.diagnose_showdown_rows(b[0 .. n * board_cards], board_cards, &.{}, 0, n)) |bad| {
            return report_hand_error(err, bad);
        }
        const weight_count = if (per_board != 0) n * combos.count else combos.count;
        for (w[0..weight_count], 0..) |x, i| {
            if (std.math.isFinite(x) and x >= 0) continue;
            const row: i64 = if (per_board != 0) @intCast(i / combos.count) else -1;
            return report_hand_error(err, .at(row, .bad_weight, -1, @intCast(i % combos.count)));
        }
        const scratch = std.heap.page_allocator.create(features.Scratch) catch return .out_of_memory;
        defer std.heap.page_allocator.destroy(scratch);
        const cells = n * combos.count;
        var none: [0]f64 = .{};
        kernels().board_values(
            b,
            board_cards,
            n,
            w,
            per_board != 0,
            to_river != 0,
            bins,
            e,
            ehs2_out orelse &none,
            if (ehs2_out != null) cells else 0,
            histogram_out orelse &none,
            if (histogram_out != null) cells * bins else 0,
            scratch,
        );
        return .ok;
    }

    /// Features of `n` hands against a uniform random opponent: holes `[n][2]`, boards
    /// `[n][3..5]` → `out[n]` and, where not null, `histogram[n][bins]` (the share of runouts
    /// whose final equity falls in each of `bins` equal bins). Bad cards name row and card.
    pub fn pp_hand_features(
        holes: ?[*]const u8,
        boards: ?[*]const u8,
        board_cards: u32,
        n: u64,
        bins: u32,
        out: ?[*]HandFeatures,
        histogram_out: ?[*]f64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards < encoding.board_cards_min or board_cards > features.board_cards_max) return .bad_argument;
        if ((histogram_out != null) != (bins > 0) or bins > features.bins_max) return .bad_argument;
        if (n == 0) return .ok;
        const h = holes orelse return .null_pointer;
        const b = boards orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        if (batch.diagnose_showdown_rows(b[0 .. n * board_cards], board_cards, h[0 .. 2 * n], 1, n)) |bad| {
            return report_hand_error(err, bad);
        }
        var none: [0]f64 = .{};
        kernels().hand_features(h, b, board_cards, n, bins, o, histogram_out orelse &none);
        return .ok;
    }

    /// How many canonical hands (hand isomorphism, Waugh 2013) there are of `hole` hole
    /// cards (0 or 2) and `board` board cards (0, 3, 4, 5), the board one round or, with
    /// `per_street`, the flop, turn and river rounds of their own; 0 for no such layout.
    pub fn pp_hand_index_size(hole: u32, board: u32, per_street: u32) callconv(.c) u64 {
        return isomorphism.layout_size(hole, board, per_street != 0);
    }

    /// The canonical index of `n` hands: `holes[n][hole]`, `boards[n][board]` (a layout
    /// `pp_hand_index_size` knows) → `out[n]`. Card ids are checked: the error names the row,
    /// the card and its position (hole cards first).
    pub fn pp_hand_index(
        holes: ?[*]const u8,
        hole: u32,
        boards: ?[*]const u8,
        board: u32,
        per_street: u32,
        n: u64,
        out: ?[*]u64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (isomorphism.layout_size(hole, board, per_street != 0) == 0) return .bad_argument;
        if (n == 0) return .ok;
        const o = out orelse return .null_pointer;
        if ((hole > 0 and holes == null) or (board > 0 and boards == null)) return .null_pointer;
        assert(hole + board > 0); // every layout deals a card
        const h: [*]const u8 = holes orelse boards.?;
        const b: [*]const u8 = boards orelse h;
        var failure: HandError = undefined;
        if (kernels().hand_index(hole, h, board, b, per_street != 0, n, o, &failure)) return .ok;
        return report_hand_error(err, failure);
    }

    /// The canonical hand of each of `n` indices → `holes[n][hole]`, `boards[n][board]`.
    pub fn pp_hand_unindex(
        hole: u32,
        board: u32,
        per_street: u32,
        indices: ?[*]const u64,
        n: u64,
        holes: ?[*]u8,
        boards: ?[*]u8,
        err: ?*Error,
    ) callconv(.c) Status {
        if (isomorphism.layout_size(hole, board, per_street != 0) == 0) return .bad_argument;
        if (n == 0) return .ok;
        const i = indices orelse return .null_pointer;
        if ((hole > 0 and holes == null) or (board > 0 and boards == null)) return .null_pointer;
        const h: [*]u8 = holes orelse boards.?;
        const b: [*]u8 = boards orelse h;
        var failure: HandError = undefined;
        if (kernels().hand_unindex(hole, board, per_street != 0, i, n, h, b, &failure)) return .ok;
        return report_hand_error(err, failure);
    }
};
