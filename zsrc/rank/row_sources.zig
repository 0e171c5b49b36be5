//! The vector row sources of this build's widest CPU level — AVX-512 (rank/rows_avx512.zig,
//! eight rows a vector) or AVX2 (rank/rows_avx2.zig, four) — for the batch and column kernels,
//! and the tests that hold every source this build has to the scalar path.
//!
//! Arrows point down: this file imports the sources and rank/blocks.zig; they import rank/blocks.zig
//! only.
const std = @import("std");
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const deal = @import("../cards/deal.zig");
const bits = @import("../cards/bits.zig");
const random = @import("../cards/random.zig");
const parse = @import("../cards/parse.zig");
const blocks = @import("blocks.zig");
const rows_avx2 = @import("rows_avx2.zig");
const rows_avx512 = @import("rows_avx512.zig");

const block_rows = blocks.block_rows;
const rank_block = blocks.rank_block;
const blocks_end = blocks.blocks_end;
const rank_blocks = blocks.rank_blocks;

/// Whether this build has vector tallies at all (the avx512 level has the avx2 ones too).
pub const available = rows_avx2.available;

/// Rows of `cards` (5..7) card ids (uint8 `(N, cards)`).
pub fn CardRows(comptime cards: u32) type {
    return if (rows_avx512.available) rows_avx512.CardRows(cards) else rows_avx2.CardRows(cards);
}
/// Card sets (uint64, 0 to 7 cards each).
pub const SetRows = if (rows_avx512.available) rows_avx512.sources.SetRows else rows_avx2.sources.SetRows;
/// Card text of 14 bytes a row ("AhKd7c2s3sQhJd") and of 20 ("Ah Kd 7c 2s 3s Qh Jd").
pub const TextRows = if (rows_avx512.available) rows_avx512.sources.TextRows else rows_avx2.sources.TextRows;
pub const SpacedTextRows = if (rows_avx512.available) rows_avx512.sources.SpacedTextRows else rows_avx2.sources.SpacedTextRows;
/// Accumulators (16-byte `{key, mask}`).
pub const AccumulatorRows = if (rows_avx512.available) rows_avx512.sources.AccumulatorRows else rows_avx2.sources.AccumulatorRows;
/// Accumulators ranked from their keys alone (`pp.rank(..., trusted=True)`), eight keys a
/// tally on the avx512 level (a zmm of keys from two of records) and four below it (a ymm
/// from two on avx2). Eight on avx2 too, two ymm of keys a tally, left 16M trusted
/// accumulators at 1.87-2.05 ns a hand from memory against 1.61-1.73 at four (avx2 ids
/// 2.0-2.2; in cache 0.94-1.02 against 1.00-1.19); avx512 at four was no faster (1.54-1.85
/// either way) and at sixteen slower (1.84-1.93). Sapphire Rapids class, in turn, 2026-12-04.
pub const TrustedAccumulatorRows = blocks.TrustedAccumulatorSource(if (rows_avx512.available) 8 else 4);

/// Ranks the rows of `cards` (5..7) ids that `blocks_end` allows (the caller ranks the
/// rest) and returns how many that was, and whether any was bad.
pub fn rank_card_rows(
    comptime cards: u32,
    ids: []const u8,
    out: []u16,
) struct { rows: usize, bad: bool } {
    std.debug.assert(ids.len == out.len * cards);
    const Rows = CardRows(cards);
    const end = blocks_end(Rows, out.len);
    // Whole blocks, and the rows a block's last load reads past it still in `ids`.
    std.debug.assert(end <= out.len and (end == 0 or (end + Rows.spare_rows) * cards <= ids.len));
    return .{ .rows = end, .bad = rank_blocks(Rows{ .cards = ids }, out, end) };
}

/// `rank_card_rows` under `game`'s rules (rank/blocks.zig's `GameSource`): a row holding a
/// card the game's deck lacks is bad.
pub fn rank_card_rows_in(
    comptime game: eval.Game,
    comptime cards: u32,
    ids: []const u8,
    out: []u16,
) struct { rows: usize, bad: bool } {
    std.debug.assert(ids.len == out.len * cards);
    const Rows = blocks.GameSource(CardRows(cards), game);
    const end = blocks_end(Rows, out.len);
    std.debug.assert(end <= out.len and (end == 0 or (end + Rows.spare_rows) * cards <= ids.len));
    return .{ .rows = end, .bad = rank_blocks(Rows{ .inner = .{ .cards = ids } }, out, end) };
}

/// `rank_card_rows_in` for card sets.
pub fn rank_set_rows_in(comptime game: eval.Game, sets: []const u64, out: []u16) struct { rows: usize, bad: bool } {
    std.debug.assert(sets.len == out.len);
    const Rows = blocks.GameSource(SetRows, game);
    const end = blocks_end(Rows, out.len);
    std.debug.assert(end % blocks.block_rows == 0 and end <= sets.len);
    return .{ .rows = end, .bad = rank_blocks(Rows{ .inner = .{ .sets = sets } }, out, end) };
}

/// Every vector row source of ids and of sets this build has, to test each one (the widest
/// is the one in use, the others are kept honest too).
fn id_sources(comptime cards: u32) type {
    return struct {
        const all = if (rows_avx512.available)
            .{ rows_avx2.CardRows(cards), rows_avx512.CardRows(cards) }
        else if (rows_avx2.available) .{rows_avx2.CardRows(cards)} else .{};
    };
}
/// The same for card text, compact and spaced (rank/rows_avx2.zig's tests take each).
pub const compact_text_sources = if (rows_avx512.available)
    .{ rows_avx2.sources.TextRows, rows_avx512.sources.TextRows }
else if (rows_avx2.available) .{rows_avx2.sources.TextRows} else .{};
pub const spaced_text_sources = if (rows_avx512.available)
    .{ rows_avx2.sources.SpacedTextRows, rows_avx512.sources.SpacedTextRows }
else if (rows_avx2.available) .{rows_avx2.sources.SpacedTextRows} else .{};
const accumulator_sources = if (rows_avx512.available)
    .{ rows_avx2.sources.AccumulatorRows, rows_avx512.sources.AccumulatorRows }
else if (rows_avx2.available) .{rows_avx2.sources.AccumulatorRows} else .{};
const set_sources = if (rows_avx512.available)
    .{ rows_avx2.sources.SetRows, rows_avx512.sources.SetRows }
else if (rows_avx2.available) .{rows_avx2.sources.SetRows} else .{};

const cards_per_row = encoding.hand_cards_max;

test "blocks: every seven-card hand, its cards in shifting orders, ranks as the scalar path" {
    if (!available) return error.SkipZigTest;
    const rows_per_batch = 64 * block_rows;
    // Spare rows past the batch: the vectors read beyond their rows.
    const spare = 2;
    var cards: [(rows_per_batch + spare) * cards_per_row]u8 = undefined;
    var ranks: [rows_per_batch + spare]u16 = undefined;
    var expected: [rows_per_batch]u16 = undefined;
    var filled: usize = 0;
    var hands: u64 = 0;
    var hand: [cards_per_row]u8 = undefined;
    var combo: u64 = (1 << cards_per_row) - 1; // Gosper over the 52 ids
    while (combo < 1 << encoding.card_count) {
        var left = combo;
        for (&hand) |*card| {
            card.* = @intCast(@ctz(left));
            left &= left - 1;
        }
        // Rotate the row by the hand's number, so every card meets every position.
        const shift = hands % cards_per_row;
        for (0..cards_per_row) |i| cards[filled * cards_per_row + i] = hand[(i + shift) % cards_per_row];
        expected[filled] = eval.rank_cards(&hand);
        filled += 1;
        hands += 1;
        const smeared = combo | (combo - 1);
        combo = (smeared + 1) | (((~smeared & (smeared + 1)) - 1) >> @intCast(@ctz(combo) + 1));
        if (filled == rows_per_batch or combo >= 1 << encoding.card_count) {
            @memset(cards[filled * cards_per_row ..][0 .. spare * cards_per_row], 0);
            inline for (id_sources(cards_per_row).all) |Rows| {
                comptime std.debug.assert(Rows.spare_rows <= spare);
                const end = blocks_end(Rows, filled + spare);
                try std.testing.expect(end + block_rows >= filled);
                try std.testing.expect(
                    !rank_blocks(Rows{ .cards = cards[0 .. (filled + spare) * cards_per_row] }, &ranks, end),
                );
                try std.testing.expectEqualSlices(u16, expected[0..end], ranks[0..end]);
            }
            filled = 0;
        }
    }
    try std.testing.expectEqual(@as(u64, 133_784_560), hands);
}

test "blocks: a card out of range or repeated anywhere marks the block bad" {
    inline for (.{ 5, 6, 7 }) |k| {
        inline for (id_sources(k).all) |Rows| {
            const rows = 2 * block_rows + Rows.spare_rows;
            var cards: [rows * k]u8 = undefined;
            var ranks: [rows]u16 = undefined;
            var state: u64 = 11;
            for (0..400) |trial| {
                deal.deal_rows(random.seed_key(trial), 0, k, encoding.full_deck, &cards);
                const source: Rows = .{ .cards = &cards };
                const end = blocks_end(Rows, rows);
                try std.testing.expectEqual(@as(usize, 2 * block_rows), end);
                try std.testing.expect(!rank_blocks(source, &ranks, end));
                for (ranks[0..end], 0..) |rank, row| {
                    try std.testing.expectEqual(eval.rank_cards(cards[row * k ..][0..k]), rank);
                }
                state = random.mix64(state);
                const row = state % end;
                const position = (state >> 16) % k;
                const cell = &cards[row * k + position];
                if (trial % 2 == 0) {
                    // Out of range: 52..255, the fillers' ids among them.
                    cell.* = @intCast(encoding.card_count + (state >> 32) % (256 - encoding.card_count));
                } else {
                    const other = (position + 1 + (state >> 32) % (k - 1)) % k;
                    cell.* = cards[row * k + other];
                }
                try std.testing.expect(rank_blocks(source, &ranks, end));
            }
        }
    }
}

test "blocks, fuzzed ids: a block passes exactly when every row is distinct cards" {
    var good_blocks: u32 = 0;
    var bad_blocks: u32 = 0;
    inline for (.{ 5, 6, 7 }) |k| {
        inline for (id_sources(k).all) |Rows| {
            var state: u64 = 1;
            var ranks: [block_rows + Rows.spare_rows]u16 = undefined;
            // Any byte, mostly cards.
            var cards: [(block_rows + Rows.spare_rows) * k]u8 = undefined;
            for (0..3000) |_| {
                state = random.mix64(state);
                deal.deal_rows(state, 0, k, encoding.full_deck, &cards);
                for (0..1 + state % 3) |pick_number| {
                    const pick = random.mix64(state +% pick_number);
                    const byte: u8 = @truncate(pick >> 40);
                    cards[pick % (block_rows * k)] = if (byte < 128) byte % 52 else byte;
                }
                const bad = rank_block(Rows{ .cards = &cards }, &ranks, 0);
                var all_good = true;
                for (0..block_rows) |row| {
                    const hand = cards[row * k ..][0..k];
                    var seen: u64 = 0;
                    const good = for (hand) |card| {
                        if (card >= encoding.card_count or seen & (@as(u64, 1) << @intCast(card)) != 0) break false;
                        seen |= @as(u64, 1) << @intCast(card);
                    } else true;
                    if (!good) all_good = false else if (!bad) try std.testing.expectEqual(
                        eval.rank_cards(hand),
                        ranks[row],
                    );
                }
                try std.testing.expectEqual(!all_good, bad);
                if (bad) bad_blocks += 1 else good_blocks += 1;
            }
        }
    }
    // Both outcomes were met often enough to mean something.
    if (available) try std.testing.expect(good_blocks > 1000 and bad_blocks > 1000);
}

test "blocks: sets of 0 to 7 cards rank as rank_set; bad sets mark the block" {
    var sets: [block_rows]u64 = undefined;
    var ranks: [block_rows]u16 = undefined;
    inline for (set_sources) |Rows| {
        var state: u64 = 5;
        for (0..2000) |trial| {
            for (&sets, 0..) |*set, row| {
                // 0 to 7 cards, flushes made likely by dealing from few suits now and then.
                state = random.mix64(state +% row);
                const cards = state % 8;
                const deck = if (trial % 3 == 0) encoding.full_deck & 0x3FFFFFF else encoding.full_deck;
                set.* = bits.pdep(
                    (@as(u64, 1) << @intCast(cards)) - 1 << @intCast((state >> 8) % 20),
                    deck,
                );
                if (@popCount(set.*) != cards) set.* = bits.pdep(
                    (@as(u64, 1) << @intCast(cards)) - 1,
                    deck,
                );
            }
            const source: Rows = .{ .sets = &sets };
            try std.testing.expect(!rank_block(source, &ranks, 0));
            for (sets, ranks) |set, rank| try std.testing.expectEqual(eval.rank_set(set), rank);
            state = random.mix64(state);
            const bad_sets = [_]u64{ 0xFF, 1 << 52, @as(u64, 1) << 63 | 1, encoding.full_deck, ~@as(u64, 0) };
            sets[state % block_rows] = bad_sets[trial % bad_sets.len];
            try std.testing.expect(rank_block(source, &ranks, 0));
        }
    }
}

test "blocks: accumulators of 0 to 7 cards rank as rank_accumulator; bad or edited ones mark the block" {
    inline for (accumulator_sources) |Rows| try check_accumulator_rows(Rows);
}

fn check_accumulator_rows(comptime Rows: type) !void {
    var accumulators: [block_rows]encoding.Accumulator = undefined;
    var ranks: [block_rows]u16 = undefined;
    var state: u64 = 7;
    for (0..2000) |trial| {
        for (&accumulators, 0..) |*accumulator, row| {
            state = random.mix64(state +% row);
            const cards = state % 8;
            // Flushes made likely by dealing from two suits now and then.
            const deck = if (trial % 3 == 0) encoding.full_deck & 0x3FFFFFF else encoding.full_deck;
            var set = bits.pdep(
                (@as(u64, 1) << @intCast(cards)) - 1 << @intCast((state >> 8) % 20),
                deck,
            );
            if (@popCount(set) != cards) set = bits.pdep(
                (@as(u64, 1) << @intCast(cards)) - 1,
                deck,
            );
            accumulator.* = .empty;
            while (set != 0) : (set &= set - 1) accumulator.add(@intCast(@ctz(set)));
        }
        const source: Rows = .{ .accumulators = &accumulators };
        try std.testing.expect(!rank_block(source, &ranks, 0));
        for (accumulators, ranks) |accumulator, rank| try std.testing.expectEqual(
            eval.rank_accumulator(accumulator),
            rank,
        );
        state = random.mix64(state);
        const victim = &accumulators[state % block_rows];
        switch (trial % 5) {
            0 => victim.key +%= 1, // a fingerprint off by one
            1 => victim.key +%= @as(u64, 1) << 52, // a suit counter off
            2 => victim.mask ^= @as(u64, 1) << @intCast((state >> 8) % 52), // a card added or taken
            3 => victim.* = .{ .key = encoding.Accumulator.empty.key, .mask = 1 }, // the empty key, a card
            else => victim.mask |= @as(u64, 1) << 60, // off the deck
        }
        try std.testing.expect(rank_block(source, &ranks, 0));
    }
}

test "text rows: random hands in either case parse and rank as the scalar path" {
    if (!available) return error.SkipZigTest;
    const rows = 4 * block_rows + 2;
    var cards: [rows * cards_per_row]u8 = undefined;
    var text: [rows * TextRows.width]u8 = undefined;
    var ranks: [rows]u16 = undefined;
    const value_chars = encoding.value_letters;
    const suit_chars = encoding.suit_letters;
    for (0..50) |trial| {
        deal.deal_rows(random.seed_key(trial), 0, cards_per_row, encoding.full_deck, &cards);
        var case_bits = random.mix64(trial);
        for (cards, 0..) |card, i| {
            // Lower case now and then, any character.
            const lower: u8 = if (case_bits & 3 == 0) 0x20 else 0;
            const upper: u8 = if (case_bits & 12 == 0) 0xDF else 0xFF;
            case_bits = std.math.rotr(u64, case_bits, 3) ^ i;
            const value = value_chars[card % encoding.value_count];
            text[2 * i] = if (value >= 'A') value | lower else value;
            text[2 * i + 1] = suit_chars[card / encoding.value_count] & upper;
        }
        inline for (compact_text_sources) |Rows| {
            const source: Rows = .{ .text = &text };
            var first: usize = 0;
            while (first < blocks_end(Rows, rows)) : (first += block_rows) {
                try std.testing.expect(!rank_block(source, &ranks, first));
                for (ranks[first..][0..block_rows], first..) |rank, row| {
                    try std.testing.expectEqual(
                        eval.rank_cards(cards[row * cards_per_row ..][0..cards_per_row]),
                        rank,
                    );
                }
            }
        }
    }
}

test "text rows: any byte that is not a value or suit in its place marks the block bad" {
    inline for (compact_text_sources) |Rows| {
        const row_text = "AhKd7c2s3sQhJd";
        var text: [(block_rows + 2) * TextRows.width]u8 = undefined;
        for (0..block_rows + 2) |row| @memcpy(
            text[row * TextRows.width ..][0..TextRows.width],
            row_text,
        );
        var ranks: [block_rows + 1]u16 = undefined;
        const source: Rows = .{ .text = &text };
        try std.testing.expect(!rank_block(source, &ranks, 0));
        const expected = ranks[0];
        for (0..TextRows.width) |position| {
            for (0..256) |byte| {
                const char: u8 = @intCast(byte);
                const fits = if (position % 2 == 0) parse.value_of(char) != null else parse.suit_of(char) != null;
                const row = (position * 7 + byte) % block_rows;
                const cell = &text[row * TextRows.width + position];
                const kept = cell.*;
                cell.* = char;
                const bad = rank_block(source, &ranks, 0);
                // A good byte may still repeat a card of the row: then bad too, as it should be.
                const same_card = for (0..cards_per_row) |j| {
                    if (j != position / 2 and std.ascii.toUpper(text[row * TextRows.width + 2 * j + position % 2]) == std.ascii.toUpper(char) and
                        std.ascii.toUpper(text[row * TextRows.width + 2 * j + 1 - position % 2]) == std.ascii.toUpper(text[row * TextRows.width + position + 1 - 2 * (position % 2)])) break true;
                } else false;
                try std.testing.expectEqual(!fits or same_card, bad);
                if (!bad and char == kept) try std.testing.expectEqual(expected, ranks[row]);
                cell.* = kept;
            }
        }
    }
}

test "spaced text rows: 'Ah Kd,7c …' ranks as the scalar path; any other separator is bad" {
    const rows = 2 * block_rows + 2;
    const width = SpacedTextRows.width;
    var cards: [rows * cards_per_row]u8 = undefined;
    var text: [rows * width]u8 = undefined;
    var ranks: [rows]u16 = undefined;
    for (0..40) |trial| {
        deal.deal_rows(random.seed_key(trial + 100), 0, cards_per_row, encoding.full_deck, &cards);
        var noise = random.mix64(trial);
        for (0..rows) |row| {
            for (0..cards_per_row) |j| {
                const card = cards[row * cards_per_row + j];
                const at = row * width + 3 * j;
                text[at] = std.ascii.toLower(encoding.value_letters[card % encoding.value_count]);
                text[at + 1] = std.ascii.toUpper(encoding.suit_letters[card / encoding.value_count]);
                if (j + 1 < cards_per_row) text[at + 2] = if (noise & 1 == 0) ' ' else ',';
                noise = std.math.rotr(u64, noise, 1) ^ row;
            }
        }
        inline for (spaced_text_sources) |Rows| {
            const source: Rows = .{ .text = &text };
            for (0..2) |block| {
                const first = block * block_rows;
                try std.testing.expect(!rank_block(source, &ranks, first));
                for (ranks[first..][0..block_rows], first..) |rank, row| {
                    try std.testing.expectEqual(
                        eval.rank_cards(cards[row * cards_per_row ..][0..cards_per_row]),
                        rank,
                    );
                }
            }
            // Any byte but a space or comma where a separator goes: the block is bad.
            const row = random.mix64(trial) % (2 * block_rows);
            const at = row * width + 3 * (trial % (cards_per_row - 1)) + 2;
            const kept = text[at];
            for ([_]u8{ '\t', ';', 'x', 0, '2', 'h', 0x80 | ' ' }) |other| {
                text[at] = other;
                try std.testing.expect(rank_block(source, &ranks, row / block_rows * block_rows));
            }
            text[at] = kept;
        }
    }
}

/// Whether `row` reads as seven distinct compact (stride 2) or spaced (stride 3) cards, by
/// the scalar parser's rules; the card ids go to `ids`.
fn reads_as_seven(comptime stride: u32, row: []const u8, ids: *[cards_per_row]u8) bool {
    var seen: u64 = 0;
    for (ids, 0..) |*id, j| {
        const value = parse.value_of(row[stride * j]) orelse return false;
        const suit = parse.suit_of(row[stride * j + 1]) orelse return false;
        if (stride == 3 and j + 1 < cards_per_row and row[3 * j + 2] != ' ' and row[3 * j + 2] != ',') return false;
        id.* = suit * encoding.value_count + value;
        if (seen & (@as(u64, 1) << @intCast(id.*)) != 0) return false;
        seen |= @as(u64, 1) << @intCast(id.*);
    }
    return true;
}

test "text rows, fuzzed: a block passes exactly when every row is good, and then ranks right" {
    // Mostly good characters, some near misses: a block is bad now and then, good often.
    const alphabet = comptime alphabet: {
        var lower_faces: [5]u8 = undefined; // T J Q K A
        _ = std.ascii.lowerString(&lower_faces, encoding.value_letters[8..]);
        var upper_suits: [encoding.suit_count]u8 = undefined;
        _ = std.ascii.upperString(&upper_suits, encoding.suit_letters);
        const letters = encoding.value_letters ++ lower_faces ++ encoding.suit_letters ++ upper_suits;
        break :alphabet letters ++ "1 0xI@`{,\t\x80\xff";
    };
    var state: u64 = 1;
    var ranks: [block_rows + 2]u16 = undefined;
    var good_blocks: u32 = 0;
    var bad_blocks: u32 = 0;
    inline for (compact_text_sources ++ spaced_text_sources) |Rows| {
        const stride = if (Rows.width == 14) 2 else 3;
        var text: [(block_rows + 2) * Rows.width]u8 = undefined;
        for (0..3000) |_| {
            // A good block, then one character swapped for any of the alphabet with odds
            // that leave about half the blocks good.
            var cards: [(block_rows + 2) * cards_per_row]u8 = undefined;
            state = random.mix64(state);
            deal.deal_rows(state, 0, cards_per_row, encoding.full_deck, &cards);
            for (0..block_rows + 2) |row| {
                for (0..cards_per_row) |j| {
                    const card = cards[row * cards_per_row + j];
                    const at = row * Rows.width + stride * j;
                    text[at] = encoding.value_letters[card % encoding.value_count];
                    text[at + 1] = encoding.suit_letters[card / encoding.value_count];
                    if (stride == 3 and j + 1 < cards_per_row) text[at + 2] = ' ';
                }
            }
            for (0..1 + state % 3) |k| {
                const pick = random.mix64(state +% k);
                text[pick % (block_rows * Rows.width)] = alphabet[(pick >> 32) % alphabet.len];
            }
            const bad = rank_block(Rows{ .text = &text }, &ranks, 0);
            var all_good = true;
            var ids: [cards_per_row]u8 = undefined;
            for (0..block_rows) |row| {
                if (!reads_as_seven(stride, text[row * Rows.width ..][0..Rows.width], &ids)) {
                    all_good = false;
                } else if (!bad) try std.testing.expectEqual(eval.rank_cards(&ids), ranks[row]);
            }
            try std.testing.expectEqual(!all_good, bad);
            if (bad) bad_blocks += 1 else good_blocks += 1;
        }
    }
    // Both outcomes were met often enough to mean something.
    if (available) try std.testing.expect(good_blocks > 500 and bad_blocks > 500);
}
