//! Omaha (PLO4, PLO5, PLO6): the best five-card hand of exactly two hole cards and three
//! board cards, on the Hold'em rank scale (rank/eval.zig), for every player of every row.
//!
//! A five-card hand is a flush only when its two hole cards and three board cards share a
//! suit; otherwise its rank depends on its values alone. omaha/boards.zig holds, for every
//! board value multiset, the best such rank of each of the 91 hole value pairs with three
//! of the board's cards. So a row costs:
//! - the board's row numbered once (sorted values, colexicographic), shared by every player;
//! - per player, the hole pairs (C(k, 2): 6, 10 or 15) numbered, and one table load per
//!   pair, all independent (no branch, no flush test);
//! - flushes apart: a board of five has at most one suit of three or more, found once; a
//!   hand with two of that suit reads the flush table (once, for the usual two and three).
//!   Taking the maximum with the lookups is right because a flush outranks whatever the
//!   same five cards make without their suits (a straight flush included).
//! Measured on an Intel Xeon with AVX-512 (bench/bench_omaha.py, one thread): a load per
//! (pair, triple) from the 81 KiB triple table, 60 for PLO4 on a river, took 63 ns a hand
//! (25x a 7-card rank); a load per pair takes the figures in omaha/boards.zig's callers'
//! bench. A version gathering eight rows' ranks at once with VPGATHERDD was no faster on
//! Zen 3 (the same misses into the table), so there is one path.
//! Card ids 52..255 add nothing (encoding.card_keys), so a bad row ranks garbage without
//! leaving the tables; the row's card count then tells, and the diagnosis names the card.
const std = @import("std");
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const batch = @import("../rank/batch.zig");
const board_tables = @import("boards.zig");
const vector = @import("rank_vector.zig");
const low = @import("low.zig");
const failures = @import("../cards/failure.zig");
const HandError = failures.HandError;
const assert = std.debug.assert;

pub const hole_cards_min = 4;
pub const hole_cards_max = 6;
pub const board_cards_min = encoding.board_cards_min;
pub const board_cards_max = encoding.board_cards_max;

const subsets = board_tables.subsets;
const values = board_tables.values;
const card_values = board_tables.card_values;

/// Two values in either order (`a * 13 + b`) → their pair's number.
const pair_numbers: [values * values]u8 = table: {
    var t: [values * values]u8 = undefined;
    var number = 0;
    for (0..values) |a| for (a..values) |b| {
        t[a * values + b] = number;
        t[b * values + a] = number;
        number += 1;
    };
    // The 91 pairs of values, as omaha/boards.zig numbers each board row's ranks.
    assert(number == values * (values + 1) / 2);
    break :table t;
};

comptime {
    // `Board.rank_pairs` reduces a hand's pairs in a vector of at most 16 lanes.
    assert(subsets(hole_cards_max, 2).len <= 16);
    // Two hole cards and three board cards: every hand has them.
    assert(hole_cards_min >= 2);
    assert(board_cards_min >= 3);
    assert(board_cards_max + 2 <= encoding.card_count);
}

/// Builds the board tables and the low's unless built; every entry point calls it before
/// ranking.
pub fn ready() void {
    board_tables.ready();
    low.ready();
}

/// What a pass ranks: the high (Omaha), the low alone (omaha/low.zig), or both in one pass
/// over the cards (hi-lo: the cards loaded, checked and split into values once).
pub const Parts = enum { high, low, high_low };

/// The best flush of two of `hole` and three of `board` (13-bit value patterns of one suit).
fn best_flush(hole: u13, board: u13) u16 {
    var best: u16 = 0;
    var pairs: u13 = hole;
    while (pairs != 0) : (pairs &= pairs - 1) {
        const first = pairs & (~pairs +% 1);
        var seconds = pairs & (pairs - 1);
        while (seconds != 0) : (seconds &= seconds - 1) {
            const pair = first | (seconds & (~seconds +% 1));
            var a = board;
            while (a != 0) : (a &= a - 1) {
                var b = a & (a - 1);
                while (b != 0) : (b &= b - 1) {
                    var c = b & (b - 1);
                    while (c != 0) : (c &= c - 1) {
                        const pattern = pair | lowest(a) | lowest(b) | lowest(c);
                        best = @max(best, eval.rank_flush_pattern(pattern));
                    }
                }
            }
        }
    }
    return best;
}

inline fn lowest(bits: u13) u13 {
    return bits & (~bits +% 1);
}

inline fn suit_pattern(set: u64, suit: u32) u13 {
    assert(suit < encoding.suit_count);
    return @truncate(set >> @intCast(encoding.value_count * suit));
}

/// Ranks `rows` of Omaha: boards (rows x `board_cards`, 3..5), holes (rows x `players` x
/// `hole_cards`, 4..6) → `out` (rows x players). A row is bad when a card is not a card or
/// appears twice anywhere in it; the first bad row is returned and `out` is zeroed.
pub fn rank_rows(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    hole_cards: u32,
    players: u32,
    out: []u16,
) ?HandError {
    return rank_parts(.high, boards, board_cards, holes, hole_cards, players, out, &.{});
}

/// Omaha hi-lo (eight or better): each hand's low (omaha/low.zig) into `lows`, and when
/// `highs` is not empty its high (as `rank_rows`) too, in the same pass. Bad rows as
/// `rank_rows`, both outputs zeroed.
pub fn rank_rows_hilo(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    hole_cards: u32,
    players: u32,
    highs: []u16,
    lows: []u16,
) ?HandError {
    assert(highs.len == 0 or highs.len == lows.len);
    if (highs.len == 0) return rank_parts(.low, boards, board_cards, holes, hole_cards, players, &.{}, lows);
    return rank_parts(.high_low, boards, board_cards, holes, hole_cards, players, highs, lows);
}

fn rank_parts(
    comptime parts: Parts,
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    hole_cards: u32,
    players: u32,
    highs: []u16,
    lows: []u16,
) ?HandError {
    assert(players >= 1);
    ready();
    const out = if (parts == .low) lows else highs;
    const rows = out.len / players;
    assert(out.len == rows * players);
    assert(lows.len == if (parts == .high) 0 else out.len);
    assert(boards.len == rows * board_cards);
    assert(holes.len == rows * players * hole_cards);
    const invalid = switch (board_cards) {
        inline board_cards_min...board_cards_max => |b| switch (hole_cards) {
            inline hole_cards_min...hole_cards_max => |k| rank_fixed(parts, b, k, boards, holes, players, highs, lows),
            else => unreachable,
        },
        else => unreachable,
    };
    if (!invalid) return null;
    @memset(highs, 0);
    @memset(lows, 0);
    var row_cards: [encoding.card_count]u8 = undefined;
    const n = board_cards + players * hole_cards;
    assert(n <= encoding.card_count); // the caller checks that the deck holds every player
    for (0..rows) |row| {
        @memcpy(row_cards[0..board_cards], boards[row * board_cards ..][0..board_cards]);
        @memcpy(
            row_cards[board_cards..n],
            holes[row * players * hole_cards ..][0 .. players * hole_cards],
        );
        if (batch.diagnose_card_row(row_cards[0..n], row)) |e| return e;
    }
    unreachable;
}

/// One hand, for the one-hand calls: its rank, or null unless `board` holds 3..5 cards,
/// `hole` 4..6, and all of them are distinct cards.
pub fn rank_one(board: []const u8, hole: []const u8) ?u16 {
    if (board.len < board_cards_min or board.len > board_cards_max) return null;
    if (hole.len < hole_cards_min or hole.len > hole_cards_max) return null;
    var seen: u64 = 0;
    for ([_][]const u8{ board, hole }) |cards| for (cards) |card| {
        if (card >= encoding.card_count or seen >> @intCast(card) & 1 != 0) return null;
        seen |= @as(u64, 1) << @intCast(card);
    };
    ready();
    const result: u16 = switch (board.len) {
        inline board_cards_min...board_cards_max => |b| switch (hole.len) {
            inline hole_cards_min...hole_cards_max => |k| Board(b).init(board[0..b]).rank(k, hole[0..k]),
            else => unreachable,
        },
        else => unreachable,
    };
    assert(result > 0); // valid cards: some five-card hand, every one ranked above 0
    return result;
}

/// How many rows `rank_lanes` ranks at once; 0 on the baseline level, which has no gathers.
pub const vector_lanes = if (vector.available) vector.lanes else 0;

/// Ranks `vector_lanes` rows of one player each (omaha/rank_vector.zig), the rare flushes it
/// leaves settled here; true when a row is bad.
pub fn rank_lanes(
    comptime b: u32,
    comptime k: u32,
    boards: *const [vector.lanes * b]u8,
    holes: *const [vector.lanes * k]u8,
    out: *[vector.lanes]u16,
) bool {
    return rank_lanes_parts(false, b, k, boards, holes, out, undefined);
}

/// `rank_lanes` of hi-lo: the highs into `out` and the lows into `lows`, in one pass.
pub fn rank_lanes_hilo(
    comptime b: u32,
    comptime k: u32,
    boards: *const [vector.lanes * b]u8,
    holes: *const [vector.lanes * k]u8,
    out: *[vector.lanes]u16,
    lows: *[vector.lanes]u16,
) bool {
    return rank_lanes_parts(true, b, k, boards, holes, out, lows);
}

inline fn rank_lanes_parts(
    comptime with_low: bool,
    comptime b: u32,
    comptime k: u32,
    boards: *const [vector.lanes * b]u8,
    holes: *const [vector.lanes * k]u8,
    out: *[vector.lanes]u16,
    lows: *[vector.lanes]u16,
) bool {
    comptime assert(vector_lanes > 0);
    const block = vector.rank_block(with_low, b, k, boards, holes, out, lows);
    var rare = block.rare;
    while (rare != 0) : (rare &= rare - 1) {
        const lane = @ctz(rare);
        const flush = best_flush(@intCast(block.hole_patterns[lane]), @intCast(block.board_patterns[lane]));
        out[lane] = @max(out[lane], flush);
    }
    return block.bad;
}

fn rank_fixed(
    comptime parts: Parts,
    comptime b: u32,
    comptime k: u32,
    boards: []const u8,
    holes: []const u8,
    players: u32,
    highs: []u16,
    lows: []u16,
) bool {
    const rows = (if (parts == .low) lows else highs).len / players;
    assert(boards.len == rows * b);
    assert(holes.len == rows * players * k);
    var invalid = false;
    var row: usize = 0;
    // The low alone is a few scalar loads a row: the vector path is the high's.
    if (vector_lanes > 0 and players == 1 and parts != .low) {
        while (row + vector_lanes <= rows) : (row += vector_lanes) {
            const bad = rank_lanes_parts(
                parts == .high_low,
                b,
                k,
                boards[row * b ..][0 .. vector_lanes * b],
                holes[row * k ..][0 .. vector_lanes * k],
                highs[row..][0..vector_lanes],
                if (parts == .high_low) lows[row..][0..vector_lanes] else undefined,
            );
            invalid = invalid or bad;
        }
    }
    while (row < rows) : (row += 1) {
        invalid = rank_row(parts, b, k, boards, holes, players, row, highs, lows) or invalid;
    }
    assert(row == rows);
    return invalid;
}

/// The numbers of a hand's value pairs, every pair of its `k` cards.
pub fn Pairs(comptime k: u32) type {
    return [subsets(k, 2).len]u32;
}

/// The numbers of the hole's value pairs, every pair of its cards.
pub inline fn hole_pairs(comptime k: u32, hole: *const [k]u8) Pairs(k) {
    var starts: [subsets(k, 2).len]u32 = undefined;
    inline for (comptime subsets(k, 2), 0..) |pair, i| {
        const first: u32 = card_values[hole[pair[0]]];
        starts[i] = pair_numbers[first * values + card_values[hole[pair[1]]]];
    }
    return starts;
}

pub inline fn card_set(cards: anytype) u64 {
    var set: u64 = 0;
    inline for (0..cards.len) |i| set |= encoding.card_masks[cards[i]];
    return set;
}

/// A board of `b` cards (3..5), ready to rank hands on: its row of ranks found and its card
/// set, shared by every hand ranked on it. Call `ready` first.
pub fn Board(comptime b: u32) type {
    return struct {
        /// Where the board's 91 ranks start in `board_tables.ranks(b)`.
        row: u32,
        set: u64,
        /// The one suit holding three or more of the board's cards (five cards have room
        /// for one), the values it holds there; 0 when no suit does and no flush is possible.
        flush_pattern: u13,
        flush_suit: u6,
        /// The suit holds exactly three of the board's cards: the usual flush board.
        flush_three: bool,

        pub inline fn init(cards: *const [b]u8) @This() {
            const set = card_set(cards);
            var pattern: u13 = 0;
            var suit: u6 = 0;
            // Without branches: which suit, if any, is a coin toss for random boards.
            inline for (0..encoding.suit_count) |s| {
                const this = suit_pattern(set, s);
                const flush = @popCount(this) >= 3;
                pattern = if (flush) this else pattern;
                suit = if (flush) s else suit;
            }
            return .{
                .row = board_tables.row_of_cards(b, cards),
                .set = set,
                .flush_pattern = pattern,
                .flush_suit = suit,
                .flush_three = @popCount(pattern) == 3,
            };
        }

        /// The best flush of two of `hole`'s cards and three of the board's, or 0.
        inline fn best_flush_with(board: *const @This(), comptime k: u32, hole: *const [k]u8) u16 {
            const hole_suit = suit_pattern(card_set(hole), board.flush_suit);
            const hole_count = @popCount(hole_suit);
            // The usual flush, two of the suit in the hole and three on the board, is those
            // five cards. It is looked up whatever the counts (every 13-bit pattern is a
            // slot) and kept only when it is one: no branch on a coin toss.
            const usual = eval.rank_flush_pattern(hole_suit | board.flush_pattern);
            const two_and_three = hole_count == 2 and board.flush_three;
            if (board.flush_pattern != 0 and hole_count >= 2 and !two_and_three) {
                @branchHint(.unlikely); // 1-2% of random rows: more than two or three
                return best_flush(hole_suit, board.flush_pattern);
            }
            return if (two_and_three) usual else 0;
        }

        /// The rank of the best hand of two of `hole`'s `k` cards and three of the board's.
        pub inline fn rank(board: *const @This(), comptime k: u32, hole: *const [k]u8) u16 {
            return board.rank_pairs(k, &hole_pairs(k, hole), hole);
        }

        /// `rank` of a hand whose value pairs are numbered already (`hole_pairs`): a hand
        /// ranked on many boards numbers them once.
        pub inline fn rank_pairs(
            board: *const @This(),
            comptime k: u32,
            pairs: *const Pairs(k),
            hole: *const [k]u8,
        ) u16 {
            const row = board_tables.ranks(b) + board.row;
            // Padded to 8 or 16 lanes, whose maximum is one horizontal minimum of the
            // complements (PHMINPOSUW); the six to fifteen lanes alone reduce one by one.
            var bests: @Vector(if (pairs.len <= 8) 8 else 16, u16) = @splat(0);
            inline for (pairs, 0..) |pair, i| bests[i] = row[pair];
            const best = @reduce(.Max, bests);
            return @max(best, board.best_flush_with(k, hole));
        }
    };
}

/// One row, its players in turn; true when the row is bad.
fn rank_row(
    comptime parts: Parts,
    comptime b: u32,
    comptime k: u32,
    boards: []const u8,
    holes: []const u8,
    players: u32,
    row: usize,
    highs: []u16,
    lows: []u16,
) bool {
    assert(players >= 1);
    const cards = boards[row * b ..][0..b];
    const board: Board(b) = if (parts != .low) .init(cards) else undefined;
    const board_low = low.mask_of(cards);
    var row_set = card_set(cards);
    for (0..players) |p| {
        const hole = holes[(row * players + p) * k ..][0..k];
        if (parts != .low) highs[row * players + p] = board.rank(k, hole);
        if (parts != .high) lows[row * players + p] = low.of_masks(low.mask_of(hole), board_low);
        row_set |= card_set(hole);
    }
    return @popCount(row_set) != b + k * players;
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// `rank_rows` on boards (`rows x board_cards`, 3..5), holes (`rows x players x hole_cards`,
/// 4..6) → `rows x players` ranks; on false `*failure` names the first bad row.
pub const kernels = struct {
    pub fn rank_omaha(
        boards: [*]const u8,
        board_cards: u32,
        holes: [*]const u8,
        hole_cards: u32,
        players: u32,
        rows: u64,
        out: [*]u16,
        failure: *HandError,
    ) callconv(.c) bool {
        const n = rows * players;
        const found = rank_rows(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * hole_cards], hole_cards, players, out[0..n]);
        return failures.none(found, failure);
    }

    /// Omaha hi-lo (omaha/low.zig): `rank_rows_hilo`, the lows into `lows`, the highs into
    /// `highs` too unless null (both in one pass); as `rank_omaha` otherwise.
    pub fn rank_low_omaha(
        boards: [*]const u8,
        board_cards: u32,
        holes: [*]const u8,
        hole_cards: u32,
        players: u32,
        rows: u64,
        highs: ?[*]u16,
        lows: [*]u16,
        failure: *HandError,
    ) callconv(.c) bool {
        const n = rows * players;
        const high_out: []u16 = if (highs) |h| h[0..n] else &.{};
        const found = rank_rows_hilo(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * hole_cards], hole_cards, players, high_out, lows[0..n]);
        return failures.none(found, failure);
    }
};

test "omaha: subsets" {
    try std.testing.expectEqual(@as(usize, 10), comptime subsets(5, 3).len);
    try std.testing.expectEqual(@as(usize, 15), comptime subsets(6, 2).len);
    try std.testing.expectEqualSlices(u8, &.{ 0, 1 }, &comptime subsets(4, 2)[0]);
    try std.testing.expectEqualSlices(u8, &.{ 2, 3 }, &comptime subsets(4, 2)[5]);
}

test "omaha: against every two-and-three choice ranked by the evaluator" {
    var prng = std.Random.DefaultPrng.init(7);
    const random = prng.random();
    inline for (board_cards_min..board_cards_max + 1) |b| {
        inline for (hole_cards_min..hole_cards_max + 1) |k| {
            const players = 2;
            for (0..3000) |_| {
                var deck: [52]u8 = undefined;
                for (&deck, 0..) |*c, i| c.* = @intCast(i);
                random.shuffle(u8, &deck);
                // Suits crowded into two, so flushes are common.
                if (random.boolean()) for (&deck) |*c| {
                    c.* = c.* % 26;
                };
                var seen: u64 = 0;
                var cards: [b + players * k]u8 = undefined;
                var n: usize = 0;
                for (deck) |c| {
                    if (n == cards.len) break;
                    if (seen >> @intCast(c) & 1 != 0) continue;
                    seen |= @as(u64, 1) << @intCast(c);
                    cards[n] = c;
                    n += 1;
                }
                if (n < cards.len) continue;
                var out: [players]u16 = undefined;
                try std.testing.expectEqual(
                    @as(?HandError, null),
                    rank_rows(cards[0..b], b, cards[b..], k, players, &out),
                );
                for (0..players) |p| {
                    const hole = cards[b + p * k ..][0..k];
                    var best: u16 = 0;
                    for (comptime subsets(k, 2)) |pair| for (comptime subsets(b, 3)) |t| {
                        const five = [5]u8{ hole[pair[0]], hole[pair[1]], cards[t[0]], cards[t[1]], cards[t[2]] };
                        best = @max(best, eval.rank_cards(&five));
                    };
                    try std.testing.expectEqual(best, out[p]);
                }
            }
        }
    }
}

test "omaha hi-lo: highs and lows in one pass equal the high alone and every two-and-three low" {
    var prng = std.Random.DefaultPrng.init(17);
    const random = prng.random();
    inline for (board_cards_min..board_cards_max + 1) |b| {
        inline for (hole_cards_min..hole_cards_max + 1) |k| {
            // One player a row takes the vector path (16 rows a block, then the rest row by
            // row); three a row the scalar one.
            inline for (.{ 1, 3 }) |players| {
                const rows = 37;
                const width = b + players * k;
                var boards: [rows * b]u8 = undefined;
                var holes: [rows * players * k]u8 = undefined;
                for (0..rows) |row| {
                    var deck: [52]u8 = undefined;
                    for (&deck, 0..) |*c, i| c.* = @intCast(i);
                    random.shuffle(u8, &deck);
                    // Low cards first half the time, so most hands make a low.
                    if (random.boolean()) std.mem.sort(u8, &deck, {}, struct {
                        fn low_first(_: void, x: u8, y: u8) bool {
                            return low.card_bits[x] != 0 and low.card_bits[y] == 0;
                        }
                    }.low_first);
                    random.shuffle(u8, deck[0..width]);
                    @memcpy(boards[row * b ..][0..b], deck[0..b]);
                    @memcpy(holes[row * players * k ..][0 .. players * k], deck[b..width]);
                }
                var alone: [rows * players]u16 = undefined;
                var highs: [rows * players]u16 = undefined;
                var lows: [rows * players]u16 = undefined;
                var lows_alone: [rows * players]u16 = undefined;
                try std.testing.expectEqual(@as(?HandError, null), rank_rows(&boards, b, &holes, k, players, &alone));
                try std.testing.expectEqual(@as(?HandError, null), rank_rows_hilo(&boards, b, &holes, k, players, &highs, &lows));
                try std.testing.expectEqual(@as(?HandError, null), rank_rows_hilo(&boards, b, &holes, k, players, &.{}, &lows_alone));
                try std.testing.expectEqualSlices(u16, &alone, &highs);
                try std.testing.expectEqualSlices(u16, &lows, &lows_alone);
                for (0..rows * players) |hand| {
                    const row = hand / players;
                    const expected = low.brute_force(holes[hand * k ..][0..k], boards[row * b ..][0..b]);
                    try std.testing.expectEqual(expected, lows[hand]);
                }
            }
        }
    }
}

test "omaha hi-lo: a bad row zeroes both outputs and is named" {
    const board = [_]u8{ 0, 1, 2, 3, 4 };
    var highs: [1]u16 = undefined;
    var lows: [1]u16 = undefined;
    const repeated = [_]u8{ 5, 6, 7, 4 };
    const e = rank_rows_hilo(&board, 5, &repeated, 4, 1, &highs, &lows).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e.kind);
    try std.testing.expectEqual(@as(i32, 8), e.position);
    try std.testing.expectEqual([1]u16{0}, highs);
    try std.testing.expectEqual([1]u16{0}, lows);
    const e2 = rank_rows_hilo(&board, 5, &repeated, 4, 1, &.{}, &lows).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e2.kind);
}

test "omaha: bad rows are named" {
    const board = [_]u8{ 0, 1, 2, 3, 4 };
    var out: [1]u16 = undefined;
    const repeated = [_]u8{ 5, 6, 7, 4 };
    const e = rank_rows(&board, 5, &repeated, 4, 1, &out).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e.kind);
    try std.testing.expectEqual(@as(i32, 4), e.card);
    try std.testing.expectEqual(@as(i32, 8), e.position);
    const outside = [_]u8{ 5, 6, 60, 8 };
    const e2 = rank_rows(&board, 5, &outside, 4, 1, &out).?;
    try std.testing.expectEqual(HandError.Kind.card_out_of_range, e2.kind);
    try std.testing.expectEqual(@as(i32, 60), e2.card);
}
