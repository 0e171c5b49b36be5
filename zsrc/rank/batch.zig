//! Batch ranking with validation fused into the hot loop.
//!
//! Each kernel ranks every row, OR-ing a cheap "this row is bad" test into one flag (an
//! invalid card id adds no bit to the set, a duplicate adds none either, so the set's
//! population count falls short of the row's card count). Only when the flag is up does a
//! second, slow pass find the first bad row and say why; the output is then zeroed, so a
//! failed call never leaves ranks behind that look like results (0 is never a rank).
const std = @import("std");
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const blocks = @import("blocks.zig");
const row_sources = @import("row_sources.zig");
const showdown = @import("showdown.zig");
const assert = std.debug.assert;

const failures = @import("../cards/failure.zig");
const HandError = failures.HandError;
const batch = @This();

/// Ranks `out.len` rows of `cards_per_row` card ids each (row-major).
pub fn rank_card_rows(cards: []const u8, cards_per_row: u32, out: []u16) ?HandError {
    assert(cards_per_row <= encoding.hand_cards_max);
    assert(cards.len == out.len * cards_per_row);
    const invalid = switch (cards_per_row) {
        inline 0...encoding.hand_cards_max => |k| rank_card_rows_fixed(k, cards, out),
        else => unreachable,
    };
    if (!invalid) return null;
    @memset(out, 0);
    for (0..out.len) |row| {
        if (diagnose_card_row(cards[row * cards_per_row ..][0..cards_per_row], row)) |e| return e;
    }
    unreachable; // The flag was raised by some row.
}

fn rank_card_rows_fixed(comptime k: u32, cards: []const u8, out: []u16) bool {
    // Bitwise, not `or`: a short-circuit would put a branch in every row.
    var invalid: u32 = 0;
    var first: usize = 0;
    if (k >= 5 and row_sources.available) {
        const vectored = row_sources.rank_card_rows(k, cards, out);
        first = vectored.rows;
        invalid |= @intFromBool(vectored.bad);
    }
    for (out[first..], first..) |*rank, row| {
        const hand = cards[row * k ..][0..k];
        var accumulator: encoding.Accumulator = .empty;
        inline for (hand) |card| accumulator.add(card);
        rank.* = eval.rank_accumulator(accumulator);
        invalid |= accumulator.card_total() ^ k;
    }
    return invalid != 0;
}

/// `rank_card_rows` under `game`'s rules; a card the game's deck lacks (a short deck's deuce
/// to five) is an error too, after any card that is not a card or repeats.
pub fn rank_card_rows_in(game: eval.Game, cards: []const u8, cards_per_row: u32, out: []u16) ?HandError {
    assert(cards_per_row <= encoding.hand_cards_max);
    assert(cards.len == out.len * cards_per_row);
    const invalid = switch (game) {
        .holdem => return rank_card_rows(cards, cards_per_row, out),
        inline else => |g| switch (cards_per_row) {
            inline 0...encoding.hand_cards_max => |k| rank_card_rows_fixed_in(g, k, cards, out),
            else => unreachable,
        },
    };
    if (!invalid) return null;
    @memset(out, 0);
    for (0..out.len) |row| {
        const hand = cards[row * cards_per_row ..][0..cards_per_row];
        if (diagnose_card_row(hand, row)) |e| return e;
        if (diagnose_deck(hand, row, eval.short_deck_missing)) |e| return e;
    }
    unreachable; // The flag was raised by some row.
}

fn rank_card_rows_fixed_in(comptime game: eval.Game, comptime k: u32, cards: []const u8, out: []u16) bool {
    var invalid: u64 = 0;
    var first: usize = 0;
    if (k >= 5 and row_sources.available) {
        const vectored = row_sources.rank_card_rows_in(game, k, cards, out);
        first = vectored.rows;
        invalid |= @intFromBool(vectored.bad);
    }
    for (out[first..], first..) |*rank, row| {
        const hand = cards[row * k ..][0..k];
        var accumulator: encoding.Accumulator = .empty;
        inline for (hand) |card| accumulator.add(card);
        rank.* = eval.rank_accumulator_in(game, accumulator);
        invalid |= (accumulator.card_total() ^ k) | (accumulator.mask & eval.short_deck_missing);
    }
    return invalid != 0;
}

/// The first card of `hand` in `missing` (the cards a game's deck lacks), as an error.
pub fn diagnose_deck(hand: []const u8, row: usize, missing: u64) ?HandError {
    for (hand, 0..) |card, position| {
        if (card < encoding.card_count and missing >> @intCast(card) & 1 != 0) {
            return .{ .row = row, .kind = .card_not_in_deck, .card = card, .position = @intCast(position) };
        }
    }
    return null;
}

/// `rank_sets` under `game`'s rules; a set holding a card the game's deck lacks is bad.
pub fn rank_sets_in(game: eval.Game, sets: []const u64, out: []u16) ?HandError {
    assert(sets.len == out.len);
    const invalid = switch (game) {
        .holdem => return rank_sets(sets, out),
        inline else => |g| rank_sets_fixed_in(g, sets, out),
    };
    if (!invalid) return null;
    @memset(out, 0);
    for (sets, 0..) |set, row| {
        if (diagnose_set(set, row)) |e| return e;
        if (set & eval.short_deck_missing != 0) {
            return .{ .row = row, .kind = .card_not_in_deck, .card = @ctz(set & eval.short_deck_missing) };
        }
    }
    unreachable; // The flag was raised by some row.
}

fn rank_sets_fixed_in(comptime game: eval.Game, sets: []const u64, out: []u16) bool {
    var invalid: u64 = 0;
    var first: usize = 0;
    if (row_sources.available) {
        const vectored = row_sources.rank_set_rows_in(game, sets, out);
        first = vectored.rows;
        invalid |= @intFromBool(vectored.bad);
    }
    for (sets[first..], out[first..]) |set, *rank| {
        const bad = set >> encoding.card_count != 0 or @popCount(set) > encoding.hand_cards_max or
            set & eval.short_deck_missing != 0;
        rank.* = if (bad) 0 else eval.rank_set_in(game, set);
        invalid |= @intFromBool(bad);
    }
    return invalid != 0;
}

pub fn diagnose_card_row(hand: []const u8, row: usize) ?HandError {
    var seen: u64 = 0;
    for (hand, 0..) |card, position| {
        const p: i32 = @intCast(position);
        if (card >= encoding.card_count) {
            return .{ .row = row, .kind = .card_out_of_range, .card = card, .position = p };
        }
        const bit = @as(u64, 1) << @intCast(card);
        if (seen & bit != 0) {
            return .{ .row = row, .kind = .duplicate_card, .card = card, .position = p };
        }
        seen |= bit;
    }
    return null;
}

/// Showdown: `n` boards of `board_cards` (0..5) and `n` rows of `players` hole-card pairs →
/// `n * players` ranks (`n` from `out`). Each board is tallied once and copied per player
/// (copy-and-extend). A row is bad if any card is not a card or appears twice anywhere in
/// the row. `boards` and `holes` may run on past the `n` rows: the vector showdown reads
/// past its last block (`showdown.spare_rows`), so slack there lets it rank every row.
pub fn rank_showdown(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    players: u32,
    out: []u16,
) ?HandError {
    assert(board_cards <= 5 and players >= 1);
    const rows = out.len / players;
    assert(boards.len >= rows * board_cards and holes.len >= rows * players * 2);
    const invalid = switch (board_cards) {
        inline 0...5 => |b| rank_showdown_fixed(b, boards, holes, players, out),
        else => unreachable,
    };
    if (!invalid) return null;
    @memset(out, 0);
    return diagnose_showdown_rows(boards, board_cards, holes, players, rows) orelse unreachable;
}

/// The first of `rows` showdown rows (a board of `board_cards`, `players` pairs of hole
/// cards) holding a card that is not a card or a card twice, if any.
pub fn diagnose_showdown_rows(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    players: u32,
    rows: usize,
) ?HandError {
    var row_cards: [5 + 2 * showdown.players_max]u8 = undefined;
    for (0..rows) |row| {
        const hand = row_cards[0 .. board_cards + 2 * players];
        @memcpy(hand[0..board_cards], boards[row * board_cards ..][0..board_cards]);
        @memcpy(hand[board_cards..], holes[row * players * 2 ..][0 .. players * 2]);
        if (diagnose_card_row(hand, row)) |e| return e;
    }
    return null;
}

fn rank_showdown_fixed(
    comptime board_cards: u32,
    boards: []const u8,
    holes: []const u8,
    players: u32,
    out: []u16,
) bool {
    var invalid: u32 = 0;
    const rows = out.len / players;
    var first: usize = 0;
    if (board_cards >= 3 and showdown.available) {
        const vectored = showdown.rank_showdown(board_cards, boards, holes, players, out);
        first = vectored.rows;
        invalid |= @intFromBool(vectored.bad);
    }
    for (first..rows) |row| {
        var board: encoding.Accumulator = .empty;
        inline for (boards[row * board_cards ..][0..board_cards]) |card| board.add(card);
        var seen = board.mask;
        const row_holes = holes[row * players * 2 ..][0 .. players * 2];
        for (out[row * players ..][0..players], 0..) |*rank, player| {
            var hand = board;
            hand.add(row_holes[2 * player]);
            hand.add(row_holes[2 * player + 1]);
            rank.* = eval.rank_accumulator(hand);
            seen |= hand.mask;
        }
        invalid |= @as(u32, @popCount(seen)) ^ (board_cards + 2 * players);
    }
    return invalid != 0;
}

/// Ranks card sets (`u64`, bit n = card n), each of 0..7 cards.
pub fn rank_sets(sets: []const u64, out: []u16) ?HandError {
    assert(sets.len == out.len);
    var invalid: u64 = 0;
    var first: usize = 0;
    if (row_sources.available) {
        // Sets are read in place, nothing past them: every whole block is the vectors'.
        first = sets.len / blocks.block_rows * blocks.block_rows;
        invalid |= @intFromBool(
            blocks.rank_blocks(row_sources.SetRows{ .sets = sets }, out, first),
        );
    }
    for (sets[first..], out[first..]) |set, *rank| {
        rank.* = eval.rank_set(set);
        invalid |= (set & encoding.set_invalid_bits) | @intFromBool(@popCount(set) > encoding.hand_cards_max);
    }
    if (invalid == 0) return null;
    @memset(out, 0);
    for (sets, 0..) |set, row| {
        if (diagnose_set(set, row)) |e| return e;
    }
    unreachable;
}

/// Ranks accumulators (rank/eval.zig's 16-byte `{key, mask}`), each of 0..7 cards and
/// consistent: its key must be the one its cards make (`eval.key_of_set`), so a key that
/// was built wrong, or a mask edited after it, cannot pass for a hand it is not.
pub fn rank_accumulators(accumulators: []const encoding.Accumulator, out: []u16) ?HandError {
    assert(accumulators.len == out.len);
    var invalid: u64 = 0;
    var first: usize = 0;
    if (row_sources.available) {
        // Read in place, nothing past them: every whole block is the vectors'.
        first = accumulators.len / blocks.block_rows * blocks.block_rows;
        invalid |= @intFromBool(
            blocks.rank_blocks(row_sources.AccumulatorRows{ .accumulators = accumulators }, out, first),
        );
    }
    for (accumulators[first..], out[first..]) |accumulator, *rank| {
        const set = accumulator.mask;
        invalid |= (set & encoding.set_invalid_bits) | @intFromBool(@popCount(set) > encoding.hand_cards_max) |
            (accumulator.key ^ eval.key_of_set(set));
        // Memory-safe whatever the key: the flush table is indexed by 13 mask bits and the
        // fingerprint lookup is masked.
        rank.* = eval.rank_accumulator(accumulator);
    }
    if (invalid == 0) return null;
    @memset(out, 0);
    for (accumulators, 0..) |accumulator, row| {
        if (diagnose_accumulator(accumulator, row)) |e| return e;
    }
    unreachable;
}

/// Ranks accumulators from their keys alone, unchecked (`pp.rank(..., trusted=True)`): for
/// records made by `accumulate` or `merge` and not edited since. An inconsistent record gets
/// a meaningless rank, never a crash (`blocks.TrustedAccumulatorSource`).
pub fn rank_accumulators_trusted(accumulators: []const encoding.Accumulator, out: []u16) void {
    assert(accumulators.len == out.len);
    const first = accumulators.len / blocks.block_rows * blocks.block_rows;
    const Rows = row_sources.TrustedAccumulatorRows;
    _ = blocks.rank_blocks(Rows{ .accumulators = accumulators }, out, first);
    // Memory-safe whatever the key: the flush table is indexed by 13 mask bits and the
    // fingerprint lookup is masked.
    for (accumulators[first..], out[first..]) |accumulator, *rank| {
        rank.* = eval.rank_accumulator(accumulator);
    }
}

pub fn diagnose_accumulator(accumulator: encoding.Accumulator, row: usize) ?HandError {
    if (diagnose_set(accumulator.mask, row)) |e| return e;
    if (accumulator.key != eval.key_of_set(accumulator.mask)) return .{ .row = row, .kind = .inconsistent_key };
    return null;
}

/// The accumulators of `out.len` rows of `cards_per_row` card ids (validated as
/// `rank_card_rows` does; `out` is zeroed on a bad row).
pub fn accumulate_card_rows(
    cards: []const u8,
    cards_per_row: u32,
    out: []encoding.Accumulator,
) ?HandError {
    assert(cards_per_row <= encoding.hand_cards_max);
    assert(cards.len == out.len * cards_per_row);
    for (out, 0..) |*accumulator, row| {
        const hand = cards[row * cards_per_row ..][0..cards_per_row];
        if (diagnose_card_row(hand, row)) |e| {
            @memset(out, std.mem.zeroes(encoding.Accumulator));
            return e;
        }
        accumulator.* = .empty;
        for (hand) |card| accumulator.add(card);
    }
    return null;
}

/// The accumulators of card sets of 0..7 cards.
pub fn accumulate_sets(sets: []const u64, out: []encoding.Accumulator) ?HandError {
    assert(sets.len == out.len);
    for (sets, out, 0..) |set, *accumulator, row| {
        if (diagnose_set(set, row)) |e| {
            @memset(out, std.mem.zeroes(encoding.Accumulator));
            return e;
        }
        accumulator.* = .{ .key = eval.key_of_set(set), .mask = set };
    }
    return null;
}

/// `a[i]` and `b[i]` together (a board and a player's cards, say): both consistent, no card
/// in both, at most 7 cards in all. An empty accumulator (`.empty`) is allowed on either
/// side. On a bad row `out` is zeroed and the error names the row (and a shared card).
pub fn merge_accumulators(
    a: []const encoding.Accumulator,
    b: []const encoding.Accumulator,
    out: []encoding.Accumulator,
) ?HandError {
    assert(a.len == out.len and b.len == out.len);
    for (a, b, out, 0..) |first, second, *merged, row| {
        const problem: ?HandError = problem: {
            for ([2]encoding.Accumulator{ first, second }) |part| {
                if (part.mask & encoding.set_invalid_bits != 0) break :problem .{ .row = row, .kind = .card_out_of_range, .card = @ctz(part.mask & encoding.set_invalid_bits) };
                if (part.key != eval.key_of_set(part.mask)) break :problem .{ .row = row, .kind = .inconsistent_key };
            }
            const shared = first.mask & second.mask;
            if (shared != 0) break :problem .{ .row = row, .kind = .duplicate_card, .card = @ctz(shared) };
            if (@popCount(first.mask | second.mask) > encoding.hand_cards_max) break :problem .{ .row = row, .kind = .too_many_cards };
            break :problem null;
        };
        if (problem) |e| {
            @memset(out, std.mem.zeroes(encoding.Accumulator));
            return e;
        }
        merged.* = first;
        merged.merge(second);
    }
    return null;
}

pub fn diagnose_set(set: u64, row: usize) ?HandError {
    if (set & encoding.set_invalid_bits != 0) {
        return .{ .row = row, .kind = .card_out_of_range, .card = @ctz(set & encoding.set_invalid_bits) };
    }
    if (@popCount(set) > encoding.hand_cards_max) return .{ .row = row, .kind = .too_many_cards };
    return null;
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// the C-ABI face of the functions above, rows as pointers and counts. Each returns true on
/// success; on false, `*failure` names the first bad row.
pub const kernels = struct {
    pub fn rank_cards(cards: [*]const u8, n: u64, k: u32, out: [*]u16, failure: *HandError) callconv(.c) bool {
        return failures.none(rank_card_rows(cards[0 .. n * k], k, out[0..n]), failure);
    }

    /// `rank_cards` under the rules of `game` (eval.zig's `Game`, checked by the caller).
    pub fn rank_cards_in(cards: [*]const u8, n: u64, k: u32, game: u32, out: [*]u16, failure: *HandError) callconv(.c) bool {
        const rules: eval.Game = @fromBackingInt(@intCast(game));
        return failures.none(rank_card_rows_in(rules, cards[0 .. n * k], k, out[0..n]), failure);
    }

    pub fn rank_sets(sets: [*]const u64, n: u64, out: [*]u16, failure: *HandError) callconv(.c) bool {
        return failures.none(batch.rank_sets(sets[0..n], out[0..n]), failure);
    }

    /// `rank_sets` under the rules of `game`.
    pub fn rank_sets_in(sets: [*]const u64, n: u64, game: u32, out: [*]u16, failure: *HandError) callconv(.c) bool {
        const rules: eval.Game = @fromBackingInt(@intCast(game));
        return failures.none(batch.rank_sets_in(rules, sets[0..n], out[0..n]), failure);
    }

    pub fn rank_accumulators(accumulators: [*]const encoding.Accumulator, n: u64, out: [*]u16, failure: *HandError) callconv(.c) bool {
        return failures.none(batch.rank_accumulators(accumulators[0..n], out[0..n]), failure);
    }

    pub fn rank_accumulators_trusted(accumulators: [*]const encoding.Accumulator, n: u64, out: [*]u16) callconv(.c) void {
        batch.rank_accumulators_trusted(accumulators[0..n], out[0..n]);
    }

    /// Boards (`rows x board_cards`, 0..5; may dangle when 0) and holes (`rows x players x
    /// 2`) → `rows x players` ranks.
    pub fn rank_showdown(
        boards: [*]const u8,
        board_cards: u32,
        holes: [*]const u8,
        players: u32,
        rows: u64,
        out: [*]u16,
        failure: *HandError,
    ) callconv(.c) bool {
        const found = batch.rank_showdown(
            boards[0 .. rows * board_cards],
            board_cards,
            holes[0 .. rows * players * 2],
            players,
            out[0 .. rows * players],
        );
        return failures.none(found, failure);
    }
};

test "rank_card_rows: ranks every k, finds the first bad row, zeroes out" {
    const cards = [_]u8{ 12, 25, 38, 51, 0, 13, 7, 11, 24, 37, 50, 10, 23, 6 };
    var out: [2]u16 = undefined;
    try std.testing.expectEqual(@as(?HandError, null), rank_card_rows(&cards, 7, &out));
    try std.testing.expectEqual(eval.rank_cards(cards[0..7]), out[0]);
    try std.testing.expectEqual(eval.rank_cards(cards[7..14]), out[1]);

    var bad = cards;
    bad[9] = 52;
    const e = rank_card_rows(&bad, 7, &out).?;
    try std.testing.expectEqual(HandError.Kind.card_out_of_range, e.kind);
    try std.testing.expectEqual(@as(u64, 1), e.row);
    try std.testing.expectEqual(@as(i32, 2), e.position);
    try std.testing.expectEqualSlices(u16, &.{ 0, 0 }, &out);

    bad = cards;
    bad[13] = 24; // a second 24 in row 1, at position 6
    const d = rank_card_rows(&bad, 7, &out).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, d.kind);
    try std.testing.expectEqual(@as(i32, 24), d.card);
    try std.testing.expectEqual(@as(i32, 6), d.position);
}

test "accumulators: built from ids or sets, merged, ranked; inconsistent keys refused" {
    const board = [_]u8{ 0, 1, 2, 3, 17 };
    const hole = [_]u8{ 12, 25 };
    var boards: [1]encoding.Accumulator = undefined;
    var holes: [1]encoding.Accumulator = undefined;
    try std.testing.expectEqual(@as(?HandError, null), accumulate_card_rows(&board, 5, &boards));
    const hole_set: u64 = (1 << 12) | (1 << 25);
    try std.testing.expectEqual(@as(?HandError, null), accumulate_sets(&.{hole_set}, &holes));
    var merged: [1]encoding.Accumulator = undefined;
    try std.testing.expectEqual(
        @as(?HandError, null),
        merge_accumulators(&boards, &holes, &merged),
    );
    var out: [1]u16 = undefined;
    try std.testing.expectEqual(@as(?HandError, null), rank_accumulators(&merged, &out));
    try std.testing.expectEqual(eval.rank_cards(&(board ++ hole)), out[0]);

    var edited = merged;
    edited[0].mask ^= 1 << 17; // a card taken from the mask only
    try std.testing.expectEqual(
        HandError.Kind.inconsistent_key,
        rank_accumulators(&edited, &out).?.kind,
    );
    try std.testing.expectEqual(@as(u16, 0), out[0]);
    const twice = merge_accumulators(&merged, &holes, &edited).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, twice.kind);
    try std.testing.expectEqual(@as(i32, 12), twice.card);
}

test "rank_sets: rejects high bits and oversized sets; the empty set ranks lowest" {
    var out: [1]u16 = undefined;
    const cases = [_]struct { set: u64, kind: HandError.Kind }{
        .{ .set = 1 << 60, .kind = .card_out_of_range },
        .{ .set = 0xFF, .kind = .too_many_cards },
    };
    for (cases) |case| {
        const e = rank_sets(&.{case.set}, &out).?;
        try std.testing.expectEqual(case.kind, e.kind);
    }
    try std.testing.expectEqual(@as(?HandError, null), rank_sets(&.{0x7F}, &out));
    try std.testing.expectEqual(eval.rank_cards(&.{ 0, 1, 2, 3, 4, 5, 6 }), out[0]);
    try std.testing.expectEqual(@as(?HandError, null), rank_sets(&.{0}, &out));
    try std.testing.expectEqual(eval.empty_hand_rank, out[0]);
}

test "rank_showdown: equals ranking board + hole as one hand; finds shared cards" {
    const boards = [_]u8{ 0, 1, 2, 3, 17 };
    const holes = [_]u8{ 12, 25, 4, 30 };
    var out: [2]u16 = undefined;
    try std.testing.expectEqual(@as(?HandError, null), rank_showdown(&boards, 5, &holes, 2, &out));
    try std.testing.expectEqual(eval.rank_cards(&.{ 0, 1, 2, 3, 17, 12, 25 }), out[0]);
    try std.testing.expectEqual(eval.rank_cards(&.{ 0, 1, 2, 3, 17, 4, 30 }), out[1]);
    const clash = [_]u8{ 12, 25, 4, 17 }; // player 1 holds the board's 17
    const e = rank_showdown(&boards, 5, &clash, 2, &out).?;
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e.kind);
    try std.testing.expectEqual(@as(i32, 17), e.card);
    try std.testing.expectEqual(@as(i32, 8), e.position);
}

test "accumulators, trusted: rank as checked ones; any key reads inside the tables" {
    const dealing = @import("../cards/deal.zig");
    const random = @import("../cards/random.zig");
    var cards: [130 * 7]u8 = undefined;
    dealing.deal_rows(random.seed_key(11), 0, 7, encoding.full_deck, &cards);
    var accumulators: [130]encoding.Accumulator = undefined;
    try std.testing.expectEqual(@as(?HandError, null), accumulate_card_rows(&cards, 7, &accumulators));
    var checked: [130]u16 = undefined;
    var trusted: [130]u16 = undefined;
    try std.testing.expectEqual(@as(?HandError, null), rank_accumulators(&accumulators, &checked));
    rank_accumulators_trusted(&accumulators, &trusted); // two blocks of 64 and a tail of 2
    try std.testing.expectEqualSlices(u16, &checked, &trusted);
    var word: u64 = 1;
    for (&accumulators) |*junk| {
        word = random.mix64(word);
        junk.key = word;
        word = random.mix64(word);
        junk.mask = word;
    }
    rank_accumulators_trusted(&accumulators, &trusted);
}
