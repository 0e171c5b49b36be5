//! How cards are encoded: card ids, card sets and the 16-byte accumulator, the three forms
//! of a hand every kernel reads (README's "Encodings" states them for users).
//!
//! - a card id is `suit * 13 + value`, value 0 = deuce … 12 = ace, suit 0..3 = s c h d;
//! - a card set is a `u64` with bit `id` set per card, bits 52..63 zero;
//! - an accumulator is a hand as the sum of its cards. `key` layout (seed 000, after OMPEval):
//!     bits  0..31  Σ rank multiplier of each card: a fingerprint of the value histogram
//!     bits 48..63  four 4-bit suit counters, each preloaded with 3, so bit 3 of a nibble
//!                  sets exactly when its suit reaches five cards (3 + 5 = 8; 3 + 7 = 10 fits)
//!   `mask` is the card set. A hand is the sum of its cards, in any order: to rank players on
//!   a shared board, tally the board once, copy it, add each player's two cards and rank.
//!
//! The multipliers come from the generated tables (rank/gen_tables.zig) because the rank
//! lookups (rank/eval.zig) are laid out for them.
const std = @import("std");
const tables = @import("tables");
const assert = std.debug.assert;

pub const card_count = 52;
pub const value_count = 13;
pub const suit_count = 4;
pub const hand_cards_max = 7;
/// Card text's letters, spelled here only: the parser's classes (cards/parse.zig) are built
/// from them, and Python reads them through `pp_card_letters`. Value 0 = deuce … 12 = ace;
/// suit 0..3 = s c h d.
pub const value_letters = "23456789TJQKA";
pub const suit_letters = "schd";
pub const card_letters = value_letters ++ suit_letters;
comptime {
    assert(value_letters.len == value_count and suit_letters.len == suit_count);
}
/// A Hold'em board: none before the flop, 3 on it, 5 by the river.
pub const board_cards_min = 3;
pub const board_cards_max = 5;
/// Whether a board of `cards` cards is one: none (preflop), a flop, a turn or a river.
pub fn is_board_size(cards: u32) bool {
    return cards == 0 or (cards >= board_cards_min and cards <= board_cards_max);
}

/// A card a row does not know (dealt later, folded, mucked), wherever card ids allow one.
pub const no_card: u8 = 0xFF;

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
    /// Its name in the C header (the exports pass arrays of them).
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
