//! Showdowns on boards of 3 to 5 cards by vector tallies (`rank_showdown` with boards
//! `(N, 3..5)`): every player's hand becomes a row of 5 to 7 card ids in a register, and the
//! row sources' tally (rank/rows_avx2.zig, rank/rows_avx512.zig) ranks four or eight at a time.
//!
//! The hands are taken in blocks of whole table rows (`64 / players` rows, so a row's
//! players never straddle two blocks), a vector's hands a group. Each group's rows are built
//! from a window of boards and one of hole cards by byte shuffles whose indices depend only
//! on the number of players and the group's place in a block, so they are constants of the
//! code compiled per player count:
//! - AVX-512: one `vpermi2b` over a 64-byte window of boards (the boards of at most nine
//!   rows) and sixteen bytes of hole cards builds eight rows;
//! - AVX2: per 128-bit half (two hands), one `vpshufb` of a 16-byte window of boards and one
//!   of hole cards, OR-ed.
//! Then, as rank/blocks.zig does: the lookups in one tight loop, the few hands with a flush by the
//! scalar path (AVX2; the AVX-512 tally keys them for the lookups).
//!
//! Validation: the tally flags a hand whose seven cards are not distinct cards (so a card
//! twice on the board, or shared by the board and a player). Hole cards shared by two
//! players of a row: with AVX-512, each row's hole cards are compared with the cards 1 ..
//! players places on round the row, as many rows as a vector holds (every pair met); with
//! AVX2, the union of a row's hole cards must hold them all.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const blocks = @import("blocks.zig");
const rows_avx2 = @import("rows_avx2.zig");
const rows_avx512 = @import("rows_avx512.zig");

/// Whether this build has a vector showdown (the widest is used).
pub const available = rows_avx2.available;
const Kernel = if (rows_avx512.available) Avx512 else Avx2;

pub const players_max = 23;
const block_hands_max = 64;

/// Ranks the leading blocks of rows of a showdown on boards of `board_cards` (3..5) (the
/// caller ranks the rest, from the returned row on): `out` holds `rows * players` ranks,
/// `boards` at least `rows * board_cards` ids and `holes` `rows * players * 2`. A block's
/// loads read up to `spare_rows` rows past it, so the last rows are left to the caller,
/// unless `boards` and `holes` run on past `rows` (bytes read, never ranked: a caller's
/// slack, as Monte Carlo's blocks of games have). Also returns whether any of the rows
/// ranked was bad, with their ranks then meaningless.
pub fn rank_showdown(
    comptime board_cards: u32,
    boards: []const u8,
    holes: []const u8,
    players: u32,
    out: []u16,
) Ranked {
    // Whole rows of ranks, and at least as many rows of cards (past them: the caller's slack).
    assert(players >= 1 and out.len % players == 0);
    const rows = out.len / players;
    assert(boards.len >= rows * board_cards and holes.len >= rows * players * 2);
    const ranked = rank_showdown_with(Kernel, board_cards, boards, holes, players, out);
    assert(ranked.rows <= rows); // the leading rows, the rest left to the caller
    return ranked;
}

pub const Ranked = struct { rows: usize, bad: bool };

/// Rows `rank_dealt` ranks at a time for `players` players: it ranks whole blocks.
pub fn block_rows(comptime players: u32) u32 {
    comptime assert(players >= 1 and players <= players_max);
    return block_hands_max / players;
}

/// `rank_showdown` of rows each dealt from one deck (Monte Carlo's games, never a card
/// twice), in whole blocks: `out` holds a whole number of `block_rows` rows (the caller
/// drops the ranks past its own), and `boards` and `holes` run on `spare_rows` rows past
/// them. No card is checked: a row the caller did not deal is ranked all the same (its rank
/// meaningless), where `rank_showdown` leaves the last block's rows to the scalar path (a
/// 128-game block of six players: 8 of its rows) and checks every row's hole cards.
pub fn rank_dealt(
    comptime board_cards: u32,
    comptime players: u32,
    boards: []const u8,
    holes: []const u8,
    out: []u16,
) void {
    comptime assert(available);
    const plan = comptime Kernel.Plan.init(players, board_cards);
    const rows = out.len / players;
    assert(out.len == rows * players and rows % plan.layout.rows_per_block == 0);
    // Every block's loads stay inside the rows the caller gives.
    assert(boards.len >= (rows + plan.spare_rows) * board_cards);
    assert(holes.len >= (rows + plan.spare_rows) * players * 2);
    var block: usize = 0;
    while (block < rows) : (block += plan.layout.rows_per_block) {
        _ = rank_block(Kernel, plan, false, boards, holes, out, block);
    }
}

/// Rows a block's loads may read past it, for `players` and boards of `board_cards`: the
/// slack that lets `rank_showdown` rank every row.
pub fn spare_rows(comptime players: u32, comptime board_cards: u32) u32 {
    comptime assert(players >= 1 and players <= players_max);
    if (!available) return 0;
    return comptime Kernel.Plan.init(players, board_cards).spare_rows;
}

fn rank_showdown_with(
    comptime K: type,
    comptime board_cards: u32,
    boards: []const u8,
    holes: []const u8,
    players: u32,
    out: []u16,
) Ranked {
    comptime assert(board_cards >= encoding.board_cards_min and board_cards <= encoding.board_cards_max);
    return switch (players) {
        // Compiled per player count: the layout is a constant, the loops have fixed lengths.
        inline 1...players_max => |count| rank_blocks(K, board_cards, count, boards, holes, out),
        else => .{ .rows = 0, .bad = false },
    };
}

/// Where a block's hands sit, from the number of players, the board's cards and the vector
/// width alone.
fn Layout(comptime lanes: u32) type {
    return struct {
        players: u32,
        board_cards: u32,
        rows_per_block: u32,
        hands_per_block: u32,
        groups: u32,
        /// Per group and lane: the hand it ranks and that hand's row, counted from the
        /// block's first. Lanes past the block repeat its last hand (ranked, then dropped).
        hands: [block_hands_max / lanes][lanes]u32,
        rows: [block_hands_max / lanes][lanes]u32,

        fn init(players: u32, board_cards: u32) @This() {
            std.debug.assert(players >= 1 and players <= players_max);
            const rows_per_block = block_hands_max / players;
            const hands_per_block = rows_per_block * players;
            var layout: @This() = .{
                .players = players,
                .board_cards = board_cards,
                .rows_per_block = rows_per_block,
                .hands_per_block = hands_per_block,
                .groups = (hands_per_block + lanes - 1) / lanes,
                .hands = undefined,
                .rows = undefined,
            };
            for (0..layout.groups) |group| {
                for (0..lanes) |lane| {
                    const hand: u32 = @intCast(@min(group * lanes + lane, hands_per_block - 1));
                    layout.hands[group][lane] = hand;
                    layout.rows[group][lane] = hand / players;
                }
            }
            return layout;
        }
    };
}

fn rank_blocks(
    comptime K: type,
    comptime board_cards: u32,
    comptime players: u32,
    boards: []const u8,
    holes: []const u8,
    out: []u16,
) Ranked {
    const plan = comptime K.Plan.init(players, board_cards);
    const layout = plan.layout;
    const total_rows = out.len / players;
    const readable_rows = @min(boards.len / board_cards, holes.len / (2 * players));
    std.debug.assert(readable_rows >= total_rows);
    if (readable_rows < plan.spare_rows) return .{ .rows = 0, .bad = false };
    const block_count = @min(total_rows, readable_rows - plan.spare_rows) / layout.rows_per_block;
    // The blocks' rows, and those their loads read past them, are all readable.
    assert(block_count * layout.rows_per_block + plan.spare_rows <= readable_rows);
    var bad: u32 = 0;
    for (0..block_count) |block| {
        bad |= @intFromBool(rank_block(K, plan, true, boards, holes, out, block * layout.rows_per_block));
    }
    return .{ .rows = block_count * layout.rows_per_block, .bad = bad != 0 };
}

/// Ranks the block of rows from `first_row`; if `checked`, also whether any of its rows
/// holds a bad card or a card twice (else false, and nothing checked).
fn rank_block(
    comptime K: type,
    comptime plan: K.Plan,
    comptime checked: bool,
    boards: []const u8,
    holes: []const u8,
    out: []u16,
    first_row: usize,
) bool {
    const layout = plan.layout;
    const players = layout.players;
    const board_cards = layout.board_cards;
    const lanes = K.lanes;
    const first_hand = first_row * players;
    const hands = layout.hands_per_block;
    assert(first_hand + hands <= out.len); // a whole block of ranks
    const Groups = struct {
        boards: []const u8,
        holes: []const u8,
        first_row: usize,
        pub inline fn tally_group(groups: @This(), group: usize) blocks.Tallied(lanes) {
            return K.tally_group(plan, group, groups.boards, groups.holes, groups.first_row);
        }
    };
    const groups = Groups{ .boards = boards, .holes = holes, .first_row = first_row };
    const ahead = first_row + blocks.prefetch_bytes / (players * 2); // holes: the larger stream
    blocks.prefetch_ahead(holes, ahead * players * 2, layout.rows_per_block * players * 2);
    blocks.prefetch_ahead(boards, ahead * board_cards, layout.rows_per_block * board_cards);
    const passes = blocks.tally_and_look_up(
        lanes,
        1,
        blocks.keyed(K),
        layout.groups,
        hands,
        groups,
        out[first_hand..][0..hands],
    );
    if (checked and (passes.bad or K.holes_shared(plan, holes, first_row))) return true;
    var flushes = passes.flushes;
    while (flushes != 0) : (flushes &= flushes - 1) {
        const hand = first_hand + @ctz(flushes);
        var accumulator: encoding.Accumulator = .empty;
        inline for (boards[(hand / players) * board_cards ..][0..board_cards]) |card| accumulator.add(
            card,
        );
        inline for (holes[hand * 2 ..][0..2]) |card| accumulator.add(card);
        out[hand] = eval.rank_accumulator(accumulator);
    }
    return false;
}

const Avx512 = struct {
    const Bytes = rows_avx512.Bytes;
    const lanes = 8;
    /// Its tallies are `tally_ids`', which key every flush.
    pub const keys_flushes = true;
    const groups_max = block_hands_max / lanes;
    /// Bytes of boards a group's window holds: a 64-byte load at its first row's board.
    const board_window = 64;

    const Plan = struct {
        layout: Layout(lanes),
        /// Rows a block's loads may read past it.
        spare_rows: u32,
        /// Per group: the `vpermi2b` index building its rows from the window of boards
        /// (bytes 0..63, from its first hand's board on) and of hole cards (64..127).
        indices: [groups_max]Bytes,
        /// Rows of hole cards a 64-byte vector holds whole, and vectors to a block.
        hole_rows_per_vector: u32,
        hole_chunks: u32,
        /// The card `d` places on round its row, for d = 1 .. players (every pair of a row).
        hole_rotations: [players_max][64]i32,
        /// Per chunk: the bytes that are hole cards of the block's rows.
        hole_places: [block_hands_max / 2]@Vector(64, bool),

        fn init(players: u32, board_cards: u32) Plan {
            @setEvalBranchQuota(200_000);
            const layout = Layout(lanes).init(players, board_cards);
            var plan: Plan = .{
                .layout = layout,
                .spare_rows = undefined,
                .indices = undefined,
                .hole_rows_per_vector = 64 / (2 * players),
                .hole_chunks = undefined,
                .hole_rotations = undefined,
                .hole_places = undefined,
            };
            for (0..layout.groups) |group| {
                var index: [64]u8 = @splat(0);
                for (0..lanes) |lane| {
                    const board_at = (layout.rows[group][lane] - layout.rows[group][0]) * board_cards;
                    std.debug.assert(board_at + board_cards <= board_window);
                    for (0..board_cards) |card| index[8 * lane + card] = @intCast(board_at + card);
                    const hole_at = 2 * (layout.hands[group][lane] - layout.hands[group][0]);
                    for (0..2) |card| index[8 * lane + board_cards + card] = @intCast(
                        64 + hole_at + card,
                    );
                }
                plan.indices[group] = index;
            }
            const row_bytes = 2 * players;
            plan.hole_chunks = (layout.rows_per_block + plan.hole_rows_per_vector - 1) / plan.hole_rows_per_vector;
            for (0..players) |d| {
                for (0..64) |j| {
                    const row = j / row_bytes;
                    plan.hole_rotations[d][j] = if (row < plan.hole_rows_per_vector) @intCast(row * row_bytes + (j % row_bytes + d + 1) % row_bytes) else @intCast(
                        j,
                    );
                }
            }
            for (0..plan.hole_chunks) |chunk| {
                const rows_here = @min(
                    layout.rows_per_block - chunk * plan.hole_rows_per_vector,
                    plan.hole_rows_per_vector,
                );
                var places: [64]bool = undefined;
                for (0..64) |j| places[j] = j < rows_here * row_bytes;
                plan.hole_places[chunk] = places;
            }
            // Room for every group's 64-byte window of boards, and for the last chunk of
            // hole cards, after the last block.
            plan.spare_rows = @max(
                board_window / board_cards + 1,
                plan.hole_chunks * plan.hole_rows_per_vector,
            );
            return plan;
        }
    };

    /// Sixteen bytes to the low quarter of a 64-byte vector (the rest zero).
    const widen: [64]i32 = mask: {
        var mask: [64]i32 = undefined;
        for (0..64) |j| mask[j] = if (j < 16) @intCast(j) else -1;
        break :mask mask;
    };

    inline fn tally_group(
        comptime plan: Plan,
        group: usize,
        boards: []const u8,
        holes: []const u8,
        first_row: usize,
    ) rows_avx512.Eight {
        const layout = plan.layout;
        const board_cards = layout.board_cards;
        const row = first_row + layout.rows[group][0];
        const hand = first_row * layout.players + layout.hands[group][0];
        const board_bytes: Bytes = boards[row * board_cards ..][0..board_window].*;
        const hole_bytes: @Vector(16, u8) = holes[hand * 2 ..][0..16].*;
        const hole_window = @shuffle(u8, hole_bytes, @as(@Vector(16, u8), @splat(0)), widen);
        const built = rows_avx512.lookup128(.{ board_bytes, hole_window }, plan.indices[group]);
        const ids = @select(
            u8,
            comptime rows_avx512.layout.card_places(board_cards + 2),
            built,
            @as(Bytes, @splat(rows_avx512.filler)),
        );
        return rows_avx512.tally_ids(board_cards + 2, ids);
    }

    inline fn holes_shared(comptime plan: Plan, holes: []const u8, first_row: usize) bool {
        const players = plan.layout.players;
        var shared: u32 = 0;
        inline for (0..plan.hole_chunks) |chunk| {
            const row = first_row + chunk * plan.hole_rows_per_vector;
            const row_holes: Bytes = holes[row * 2 * players ..][0..64].*;
            var repeated: @Vector(64, bool) = @splat(false);
            inline for (plan.hole_rotations[0..players]) |rotation| {
                repeated = repeated | (row_holes == @shuffle(u8, row_holes, undefined, rotation));
            }
            shared |= @intFromBool(@reduce(.Or, repeated & plan.hole_places[chunk]));
        }
        return shared != 0;
    }
};

const Avx2 = struct {
    const Bytes = rows_avx2.Bytes;
    const Half = @Vector(16, u8);
    const lanes = 4;
    const groups_max = block_hands_max / lanes;

    const Plan = struct {
        layout: Layout(lanes),
        /// Rows a block's 16-byte loads may read past it.
        spare_rows: u32,
        /// Per group: the `vpshufb` indices building its rows, each 128-bit half (two hands)
        /// from its own 16-byte windows of boards (from its first hand's board on) and of
        /// hole cards; 0x80 zeroes a byte the other window fills.
        board_indices: [groups_max]Bytes,
        hole_indices: [groups_max]Bytes,

        fn init(players: u32, board_cards: u32) Plan {
            @setEvalBranchQuota(200_000);
            const layout = Layout(lanes).init(players, board_cards);
            var plan: Plan = .{
                .layout = layout,
                // 16 bytes read from a block's last board and from its last hand's cards.
                .spare_rows = @max(16 / board_cards + 1, (16 + 2 * players - 1) / (2 * players)),
                .board_indices = undefined,
                .hole_indices = undefined,
            };
            for (0..layout.groups) |group| {
                var board_index: [32]u8 = @splat(0x80);
                var hole_index: [32]u8 = @splat(0x80);
                for (0..lanes) |lane| {
                    const first_lane = lane / 2 * 2;
                    const board_at = (layout.rows[group][lane] - layout.rows[group][first_lane]) * board_cards;
                    std.debug.assert(board_at + board_cards <= 16);
                    for (0..board_cards) |card| board_index[8 * lane + card] = @intCast(
                        board_at + card,
                    );
                    const hole_at = 2 * (layout.hands[group][lane] - layout.hands[group][first_lane]);
                    for (0..2) |card| hole_index[8 * lane + board_cards + card] = @intCast(
                        hole_at + card,
                    );
                }
                plan.board_indices[group] = board_index;
                plan.hole_indices[group] = hole_index;
            }
            return plan;
        }
    };

    /// Two 16-byte halves side by side.
    const concat: [32]i32 = mask: {
        var mask: [32]i32 = undefined;
        for (0..32) |j| mask[j] = if (j < 16) @intCast(j) else -@as(i32, @intCast(j - 16)) - 1;
        break :mask mask;
    };

    inline fn tally_group(
        comptime plan: Plan,
        group: usize,
        boards: []const u8,
        holes: []const u8,
        first_row: usize,
    ) rows_avx2.Four {
        const layout = plan.layout;
        const board_cards = layout.board_cards;
        var board_halves: [2]Half = undefined;
        var hole_halves: [2]Half = undefined;
        inline for (0..2) |half| {
            const row = first_row + layout.rows[group][2 * half];
            const hand = first_row * layout.players + layout.hands[group][2 * half];
            board_halves[half] = boards[row * board_cards ..][0..16].*;
            hole_halves[half] = holes[hand * 2 ..][0..16].*;
        }
        const board_bytes = @shuffle(u8, board_halves[0], board_halves[1], concat);
        const hole_bytes = @shuffle(u8, hole_halves[0], hole_halves[1], concat);
        // The spare byte of each row stays 0: rank/rows_avx2.zig's tally takes it for a deuce.
        const ids = rows_avx2.lookup16(board_bytes, plan.board_indices[group]) |
            rows_avx2.lookup16(hole_bytes, plan.hole_indices[group]);
        return rows_avx2.tally_ids(board_cards + 2, ids);
    }

    inline fn holes_shared(comptime plan: Plan, holes: []const u8, first_row: usize) bool {
        const players = plan.layout.players;
        var shared: u32 = 0;
        for (0..plan.layout.rows_per_block) |row| {
            var seen: u64 = 0;
            inline for (holes[(first_row + row) * 2 * players ..][0 .. 2 * players]) |card| {
                seen |= @as(u64, 1) << @truncate(card);
            }
            shared |= @as(u32, @popCount(seen)) ^ (2 * players);
        }
        return shared != 0;
    }
};

const deal = @import("../cards/deal.zig");
const random = @import("../cards/random.zig");

/// The showdown kernels this build has, to test each one.
const kernels = if (rows_avx512.available) .{ Avx2, Avx512 } else if (rows_avx2.available) .{Avx2} else .{};

test "showdown: every board size and player count ranks as the scalar path; any shared or bad card is caught" {
    inline for (.{ 3, 4, 5 }) |board_cards| try check_showdowns(board_cards);
}

fn check_showdowns(comptime board_cards: u32) !void {
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
        const deck = if (players <= 8 and players % 2 == 0) encoding.full_deck & 0x3FFFFFF else encoding.full_deck;
        deal.deal_rows(random.seed_key(players), 0, cards_per_row, deck, table);
        for (0..total_rows) |row| {
            const dealt = table[row * cards_per_row ..][0..cards_per_row];
            @memcpy(boards[row * board_cards ..][0..board_cards], dealt[0..board_cards]);
            @memcpy(holes[row * players * 2 ..][0 .. players * 2], dealt[board_cards..]);
        }
        inline for (kernels) |K| {
            const done = rank_showdown_with(K, board_cards, boards, holes, players, out);
            try std.testing.expect(!done.bad);
            try std.testing.expect(
                done.rows > 0 and done.rows + 64 / players + 64 / board_cards + 64 >= total_rows,
            );
            for (0..done.rows * players) |hand| {
                var accumulator: encoding.Accumulator = .empty;
                for (boards[(hand / players) * board_cards ..][0..board_cards]) |card| accumulator.add(
                    card,
                );
                for (holes[hand * 2 ..][0..2]) |card| accumulator.add(card);
                try std.testing.expectEqual(eval.rank_accumulator(accumulator), out[hand]);
            }
            // Spoil one card of a ranked row: out of range, or a copy of another of the row's.
            for (0..40) |trial| {
                state = random.mix64(state);
                const row = state % done.rows;
                const position = (state >> 16) % cards_per_row;
                const cell = if (position < board_cards) &boards[row * board_cards + position] else &holes[row * players * 2 + position - board_cards];
                const kept = cell.*;
                if (trial % 3 == 0) {
                    cell.* = @intCast(encoding.card_count + (state >> 32) % (256 - encoding.card_count));
                } else {
                    const other = (position + 1 + (state >> 32) % (cards_per_row - 1)) % cards_per_row;
                    cell.* = if (other < board_cards) boards[row * board_cards + other] else holes[row * players * 2 + other - board_cards];
                }
                try std.testing.expect(
                    rank_showdown_with(K, board_cards, boards, holes, players, out).bad,
                );
                cell.* = kept;
            }
            try std.testing.expect(
                !rank_showdown_with(K, board_cards, boards, holes, players, out).bad,
            );
        }
    }
}
