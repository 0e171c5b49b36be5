//! Build-time generator of every lookup table the evaluator uses.
//!
//! `zig build` runs this program and imports what it writes as the module `tables`; nothing
//! it produces is checked in. From first principles it:
//!
//!   1. searches the thirteen rank multipliers (greedily, smallest first) so that the sum
//!      `Σ count[v] * multiplier[v]` is distinct for every rank histogram of 0 to 7 cards;
//!   2. classifies every histogram and every 13-bit flush pattern into a payload
//!      (category and the card values that break ties, most significant first);
//!   3. densifies the payloads within each category into subranks 1, 2, 3, …;
//!   4. packs the sparse histogram keys into a flat table by first-fit row displacement;
//!   5. ranks Omaha's five-card hands by their board cards' value triple and their hole
//!      cards' value pair (zsrc/omaha/boards.zig builds every board's row from them);
//!   6. checks, and exits non-zero (failing the build) unless: every fingerprint is distinct,
//!      every key reads its own rank back through the packed tables, and the 5-card classes
//!      number 7,462 counted both ways (read back from the tables, and by combinatorics).
//!
//! Payload format (also what `pp_describe_payload` returns and `pypoker.describe` decodes):
//! `category << 20 | n0 << 16 | n1 << 12 | n2 << 8 | n3 << 4 | n4` where each nibble is a
//! card value + 1 (deuce = 1 … ace = 13) and 0 means "no card" (hands of fewer than five).
//! Comparing payloads as integers is comparing poker hands; a missing kicker loses to any.
const std = @import("std");
const assert = std.debug.assert;

pub const value_count = 13;
pub const cards_max = 7;
pub const count_per_value_max = 4;

/// A histogram's key is split into row (`key >> row_shift`) and column for row displacement.
/// The greedy multipliers pack 76,155 keys of 0..7-card histograms below 2^25. Rows of 4,096
/// keep the offsets table at 8,192 rows, 32 KB, which stays in L1 beside a batch's rows, so a
/// lookup misses L1 once where it missed twice (rows of 512 packed into 2^17 slots, but took
/// 256 KB of offsets: 7-card ids 0.984 of the time, card sets and accumulators 0.969, in turn
/// on a Xeon of the Sapphire Rapids class, 2026-12-03). At 12 first-fit needs 2^18 slots.
pub const row_shift = 12;
pub const lookup_size = 1 << 18;
/// The offsets table's last rows, past every histogram's key, lead to the flush ranks: the
/// key `flush_key_base` + pattern reads the flush rank of the 13-bit pattern, so a vector
/// tally that finds a row's flush pattern ranks it by the lookups as every other row
/// (rank/rows_avx512.zig). A bad row's "pattern" (two cards of one value and suit carry into the
/// next bit) stays below 29,568, inside these rows.
const flush_rows_reserved = 64;
comptime {
    // The flush rows' first key, `(row_count - flush_rows_reserved) << row_shift`, is then a
    // multiple of 2^16 (rank/rows_avx512.zig adds it in its tally's top byte plane alone).
    assert(flush_rows_reserved << row_shift >= 1 << 16);
}
/// Every pattern of 13 value bits one suit can hold: the flush table's index.
pub const flush_patterns = 1 << value_count;
pub const sum_bits_max = 26;

const Category = enum(u4) {
    high_card = 1,
    pair = 2,
    two_pair = 3,
    trips = 4,
    straight = 5,
    flush = 6,
    full_house = 7,
    quads = 8,
    straight_flush = 9,
};

/// Classes over all 5-card hands, by category, from combinatorics alone: C(13,5) rank sets
/// minus the 10 straights make the high cards (and, suited, the flushes); a pair is 13 ranks
/// times C(12,3) kicker sets; and so on.
const five_card_classes = [10]u32{
    0,
    choose(13, 5) - 10, // high card
    13 * choose(12, 3), // pair
    choose(13, 2) * 11, // two pair
    13 * choose(12, 2), // trips
    10, // straight
    choose(13, 5) - 10, // flush
    13 * 12, // full house
    13 * 12, // quads
    10, // straight flush
};

fn choose(n: u32, k: u32) u32 {
    var result: u32 = 1;
    var i: u32 = 0;
    while (i < k) : (i += 1) result = result * (n - i) / (i + 1);
    return result;
}

const Histogram = [value_count]u8;

fn payload(category: Category, values_descending: []const u8) u32 {
    assert(values_descending.len <= 5);
    var result: u32 = @as(u32, @backingInt(category)) << 20;
    for (values_descending, 0..) |value, i| {
        assert(value < value_count);
        result |= @as(u32, value + 1) << @intCast(16 - 4 * i);
    }
    return result;
}

/// The highest straight (its top card's value) among the values present in `bits`, or null.
/// The wheel A-2-3-4-5 counts as a straight to the five (value 3).
fn straight_top(bits: u13) ?u8 {
    const wheel_ready: u14 = (@as(u14, bits) << 1) | @as(u14, bits >> 12);
    var top: u8 = 12;
    while (top >= 3) : (top -= 1) {
        const run: u14 = @as(u14, 0b11111) << @intCast(top - 3);
        if (wheel_ready & run == run) return top;
    }
    return null;
}

/// The `n` highest values with a count of at least `count_min`, skipping `skip_a`/`skip_b`.
fn highest_values(
    histogram: *const Histogram,
    count_min: u8,
    skip_a: ?u8,
    skip_b: ?u8,
    n: usize,
    buffer: []u8,
) []u8 {
    var found: usize = 0;
    var value: i32 = value_count - 1;
    while (value >= 0 and found < n) : (value -= 1) {
        const v: u8 = @intCast(value);
        if (v == skip_a or v == skip_b) continue;
        if (histogram[v] >= count_min) {
            buffer[found] = v;
            found += 1;
        }
    }
    return buffer[0..found];
}

/// The best category and tie-breakers a multiset of values makes, suits unseen.
fn classify_histogram(histogram: *const Histogram) u32 {
    var buf_a: [5]u8 = undefined;
    var buf_b: [5]u8 = undefined;
    var present: u13 = 0;
    for (histogram, 0..) |count, v| {
        if (count > 0) present |= @as(u13, 1) << @intCast(v);
    }
    // 8. Quads: the highest four of a kind and the best remaining card.
    const quads = highest_values(histogram, 4, null, null, 1, &buf_a);
    if (quads.len == 1) {
        const kicker = highest_values(histogram, 1, quads[0], null, 1, &buf_b);
        return payload(.quads, concat(quads, kicker, &buf_a));
    }
    // 7. Full house: the highest trips and the highest other value holding two or more.
    const trips = highest_values(histogram, 3, null, null, 1, &buf_a);
    if (trips.len == 1) {
        const pair = highest_values(histogram, 2, trips[0], null, 1, &buf_b);
        if (pair.len == 1) return payload(.full_house, &.{ trips[0], pair[0] });
    }
    // 5. Straight: five values in a row (flushes are scored from the flush table instead).
    if (straight_top(present)) |top| return payload(.straight, &.{top});
    // 4. Trips and the two best kickers.
    if (trips.len == 1) {
        const kickers = highest_values(histogram, 1, trips[0], null, 2, &buf_b);
        return payload(.trips, concat(trips, kickers, &buf_a));
    }
    // 3. Two pair and the best kicker (a third pair's value may be that kicker).
    var buf_pairs: [5]u8 = undefined;
    const pairs = highest_values(histogram, 2, null, null, 2, &buf_pairs);
    if (pairs.len == 2) {
        const kicker = highest_values(histogram, 1, pairs[0], pairs[1], 1, &buf_b);
        return payload(.two_pair, concat(pairs, kicker, &buf_a));
    }
    // 2. Pair and the three best kickers.
    if (pairs.len == 1) {
        const kickers = highest_values(histogram, 1, pairs[0], null, 3, &buf_b);
        return payload(.pair, concat(pairs, kickers, &buf_a));
    }
    // 1. High card: the five best values.
    return payload(.high_card, highest_values(histogram, 1, null, null, 5, &buf_a));
}

fn concat(head: []const u8, tail: []const u8, buffer: []u8) []const u8 {
    assert(head.len + tail.len <= buffer.len);
    var joined: [5]u8 = undefined;
    @memcpy(joined[0..head.len], head);
    @memcpy(joined[head.len..][0..tail.len], tail);
    @memcpy(buffer[0 .. head.len + tail.len], joined[0 .. head.len + tail.len]);
    return buffer[0 .. head.len + tail.len];
}

/// The best five cards of one suit, from the 13-bit pattern of its values (5 to 13 set).
fn classify_flush(pattern: u13) u32 {
    assert(@popCount(pattern) >= 5);
    if (straight_top(pattern)) |top| return payload(.straight_flush, &.{top});
    var values: [5]u8 = undefined;
    var found: usize = 0;
    var v: i32 = value_count - 1;
    while (v >= 0 and found < 5) : (v -= 1) {
        if (pattern & (@as(u13, 1) << @intCast(v)) != 0) {
            values[found] = @intCast(v);
            found += 1;
        }
    }
    return payload(.flush, &values);
}

/// Every histogram of 0..7 cards with at most four of a value, in a fixed order.
fn enumerate_histograms(gpa: std.mem.Allocator) ![]Histogram {
    var list: std.ArrayList(Histogram) = .empty;
    var current: Histogram = @splat(0);
    try enumerate_histograms_from(gpa, &list, &current, 0, 0);
    return list.toOwnedSlice(gpa);
}

fn enumerate_histograms_from(
    gpa: std.mem.Allocator,
    list: *std.ArrayList(Histogram),
    current: *Histogram,
    value: usize,
    total: u8,
) !void {
    if (value == value_count) {
        try list.append(gpa, current.*);
        return;
    }
    var count: u8 = 0;
    while (count <= count_per_value_max and total + count <= cards_max) : (count += 1) {
        current[value] = count;
        try enumerate_histograms_from(gpa, list, current, value + 1, total + count);
    }
    current[value] = 0;
}

const PartialSum = struct { sum: u32, total: u8 };

/// Greedy search: each multiplier is the smallest above the previous one such that no two
/// histograms over the values so far share a sum. Adding value r with multiplier m collides
/// exactly when S(h2) - S(h1) = d * m for some d in 1..4 with |h1| <= 7 - d and |h2| <= 7
/// (take d of value r on top of h1, none on top of h2), so that is the only test needed.
fn search_multipliers(gpa: std.mem.Allocator) ![value_count]u32 {
    var multipliers: [value_count]u32 = undefined;
    multipliers[0] = 1;
    var sums: std.ArrayList(PartialSum) = .empty;
    defer sums.deinit(gpa);
    var next: std.ArrayList(PartialSum) = .empty;
    defer next.deinit(gpa);
    // The value-0 histograms: 0..4 deuces.
    for (0..count_per_value_max + 1) |c| try sums.append(
        gpa,
        .{ .sum = @intCast(c), .total = @intCast(c) },
    );

    const bitmap_words = (1 << sum_bits_max) / 64;
    const present = try gpa.alloc(u64, bitmap_words);
    defer gpa.free(present);

    for (1..value_count) |r| {
        @memset(present, 0);
        for (sums.items) |s| present[s.sum >> 6] |= @as(u64, 1) << @intCast(s.sum & 63);
        var m: u32 = multipliers[r - 1] + 1;
        search: while (true) : (m += 1) {
            for (1..count_per_value_max + 1) |d| {
                for (sums.items) |s| {
                    if (s.total + d > cards_max) continue;
                    const target: u64 = s.sum + d * m;
                    if (target >= (1 << sum_bits_max)) return error.MultiplierSearchOverflow;
                    if (present[target >> 6] & (@as(u64, 1) << @intCast(target & 63)) != 0) {
                        continue :search;
                    }
                }
            }
            break;
        }
        multipliers[r] = m;
        next.clearRetainingCapacity();
        for (sums.items) |s| {
            var c: u8 = 0;
            while (c <= count_per_value_max and s.total + c <= cards_max) : (c += 1) {
                try next.append(gpa, .{ .sum = s.sum + c * m, .total = s.total + c });
            }
        }
        std.mem.swap(std.ArrayList(PartialSum), &sums, &next);
    }
    return multipliers;
}

fn histogram_key(histogram: *const Histogram, multipliers: *const [value_count]u32) u32 {
    var key: u32 = 0;
    for (histogram, multipliers) |count, m| key += count * m;
    return key;
}

fn histogram_total(histogram: *const Histogram) u32 {
    var total: u32 = 0;
    for (histogram) |count| total += count;
    return total;
}

/// Payload → dense rank `(category << 12) | subrank`, subranks 1.. in payload order.
const Densifier = struct {
    payloads: []u32, // sorted, distinct

    fn rank_of(densifier: Densifier, p: u32) u16 {
        const index = std.sort.binarySearch(u32, densifier.payloads, p, order_u32) orelse
            unreachable;
        // Subrank = position among the payloads of the same category, from 1.
        const category = p >> 20;
        var first = index;
        while (first > 0 and densifier.payloads[first - 1] >> 20 == category) first -= 1;
        const subrank = index - first + 1;
        assert(subrank < (1 << 12));
        return @intCast((category << 12) | subrank);
    }

    fn order_u32(a: u32, b: u32) std.math.Order {
        return std.math.order(a, b);
    }
};

const Packed = struct {
    row_offsets: []u32,
    lookup: []u16,
    /// The key of the flush pattern 0 (see `flush_rows_reserved`).
    flush_key_base: u32,
};

/// First-fit row displacement: densest rows first, each at the lowest base where its
/// occupied columns all land on free slots. A key's slot is `key + row_offsets[row]`
/// (wrapping u32), which equals `base + column`.
fn pack_rows(
    gpa: std.mem.Allocator,
    keys: []const u32,
    ranks: []const u16,
    flush_ranks: *const [flush_patterns]u16,
) !Packed {
    var key_max: u32 = 0;
    for (keys) |k| key_max = @max(key_max, k);
    const row_count: usize = std.math.ceilPowerOfTwo(usize, (key_max >> row_shift) + 1) catch
        unreachable;
    const row_sizes = try gpa.alloc(u32, row_count);
    defer gpa.free(row_sizes);
    @memset(row_sizes, 0);
    for (keys) |k| row_sizes[k >> row_shift] += 1;

    const rows_by_size = try gpa.alloc(u32, row_count);
    defer gpa.free(rows_by_size);
    for (rows_by_size, 0..) |*r, i| r.* = @intCast(i);
    std.sort.pdq(u32, rows_by_size, row_sizes, struct {
        fn more(sizes: []u32, a: u32, b: u32) bool {
            if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
            return a < b;
        }
    }.more);

    // Columns of each row, gathered once.
    const row_columns = try gpa.alloc(std.ArrayList(u16), row_count);
    defer {
        for (row_columns) |*c| c.deinit(gpa);
        gpa.free(row_columns);
    }
    for (row_columns) |*c| c.* = .empty;
    for (keys) |k| try row_columns[k >> row_shift].append(
        gpa,
        @intCast(k & ((1 << row_shift) - 1)),
    );

    const taken = try gpa.alloc(bool, lookup_size);
    defer gpa.free(taken);
    @memset(taken, false);
    const row_offsets = try gpa.alloc(u32, row_count);
    // A row no hand uses gets base 0 too: then any key below `row_count << row_shift`, even
    // one no hand makes (a vector kernel's bad row), reads inside the table.
    for (row_offsets, 0..) |*offset, row| offset.* = 0 -% (@as(u32, @intCast(row)) << row_shift);

    for (rows_by_size) |row| {
        if (row_sizes[row] == 0) continue;
        const columns = row_columns[row].items;
        var base: u32 = 0;
        find: while (base < lookup_size) : (base += 1) {
            for (columns) |c| if (taken[(base + c) & (lookup_size - 1)]) continue :find;
            break;
        } else return error.LookupTableFull;
        for (columns) |c| taken[(base + c) & (lookup_size - 1)] = true;
        row_offsets[row] = base -% (row << row_shift);
    }

    // The first row's width of slots again after the last: a slot is then `key + offset`
    // without wrapping (see `rank_fingerprint_unmasked` in rank/eval.zig). Then the flush ranks,
    // reached from the last rows.
    const flush_slots = lookup_size + (1 << row_shift);
    const lookup = try gpa.alloc(u16, flush_slots + flush_patterns);
    @memset(lookup, 0);
    for (keys, ranks) |k, r| {
        const slot = (k +% row_offsets[k >> row_shift]) & (lookup_size - 1);
        assert(lookup[slot] == 0);
        lookup[slot] = r;
    }
    @memcpy(lookup[lookup_size..flush_slots], lookup[0 .. 1 << row_shift]);
    @memcpy(lookup[flush_slots..], flush_ranks);
    // No histogram's key reaches the reserved rows (a bad row's may: it reads a rank inside
    // the table, thrown away).
    const flush_rows_first: u32 = @intCast(row_count - flush_rows_reserved);
    if (key_max >> row_shift >= flush_rows_first) return error.LookupTableFull;
    for (0..flush_patterns >> row_shift) |r| {
        const row: u32 = flush_rows_first + @as(u32, @intCast(r));
        row_offsets[row] = (flush_slots + (@as(u32, @intCast(r)) << row_shift)) -% (row << row_shift);
    }
    return .{ .row_offsets = row_offsets, .lookup = lookup, .flush_key_base = flush_rows_first << row_shift };
}

fn fail(comptime message: []const u8, args: anytype) error{TableCheckFailed} {
    std.debug.print("gen_tables: " ++ message ++ "\n", args);
    return error.TableCheckFailed;
}

pub fn main(init: std.process.Init) !void {
    const gpa = init.gpa;
    const io = init.io;
    const args = try init.minimal.args.toSlice(init.arena.allocator());
    if (args.len != 2) return fail("usage: gen_tables OUTPUT.zig", .{});

    const multipliers = try search_multipliers(gpa);
    const histograms = try enumerate_histograms(gpa);
    defer gpa.free(histograms);

    // Keys, checked distinct (assert 1: no two histograms share a fingerprint).
    const keys = try gpa.alloc(u32, histograms.len);
    defer gpa.free(keys);
    for (histograms, keys) |*h, *k| k.* = histogram_key(h, &multipliers);
    {
        const sorted = try gpa.dupe(u32, keys);
        defer gpa.free(sorted);
        std.sort.pdq(u32, sorted, {}, std.sort.asc(u32));
        for (sorted[1..], sorted[0 .. sorted.len - 1]) |b, a| {
            if (a == b) return fail("two histograms share the fingerprint {d}", .{a});
        }
    }

    // Payloads of every histogram and every flush pattern, densified per category.
    const histogram_payloads = try gpa.alloc(u32, histograms.len);
    defer gpa.free(histogram_payloads);
    for (histograms, histogram_payloads) |*h, *p| p.* = classify_histogram(h);
    var flush_payloads: [flush_patterns]u32 = @splat(0);
    for (&flush_payloads, 0..) |*p, pattern| {
        if (@popCount(pattern) >= 5) p.* = classify_flush(@intCast(pattern));
    }
    var all: std.ArrayList(u32) = .empty;
    defer all.deinit(gpa);
    try all.appendSlice(gpa, histogram_payloads);
    for (flush_payloads) |p| if (p != 0) try all.append(gpa, p);
    std.sort.pdq(u32, all.items, {}, std.sort.asc(u32));
    var distinct_count: usize = 0;
    for (all.items, 0..) |p, i| {
        if (i > 0 and p == all.items[i - 1]) continue;
        all.items[distinct_count] = p;
        distinct_count += 1;
    }
    const distinct = all.items[0..distinct_count];
    const densifier: Densifier = .{ .payloads = distinct };

    const ranks = try gpa.alloc(u16, histograms.len);
    defer gpa.free(ranks);
    for (histogram_payloads, ranks) |p, *r| r.* = densifier.rank_of(p);
    var flush_ranks: [flush_patterns]u16 = @splat(0);
    for (flush_payloads, &flush_ranks) |p, *r| {
        if (p != 0) r.* = densifier.rank_of(p);
    }

    const packed_tables = try pack_rows(gpa, keys, ranks, &flush_ranks);
    defer gpa.free(packed_tables.row_offsets);
    defer gpa.free(packed_tables.lookup);

    // Assert 2: every key reads its own rank back through the packed tables.
    for (keys, ranks) |k, r| {
        const slot = (k +% packed_tables.row_offsets[k >> row_shift]) & (lookup_size - 1);
        if (packed_tables.lookup[slot] != r) return fail("key {d} does not read back", .{k});
    }

    // Assert 3: 7,462 five-card classes, counted from the tables and by combinatorics.
    try check_five_card_classes(gpa, histograms, keys, packed_tables, &flush_ranks);

    // The payload of each rank, for describing a rank without the cards.
    var describe: [10 << 12]u32 = @splat(0);
    for (distinct) |p| describe[densifier.rank_of(p)] = p;

    // Omaha: every value triple (a <= b <= c) with every value pair (d <= e), ranked as five
    // cards without a flush through the packed tables; 0 where a value would be there five
    // times. Triple-major, a row of 91 ranks (3 cache lines) per triple, which a board's
    // hands share. A triple's row is its colexicographic number, C(a, 1) + C(b + 1, 2) +
    // C(c + 2, 3), as zsrc/omaha/boards.zig numbers every board; pairs in loop order.
    var omaha_ranks: [455 * 91 + 1]u16 = @splat(0); // a spare entry, as omaha_boards.Rows
    var filled: usize = 0;
    for (0..value_count) |a| for (a..value_count) |b| for (b..value_count) |c| {
        const triple = a + (b + 1) * b / 2 + (c + 2) * (c + 1) * c / 6;
        var pair: usize = 0;
        for (0..value_count) |d| for (d..value_count) |e| {
            var histogram: Histogram = @splat(0);
            for ([_]usize{ a, b, c, d, e }) |v| histogram[v] += 1;
            if (std.mem.max(u8, &histogram) <= 4) {
                const k = histogram_key(&histogram, &multipliers);
                omaha_ranks[triple * 91 + pair] = packed_tables.lookup[(k +% packed_tables.row_offsets[k >> row_shift]) & (lookup_size - 1)];
            }
            pair += 1;
            filled += 1;
        };
    };
    if (filled != omaha_ranks.len - 1) return fail("Omaha's table has {d} slots, not {d}", .{ filled, omaha_ranks.len - 1 });

    var short_tables: [2]ShortDeckTables = undefined;
    for (&short_tables, [_]ShortDeckRule{ .trips_beat_straights, .straights_beat_trips }) |*short, rule| {
        short.* = try short_deck_tables(gpa, rule, histograms, keys, packed_tables);
    }
    defer for (short_tables) |short| gpa.free(short.lookup);

    try write_tables(
        io,
        args[1],
        &multipliers,
        packed_tables,
        &flush_ranks,
        &describe,
        &omaha_ranks,
        &short_tables,
    );
}

// Short deck (6+): 36 cards, sixes to aces. The same multipliers, histogram keys and row
// offsets as Hold'em (a short-deck histogram is a Hold'em one with no deuce to five), so every
// kernel reaches a short-deck rank at the slot it reaches the Hold'em one: only the table
// read differs. A flush beats a full house; A-6-7-8-9 is the lowest straight (the ace plays
// below the six); `rule` says whether trips beat straights. Categories are renumbered in the
// short deck's order so that, as in Hold'em, a higher rank wins: see `short_deck_category`.
// Histograms and flush patterns holding a deuce to five read 0, never a rank.

pub const ShortDeckRule = enum { trips_beat_straights, straights_beat_trips };

/// The lowest value in the short deck: the six (deuce = 0).
pub const short_deck_value_min = 4;
const short_deck_low_values: u13 = (1 << short_deck_value_min) - 1;

/// A short-deck rank's category, Hold'em's category numbers (1 high card … 9 straight flush)
/// renumbered in the short deck's order: the rank's top four bits.
fn short_deck_category(rule: ShortDeckRule, category: Category) u32 {
    return switch (category) {
        .high_card => 1,
        .pair => 2,
        .two_pair => 3,
        .straight => if (rule == .trips_beat_straights) 4 else 5,
        .trips => if (rule == .trips_beat_straights) 5 else 4,
        .full_house => 6,
        .flush => 7,
        .quads => 8,
        .straight_flush => 9,
    };
}

/// Classes over all 5-card short-deck hands, by short-deck category, from combinatorics: C(9,5)
/// value sets minus the 6 straights (A-6-7-8-9 to T-J-Q-K-A) and so on; 1,404 in all.
fn short_deck_five_card_classes(rule: ShortDeckRule) [10]u32 {
    var classes: [10]u32 = @splat(0);
    classes[short_deck_category(rule, .high_card)] = choose(9, 5) - 6;
    classes[short_deck_category(rule, .pair)] = 9 * choose(8, 3);
    classes[short_deck_category(rule, .two_pair)] = choose(9, 2) * 7;
    classes[short_deck_category(rule, .trips)] = 9 * choose(8, 2);
    classes[short_deck_category(rule, .straight)] = 6;
    classes[short_deck_category(rule, .flush)] = choose(9, 5) - 6;
    classes[short_deck_category(rule, .full_house)] = 9 * 8;
    classes[short_deck_category(rule, .quads)] = 9 * 8;
    classes[short_deck_category(rule, .straight_flush)] = 6;
    return classes;
}

fn short_deck_payload(rule: ShortDeckRule, category: Category, values_descending: []const u8) u32 {
    const hold_em = payload(category, values_descending);
    return (hold_em & ((1 << 20) - 1)) | (short_deck_category(rule, category) << 20);
}

/// The highest short-deck straight (its top card's value) among the values in `bits`, or
/// null. A-6-7-8-9 counts as a straight to the nine (value 7).
fn short_deck_straight_top(bits: u13) ?u8 {
    var top: u8 = 12;
    while (top >= short_deck_value_min + 4) : (top -= 1) {
        const run: u13 = @as(u13, 0b11111) << @intCast(top - 4);
        if (bits & run == run) return top;
    }
    const wheel: u13 = (1 << 12) | (0b1111 << short_deck_value_min);
    if (bits & wheel == wheel) return short_deck_value_min + 3;
    return null;
}

/// The best short-deck hand a multiset of values makes, suits unseen: the highest payload
/// among every category it holds (the payload's top bits are the short-deck category).
fn short_deck_classify_histogram(rule: ShortDeckRule, histogram: *const Histogram) u32 {
    var buf_a: [5]u8 = undefined;
    var buf_b: [5]u8 = undefined;
    var present: u13 = 0;
    for (histogram, 0..) |count, v| {
        if (count > 0) present |= @as(u13, 1) << @intCast(v);
    }
    assert(present & short_deck_low_values == 0);
    var best: u32 = 0;
    const quads = highest_values(histogram, 4, null, null, 1, &buf_a);
    if (quads.len == 1) {
        const kicker = highest_values(histogram, 1, quads[0], null, 1, &buf_b);
        best = @max(best, short_deck_payload(rule, .quads, concat(quads, kicker, &buf_a)));
    }
    const trips = highest_values(histogram, 3, null, null, 1, &buf_a);
    if (trips.len == 1) {
        const trips_value = trips[0];
        const pair = highest_values(histogram, 2, trips_value, null, 1, &buf_b);
        if (pair.len == 1) best = @max(best, short_deck_payload(rule, .full_house, &.{ trips_value, pair[0] }));
        const kickers = highest_values(histogram, 1, trips_value, null, 2, &buf_b);
        best = @max(best, short_deck_payload(rule, .trips, concat(&.{trips_value}, kickers, &buf_a)));
    }
    if (short_deck_straight_top(present)) |top| best = @max(best, short_deck_payload(rule, .straight, &.{top}));
    var buf_pairs: [5]u8 = undefined;
    const pairs = highest_values(histogram, 2, null, null, 2, &buf_pairs);
    if (pairs.len == 2) {
        const kicker = highest_values(histogram, 1, pairs[0], pairs[1], 1, &buf_b);
        best = @max(best, short_deck_payload(rule, .two_pair, concat(pairs, kicker, &buf_a)));
    }
    if (pairs.len >= 1) {
        const kickers = highest_values(histogram, 1, pairs[0], null, 3, &buf_b);
        best = @max(best, short_deck_payload(rule, .pair, concat(pairs[0..1], kickers, &buf_a)));
    }
    best = @max(best, short_deck_payload(rule, .high_card, highest_values(histogram, 1, null, null, 5, &buf_a)));
    assert(best != 0);
    return best;
}

/// The best five cards of one suit in the short deck (5 to 9 of the six-to-ace values set).
fn short_deck_classify_flush(rule: ShortDeckRule, pattern: u13) u32 {
    assert(@popCount(pattern) >= 5);
    assert(pattern & short_deck_low_values == 0);
    if (short_deck_straight_top(pattern)) |top| return short_deck_payload(rule, .straight_flush, &.{top});
    const hold_em = classify_flush(pattern);
    assert(hold_em >> 20 == @backingInt(Category.flush));
    return (hold_em & ((1 << 20) - 1)) | (short_deck_category(rule, .flush) << 20);
}

const ShortDeckTables = struct {
    /// Laid out as Hold'em's `lookup` (the same slots, the flush rows after them).
    lookup: []u16,
    flush_ranks: [flush_patterns]u16,
    describe: [10 << 12]u32,
};

fn short_deck_histogram(histogram: *const Histogram) bool {
    for (histogram[0..short_deck_value_min]) |count| if (count != 0) return false;
    return true;
}

/// The short deck's tables for `rule`, in Hold'em's packed slots, checked: every short-deck
/// key reads its rank back, every other reads 0, and the 5-card classes number 1,404 counted
/// from the tables and by combinatorics, category by category.
fn short_deck_tables(
    gpa: std.mem.Allocator,
    rule: ShortDeckRule,
    histograms: []const Histogram,
    keys: []const u32,
    packed_tables: Packed,
) !ShortDeckTables {
    const histogram_payloads = try gpa.alloc(u32, histograms.len);
    defer gpa.free(histogram_payloads);
    var all: std.ArrayList(u32) = .empty;
    defer all.deinit(gpa);
    for (histograms, histogram_payloads) |*h, *p| {
        p.* = if (short_deck_histogram(h)) short_deck_classify_histogram(rule, h) else 0;
        if (p.* != 0) try all.append(gpa, p.*);
    }
    var flush_payloads: [flush_patterns]u32 = @splat(0);
    for (&flush_payloads, 0..) |*p, pattern| {
        if (@popCount(pattern) >= 5 and pattern & short_deck_low_values == 0) {
            p.* = short_deck_classify_flush(rule, @intCast(pattern));
            try all.append(gpa, p.*);
        }
    }
    std.sort.pdq(u32, all.items, {}, std.sort.asc(u32));
    var distinct_count: usize = 0;
    for (all.items, 0..) |p, i| {
        if (i > 0 and p == all.items[i - 1]) continue;
        all.items[distinct_count] = p;
        distinct_count += 1;
    }
    const densifier: Densifier = .{ .payloads = all.items[0..distinct_count] };

    var tables: ShortDeckTables = .{
        .lookup = try gpa.alloc(u16, packed_tables.lookup.len),
        .flush_ranks = @splat(0),
        .describe = @splat(0),
    };
    errdefer gpa.free(tables.lookup);
    @memset(tables.lookup, 0);
    for (keys, histogram_payloads) |k, p| {
        if (p == 0) continue;
        const slot = (k +% packed_tables.row_offsets[k >> row_shift]) & (lookup_size - 1);
        tables.lookup[slot] = densifier.rank_of(p);
    }
    for (flush_payloads, &tables.flush_ranks) |p, *r| {
        if (p != 0) r.* = densifier.rank_of(p);
    }
    const flush_slots = lookup_size + (1 << row_shift);
    @memcpy(tables.lookup[lookup_size..flush_slots], tables.lookup[0 .. 1 << row_shift]);
    @memcpy(tables.lookup[flush_slots..], &tables.flush_ranks);
    for (densifier.payloads) |p| tables.describe[densifier.rank_of(p)] = p;

    // Every key reads back its short-deck rank, or 0 for a hand with a deuce to five.
    var seen = try std.DynamicBitSet.initEmpty(gpa, 1 << 16);
    defer seen.deinit();
    for (histograms, keys, histogram_payloads) |*h, k, p| {
        const slot = (k +% packed_tables.row_offsets[k >> row_shift]) & (lookup_size - 1);
        const expected: u16 = if (p == 0) 0 else densifier.rank_of(p);
        if (tables.lookup[slot] != expected) return fail("short deck: key {d} does not read back", .{k});
        if (p != 0 and histogram_total(h) == 5) seen.set(expected);
    }
    for (tables.flush_ranks, 0..) |r, pattern| {
        const key = packed_tables.flush_key_base + @as(u32, @intCast(pattern));
        const slot = key +% packed_tables.row_offsets[key >> row_shift];
        if (tables.lookup[slot] != r) return fail("short deck: flush {d} does not read back", .{pattern});
        if (@popCount(pattern) == 5 and r != 0) seen.set(r);
    }
    var per_category: [10]u32 = @splat(0);
    var it = seen.iterator(.{});
    while (it.next()) |r| per_category[r >> 12] += 1;
    const expected_classes = short_deck_five_card_classes(rule);
    var total: u32 = 0;
    for (per_category, expected_classes, 0..) |from_tables, expected, category| {
        if (from_tables != expected) return fail("short deck: category {d}: {d} classes, {d} by combinatorics", .{ category, from_tables, expected });
        total += from_tables;
    }
    if (total != 1404) return fail("short deck: {d} five-card classes, expected 1404", .{total});
    return tables;
}

fn write_short_deck_tables(w: *std.Io.Writer, rule: ShortDeckRule, tables: *const ShortDeckTables) !void {
    const prefix = switch (rule) {
        .trips_beat_straights => "shortdeck_",
        .straights_beat_trips => "shortdeck_straights_",
    };
    try w.print("\n/// Short deck ({s}): Hold'em's `lookup` slots holding short-deck ranks (0 for a\n" ++
        "/// hand with a deuce to five), then its flush ranks; see gen_tables.zig.\n", .{@tagName(rule)});
    var name_buffer: [64]u8 = undefined;
    try write_array(w, try std.fmt.bufPrint(&name_buffer, "{s}lookup", .{prefix}), u16, tables.lookup);
    try write_array(w, try std.fmt.bufPrint(&name_buffer, "{s}flush_ranks", .{prefix}), u16, &tables.flush_ranks);
    try write_array(w, try std.fmt.bufPrint(&name_buffer, "{s}describe_payloads", .{prefix}), u32, &tables.describe);
}

fn check_five_card_classes(
    gpa: std.mem.Allocator,
    histograms: []const Histogram,
    keys: []const u32,
    packed_tables: Packed,
    flush_ranks: *const [flush_patterns]u16,
) !void {
    var seen = try std.DynamicBitSet.initEmpty(gpa, 1 << 16);
    defer seen.deinit();
    for (histograms, keys) |*h, k| {
        if (histogram_total(h) != 5) continue;
        const slot = (k +% packed_tables.row_offsets[k >> row_shift]) & (lookup_size - 1);
        seen.set(packed_tables.lookup[slot]);
    }
    for (flush_ranks, 0..) |r, pattern| {
        if (@popCount(pattern) == 5) seen.set(r);
    }
    var per_category: [10]u32 = @splat(0);
    var it = seen.iterator(.{});
    while (it.next()) |r| per_category[r >> 12] += 1;
    var total_tables: u32 = 0;
    var total_combinatorics: u32 = 0;
    for (per_category, five_card_classes, 0..) |from_tables, expected, category| {
        if (from_tables != expected) {
            return fail("category {d}: {d} classes in the tables, {d} by combinatorics", .{
                category, from_tables, expected,
            });
        }
        total_tables += from_tables;
        total_combinatorics += expected;
    }
    if (total_tables != 7462 or total_combinatorics != 7462) {
        return fail("{d} / {d} five-card classes, expected 7462", .{ total_tables, total_combinatorics });
    }
}

/// The rank-key contribution of a 13-bit pattern of values (one suit's cards of a set).
fn pattern_key(pattern: u32, multipliers: *const [value_count]u32) u32 {
    var key: u32 = 0;
    for (multipliers, 0..) |m, v| {
        if (pattern & (@as(u32, 1) << @intCast(v)) != 0) key += m;
    }
    return key;
}

fn write_tables(
    io: std.Io,
    path: []const u8,
    multipliers: *const [value_count]u32,
    packed_tables: Packed,
    flush_ranks: *const [flush_patterns]u16,
    describe: *const [10 << 12]u32,
    omaha_ranks: []const u16,
    short_tables: *const [2]ShortDeckTables,
) !void {
    const file = try std.Io.Dir.cwd().createFile(io, path, .{});
    defer file.close(io);
    var buffer: [64 * 1024]u8 = undefined;
    var file_writer = file.writer(io, &buffer);
    const w = &file_writer.interface;

    try w.print(
        \\//! Generated by zsrc/rank/gen_tables.zig at build time. Do not edit; do not check in.
        \\pub const row_shift = {d};
        \\pub const lookup_size = {d};
        \\pub const row_count = {d};
        \\/// The key whose slot holds the flush rank of pattern 0: `flush_key_base + pattern`
        \\/// reads the rank of a flush of that pattern.
        \\pub const flush_key_base = {d};
        \\
    , .{ row_shift, lookup_size, packed_tables.row_offsets.len, packed_tables.flush_key_base });
    try w.writeAll("\n/// Rank multipliers, deuce first: distinct sums for every 0..7-card histogram.\n");
    try write_array(w, "rank_multipliers", u32, multipliers);
    var pattern_keys: [flush_patterns]u32 = undefined;
    for (&pattern_keys, 0..) |*k, pattern| k.* = pattern_key(@intCast(pattern), multipliers);
    try w.writeAll("\n/// Sum of the multipliers of the values set in a 13-bit pattern.\n");
    try write_array(w, "pattern_keys", u32, &pattern_keys);
    try w.writeAll("\n/// Per row of the key (key >> row_shift): added to the key to find its slot.\n");
    try write_array(w, "row_offsets", u32, packed_tables.row_offsets);
    try w.writeAll("\n/// Rank of every 0..7-card histogram key, at its displaced slot; 0 elsewhere. Then\n" ++
        "/// the first `1 << row_shift` slots again, so a slot needs no wrapping; then the\n" ++
        "/// flush ranks, the slots of the keys from `flush_key_base` on.\n");
    try write_array(w, "lookup", u16, packed_tables.lookup);
    try w.writeAll("\n/// Rank of a flush, by the 13-bit pattern of its suit's values (5+ set).\n");
    try write_array(w, "flush_ranks", u16, flush_ranks);
    try w.writeAll("\n/// Payload (category and tie-breaking values) of every rank; 0 if unused.\n");
    try write_array(w, "describe_payloads", u32, describe);
    try write_five_picks(w, describe);
    try w.writeAll("\n/// Omaha: the rank of a value triple (455) and a value pair (91) as five cards, no\n" ++
        "/// flush; triple-major, each numbered in increasing order of its sorted values.\n");
    try write_array(w, "omaha_ranks", u16, omaha_ranks);
    try write_short_deck_tables(w, .trips_beat_straights, &short_tables[0]);
    try write_short_deck_tables(w, .straights_beat_trips, &short_tables[1]);
    try w.flush();
}

/// Rank → its `five_picks` entry: `five_pick_bases[rank >> 12] + (rank & 0xFFF)`. Each
/// category keeps its subranks 0..highest (a category's ranks of fewer than five cards
/// interleave with its five-card ones, entries 0), so 9,852 entries (79 KB) replace one
/// per possible rank (40,960). Fails the build unless every rank of five or more cards has
/// a nonzero entry of its own and every other rank a zero one.
fn write_five_picks(w: *std.Io.Writer, describe: *const [10 << 12]u32) !void {
    var bases: [16]u16 = @splat(0);
    var entries: [10 << 12]u64 = undefined;
    var count: usize = 0;
    for (0..10) |category| {
        var highest: usize = 0;
        for (0..1 << 12) |subrank| {
            if (describe[(category << 12) | subrank] != 0) highest = subrank;
        }
        bases[category] = @intCast(count);
        for (0..highest + 1) |subrank| {
            entries[count] = five_pick(describe[(category << 12) | subrank]);
            count += 1;
        }
    }
    for (10..16) |category| bases[category] = 0; // no rank: keeps vector lookups in range
    var live: u32 = 0;
    for (describe, 0..) |p, r| {
        const five_cards = five_layout(p) != 0;
        if (five_cards) live += 1;
        const category = r >> 12;
        const subrank = r & 0xFFF;
        const in_table = category < 10 and bases[category] + subrank < count and
            (category == 9 or bases[category] + subrank < bases[category + 1]);
        if (five_cards and (!in_table or entries[bases[category] + subrank] == 0)) {
            return fail("rank {d}: five cards but no five_picks entry", .{r});
        }
        if (!five_cards and in_table and entries[bases[category] + subrank] != 0) {
            return fail("rank {d}: under five cards but a five_picks entry", .{r});
        }
    }
    if (live != 7462) return fail("{d} ranks of five cards, expected 7462", .{live});
    try w.writeAll("\n/// Where each category's ranks start in `five_picks` (rank/best_five.zig).\n");
    try write_array(w, "five_pick_bases", u16, &bases);
    try w.writeAll("\n/// The five cards of every rank of five or more cards as rank/best_five.zig picks\n" ++
        "/// them: byte i (0..4) is card i's value (bits 0..3), which of that value's cards it\n" ++
        "/// is in suit order (bits 4..5: 0 the lowest suit), bit 7 set for a flush; bytes\n" ++
        "/// 5..7 repeat bytes 0..2. 0 for a rank of fewer cards. Indexed by `five_pick_bases`.\n");
    try write_array(w, "five_picks", u64, entries[0..count]);
}

/// A five-card rank's `five_picks` entry (see write_five_picks); 0 below five cards.
fn five_pick(payload_value: u32) u64 {
    const layout = five_layout(payload_value);
    if (layout == 0) return 0;
    const flush: u64 = if (layout >> 20 & 1 != 0) 0x80 else 0;
    var bytes: [8]u64 = undefined;
    var occurrence: u64 = 0;
    for (0..5) |slot| {
        const value = layout >> @intCast(4 * slot) & 0xF;
        if (slot > 0 and value == (layout >> @intCast(4 * slot - 4) & 0xF)) occurrence += 1 else occurrence = 0;
        assert(occurrence < 4);
        bytes[slot] = flush | occurrence << 4 | value;
    }
    bytes[5] = bytes[0];
    bytes[6] = bytes[1];
    bytes[7] = bytes[2];
    var entry: u64 = 0;
    for (bytes, 0..) |b, i| entry |= b << @intCast(8 * i);
    assert(entry != 0);
    return entry;
}

/// A payload's five values as a player reads them (rank/best_five.zig picks the cards): the
/// groups first (quads, trips, pairs), then kickers; straights from the top down, the wheel
/// as 5-4-3-2-A. Bit 20 marks the flushes. 0 for a payload of fewer than five cards.
fn five_layout(payload_value: u32) u32 {
    const category = payload_value >> 20;
    if (category == 0) return 0;
    const nibble_of_slot: [5]u8 = switch (category) {
        @backingInt(Category.quads) => .{ 0, 0, 0, 0, 1 },
        @backingInt(Category.full_house) => .{ 0, 0, 0, 1, 1 },
        @backingInt(Category.trips) => .{ 0, 0, 0, 1, 2 },
        @backingInt(Category.two_pair) => .{ 0, 0, 1, 1, 2 },
        @backingInt(Category.pair) => .{ 0, 0, 1, 2, 3 },
        else => .{ 0, 1, 2, 3, 4 },
    };
    const straight = category == @backingInt(Category.straight) or
        category == @backingInt(Category.straight_flush);
    const flush = category == @backingInt(Category.flush) or
        category == @backingInt(Category.straight_flush);
    var layout: u32 = @as(u32, @intFromBool(flush)) << 20;
    for (nibble_of_slot, 0..) |nibble, slot| {
        const read: u32 = if (straight) 0 else nibble; // a straight's payload: its top alone
        const held = (payload_value >> @intCast(16 - 4 * read)) & 0xF;
        if (held == 0) return 0; // fewer than five cards
        const top = held - 1;
        const value: u32 = if (straight) @intCast((top + value_count - slot) % value_count) else top;
        layout |= value << @intCast(4 * slot);
    }
    return layout;
}

fn write_array(w: *std.Io.Writer, name: []const u8, comptime T: type, items: []const T) !void {
    try w.print("pub const {s} = [{d}]{s}{{", .{ name, items.len, @typeName(T) });
    for (items, 0..) |item, i| {
        if (i % 16 == 0) try w.writeAll("\n   ");
        try w.print(" {d},", .{item});
    }
    try w.writeAll("\n};\n");
}
