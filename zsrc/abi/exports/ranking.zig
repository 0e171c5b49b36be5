//! Exports that rank: hands as ids, sets, accumulators and text, Hold'em and Omaha showdowns,
//! and what a rank means (Arrow columns: exports/columns.zig). Scalar work (one hand,
//! building accumulators, parsing text) is called directly: it has no per-CPU variant.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("../../rank/eval.zig");
const encoding = @import("../../cards/encoding.zig");
const batch = @import("../../rank/batch.zig");
const parse = @import("../../cards/parse.zig");
const omaha = @import("../../omaha/rank.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const Accumulator = encoding.Accumulator;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;
const report_hand_error = reports.report_hand_error;

pub const api = struct {
    /// Ranks `n` hands of `k` (0..7) card ids each, row-major, into `out[n]` (`cards` may be
    /// null when `k` is 0: every hand is the empty one).
    pub fn pp_rank_cards(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = switch (reports.card_rows(cards, n, k, 0, encoding.hand_cards_max)) {
            .rows => |rows| rows,
            .done => |status| return status,
        };
        const o = out orelse return .null_pointer;
        assert(n > 0 and k <= encoding.hand_cards_max);
        var failure: HandError = undefined;
        if (!kernels().rank_cards(c, n, k, o, &failure)) return report_hand_error(err, failure);
        reports.assert_ranked(o, n);
        return .ok;
    }

    /// The rank of one hand of `k` (0..7) card ids, `cards[k]`; 0 when a card is not a card
    /// or repeats (the batch calls say which). One hand's fast path: no error record, no
    /// per-CPU dispatch (one hand is scalar work at every level).
    pub fn pp_rank_hand(cards: ?[*]const c_char, k: u32) callconv(.c) u16 {
        const c = cards orelse return 0;
        if (k > encoding.hand_cards_max) return 0;
        var hand: Accumulator = .empty;
        for (c[0..k]) |char| {
            const id: u8 = @bitCast(char);
            if (id >= encoding.card_count or hand.mask >> @intCast(id) & 1 != 0) return 0;
            hand.add(id);
        }
        assert(hand.card_total() == k); // k distinct cards
        return eval.rank_accumulator(hand);
    }

    /// The rank of one hand written as text, `text[length]` ("AhKd7c…", the forms
    /// `pp_parse_cards` reads); 0 when it does not read as 0..7 distinct cards.
    pub fn pp_rank_text(text: ?[*]const c_char, length: u64) callconv(.c) u16 {
        const t = text orelse return 0;
        var ids: [encoding.hand_cards_max]u8 = undefined;
        var counts: [1]u32 = undefined;
        const offsets = [2]i64{ 0, @intCast(length) };
        const bytes: [*]const u8 = @ptrCast(t);
        if (parse.parse_strings(bytes[0..length], &offsets, &ids, &counts) != null) return 0;
        assert(counts[0] <= encoding.hand_cards_max); // more is `output_full`
        return eval.rank_cards(ids[0..counts[0]]);
    }

    /// Ranks `n` card sets (bit i = card i, 0..7 cards each) into `out[n]`.
    pub fn pp_rank_sets(
        sets: ?[*]const u64,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: HandError = undefined;
        if (!kernels().rank_sets(s, n, o, &failure)) return report_hand_error(err, failure);
        reports.assert_ranked(o, n);
        return .ok;
    }

    /// Ranks `n` accumulators (16 bytes each: `key`, then `mask`; see rank/eval.zig), each of
    /// 0..7 cards with the key its cards make, into `out[n]`.
    pub fn pp_rank_accumulators(
        accumulators: ?[*]const Accumulator,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const a = accumulators orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: HandError = undefined;
        if (!kernels().rank_accumulators(a, n, o, &failure)) return report_hand_error(err, failure);
        reports.assert_ranked(o, n);
        return .ok;
    }

    /// Ranks `n` accumulators from their keys alone, into `out[n]`: no check that a key is
    /// the one its mask's cards make, for records made by `pp_accumulate_*` or
    /// `pp_merge_accumulators` and not edited since. Any other record gets a meaningless
    /// rank (never a read outside the tables); `pp_rank_accumulators` checks instead.
    pub fn pp_rank_accumulators_trusted(
        accumulators: ?[*]const Accumulator,
        n: u64,
        out: ?[*]u16,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const a = accumulators orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        kernels().rank_accumulators_trusted(a, n, o);
        return .ok;
    }

    /// The accumulators of `n` hands of `k` (0..7) card ids each, into `out[n]`.
    pub fn pp_accumulate_cards(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]Accumulator,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = switch (reports.card_rows(cards, n, k, 0, encoding.hand_cards_max)) {
            .rows => |rows| rows,
            .done => |status| return status,
        };
        const o = out orelse return .null_pointer;
        assert(n > 0 and k <= encoding.hand_cards_max);
        const e = batch.accumulate_card_rows(c[0 .. n * k], k, o[0..n]) orelse {
            assert(o[0].card_total() == k and o[n - 1].card_total() == k);
            return .ok;
        };
        return report_hand_error(err, e);
    }

    /// The accumulators of `n` card sets (0..7 cards each), into `out[n]`.
    pub fn pp_accumulate_sets(
        sets: ?[*]const u64,
        n: u64,
        out: ?[*]Accumulator,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const e = batch.accumulate_sets(s[0..n], o[0..n]) orelse {
            assert(o[0].mask == s[0] and o[n - 1].mask == s[n - 1]);
            return .ok;
        };
        return report_hand_error(err, e);
    }

    /// `out[i]` = `a[i]` and `b[i]` together: both consistent, no shared card, 7 cards at
    /// most (a shared card is reported as a duplicate, with its id).
    pub fn pp_merge_accumulators(
        a: ?[*]const Accumulator,
        b: ?[*]const Accumulator,
        n: u64,
        out: ?[*]Accumulator,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const first = a orelse return .null_pointer;
        const second = b orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const e = batch.merge_accumulators(first[0..n], second[0..n], o[0..n]) orelse {
            // No shared card: the union's cards are both counts.
            assert(o[0].mask == first[0].mask | second[0].mask);
            assert(o[0].card_total() <= encoding.hand_cards_max);
            return .ok;
        };
        return report_hand_error(err, e);
    }

    /// Parses `n` strings (bytes `text[offsets[i]..offsets[i+1]]`) into card ids, written in
    /// order to `out_ids[capacity]`, with each string's card count in `out_counts[n]`.
    pub fn pp_parse_cards(
        text: ?[*]const u8,
        offsets: ?[*]const i64,
        n: u64,
        out_ids: ?[*]u8,
        capacity: u64,
        out_counts: ?[*]u32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const o = offsets orelse return .null_pointer;
        const counts = out_counts orelse return .null_pointer;
        const text_length = o[n];
        var previous: i64 = 0;
        for (o[0 .. n + 1]) |offset| {
            if (offset < previous) return .bad_argument;
            previous = offset;
        }
        if (text_length > 0 and text == null) return .null_pointer;
        if (capacity > 0 and out_ids == null) return .null_pointer;
        assert(o[n] >= o[0]); // the offsets checked non-decreasing above
        const t: []const u8 = if (text) |p| p[0..@intCast(text_length)] else &.{};
        const ids: []u8 = if (out_ids) |p| p[0..capacity] else &.{};
        const e = parse.parse_strings(t, o[0 .. n + 1], ids, counts[0..n]) orelse {
            assert(counts[0] <= capacity and counts[n - 1] <= capacity);
            return .ok;
        };
        return report_hand_error(err, e);
    }

    /// Ranks `n` showdowns: boards `[n][board_cards]` (0..5 cards), holes
    /// `[n][players][2]` (1..23 players) → `out[n][players]`.
    pub fn pp_rank_showdown(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        players: u32,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards > encoding.board_cards_max or players < 1 or board_cards + 2 * players > encoding.card_count) {
            return .bad_argument;
        }
        if (n == 0) return .ok;
        if (board_cards > 0 and boards == null) return .null_pointer;
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const b: [*]const u8 = boards orelse h; // not read when board_cards is 0
        assert(players <= (encoding.card_count - board_cards) / 2);
        var failure: HandError = undefined;
        if (!kernels().rank_showdown(b, board_cards, h, players, n, o, &failure)) return report_hand_error(err, failure);
        reports.assert_ranked(o, n * players);
        return .ok;
    }

    /// Omaha showdowns (zsrc/omaha/rank.zig): `n` boards of `board_cards` (3..5) and `n` rows of
    /// `players` hands of `hole_cards` (4..6) → `n * players` ranks of the best hand of
    /// exactly two hole cards and three board cards. A card that is not a card, or is
    /// twice in a row, fails the call naming the row (`err`).
    pub fn pp_rank_omaha(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        hole_cards: u32,
        players: u32,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (!omaha_shape_ok(board_cards, hole_cards, players)) return .bad_argument;
        if (n == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: HandError = undefined;
        if (!kernels().rank_omaha(b, board_cards, h, hole_cards, players, n, o, &failure)) return report_hand_error(err, failure);
        reports.assert_ranked(o, n * players);
        return .ok;
    }

    /// Omaha hi-lo, eight or better (zsrc/omaha/low.zig): as `pp_rank_omaha`, each hand's low
    /// into `lows` (`PP_NO_LOW` when it has none; higher is better, `PP_LOW_BEST` the wheel,
    /// `PP_LOW_WORST` 8-7-6-5-4), and its high into `highs` unless null, in the same pass.
    pub fn pp_rank_low_omaha(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        hole_cards: u32,
        players: u32,
        n: u64,
        highs: ?[*]u16,
        lows: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (!omaha_shape_ok(board_cards, hole_cards, players)) return .bad_argument;
        if (n == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const l = lows orelse return .null_pointer;
        assert(omaha_shape_ok(board_cards, hole_cards, players));
        var failure: HandError = undefined;
        if (kernels().rank_low_omaha(b, board_cards, h, hole_cards, players, n, highs, l, &failure)) return .ok;
        return report_hand_error(err, failure);
    }

    /// The rank of one Omaha hand of card ids: hole cards `holes[holes_length]` (4..6) and
    /// board `board[board_length]` (3..5); 0 unless they are such distinct cards (the batch
    /// call then names why). One hand's fast path, as `pp_rank_hand`.
    pub fn pp_rank_omaha_hand(
        holes: ?[*]const u8,
        holes_length: u32,
        board: ?[*]const u8,
        board_length: u32,
    ) callconv(.c) u16 {
        const h = holes orelse return 0;
        const b = board orelse return 0;
        const rank = omaha.rank_one(b[0..board_length], h[0..holes_length]) orelse return 0;
        assert(rank != 0); // 0 answers only a bad hand
        return rank;
    }

    /// The rank of one Omaha hand written as text: hole cards `holes[holes_length]` (4..6)
    /// and board `board[board_length]` (3..5), read as `pp_rank_text` reads; 0 when they do
    /// not read as such distinct cards (the batch call then names why).
    pub fn pp_rank_omaha_text(
        holes: ?[*]const c_char,
        holes_length: u64,
        board: ?[*]const c_char,
        board_length: u64,
    ) callconv(.c) u16 {
        var hole_ids: [omaha.hole_cards_max]u8 = undefined;
        var board_ids: [omaha.board_cards_max]u8 = undefined;
        const hole_count = read_cards(holes, holes_length, &hole_ids) orelse return 0;
        const board_count = read_cards(board, board_length, &board_ids) orelse return 0;
        assert(hole_count <= hole_ids.len and board_count <= board_ids.len);
        return omaha.rank_one(board_ids[0..board_count], hole_ids[0..hole_count]) orelse 0;
    }

    /// The payload a rank was made from (`category << 20` and five value nibbles, most
    /// significant first, value + 1, 0 = no card); 0 when no hand has that rank.
    pub fn pp_describe_payload(rank: u16) callconv(.c) u32 {
        const payload = eval.describe_payload(rank);
        assert(payload >> 20 < 16); // a category 0..15 above five nibbles
        return payload;
    }
};

/// Reads the cards of `text[length]` into `ids`: how many, or null if it does not read as
/// distinct cards or holds more than `ids` takes.
fn read_cards(text: ?[*]const c_char, length: u64, ids: []u8) ?u32 {
    const t = text orelse return null;
    const bytes: [*]const u8 = @ptrCast(t);
    var counts: [1]u32 = undefined;
    const offsets = [2]i64{ 0, @intCast(length) };
    if (parse.parse_strings(bytes[0..length], &offsets, ids, &counts) != null) return null;
    assert(counts[0] <= ids.len);
    return counts[0];
}

/// An Omaha showdown's shape: 3..5 board cards, hands of 4..6, at least one player, and no
/// more cards than a deck holds.
fn omaha_shape_ok(board_cards: u32, hole_cards: u32, players: u32) bool {
    comptime assert(omaha.board_cards_min <= omaha.board_cards_max and omaha.hole_cards_min <= omaha.hole_cards_max);
    return board_cards >= omaha.board_cards_min and board_cards <= omaha.board_cards_max and
        hole_cards >= omaha.hole_cards_min and hole_cards <= omaha.hole_cards_max and
        players >= 1 and @as(u64, board_cards) + @as(u64, hole_cards) * players <= encoding.card_count;
}

test "capi: statuses for bad arguments, never a crash" {
    var out: [1]u16 = undefined;
    var err: Error = undefined;
    try std.testing.expectEqual(Status.bad_argument, api.pp_rank_cards(null, 1, 8, &out, &err));
    try std.testing.expectEqual(Status.null_pointer, api.pp_rank_cards(null, 1, 5, &out, &err));
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards(null, 0, 5, null, null));
    const cards = [_]u8{ 1, 2, 3, 4, 60 };
    try std.testing.expectEqual(
        Status.card_out_of_range,
        api.pp_rank_cards(&cards, 1, 5, &out, &err),
    );
    try std.testing.expectEqual(@as(i32, 60), err.card);
    try std.testing.expectEqual(@as(i32, 4), err.position);
    const offsets = [_]i64{ 0, 4, 2 };
    var counts: [2]u32 = undefined;
    try std.testing.expectEqual(Status.bad_argument, api.pp_parse_cards("AhKd", &offsets, 2, null, 0, &counts, &err));
}

test "capi: one hand's calls rank as the batch does and answer 0 for a bad hand" {
    const ids = [_]u8{ 12, 25, 38, 51, 11, 24, 0 };
    var out: [1]u16 = undefined;
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards(&ids, 1, 7, &out, null));
    const chars: [*]const c_char = @ptrCast(&ids);
    try std.testing.expectEqual(out[0], api.pp_rank_hand(chars, 7));
    const text = "AsAcAhAdKsKc2s";
    try std.testing.expectEqual(out[0], api.pp_rank_text(@ptrCast(text), text.len));
    const repeated = [_]u8{ 3, 3 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&repeated), 2));
    const past = [_]u8{ 3, 52 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&past), 2));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&ids), 8));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(null, 0));
    // No cards: the empty hand, by every call (with no pointer where none is read).
    try std.testing.expectEqual(eval.empty_hand_rank, api.pp_rank_hand(@ptrCast(&ids), 0));
    try std.testing.expectEqual(eval.empty_hand_rank, api.pp_rank_text(@ptrCast(text), 0));
    try std.testing.expectEqual(eval.empty_hand_rank, api.pp_rank_text(@ptrCast(" "), 1));
    var empties: [3]u16 = undefined;
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards(null, 3, 0, &empties, null));
    try std.testing.expectEqual([3]u16{ eval.empty_hand_rank, eval.empty_hand_rank, eval.empty_hand_rank }, empties);
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_text(@ptrCast("AhAh"), 4));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_text(@ptrCast("AhKdQcJsTs9h8h7h"), 16));
}

test "capi: one Omaha hand as text equals the batch call, and reads as it does" {
    const holes = "AhAsKhKs";
    const board = "Qh Jh Th 2c 3d";
    const one = api.pp_rank_omaha_text(@ptrCast(holes), holes.len, @ptrCast(board), board.len);
    const hole_ids = [_]u8{ 38, 12, 37, 11 };
    const board_ids = [_]u8{ 36, 35, 34, 13, 40 };
    var out: [1]u16 = undefined;
    var err: Error = undefined;
    try std.testing.expectEqual(Status.ok, api.pp_rank_omaha(&board_ids, 5, &hole_ids, 4, 1, 1, &out, &err));
    try std.testing.expectEqual(out[0], one);
    try std.testing.expect(one != 0);
    try std.testing.expectEqual(one, api.pp_rank_omaha_hand(&hole_ids, 4, &board_ids, 5));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_hand(&hole_ids, 3, &board_ids, 5));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_hand(&hole_ids, 4, &board_ids, 2));
    const repeated = [_]u8{ 38, 12, 37, 36 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_hand(&repeated, 4, &board_ids, 5));
    const past = [_]u8{ 38, 12, 37, 52 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_hand(&past, 4, &board_ids, 5));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_hand(null, 0, &board_ids, 5));
    for ([_][2][]const u8{
        .{ "AhAsKh", "QhJhTh2c3d" }, // three hole cards
        .{ "AhAsKhKsQsQdJs", "QhJhTh" }, // seven
        .{ "AhAsKhKs", "QhJh" }, // a board of two
        .{ "AhAsKhKs", "QhJhTh2c3d4d" }, // six
        .{ "AhAsKhKs", "QhJhAh2c3d" }, // a card twice
        .{ "AhAsKhKx", "QhJhTh2c3d" }, // not a card
    }) |case| {
        const h = case[0];
        const b = case[1];
        try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_text(@ptrCast(h), h.len, @ptrCast(b), b.len));
    }
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_omaha_text(null, 0, @ptrCast(board), board.len));
}
