//! Exports that rank under another game's rules than Hold'em's: short deck (6+), its two
//! rules for trips and straights (rank/eval.zig's `Game`: 0 Hold'em, 1 short deck with trips
//! beating straights, 2 short deck with straights beating trips).
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("../../rank/eval.zig");
const encoding = @import("../../cards/encoding.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;

pub const api = struct {
    /// `pp_rank_cards` under the rules of `game`: `n` hands of `k` (0..7) card ids each into
    /// `out[n]`; a card the game's deck lacks is `PP_CARD_NOT_IN_DECK` (row, card, position).
    pub fn pp_rank_cards_game(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        game: u32,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (!eval.game_known(game)) return .bad_argument;
        const c = switch (reports.card_rows(cards, n, k, 0, encoding.hand_cards_max)) {
            .rows => |rows| rows,
            .done => |status| return status,
        };
        const o = out orelse return .null_pointer;
        assert(n > 0 and k <= encoding.hand_cards_max);
        var failure: HandError = undefined;
        if (!kernels().rank_cards_in(c, n, k, game, o, &failure)) return reports.report_hand_error(err, failure);
        reports.assert_ranked(o, n);
        return .ok;
    }

    /// `pp_rank_sets` under the rules of `game`.
    pub fn pp_rank_sets_game(
        sets: ?[*]const u64,
        n: u64,
        game: u32,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (!eval.game_known(game)) return .bad_argument;
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: HandError = undefined;
        if (!kernels().rank_sets_in(s, n, game, o, &failure)) return reports.report_hand_error(err, failure);
        reports.assert_ranked(o, n);
        return .ok;
    }

    /// `pp_describe_payload` under the rules of `game` (the payload's category is the game's
    /// number); 0 when no hand has that rank or the game is unknown.
    pub fn pp_describe_payload_game(rank: u16, game: u32) callconv(.c) u32 {
        if (!eval.game_known(game)) return 0;
        const payload = eval.describe_payload_in(@fromBackingInt(@intCast(game)), rank);
        assert(payload >> 20 < 16); // a category 0..15 above five nibbles
        return payload;
    }

    /// The cards of `game`'s deck as a card set (bit i = card i).
    pub fn pp_game_deck(game: u32) callconv(.c) u64 {
        if (!eval.game_known(game)) return 0;
        const all = encoding.full_deck;
        const deck = if (@as(eval.Game, @fromBackingInt(@intCast(game))) == .holdem) all else all & ~eval.short_deck_missing;
        assert(@popCount(deck) == encoding.card_count or @popCount(deck) == eval.short_deck_cards);
        return deck;
    }
};

test "games: statuses for bad arguments, short-deck cards refused" {
    var out: [2]u16 = undefined;
    var err: Error = undefined;
    try std.testing.expectEqual(Status.bad_argument, api.pp_rank_cards_game(null, 1, 5, 3, &out, &err));
    // 6s 7s 8s 9s As: the lowest straight flush; then the same with the 2s.
    const cards = [_]u8{ 4, 5, 6, 7, 12, 4, 5, 6, 0, 12 };
    try std.testing.expectEqual(Status.card_not_in_deck, api.pp_rank_cards_game(&cards, 2, 5, 1, &out, &err));
    try std.testing.expectEqual(@as(u64, 1), err.row);
    try std.testing.expectEqual(@as(i32, 0), err.card);
    try std.testing.expectEqual(@as(i32, 3), err.position);
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards_game(&cards, 1, 5, 1, &out, &err));
    try std.testing.expectEqual(@as(u16, (9 << 12) | 1), out[0]);
    try std.testing.expectEqual(@as(u32, 36), @popCount(api.pp_game_deck(1)));
}
