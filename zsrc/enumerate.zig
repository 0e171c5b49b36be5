//! Enumeration of card subsets (seed 001) and exhaustive category counts.
//!
//! Every k-subset of a deck is a k-bit word over the deck's *slots* (0 = its lowest card):
//! Gosper's hack steps from one such word to the next larger one, and PDEP deposits the slot
//! word onto the deck's card bits. The state is one word, so enumeration resumes anywhere.
const std = @import("std");
const eval = @import("eval.zig");
const bits = @import("bits.zig");
const random = @import("random.zig");
const assert = std.debug.assert;

/// The next larger word with the same number of set bits (HAKMEM item 175).
pub inline fn gosper_next(combo: u64) u64 {
    const smeared = combo | (combo - 1);
    const carried = smeared +% 1;
    return carried | (((~smeared & carried) - 1) >> @intCast(@ctz(combo) + 1));
}

/// Cards of `deck` at the slots set in `slots` (a software PDEP where BMI2 is absent).
pub inline fn deposit(slots: u64, deck: u64) u64 {
    if (comptime bits.has_pdep) return bits.pdep(slots, deck);
    var result: u64 = 0;
    var remaining = slots;
    while (remaining != 0) : (remaining &= remaining - 1) {
        result |= @as(u64, 1) << bits.nth_set_bit_portable(deck, @ctz(remaining));
    }
    return result;
}

/// Writes the next `out.len` (or fewer, at the end) k-subsets of `deck` after `state.*`,
/// which starts at `first_state(k)`; returns how many were written. `state.*` becomes
/// `done_state(deck)` once every subset has been written.
pub fn combinations(deck: u64, state: *u64, out: []u64) usize {
    const end = done_state(deck);
    var combo = state.*;
    var written: usize = 0;
    while (written < out.len and combo < end) : (written += 1) {
        out[written] = deposit(combo, deck);
        combo = gosper_next(combo);
    }
    state.* = @min(combo, end);
    return written;
}

pub fn first_state(k: u32) u64 {
    assert(k >= 1 and k < 64);
    return (@as(u64, 1) << @intCast(k)) - 1;
}

pub fn done_state(deck: u64) u64 {
    return @as(u64, 1) << @intCast(@popCount(deck));
}

/// Category counts of every k-card hand (k = 1..7) from `deck` whose lowest card is one of
/// the deck's slots `first_slot`, `first_slot + stride`, …: threads take interleaved first
/// slots, so each gets a fair share of the work. Copy-and-extend: each level of the walk
/// adds one card to its parent's accumulator. The deck is walked value-major (2s 2c 2h 2d
/// 3s …), so the last card's loop meets the cards of one value in a run: see
/// `walk_last_no_flush`.
pub fn category_counts(deck: u64, k: u32, first_slot: u32, stride: u32, counts: *[16]u64) void {
    assert(k >= 1 and k <= eval.hand_cards_max and stride >= 1);
    var walk_deck: Deck = .{};
    for (0..eval.value_count) |value| {
        const run_start = walk_deck.n;
        for (0..eval.suit_count) |suit| {
            const card: u8 = @intCast(suit * eval.value_count + value);
            if (deck & (@as(u64, 1) << @intCast(card)) == 0) continue;
            walk_deck.cards[walk_deck.n] = card;
            walk_deck.n += 1;
        }
        for (run_start..walk_deck.n) |slot| walk_deck.run_ends[slot] = @intCast(walk_deck.n);
    }
    const cards = walk_deck.cards[0..walk_deck.n];
    switch (k) {
        inline 1...eval.hand_cards_max => |depth| {
            var slot = first_slot;
            while (slot + depth <= cards.len) : (slot += stride) {
                var accumulator: eval.Accumulator = .empty;
                accumulator.add(cards[slot]);
                walk(depth - 1, &walk_deck, slot + 1, accumulator, counts);
            }
        },
        else => unreachable,
    }
}

/// The deck in walking order, and for each slot the slot after its run of one value.
const Deck = struct {
    cards: [eval.card_count]u8 = undefined,
    run_ends: [eval.card_count]u8 = undefined,
    n: u32 = 0,
};

fn walk(
    comptime depth: u32,
    deck: *const Deck,
    first: u32,
    accumulator: eval.Accumulator,
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
    accumulator: eval.Accumulator,
    counts: *[16]u64,
) void {
    const base: u32 = @truncate(accumulator.key);
    var packed_counts: u64 = 0;
    var slot = first;
    while (slot < deck.n) {
        const run_end = deck.run_ends[slot];
        const card = deck.cards[slot];
        const rank = eval.rank_fingerprint(base +% @as(u32, @truncate(eval.card_keys[card])));
        packed_counts += @as(u64, run_end - slot) << @intCast(6 * @as(u32, eval.category(rank)));
        slot = run_end;
    }
    inline for (1..10) |category| counts[category] += (packed_counts >> (6 * category)) & 63;
}

test "gosper_next: walks 5-bit words of a 7-bit space in order" {
    var combo: u64 = 0b11111;
    var count: usize = 1;
    while (true) {
        const next = gosper_next(combo);
        if (next >= 1 << 7) break;
        try std.testing.expect(next > combo and @popCount(next) == 5);
        combo = next;
        count += 1;
    }
    try std.testing.expectEqual(@as(usize, 21), count);
}

test "combinations: every subset once, resumable, cards only from the deck" {
    const deck: u64 = eval.full_deck & ~@as(u64, 0b1011 << 20);
    var state = first_state(3);
    var seen = std.AutoHashMap(u64, void).init(std.testing.allocator);
    defer seen.deinit();
    var buffer: [1000]u64 = undefined;
    while (true) {
        const written = combinations(deck, &state, &buffer);
        for (buffer[0..written]) |set| {
            try std.testing.expect(set & ~deck == 0 and @popCount(set) == 3);
            try std.testing.expect(!(try seen.getOrPut(set)).found_existing);
        }
        if (written < buffer.len) break;
    }
    try std.testing.expectEqual(@as(usize, 49 * 48 * 47 / 6), seen.count());
    // The portable deposit agrees with PDEP.
    var x: u64 = 99;
    for (0..1000) |_| {
        x = random.mix64(x);
        const slots = x & ((@as(u64, 1) << 49) - 1);
        var portable: u64 = 0;
        var remaining = slots;
        while (remaining != 0) : (remaining &= remaining - 1) {
            portable |= @as(u64, 1) << bits.nth_set_bit_portable(deck, @ctz(remaining));
        }
        try std.testing.expectEqual(portable, deposit(slots, deck));
    }
}

test "category_counts: all 5-card hands, split over three interleaved shares" {
    var counts: [16]u64 = @splat(0);
    for (0..3) |share| category_counts(eval.full_deck, 5, @intCast(share), 3, &counts);
    try std.testing.expectEqualSlices(u64, &@import("oracle.zig").category_counts.five, counts[0..10]);
}
