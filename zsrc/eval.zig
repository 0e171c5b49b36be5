//! The hand evaluator: cards, card sets and the 16-byte accumulator, ranked by table lookup.
//!
//! Encodings (fixed: README's "Encodings" states them for users):
//! - a card id is `suit * 13 + value`, value 0 = deuce … 12 = ace, suit 0..3 = s c h d;
//! - a card set is a `u64` with bit `id` set per card, bits 52..63 zero;
//! - a rank is `(category << 12) | subrank`, higher wins, equal ties, never 0.
//!
//! Accumulator `key` layout (seed 000, after OMPEval):
//!   bits  0..31  Σ rank multiplier of each card: a fingerprint of the value histogram
//!   bits 48..63  four 4-bit suit counters, each preloaded with 3, so bit 3 of a nibble
//!                sets exactly when its suit reaches five cards (3 + 5 = 8; 3 + 7 = 10 fits)
//! `mask` is the card set. A hand is the sum of its cards, in any order: to rank players on
//! a shared board, tally the board once, copy it, add each player's two cards and rank.
const std = @import("std");
const tables = @import("tables");
const linked = @import("linked.zig");
const assert = std.debug.assert;

// The generated tables the hot paths read, linked into the library once (linked.zig).
const lookup = linked.table("lookup", tables.lookup);
const row_offsets = linked.table("row_offsets", tables.row_offsets);
const flush_ranks = linked.table("flush_ranks", tables.flush_ranks);
const pattern_keys = linked.table("pattern_keys", tables.pattern_keys);
/// What capi.zig's object exports for the kernel objects (see linked.zig).
pub const linked_tables = .{ lookup, row_offsets, flush_ranks, pattern_keys };

pub const card_count = 52;
pub const value_count = 13;
pub const suit_count = 4;
pub const hand_cards_max = 7;

/// Bits 52..63 of a card set: never set in a valid set.
/// Every card: bits 0..51 of a card set.
pub const full_deck: u64 = (@as(u64, 1) << card_count) - 1;
pub const set_invalid_bits: u64 = ~full_deck;

pub const suit_counter_shift = 48;
const suit_counters_empty: u64 = 0x3333 << suit_counter_shift;
pub const suit_counters_flush: u64 = 0x8888 << suit_counter_shift;
/// One suit's 13 bits of a card set (a flush's pattern).
pub const value_pattern_mask: u64 = (1 << value_count) - 1;

pub const Accumulator = extern struct {
    key: u64,
    mask: u64,

    pub const empty: Accumulator = .{ .key = suit_counters_empty, .mask = 0 };
    /// Its name in the C header (capi.zig exports arrays of them).
    pub const c_name = "pp_accumulator";

    /// Adds one card. Ids 52..255 add nothing at all, so a caller validates a hand by
    /// comparing `@popCount(mask)` with the number of cards it added.
    pub inline fn add(accumulator: *Accumulator, card: u8) void {
        accumulator.key +%= card_keys[card];
        accumulator.mask |= card_masks[card];
    }

    /// Adds another accumulator's cards (the two must not share a card).
    pub inline fn merge(accumulator: *Accumulator, other: Accumulator) void {
        accumulator.key +%= other.key -% suit_counters_empty;
        accumulator.mask |= other.mask;
    }

    /// Whether one more card could make a flush: some suit already holds four or more.
    pub inline fn flush_within_one(accumulator: Accumulator) bool {
        // Counters start at 3, so four cards read 7: adding one to every nibble sets bit 3
        // exactly where a suit holds four or more (no nibble carries: at most 7 + 3 + 1).
        return (accumulator.key +% (0x1111 << suit_counter_shift)) & suit_counters_flush != 0;
    }

    pub inline fn card_total(accumulator: Accumulator) u32 {
        return @popCount(accumulator.mask);
    }
};

comptime {
    assert(@sizeOf(Accumulator) == 16);
    assert(tables.lookup.len == tables.lookup_size + (1 << tables.row_shift) + (1 << value_count));
    assert(std.math.isPowerOfTwo(tables.lookup_size));
    assert(tables.row_offsets.len == tables.row_count);
    assert(std.math.isPowerOfTwo(tables.row_offsets.len));
    assert(tables.flush_ranks.len == 1 << value_count);
    assert(tables.pattern_keys.len == 1 << value_count);
    // The largest fingerprint (four aces and three kings) must stay below the suit counters.
    assert(4 * @as(u64, tables.rank_multipliers[12]) + 3 * tables.rank_multipliers[11] <
        (1 << 32));
}

/// Each value's share of a fingerprint (its rank multiplier): a hand's fingerprint is the
/// sum over its cards, so hands of the same values share it whatever their suits.
pub const value_fingerprints: [value_count]u32 = tables.rank_multipliers;

/// Key contribution of each card id; ids 52..255 contribute nothing (see `Accumulator.add`).
pub const card_keys: [256]u64 = keys: {
    var keys: [256]u64 = @splat(0);
    for (0..card_count) |card| {
        const suit = card / value_count;
        const value = card % value_count;
        keys[card] = @as(u64, tables.rank_multipliers[value]) +
            (@as(u64, 1) << (suit_counter_shift + 4 * suit));
    }
    break :keys keys;
};

pub const card_masks: [256]u64 = masks: {
    var masks: [256]u64 = @splat(0);
    for (0..card_count) |card| masks[card] = @as(u64, 1) << card;
    break :masks masks;
};

/// Rank of the cards in an accumulator: a flush test and one or two table loads.
pub inline fn rank_accumulator(accumulator: Accumulator) u16 {
    const flush = accumulator.key & suit_counters_flush;
    if (flush != 0) {
        const suit: u6 = @intCast((@ctz(flush) - (suit_counter_shift + 3)) >> 2);
        const pattern = (accumulator.mask >> (@as(u6, value_count) * suit)) & value_pattern_mask;
        return flush_ranks[@intCast(pattern)];
    }
    return rank_fingerprint(@truncate(accumulator.key));
}

/// Rank of a flush of the values in `pattern` (five of them, or more: the best five).
pub inline fn rank_flush_pattern(pattern: u13) u16 {
    return flush_ranks[pattern];
}

/// Rank of a hand known to hold no flush, from its fingerprint (the low 32 bits of `key`).
pub inline fn rank_fingerprint(fingerprint: u32) u16 {
    const row = (fingerprint >> tables.row_shift) & (tables.row_count - 1);
    const slot = (fingerprint +% row_offsets[row]) & (tables.lookup_size - 1);
    return lookup[slot];
}

/// The bits of a fingerprint whose row is in the table: `rank_fingerprint_unmasked` of any
/// u32 masked by it reads inside the tables (a trusted accumulator's key may hold anything).
pub const fingerprint_rows_mask: u32 = (tables.row_count << tables.row_shift) - 1;

/// `rank_fingerprint` for a fingerprint known to be a sum of at most seven value
/// multipliers (so its row is in the table): two loads and an add, no masking. Every slot
/// `key + offset` is `base + column`, inside the lookup table or in the row width past its
/// end, which holds a copy of its first; for a key no hand makes (a bad row's, whose rank
/// is thrown away) too, as unused rows have base 0.
pub inline fn rank_fingerprint_unmasked(fingerprint: u32) u16 {
    const offset = row_offsets[fingerprint >> tables.row_shift];
    return lookup[fingerprint +% offset];
}

/// The key `rank_fingerprint_unmasked` reads a flush's rank at: `flush_key_base + pattern`,
/// for the 13-bit pattern of the flush suit's values (the rank `rank_flush_pattern` gives).
/// A vector tally that finds a row's flush pattern hands the lookups this key in place of
/// the fingerprint, so flushes need no pass of their own. Its rows lie past every
/// histogram's; any u32 below `fingerprint_rows_mask` still reads inside the tables.
pub const flush_key_base: u32 = tables.flush_key_base;

comptime {
    // The largest sum of seven multipliers stays inside the offsets table.
    assert(7 * @as(u64, tables.rank_multipliers[12]) >> tables.row_shift < tables.row_count);
}

/// Rank of a valid card set (0..7 cards): each suit's 13 bits index the tables directly.
pub inline fn rank_set(set: u64) u16 {
    var fingerprint: u32 = 0;
    inline for (0..suit_count) |suit| {
        const pattern: u13 = @truncate(set >> (value_count * suit));
        if (@popCount(pattern) >= 5) return flush_ranks[pattern];
        fingerprint +%= pattern_keys[pattern];
    }
    return rank_fingerprint(fingerprint);
}

/// The key of the accumulator that holds exactly the cards of `set`: what `add` would
/// build, card by card. An accumulator is consistent when its key equals this.
pub fn key_of_set(set: u64) u64 {
    var key: u64 = Accumulator.empty.key;
    inline for (0..suit_count) |suit| {
        const pattern: u13 = @truncate(set >> (value_count * suit));
        key +%= pattern_keys[pattern];
        key +%= @as(u64, @popCount(pattern)) << (suit_counter_shift + 4 * suit);
    }
    return key;
}

/// Rank of a list of cards (ids assumed valid and distinct).
pub fn rank_cards(cards: []const u8) u16 {
    assert(cards.len <= hand_cards_max);
    var accumulator: Accumulator = .empty;
    for (cards) |card| accumulator.add(card);
    return rank_accumulator(accumulator);
}

/// A rank is `(category << category_shift) | subrank`.
pub const category_shift = 12;

/// The rank of the hand of no cards: the lowest there is, below any card (a high card
/// with no kicker at all, as fewer cards rank below more of the same top).
pub const empty_hand_rank: u16 = (1 << category_shift) | 1;

pub inline fn category(rank: u16) u4 {
    return @intCast(rank >> category_shift);
}

/// The payload (category and tie-breaking values) a rank was made from; 0 if no hand has it.
pub fn describe_payload(rank: u16) u32 {
    if (rank >= tables.describe_payloads.len) return 0;
    return tables.describe_payloads[rank];
}

test "accumulator: order and grouping do not matter" {
    const cards = [_]u8{ 12, 25, 38, 51, 0, 13, 7 };
    var forward: Accumulator = .empty;
    for (cards) |c| forward.add(c);
    var backward: Accumulator = .empty;
    var i: usize = cards.len;
    while (i > 0) : (i -= 1) backward.add(cards[i - 1]);
    try std.testing.expectEqual(forward, backward);

    var board: Accumulator = .empty;
    for (cards[0..5]) |c| board.add(c);
    var hole: Accumulator = .empty;
    for (cards[5..]) |c| hole.add(c);
    board.merge(hole);
    try std.testing.expectEqual(forward, board);
}

test "key_of_set: the key adding the cards one by one builds" {
    var hand: Accumulator = .empty;
    for ([_]u8{ 12, 25, 38, 51, 0, 13, 7 }) |card| {
        hand.add(card);
        try std.testing.expectEqual(hand.key, key_of_set(hand.mask));
    }
    try std.testing.expectEqual(Accumulator.empty.key, key_of_set(0));
}

test "rank: known hands" {
    // Royal flush in spades: Ts Js Qs Ks As = ids 8..12.
    try std.testing.expectEqual(@as(u16, (9 << 12) | 10), rank_cards(&.{ 8, 9, 10, 11, 12 }));
    // Wheel straight flush is the lowest straight flush.
    try std.testing.expectEqual(@as(u16, (9 << 12) | 1), rank_cards(&.{ 12, 0, 1, 2, 3 }));
    // 7-5-4-3-2 offsuit is the lowest 5-card high card.
    const low = rank_cards(&.{ 5, 3 + 13, 2, 1 + 13, 0 + 26 });
    try std.testing.expectEqual(@as(u4, 1), category(low));
    // A single ace outranks K-Q-J-T-8 (fewer cards rank below any five of the same top).
    try std.testing.expect(rank_cards(&.{12}) > rank_cards(&.{ 11, 10 + 13, 9, 8 + 26, 6 }));
    try std.testing.expect(rank_cards(&.{12}) < rank_cards(&.{ 12, 11 + 13 }));
    // No cards at all: the lowest rank, below the lowest single card.
    try std.testing.expectEqual(empty_hand_rank, rank_cards(&.{}));
    try std.testing.expectEqual(empty_hand_rank, rank_set(0));
    try std.testing.expectEqual(empty_hand_rank + 1, rank_cards(&.{0}));
    // Sets and card lists agree.
    const set: u64 = (1 << 12) | (1 << 25) | (1 << 38) | (1 << 51) | (1 << 0);
    try std.testing.expectEqual(rank_cards(&.{ 12, 25, 38, 51, 0 }), rank_set(set));
    try std.testing.expectEqual(@as(u4, 8), category(rank_set(set)));
}

test "rank_fingerprint_unmasked: every key of the table's rows reads inside the tables" {
    // Bounds-checked in this (safe) build: keys no hand makes included, the flush rows too.
    var checksum: u64 = 0;
    var key: u32 = 0;
    while (key <= fingerprint_rows_mask) : (key += 1) checksum +%= rank_fingerprint_unmasked(
        key,
    );
    try std.testing.expect(checksum != 0);
}

test "rank_fingerprint_unmasked: a flush's key reads its flush rank" {
    for (0..1 << value_count) |pattern| {
        if (@popCount(pattern) < 5) continue;
        try std.testing.expectEqual(
            rank_flush_pattern(@intCast(pattern)),
            rank_fingerprint_unmasked(flush_key_base + @as(u32, @intCast(pattern))),
        );
    }
}
