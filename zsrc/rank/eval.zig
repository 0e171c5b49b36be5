//! The hand evaluator: a hand's rank by table lookup, from its accumulator, card set, card
//! list or text (the encodings are cards/encoding.zig's).
//!
//! A rank is `(category << 12) | subrank`, higher wins, equal ties, never 0.
const std = @import("std");
const tables = @import("tables");
const linked = @import("linked_tables.zig");
const encoding = @import("../cards/encoding.zig");
const Accumulator = encoding.Accumulator;
const parse = @import("../cards/parse.zig");
const assert = std.debug.assert;

// The generated tables the hot paths read, linked into the library once (rank/linked_tables.zig).
const lookup = linked.table("lookup", tables.lookup);
const row_offsets = linked.table("row_offsets", tables.row_offsets);
const flush_ranks = linked.table("flush_ranks", tables.flush_ranks);
const pattern_keys = linked.table("pattern_keys", tables.pattern_keys);
const shortdeck_lookup = linked.table("shortdeck_lookup", tables.shortdeck_lookup);
const shortdeck_straights_lookup = linked.table("shortdeck_straights_lookup", tables.shortdeck_straights_lookup);
/// What the library's object exports for the kernel objects (see rank/linked_tables.zig).
pub const linked_tables = .{ lookup, row_offsets, flush_ranks, pattern_keys, shortdeck_lookup, shortdeck_straights_lookup };

/// The game whose rules a rank follows. Short deck (6+) plays 36 cards, sixes to aces: a
/// flush beats a full house and A-6-7-8-9 is the lowest straight; `shortdeck` has trips beat
/// straights (Triton's rule), `shortdeck_straights` straights beat trips (pokerkit's
/// `ShortDeckHoldemHand`).
/// Short-deck ranks keep the Hold'em format, their categories renumbered in the short deck's
/// order (rank/gen_tables.zig's `short_deck_category`), so a higher rank still wins. The
/// number is the C ABI's `game` argument.
pub const Game = enum(u32) {
    holdem = 0,
    shortdeck = 1,
    shortdeck_straights = 2,
};

/// Whether `game` is a number `Game` has (the C ABI checks before it dispatches).
pub fn game_known(game: u32) bool {
    return game <= @backingInt(Game.shortdeck_straights);
}

/// Cards not in the short deck: deuces to fives, in every suit (values 0..3).
pub const short_deck_missing: u64 = blk: {
    var set: u64 = 0;
    for (0..encoding.suit_count) |suit| set |= @as(u64, 0b1111) << @intCast(encoding.value_count * suit);
    break :blk set;
};
/// The short deck's size: 36 cards.
pub const short_deck_cards = encoding.card_count - @popCount(short_deck_missing);

/// The packed lookup `game` reads: the slots `rank_fingerprint_unmasked` reads for Hold'em
/// hold the same hand's rank under that game's rules (0 for a short-deck key holding a card
/// the short deck lacks).
inline fn game_lookup(comptime game: Game) *const @TypeOf(tables.lookup) {
    return switch (game) {
        .holdem => lookup,
        .shortdeck => shortdeck_lookup,
        .shortdeck_straights => shortdeck_straights_lookup,
    };
}

/// `rank_fingerprint_unmasked` under `game`'s rules.
pub inline fn rank_fingerprint_unmasked_in(comptime game: Game, fingerprint: u32) u16 {
    const offset = row_offsets[fingerprint >> tables.row_shift];
    return game_lookup(game)[fingerprint +% offset];
}

/// `rank_accumulator` under `game`'s rules: a flush reads its pattern's row of the lookup.
pub inline fn rank_accumulator_in(comptime game: Game, accumulator: Accumulator) u16 {
    if (game == .holdem) return rank_accumulator(accumulator);
    const flush = accumulator.key & encoding.suit_counters_flush;
    if (flush != 0) {
        const suit: u6 = @intCast((@ctz(flush) - (encoding.suit_counter_shift + 3)) >> 2);
        const pattern = (accumulator.mask >> (@as(u6, encoding.value_count) * suit)) & encoding.value_pattern_mask;
        return game_lookup(game)[tables.lookup.len - (1 << encoding.value_count) + @as(usize, @intCast(pattern))];
    }
    const fingerprint: u32 = @truncate(accumulator.key);
    const row = (fingerprint >> tables.row_shift) & (tables.row_count - 1);
    const slot = (fingerprint +% row_offsets[row]) & (tables.lookup_size - 1);
    return game_lookup(game)[slot];
}

/// `rank_cards` under `game`'s rules (ids assumed valid, distinct and in the game's deck).
pub fn rank_cards_in(comptime game: Game, cards: []const u8) u16 {
    assert(cards.len <= encoding.hand_cards_max);
    var accumulator: Accumulator = .empty;
    for (cards) |card| accumulator.add(card);
    return rank_accumulator_in(game, accumulator);
}

/// `rank_set` under `game`'s rules.
pub inline fn rank_set_in(comptime game: Game, set: u64) u16 {
    if (game == .holdem) return rank_set(set);
    return rank_accumulator_in(game, .{ .key = key_of_set(set), .mask = set });
}

/// The payload of a rank under `game`'s rules (its category the game's number), or 0.
pub fn describe_payload_in(game: Game, rank: u16) u32 {
    const payloads = switch (game) {
        .holdem => &tables.describe_payloads,
        .shortdeck => &tables.shortdeck_describe_payloads,
        .shortdeck_straights => &tables.shortdeck_straights_describe_payloads,
    };
    if (rank >= payloads.len) return 0;
    return payloads[rank];
}

comptime {
    assert(tables.shortdeck_lookup.len == tables.lookup.len);
    assert(tables.shortdeck_straights_lookup.len == tables.lookup.len);
    // The flush ranks are the lookup's last 2^13 slots (rank/gen_tables.zig's `pack_rows`).
    assert(tables.lookup.len - (1 << encoding.value_count) == tables.lookup_size + (1 << tables.row_shift));
}

comptime {
    assert(tables.lookup.len == tables.lookup_size + (1 << tables.row_shift) + (1 << encoding.value_count));
    assert(std.math.isPowerOfTwo(tables.lookup_size));
    assert(tables.row_offsets.len == tables.row_count);
    assert(std.math.isPowerOfTwo(tables.row_offsets.len));
    assert(tables.flush_ranks.len == 1 << encoding.value_count);
    assert(tables.pattern_keys.len == 1 << encoding.value_count);
}

/// Rank of the cards in an accumulator: a flush test and one or two table loads.
pub inline fn rank_accumulator(accumulator: Accumulator) u16 {
    const flush = accumulator.key & encoding.suit_counters_flush;
    if (flush != 0) {
        const suit: u6 = @intCast((@ctz(flush) - (encoding.suit_counter_shift + 3)) >> 2);
        const pattern = (accumulator.mask >> (@as(u6, encoding.value_count) * suit)) & encoding.value_pattern_mask;
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
    inline for (0..encoding.suit_count) |suit| {
        const pattern: u13 = @truncate(set >> (encoding.value_count * suit));
        if (@popCount(pattern) >= 5) return flush_ranks[pattern];
        fingerprint +%= pattern_keys[pattern];
    }
    return rank_fingerprint(fingerprint);
}

/// The key of the accumulator that holds exactly the cards of `set`: what `add` would
/// build, card by card. An accumulator is consistent when its key equals this.
pub fn key_of_set(set: u64) u64 {
    var key: u64 = Accumulator.empty.key;
    inline for (0..encoding.suit_count) |suit| {
        const pattern: u13 = @truncate(set >> (encoding.value_count * suit));
        key +%= pattern_keys[pattern];
        key +%= @as(u64, @popCount(pattern)) << (encoding.suit_counter_shift + 4 * suit);
    }
    return key;
}

/// Rank of a list of cards (ids assumed valid and distinct).
pub fn rank_cards(cards: []const u8) u16 {
    assert(cards.len <= encoding.hand_cards_max);
    var accumulator: Accumulator = .empty;
    for (cards) |card| accumulator.add(card);
    return rank_accumulator(accumulator);
}

/// Rank of a row of text known to be seven compact (`stride` 2: "AhKd7c2s3sQhJd") or spaced
/// (3: "Ah Kd 7c 2s 3s Qh Jd") cards: the vector paths' rows with a flush. Table lookups, as
/// a `switch` per character would mispredict.
pub fn rank_seven_text(comptime stride: u32, string: []const u8) u16 {
    comptime assert(stride == 2 or stride == 3);
    assert(string.len >= stride * (encoding.hand_cards_max - 1) + 2); // the last card's two
    var hand: Accumulator = .empty;
    inline for (0..encoding.hand_cards_max) |j| {
        const value = parse.char_class[string[stride * j]];
        const suit = parse.suit_class[string[stride * j + 1]];
        hand.add(suit * encoding.value_count + value);
    }
    return rank_accumulator(hand);
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
    for (0..1 << encoding.value_count) |pattern| {
        if (@popCount(pattern) < 5) continue;
        try std.testing.expectEqual(
            rank_flush_pattern(@intCast(pattern)),
            rank_fingerprint_unmasked(flush_key_base + @as(u32, @intCast(pattern))),
        );
    }
}
