//! Exports of the best five cards (`pp.best_five`): Hold'em hands of 5..7 card ids through
//! the kernels of the CPU level in use (rank/best_five.zig), Omaha rows directly
//! (omaha/best_five.zig: a row's ranks, scalar at every level).
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../../cards/encoding.zig");
const fives = @import("../../rank/best_five.zig");
const omaha = @import("../../omaha/rank.zig");
const omaha_fives = @import("../../omaha/best_five.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;

pub const api = struct {
    /// The five cards making each of `n` hands of `k` (5..7) card ids (row-major) rank, into
    /// `out[n][5]`, ordered as a player reads them (rank/best_five.zig: the group, then the
    /// kickers; the wheel 5-4-3-2-A; of tied fives the lowest ids). A card that is not a
    /// card, or twice in a row, fails the call naming the row and the card (`err`); `out`
    /// is then zeroed.
    pub fn pp_best_five_cards(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]u8,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = switch (reports.card_rows(cards, n, k, fives.cards_min, encoding.hand_cards_max)) {
            .rows => |rows| rows,
            .done => |status| return status,
        };
        const o = out orelse return .null_pointer;
        assert(n > 0 and k >= fives.five and k <= encoding.hand_cards_max);
        var failure: HandError = undefined;
        if (!kernels().best_five(c, n, k, o, &failure)) return reports.report_hand_error(err, failure);
        // The five are the row's own cards (the first row's first and last checked).
        assert(std.mem.indexOfScalar(u8, c[0..k], o[0]) != null);
        assert(std.mem.indexOfScalar(u8, c[0..k], o[fives.five - 1]) != null);
        return .ok;
    }

    /// The five cards making each of `n` Omaha hands rank: `holes[n][hole_cards]` (4..6) and
    /// `boards[n][board_cards]` (3..5), exactly two hole cards and three board cards, into
    /// `out[n][5]`, ordered as `pp_best_five_cards` orders. An error's position counts the
    /// board's cards first, then the hole cards.
    pub fn pp_best_five_omaha(
        holes: ?[*]const u8,
        hole_cards: u32,
        boards: ?[*]const u8,
        board_cards: u32,
        n: u64,
        out: ?[*]u8,
        err: ?*Error,
    ) callconv(.c) Status {
        if (hole_cards < omaha.hole_cards_min or hole_cards > omaha.hole_cards_max or
            board_cards < omaha.board_cards_min or board_cards > omaha.board_cards_max)
        {
            return .bad_argument;
        }
        if (n == 0) return .ok;
        const h = holes orelse return .null_pointer;
        const b = boards orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        assert(hole_cards + board_cards <= encoding.card_count);
        const e = omaha_fives.best_five_rows(
            h[0 .. n * hole_cards],
            hole_cards,
            b[0 .. n * board_cards],
            board_cards,
            o[0 .. n * fives.five],
        ) orelse return .ok;
        return reports.report_hand_error(err, e);
    }
};

test "capi: best five's statuses for bad arguments and bad cards" {
    var out: [5]u8 = undefined;
    var err: Error = undefined;
    const hand = [_]u8{ 12, 11, 10, 9, 60, 1, 2 };
    try std.testing.expectEqual(Status.bad_argument, api.pp_best_five_cards(&hand, 1, 4, &out, &err));
    try std.testing.expectEqual(Status.bad_argument, api.pp_best_five_cards(&hand, 1, 8, &out, &err));
    try std.testing.expectEqual(Status.ok, api.pp_best_five_cards(null, 0, 7, null, null));
    try std.testing.expectEqual(Status.null_pointer, api.pp_best_five_cards(null, 1, 7, &out, &err));
    try std.testing.expectEqual(Status.card_out_of_range, api.pp_best_five_cards(&hand, 1, 7, &out, &err));
    try std.testing.expectEqual(@as(i32, 60), err.card);
    try std.testing.expectEqual(@as(i32, 4), err.position);
    try std.testing.expectEqual(Status.bad_argument, api.pp_best_five_omaha(&hand, 3, &hand, 5, 1, &out, &err));
}
