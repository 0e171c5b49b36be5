//! Ranking rows in blocks of 64, by the widest vector tally this build's CPU level has:
//! AVX-512 (rows_avx512.zig, eight rows a vector) or AVX2 (rows_avx2.zig, four).
//!
//! A row source (card ids, card sets, accumulators, card text) gives `lanes`, `tally(first)`
//! (the `Tallied` of rows `first .. first + lanes`) and `rank_row(row)` (the scalar path,
//! for the rows with a flush); it may ask for `tallies_per_pass` (default 1) to unroll the
//! tally loop, and say in `spare_rows` how many rows past a block its loads read. `rank_block` then runs three tight loops: the vector tally, the table
//! lookups (eval's, unmasked: see `rank_fingerprint_unmasked`), and the scalar path for the
//! rows with a flush (3% of random hands). Keeping the lookups apart from the tally lets the
//! CPU overlap one block's L2 misses with the next one's arithmetic.
const std = @import("std");
const eval = @import("eval.zig");
const deal = @import("deal.zig");
const rows_avx2 = @import("rows_avx2.zig");
const rows_avx512 = @import("rows_avx512.zig");

/// Whether this build has vector tallies at all (the avx512 level has the avx2 ones too).
pub const available = rows_avx2.available;

/// Rows of `cards` (5..7) card ids (uint8 `(N, cards)`).
pub fn CardRows(comptime cards: u32) type {
    return if (rows_avx512.available) rows_avx512.CardRows(cards) else rows_avx2.CardRows(cards);
}
/// Card sets (uint64, 1 to 7 cards each).
pub const SetRows = if (rows_avx512.available) rows_avx512.SetRows else rows_avx2.SetRows;
/// Card text of 14 bytes a row ("AhKd7c2s3sQhJd") and of 20 ("Ah Kd 7c 2s 3s Qh Jd").
pub const TextRows = if (rows_avx512.available) rows_avx512.TextRows else rows_avx2.TextRows;
pub const SpacedTextRows = if (rows_avx512.available) rows_avx512.SpacedTextRows else rows_avx2.SpacedTextRows;
/// Accumulators (16-byte `{key, mask}`).
pub const AccumulatorRows = if (rows_avx512.available) rows_avx512.AccumulatorRows else rows_avx2.AccumulatorRows;

/// What a vector tally of `lanes` rows gives: each row's fingerprint (eval.zig), whether it
/// holds a flush, and whether any of the rows is bad.
pub fn Tallied(comptime lanes: u32) type {
    return struct { fingerprints: @Vector(lanes, u64), flush: @Vector(lanes, bool), bad: bool };
}

/// What a vector tally of `lanes` card sets gives: fingerprints (0 for a bad set, so its
/// lookup stays inside the tables), whether a suit holds five cards, the suit counts as
/// eval.zig's key counters (`c0 | c1 << 4 | c2 << 8 | c3 << 12`), and which sets are bad
/// (bits above 51, or not 1..7 cards).
pub fn SetTally(comptime lanes: u32) type {
    return struct {
        fingerprints: @Vector(lanes, u64),
        flush: @Vector(lanes, bool),
        counters: @Vector(lanes, u64),
        bad: @Vector(lanes, bool),
    };
}

/// Card sets (uint64, 1 to 7 cards each), by a kernel's `tally_sets` (`K` gives it, its
/// `lanes` and its `tallies_per_pass`).
pub fn SetSource(comptime K: type) type {
    return struct {
        sets: []const u64,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const tallied = K.tally_sets(rows.sets[first..][0..lanes].*);
            return .{ .fingerprints = tallied.fingerprints, .flush = tallied.flush, .bad = @reduce(.Or, tallied.bad) };
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_set(rows.sets[row]);
        }
    };
}

/// Accumulators (eval.zig's 16-byte `{key, mask}`), by the same kernel: each mask tallied as
/// a set, and the key held to what adding those cards makes (`eval.key_of_set`), so an
/// edited record is bad.
pub fn AccumulatorSource(comptime K: type) type {
    return struct {
        accumulators: []const eval.Accumulator,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        const Lanes = @Vector(lanes, u64);

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const words: *const [2 * lanes]u64 = @ptrCast(rows.accumulators[first..][0..lanes]);
            const low: Lanes = words[0..lanes].*;
            const high: Lanes = words[lanes..].*;
            const keys = @shuffle(u64, low, high, every_other(0));
            const masks = @shuffle(u64, low, high, every_other(1));
            const tallied = K.tally_sets(masks);
            const shift = eval.suit_counter_shift;
            const expected = tallied.fingerprints +
                ((tallied.counters + @as(Lanes, @splat(eval.Accumulator.empty.key >> shift))) << @splat(shift));
            return .{
                .fingerprints = tallied.fingerprints,
                .flush = tallied.flush,
                .bad = @reduce(.Or, tallied.bad | (keys != expected)),
            };
        }

        /// Words `first`, `first + 2`, … of two vectors of interleaved keys and masks.
        fn every_other(comptime first: u32) [lanes]i32 {
            var mask: [lanes]i32 = undefined;
            for (0..lanes) |i| {
                const word: i32 = @intCast((2 * i + first) % lanes);
                mask[i] = if (2 * i < lanes) word else ~word;
            }
            return mask;
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_accumulator(rows.accumulators[row]);
        }
    };
}

/// Rows a block: its fingerprints stay in L1 between the passes.
pub const block_rows = 64;

/// Ranks rows `first .. first + block_rows` of `rows` in three passes, each a tight loop:
/// the vector tally, the table lookups, then the scalar path for the few rows holding a
/// flush (a branch per row on a 3% event would mispredict more often than it is taken).
/// Returns whether any row is bad, with the block's ranks then meaningless.
pub inline fn rank_block(rows: anytype, out: []u16, first: usize) bool {
    const lanes = @TypeOf(rows).lanes;
    var fingerprints: [block_rows]u32 align(64) = undefined;
    var flushes: u64 = 0;
    var bad: u32 = 0;
    const per_pass = if (@hasDecl(@TypeOf(rows), "tallies_per_pass")) @TypeOf(rows).tallies_per_pass else 1;
    var pass: usize = 0;
    while (pass < block_rows) : (pass += per_pass * lanes) {
        inline for (0..per_pass) |tally| {
            const row = pass + tally * lanes;
            const tallied = rows.tally(first + row);
            fingerprints[row..][0..lanes].* = @as(@Vector(lanes, u32), @truncate(tallied.fingerprints));
            const flush_bits: @Int(.unsigned, lanes) = @bitCast(tallied.flush);
            flushes |= @as(u64, flush_bits) << @intCast(row);
            bad |= @intFromBool(tallied.bad);
        }
    }
    for (&fingerprints, out[first..][0..block_rows]) |fingerprint, *rank| {
        // At most seven multipliers, whatever the input (a tally sums nothing else).
        rank.* = eval.rank_fingerprint_unmasked(fingerprint);
    }
    if (bad != 0) return true;
    while (flushes != 0) : (flushes &= flushes - 1) {
        const flush_row = first + @ctz(flushes);
        out[flush_row] = rows.rank_row(flush_row);
    }
    return false;
}

comptime {
    std.debug.assert(block_rows == 64); // one u64 of flush bits
}

/// The rows of `rows` that whole blocks of `Rows` cover, leaving after them the rows its
/// vectors read past a block (`Rows.spare_rows`).
pub fn blocks_end(comptime Rows: type, rows: usize) usize {
    const spare = if (@hasDecl(Rows, "spare_rows")) Rows.spare_rows else 0;
    if (rows < spare) return 0;
    return (rows - spare) / block_rows * block_rows;
}

/// Ranks the rows of `cards` (5..7) ids that `blocks_end` allows (the caller ranks the
/// rest) and returns how many that was, and whether any was bad.
pub fn rank_card_rows(comptime cards: u32, ids: []const u8, out: []u16) struct { rows: usize, bad: bool } {
    std.debug.assert(ids.len == out.len * cards);
    const Rows = CardRows(cards);
    const end = blocks_end(Rows, out.len);
    return .{ .rows = end, .bad = rank_blocks(Rows{ .cards = ids }, out, end) };
}

/// `rank_block` for every block of rows `0 .. end` (a multiple of `block_rows`); returns
/// whether any row was bad.
pub fn rank_blocks(rows: anytype, out: []u16, end: usize) bool {
    std.debug.assert(end % block_rows == 0);
    var bad: u32 = 0;
    var first: usize = 0;
    // Bitwise, not `or`: a short-circuit would put a branch in every block.
    while (first < end) : (first += block_rows) bad |= @intFromBool(rank_block(rows, out, first));
    return bad != 0;
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
/// The same for card text, compact and spaced (rows_avx2.zig's tests take each).
pub const compact_text_sources = if (rows_avx512.available)
    .{ rows_avx2.TextRows, rows_avx512.TextRows }
else if (rows_avx2.available) .{rows_avx2.TextRows} else .{};
pub const spaced_text_sources = if (rows_avx512.available)
    .{ rows_avx2.SpacedTextRows, rows_avx512.SpacedTextRows }
else if (rows_avx2.available) .{rows_avx2.SpacedTextRows} else .{};
const accumulator_sources = if (rows_avx512.available)
    .{ rows_avx2.AccumulatorRows, rows_avx512.AccumulatorRows }
else if (rows_avx2.available) .{rows_avx2.AccumulatorRows} else .{};
const set_sources = if (rows_avx512.available)
    .{ rows_avx2.SetRows, rows_avx512.SetRows }
else if (rows_avx2.available) .{rows_avx2.SetRows} else .{};

const cards_per_row = eval.hand_cards_max;

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
    while (combo < 1 << eval.card_count) {
        var bits = combo;
        for (&hand) |*card| {
            card.* = @intCast(@ctz(bits));
            bits &= bits - 1;
        }
        // Rotate the row by the hand's number, so every card meets every position.
        const shift = hands % cards_per_row;
        for (0..cards_per_row) |i| cards[filled * cards_per_row + i] = hand[(i + shift) % cards_per_row];
        expected[filled] = eval.rank_cards(&hand);
        filled += 1;
        hands += 1;
        const smeared = combo | (combo - 1);
        combo = (smeared + 1) | (((~smeared & (smeared + 1)) - 1) >> @intCast(@ctz(combo) + 1));
        if (filled == rows_per_batch or combo >= 1 << eval.card_count) {
            @memset(cards[filled * cards_per_row ..][0 .. spare * cards_per_row], 0);
            inline for (id_sources(cards_per_row).all) |Rows| {
                comptime std.debug.assert(Rows.spare_rows <= spare);
                const end = blocks_end(Rows, filled + spare);
                try std.testing.expect(end + block_rows >= filled);
                try std.testing.expect(!rank_blocks(Rows{ .cards = cards[0 .. (filled + spare) * cards_per_row] }, &ranks, end));
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
                deal.deal_rows(deal.seed_key(trial), 0, k, deal.full_deck, &cards);
                const source: Rows = .{ .cards = &cards };
                const end = blocks_end(Rows, rows);
                try std.testing.expectEqual(@as(usize, 2 * block_rows), end);
                try std.testing.expect(!rank_blocks(source, &ranks, end));
                for (ranks[0..end], 0..) |rank, row| {
                    try std.testing.expectEqual(eval.rank_cards(cards[row * k ..][0..k]), rank);
                }
                state = deal.mix64(state);
                const row = state % end;
                const position = (state >> 16) % k;
                const cell = &cards[row * k + position];
                if (trial % 2 == 0) {
                    // Out of range: 52..255, the fillers' ids among them.
                    cell.* = @intCast(eval.card_count + (state >> 32) % (256 - eval.card_count));
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
                state = deal.mix64(state);
                deal.deal_rows(state, 0, k, deal.full_deck, &cards);
                for (0..1 + state % 3) |pick_number| {
                    const pick = deal.mix64(state +% pick_number);
                    const byte: u8 = @truncate(pick >> 40);
                    cards[pick % (block_rows * k)] = if (byte < 128) byte % 52 else byte;
                }
                const bad = rank_block(Rows{ .cards = &cards }, &ranks, 0);
                var all_good = true;
                for (0..block_rows) |row| {
                    const hand = cards[row * k ..][0..k];
                    var seen: u64 = 0;
                    const good = for (hand) |card| {
                        if (card >= eval.card_count or seen & (@as(u64, 1) << @intCast(card)) != 0) break false;
                        seen |= @as(u64, 1) << @intCast(card);
                    } else true;
                    if (!good) all_good = false else if (!bad) try std.testing.expectEqual(eval.rank_cards(hand), ranks[row]);
                }
                try std.testing.expectEqual(!all_good, bad);
                if (bad) bad_blocks += 1 else good_blocks += 1;
            }
        }
    }
    // Both outcomes were met often enough to mean something.
    if (available) try std.testing.expect(good_blocks > 1000 and bad_blocks > 1000);
}

test "blocks: sets of 1 to 7 cards rank as rank_set; bad sets mark the block" {
    var sets: [block_rows]u64 = undefined;
    var ranks: [block_rows]u16 = undefined;
    inline for (set_sources) |Rows| {
        var state: u64 = 5;
        for (0..2000) |trial| {
            for (&sets, 0..) |*set, row| {
                // 1 to 7 cards, flushes made likely by dealing from few suits now and then.
                state = deal.mix64(state +% row);
                const cards = 1 + state % 7;
                const deck = if (trial % 3 == 0) deal.full_deck & 0x3FFFFFF else deal.full_deck;
                set.* = deal.pdep((@as(u64, 1) << @intCast(cards)) - 1 << @intCast((state >> 8) % 20), deck);
                if (@popCount(set.*) != cards) set.* = deal.pdep((@as(u64, 1) << @intCast(cards)) - 1, deck);
            }
            const source: Rows = .{ .sets = &sets };
            try std.testing.expect(!rank_block(source, &ranks, 0));
            for (sets, ranks) |set, rank| try std.testing.expectEqual(eval.rank_set(set), rank);
            state = deal.mix64(state);
            const bad_sets = [_]u64{ 0, 0xFF, 1 << 52, @as(u64, 1) << 63 | 1, deal.full_deck, ~@as(u64, 0) };
            sets[state % block_rows] = bad_sets[trial % bad_sets.len];
            try std.testing.expect(rank_block(source, &ranks, 0));
        }
    }
}

test "blocks: accumulators of 1 to 7 cards rank as rank_accumulator; bad or edited ones mark the block" {
    inline for (accumulator_sources) |Rows| try check_accumulator_rows(Rows);
}

fn check_accumulator_rows(comptime Rows: type) !void {
    var accumulators: [block_rows]eval.Accumulator = undefined;
    var ranks: [block_rows]u16 = undefined;
    var state: u64 = 7;
    for (0..2000) |trial| {
        for (&accumulators, 0..) |*accumulator, row| {
            state = deal.mix64(state +% row);
            const cards = 1 + state % 7;
            // Flushes made likely by dealing from two suits now and then.
            const deck = if (trial % 3 == 0) deal.full_deck & 0x3FFFFFF else deal.full_deck;
            var set = deal.pdep((@as(u64, 1) << @intCast(cards)) - 1 << @intCast((state >> 8) % 20), deck);
            if (@popCount(set) != cards) set = deal.pdep((@as(u64, 1) << @intCast(cards)) - 1, deck);
            accumulator.* = .empty;
            while (set != 0) : (set &= set - 1) accumulator.add(@intCast(@ctz(set)));
        }
        const source: Rows = .{ .accumulators = &accumulators };
        try std.testing.expect(!rank_block(source, &ranks, 0));
        for (accumulators, ranks) |accumulator, rank| try std.testing.expectEqual(eval.rank_accumulator(accumulator), rank);
        state = deal.mix64(state);
        const victim = &accumulators[state % block_rows];
        switch (trial % 5) {
            0 => victim.key +%= 1, // a fingerprint off by one
            1 => victim.key +%= @as(u64, 1) << 52, // a suit counter off
            2 => victim.mask ^= @as(u64, 1) << @intCast((state >> 8) % 52), // a card added or taken
            3 => victim.* = .empty, // no cards
            else => victim.mask |= @as(u64, 1) << 60, // off the deck
        }
        try std.testing.expect(rank_block(source, &ranks, 0));
    }
}
