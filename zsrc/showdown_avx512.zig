//! AVX-512 showdowns on five-card boards (`rank_showdown` with boards `(N, 5)`): every
//! player's hand becomes a row of seven card ids in a register, and rows_avx512.zig's tally
//! ranks eight at a time.
//!
//! The hands are taken in blocks of whole table rows (`64 / players` rows, so a row's
//! players never straddle two blocks), eight hands a group. A group's hands read the boards
//! of at most nine rows (45 bytes) and sixteen bytes of hole cards; one `vpermi2b` over those
//! two windows builds its eight rows, by an index vector that depends only on the number of
//! players and the group's place in the block (made once a call). Then, as blocks.zig does:
//! the lookups in one tight loop, the few hands with a flush by the scalar path.
//!
//! Validation: the tally flags a hand whose seven cards are not distinct cards (so a card
//! twice on the board, or shared by the board and a player); hole cards shared by two players
//! of a row are caught by comparing each row's hole cards, as many rows as a vector holds,
//! with the cards 1 .. players places on round the row (which meets every pair).
const std = @import("std");
const eval = @import("eval.zig");
const rows = @import("rows_avx512.zig");

pub const available = rows.available;

const Bytes = rows.Bytes;
const Lanes = rows.Lanes;
const board_cards = 5;
const hand_cards = 7;
const lanes = 8;
const block_hands_max = 64;
const groups_max = block_hands_max / lanes;
/// Bytes of boards a group's window holds: a 64-byte load at its first row's board.
const board_window = 64;

/// How one call lays its blocks out, from the number of players alone.
const Layout = struct {
    players: u32,
    rows_per_block: u32,
    hands_per_block: u32,
    groups: u32,
    /// Per group: its first hand's row, counted from the block's first.
    first_rows: [groups_max]u32,
    /// Per group: the `vpermi2b` index building its eight rows from the window of boards
    /// (bytes 0..63) and the window of hole cards (64..127).
    indices: [groups_max]Bytes,
    /// Rows of hole cards a 64-byte vector holds whole, and vectors to a block.
    hole_rows_per_vector: u32,
    hole_chunks: u32,
    /// The card `d` places on round its row, for d = 1 .. players (every pair of a row).
    hole_rotations: [block_hands_max / 2][64]i32,
    /// Per chunk: the bytes that are hole cards of the block's rows.
    hole_places: [block_hands_max / 2]@Vector(64, bool),

    fn init(players: u32) Layout {
        @setEvalBranchQuota(100_000);
        std.debug.assert(players >= 1 and players <= block_hands_max / 2);
        var layout: Layout = .{
            .players = players,
            .rows_per_block = block_hands_max / players,
            .hands_per_block = (block_hands_max / players) * players,
            .groups = undefined,
            .first_rows = undefined,
            .indices = undefined,
            .hole_rows_per_vector = undefined,
            .hole_chunks = undefined,
            .hole_rotations = undefined,
            .hole_places = undefined,
        };
        layout.groups = (layout.hands_per_block + lanes - 1) / lanes;
        const row_bytes = 2 * players;
        layout.hole_rows_per_vector = 64 / row_bytes;
        layout.hole_chunks = (layout.rows_per_block + layout.hole_rows_per_vector - 1) / layout.hole_rows_per_vector;
        for (0..players) |d| {
            for (0..64) |j| {
                const row = j / row_bytes;
                layout.hole_rotations[d][j] = if (row < layout.hole_rows_per_vector) @intCast(row * row_bytes + (j % row_bytes + d + 1) % row_bytes) else @intCast(j);
            }
        }
        for (0..layout.hole_chunks) |chunk| {
            const rows_left = layout.rows_per_block - chunk * layout.hole_rows_per_vector;
            const rows_here = @min(rows_left, layout.hole_rows_per_vector);
            var places: [64]bool = undefined;
            for (0..64) |j| places[j] = j < rows_here * row_bytes;
            layout.hole_places[chunk] = places;
        }
        for (0..layout.groups) |group| {
            const first_hand: u32 = @intCast(group * lanes);
            const first_row = first_hand / players;
            layout.first_rows[group] = first_row;
            var index: [64]u8 = @splat(0);
            for (0..lanes) |lane| {
                // Lanes past the block repeat the group's first hand: ranked, then dropped.
                const hand = if (first_hand + lane < layout.hands_per_block) first_hand + lane else first_hand;
                const board_at = (hand / players - first_row) * board_cards;
                std.debug.assert(board_at + board_cards <= board_window);
                for (0..board_cards) |card| index[8 * lane + card] = @intCast(board_at + card);
                for (0..2) |card| index[8 * lane + board_cards + card] = @intCast(64 + 2 * (hand - first_hand) + card);
            }
            layout.indices[group] = index;
        }
        return layout;
    }
};

/// Ranks the leading blocks of rows of a showdown on five-card boards (the caller ranks the
/// rest, from the returned row on): `boards` holds `rows * 5` ids, `holes` `rows * players
/// * 2`, `out` `rows * players`. Also returns whether any of those rows was bad, with their
/// ranks then meaningless.
pub fn rank_showdown(boards: []const u8, holes: []const u8, players: u32, out: []u16) struct { rows: usize, bad: bool } {
    return switch (players) {
        // Compiled per player count: the layout is a constant, the loops have fixed lengths.
        inline 1...players_max => |count| rank_blocks(count, boards, holes, out),
        else => .{ .rows = 0, .bad = false },
    };
}

pub const players_max = 23;

fn rank_blocks(comptime players: u32, boards: []const u8, holes: []const u8, out: []u16) @typeInfo(@TypeOf(rank_showdown)).@"fn".return_type.? {
    const layout = comptime Layout.init(players);
    const total_rows = out.len / players;
    // Room for every group's 64-byte window of boards after the last block.
    const spare_rows = @max(board_window / board_cards + 1, layout.hole_chunks * layout.hole_rows_per_vector);
    if (total_rows < layout.rows_per_block + spare_rows) return .{ .rows = 0, .bad = false };
    const blocks = (total_rows - spare_rows) / layout.rows_per_block;
    var bad: u32 = 0;
    for (0..blocks) |block| {
        bad |= @intFromBool(rank_block(layout, boards, holes, out, block * layout.rows_per_block));
    }
    return .{ .rows = blocks * layout.rows_per_block, .bad = bad != 0 };
}

fn rank_block(comptime layout: Layout, boards: []const u8, holes: []const u8, out: []u16, first_row: usize) bool {
    const players = layout.players;
    const first_hand = first_row * players;
    var fingerprints: [block_hands_max]u32 align(64) = undefined;
    var flushes: u64 = 0;
    var bad: u32 = 0;
    for (0..layout.groups) |group| {
        const hand = first_hand + group * lanes;
        const board_window_bytes: Bytes = boards[(first_row + layout.first_rows[group]) * board_cards ..][0..board_window].*;
        const hole_bytes: @Vector(16, u8) = holes[hand * 2 ..][0..16].*;
        const hole_window = @shuffle(u8, hole_bytes, @as(@Vector(16, u8), @splat(0)), widen);
        const ids = @select(u8, rows.is_card, rows.lookup128(.{ board_window_bytes, hole_window }, layout.indices[group]), @as(Bytes, @splat(rows.filler)));
        const tallied = rows.tally_ids(hand_cards, ids);
        fingerprints[group * lanes ..][0..lanes].* = @as(@Vector(lanes, u32), @truncate(tallied.fingerprints));
        const flush_bits: u8 = @bitCast(tallied.flush);
        flushes |= @as(u64, flush_bits) << @intCast(group * lanes);
        bad |= @intFromBool(tallied.bad);
    }
    const hands = layout.hands_per_block;
    for (fingerprints[0..hands], out[first_hand..][0..hands]) |fingerprint, *rank| {
        rank.* = eval.rank_fingerprint_unmasked(fingerprint);
    }
    // No two players of a row share a card: each row's 2 * players hole cards, as many rows
    // as a vector holds, compared with the cards 1 .. players places on round the row.
    inline for (0..layout.hole_chunks) |chunk| {
        const first_hole_row = first_row + chunk * layout.hole_rows_per_vector;
        const row_holes: Bytes = holes[first_hole_row * 2 * players ..][0..64].*;
        var repeated: @Vector(64, bool) = @splat(false);
        inline for (layout.hole_rotations[0..players]) |rotation| {
            repeated = repeated | (row_holes == @shuffle(u8, row_holes, undefined, rotation));
        }
        bad |= @intFromBool(@reduce(.Or, repeated & layout.hole_places[chunk]));
    }
    if (bad != 0) return true;
    if (hands < 64) flushes &= (@as(u64, 1) << hands) - 1;
    while (flushes != 0) : (flushes &= flushes - 1) {
        const hand = first_hand + @ctz(flushes);
        var accumulator: eval.Accumulator = .empty;
        inline for (boards[(hand / players) * board_cards ..][0..board_cards]) |card| accumulator.add(card);
        inline for (holes[hand * 2 ..][0..2]) |card| accumulator.add(card);
        out[hand] = eval.rank_accumulator(accumulator);
    }
    return false;
}

/// Sixteen bytes to the low quarter of a 64-byte vector (the rest zero).
const widen: [64]i32 = mask: {
    var mask: [64]i32 = undefined;
    for (0..64) |j| mask[j] = if (j < 16) @intCast(j) else -1;
    break :mask mask;
};

const deal = @import("deal.zig");

test "showdown_avx512: every player count ranks as the scalar path; any shared or bad card is caught" {
    if (!available) return error.SkipZigTest;
    const gpa = std.testing.allocator;
    var state: u64 = 3;
    for (1..24) |players_usize| {
        const players: u32 = @intCast(players_usize);
        const total_rows = 300 + players_usize * 7;
        const cards_per_row = board_cards + 2 * players;
        const table = try gpa.alloc(u8, total_rows * cards_per_row);
        defer gpa.free(table);
        const boards = try gpa.alloc(u8, total_rows * board_cards);
        defer gpa.free(boards);
        const holes = try gpa.alloc(u8, total_rows * players * 2);
        defer gpa.free(holes);
        const out = try gpa.alloc(u16, total_rows * players);
        defer gpa.free(out);
        // Two-suit decks now and then, for many flushes.
        const deck = if (players <= 8 and players % 2 == 0) deal.full_deck & 0x3FFFFFF else deal.full_deck;
        deal.deal_rows(deal.seed_key(players), 0, cards_per_row, deck, table);
        for (0..total_rows) |row| {
            const dealt = table[row * cards_per_row ..][0..cards_per_row];
            @memcpy(boards[row * board_cards ..][0..board_cards], dealt[0..board_cards]);
            @memcpy(holes[row * players * 2 ..][0 .. players * 2], dealt[board_cards..]);
        }
        const done = rank_showdown(boards, holes, players, out);
        try std.testing.expect(!done.bad);
        try std.testing.expect(done.rows > 0 and done.rows + 64 / players + 64 >= total_rows);
        for (0..done.rows * players) |hand| {
            var accumulator: eval.Accumulator = .empty;
            for (boards[(hand / players) * board_cards ..][0..board_cards]) |card| accumulator.add(card);
            for (holes[hand * 2 ..][0..2]) |card| accumulator.add(card);
            try std.testing.expectEqual(eval.rank_accumulator(accumulator), out[hand]);
        }
        // Spoil one card of a ranked row: out of range, or a copy of another of the row's.
        for (0..40) |trial| {
            state = deal.mix64(state);
            const row = state % done.rows;
            const position = (state >> 16) % cards_per_row;
            const cell = if (position < board_cards) &boards[row * board_cards + position] else &holes[row * players * 2 + position - board_cards];
            const kept = cell.*;
            if (trial % 3 == 0) {
                cell.* = @intCast(eval.card_count + (state >> 32) % (256 - eval.card_count));
            } else {
                const other = (position + 1 + (state >> 32) % (cards_per_row - 1)) % cards_per_row;
                cell.* = if (other < board_cards) boards[row * board_cards + other] else holes[row * players * 2 + other - board_cards];
            }
            try std.testing.expect(rank_showdown(boards, holes, players, out).bad);
            cell.* = kept;
        }
        try std.testing.expect(!rank_showdown(boards, holes, players, out).bad);
    }
}
