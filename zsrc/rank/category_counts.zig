//! Exhaustive category counts: how many k-card hands of a deck fall in each category,
//! walked by copy-and-extend over the accumulator (`pp.category_counts`).
const std = @import("std");
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const assert = std.debug.assert;
const hand_categories = @This();

/// Category counts of every k-card hand (k = 1..7) from `deck` whose lowest card is one of
/// the deck's slots `first_slot`, `first_slot + stride`, …: threads take interleaved first
/// slots, so each gets a fair share of the work. Copy-and-extend: each level of the walk
/// adds one card to its parent's accumulator. The deck is walked value-major (2s 2c 2h 2d
/// 3s …), so the last card's loop meets the cards of one value in a run: see
/// `walk_last_no_flush`.
pub fn category_counts(deck: u64, k: u32, first_slot: u32, stride: u32, counts: *[16]u64) void {
    assert(k >= 1 and k <= encoding.hand_cards_max and stride >= 1);
    var walk_deck: Deck = .{};
    for (0..encoding.value_count) |value| {
        const run_start = walk_deck.n;
        for (0..encoding.suit_count) |suit| {
            const card: u8 = @intCast(suit * encoding.value_count + value);
            if (deck & (@as(u64, 1) << @intCast(card)) == 0) continue;
            walk_deck.cards[walk_deck.n] = card;
            walk_deck.n += 1;
        }
        for (run_start..walk_deck.n) |slot| walk_deck.run_ends[slot] = @intCast(walk_deck.n);
    }
    const cards = walk_deck.cards[0..walk_deck.n];
    assert(walk_deck.n == @popCount(deck & encoding.full_deck)); // every card of the deck, once
    switch (k) {
        inline 1...encoding.hand_cards_max => |depth| {
            var slot = first_slot;
            while (slot + depth <= cards.len) : (slot += stride) {
                var accumulator: encoding.Accumulator = .empty;
                accumulator.add(cards[slot]);
                walk(depth - 1, &walk_deck, slot + 1, accumulator, counts);
            }
        },
        else => unreachable,
    }
}

/// The deck in walking order, and for each slot the slot after its run of one value.
const Deck = struct {
    cards: [encoding.card_count]u8 = undefined,
    run_ends: [encoding.card_count]u8 = undefined,
    n: u32 = 0,
};

fn walk(
    comptime depth: u32,
    deck: *const Deck,
    first: u32,
    accumulator: encoding.Accumulator,
    counts: *[16]u64,
) void {
    if (depth == 0) {
        counts[eval.category(eval.rank_accumulator(accumulator))] += 1;
        return;
    }
    if (depth == 1 and !accumulator.flush_within_one()) return walk_last_no_flush(
        deck,
        first,
        accumulator,
        counts,
    );
    var i = first;
    while (i + depth <= deck.n) : (i += 1) {
        var next = accumulator;
        next.add(deck.cards[i]);
        walk(depth - 1, deck, i + 1, next, counts);
    }
}

/// The last card, when no suit holds four yet: no flush can appear, so a hand's rank is its
/// fingerprint's alone, and the hands whose last cards are of one value (a run of the deck)
/// have one fingerprint: each run is looked up once and its hands all get that rank. They
/// are counted in a register, ten 6-bit fields (at most 51 hands a call), not in memory.
fn walk_last_no_flush(
    deck: *const Deck,
    first: u32,
    accumulator: encoding.Accumulator,
    counts: *[16]u64,
) void {
    const base: u32 = @truncate(accumulator.key);
    var packed_counts: u64 = 0;
    var slot = first;
    while (slot < deck.n) {
        const run_end = deck.run_ends[slot];
        const card = deck.cards[slot];
        const rank = eval.rank_fingerprint(base +% @as(u32, @truncate(encoding.card_keys[card])));
        packed_counts += @as(u64, run_end - slot) << @intCast(6 * @as(u32, eval.category(rank)));
        slot = run_end;
    }
    inline for (1..10) |category| counts[category] += (packed_counts >> (6 * category)) & 63;
}

/// This file's kernel, compiled once per CPU level (abi/kernel_table.zig lists this file).
pub const kernels = struct {
    pub fn category_counts(deck: u64, k: u32, first_slot: u32, stride: u32, counts: *[16]u64) callconv(.c) void {
        hand_categories.category_counts(deck, k, first_slot, stride, counts);
    }
};

test "category_counts: all 5-card hands, split over three interleaved shares" {
    var counts: [16]u64 = @splat(0);
    for (0..3) |share| category_counts(encoding.full_deck, 5, @intCast(share), 3, &counts);
    try std.testing.expectEqualSlices(u64, &@import("oracle.zig").category_counts.five, counts[0..10]);
}
