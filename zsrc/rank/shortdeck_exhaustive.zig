//! Exhaustive checks of the short-deck (6+) tables against a counting oracle written apart from
//! them, over every 5-card (376,992) and 7-card (8,347,680) hand of the 36-card deck, under
//! both rules for trips and straights (rank/eval.zig's `Game`).
//!
//! The oracle shares no code with rank/gen_tables.zig: it works on five cards (suits included),
//! groups values by (count, value), orders the categories as the short deck does, and takes a
//! 7-card hand's best of its 21 fives. Its score compares as an integer. The check learns the
//! table rank of each score and holds it: equal scores give equal ranks (same ties), and ranks
//! sorted by score strictly increase (same order). The batch kernels (vector path) rank every
//! 7-card hand as the scalar path does.
const std = @import("std");
const eval = @import("eval.zig");
const batch = @import("batch.zig");
const encoding = @import("../cards/encoding.zig");

const Game = eval.Game;

/// The 36 card ids of the short deck, sixes to aces in each suit.
const deck: [36]u8 = blk: {
    var ids: [36]u8 = undefined;
    var n: usize = 0;
    for (0..4) |suit| for (4..13) |value| {
        ids[n] = @intCast(suit * 13 + value);
        n += 1;
    };
    break :blk ids;
};

/// Categories in the short deck's order, lowest first, for each rule.
const Kind = enum { high_card, pair, two_pair, trips, straight, full_house, flush, quads, straight_flush };

fn order(game: Game, kind: Kind) u32 {
    const trips_first = game == .shortdeck; // trips beat straights
    return switch (kind) {
        .high_card => 1,
        .pair => 2,
        .two_pair => 3,
        .straight => if (trips_first) 4 else 5,
        .trips => if (trips_first) 5 else 4,
        .full_house => 6,
        .flush => 7,
        .quads => 8,
        .straight_flush => 9,
    };
}

/// The score of five cards: the category's place, then the values by (count, value) both
/// descending (a straight: its top card alone, the six-high wheel A-6-7-8-9 topped by the nine).
fn score_five(game: Game, cards: [5]u8) u32 {
    var counts: [13]u8 = @splat(0);
    var suited = true;
    for (cards) |card| {
        counts[card % 13] += 1;
        if (card / 13 != cards[0] / 13) suited = false;
    }
    // Groups, largest count first, then highest value.
    var groups: [5]struct { count: u8, value: u8 } = undefined;
    var group_count: usize = 0;
    var count: u8 = 4;
    while (count >= 1) : (count -= 1) {
        var value: i32 = 12;
        while (value >= 0) : (value -= 1) {
            if (counts[@intCast(value)] == count) {
                groups[group_count] = .{ .count = count, .value = @intCast(value) };
                group_count += 1;
            }
        }
    }
    var top: ?u8 = null;
    if (group_count == 5) {
        if (groups[0].value - groups[4].value == 4) top = groups[0].value;
        // A 9 8 7 6: the ace plays low, below the six.
        if (groups[0].value == 12 and groups[1].value == 7 and groups[4].value == 4) top = 7;
    }
    const kind: Kind = if (top != null and suited)
        .straight_flush
    else if (groups[0].count == 4)
        .quads
    else if (suited)
        .flush
    else if (groups[0].count == 3 and groups[1].count == 2)
        .full_house
    else if (top != null)
        .straight
    else if (groups[0].count == 3)
        .trips
    else if (groups[0].count == 2 and groups[1].count == 2)
        .two_pair
    else if (groups[0].count == 2)
        .pair
    else
        .high_card;
    var score: u32 = order(game, kind) << 20;
    if (top) |t| {
        if (kind == .straight or kind == .straight_flush) return score | @as(u32, t + 1) << 16;
    }
    for (groups[0..group_count], 0..) |g, i| score |= @as(u32, g.value + 1) << @intCast(16 - 4 * i);
    return score;
}

/// The best score among the 21 fives of seven cards.
fn score_seven(game: Game, cards: [7]u8) u32 {
    var best: u32 = 0;
    for (0..7) |skip_a| for (skip_a + 1..7) |skip_b| {
        var five: [5]u8 = undefined;
        var n: usize = 0;
        for (cards, 0..) |card, i| {
            if (i == skip_a or i == skip_b) continue;
            five[n] = card;
            n += 1;
        }
        best = @max(best, score_five(game, five));
    };
    return best;
}

/// Oracle score → table rank, learnt and held to; then ordered.
const ScoreMap = struct {
    ranks: []u16,

    fn hold(map: ScoreMap, score: u32, rank: u16) !void {
        try std.testing.expect(rank != 0);
        if (map.ranks[score] == 0) map.ranks[score] = rank;
        try std.testing.expectEqual(map.ranks[score], rank);
    }

    /// Ranks by increasing score strictly increase: the tables order hands as the oracle does
    /// and tie only what it ties. Returns how many distinct ranks were seen.
    fn check_order(map: ScoreMap) !u32 {
        var last: u16 = 0;
        var distinct: u32 = 0;
        for (map.ranks) |rank| {
            if (rank == 0) continue;
            try std.testing.expect(rank > last);
            last = rank;
            distinct += 1;
        }
        return distinct;
    }
};

fn check_game(comptime game: Game, comptime k: usize) !u32 {
    const gpa = std.testing.allocator;
    const map: ScoreMap = .{ .ranks = try gpa.alloc(u16, 10 << 20) };
    defer gpa.free(map.ranks);
    @memset(map.ranks, 0);
    const rows_per_batch = 4096;
    const cards = try gpa.alloc(u8, rows_per_batch * k);
    defer gpa.free(cards);
    const scores = try gpa.alloc(u32, rows_per_batch);
    defer gpa.free(scores);
    var out: [rows_per_batch]u16 = undefined;
    var filled: usize = 0;
    var hands: u64 = 0;
    var index: [k]u8 = undefined;
    for (&index, 0..) |*i, n| i.* = @intCast(n);
    while (true) {
        var hand: [k]u8 = undefined;
        for (&hand, index) |*card, i| card.* = deck[i];
        const score = if (k == 5) score_five(game, hand) else score_seven(game, hand);
        try map.hold(score, eval.rank_cards_in(game, &hand));
        @memcpy(cards[filled * k ..][0..k], &hand);
        scores[filled] = score;
        filled += 1;
        hands += 1;
        if (filled == rows_per_batch) {
            try check_batch(game, k, cards, scores, map, &out);
            filled = 0;
        }
        // Next combination of k of the 36 positions, in lexicographic order.
        var i: usize = k;
        while (i > 0 and index[i - 1] == 36 - k + i - 1) i -= 1;
        if (i == 0) break;
        index[i - 1] += 1;
        for (i..k) |j| index[j] = index[j - 1] + 1;
    }
    try check_batch(game, k, cards[0 .. filled * k], scores[0..filled], map, out[0..filled]);
    try std.testing.expectEqual(@as(u64, if (k == 5) 376_992 else 8_347_680), hands);
    return map.check_order();
}

/// The batch kernels (vector rows, and the scalar tail) against the learnt ranks.
fn check_batch(comptime game: Game, comptime k: usize, cards: []const u8, scores: []const u32, map: ScoreMap, out: []u16) !void {
    const rows = scores.len;
    try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), batch.rank_card_rows_in(game, cards[0 .. rows * k], k, out[0..rows]));
    for (out[0..rows], scores) |rank, score| try std.testing.expectEqual(map.ranks[score], rank);
    // Card sets too.
    var sets: [4096]u64 = undefined;
    var set_ranks: [4096]u16 = undefined;
    for (sets[0..rows], 0..) |*set, row| {
        set.* = 0;
        for (cards[row * k ..][0..k]) |card| set.* |= @as(u64, 1) << @intCast(card);
    }
    try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), batch.rank_sets_in(game, sets[0..rows], set_ranks[0..rows]));
    try std.testing.expectEqualSlices(u16, out[0..rows], set_ranks[0..rows]);
}

test "short deck exhaustive: every 5-card hand, both rules, 1,404 classes in the oracle's order" {
    try std.testing.expectEqual(@as(u32, 1404), try check_game(.shortdeck, 5));
    try std.testing.expectEqual(@as(u32, 1404), try check_game(.shortdeck_straights, 5));
}

test "short deck exhaustive: every 7-card hand, both rules, in the oracle's order" {
    // Fewer classes than five cards make: a 7-card hand's best five is never among the worst
    // (the counts are the oracle's, 2026-12-06; the rules differ where trips and a straight meet).
    try std.testing.expectEqual(@as(u32, 762), try check_game(.shortdeck, 7));
    try std.testing.expectEqual(@as(u32, 752), try check_game(.shortdeck_straights, 7));
}

test "short deck: named hands under both rules" {
    const ids = struct {
        fn of(text: []const u8) [7]u8 {
            var out: [7]u8 = undefined;
            var n: usize = 0;
            var i: usize = 0;
            while (i < text.len) : (i += 2) {
                const value: u8 = @intCast(std.mem.indexOfScalar(u8, encoding.value_letters, text[i]).?);
                const suit: u8 = @intCast(std.mem.indexOfScalar(u8, encoding.suit_letters, text[i + 1]).?);
                out[n] = suit * 13 + value;
                n += 1;
            }
            return out;
        }
    };
    const straight = ids.of("6s7h8d9cTsJhQh");
    const trips = ids.of("TsThTd9c8sAhKh");
    const flush = ids.of("6s8s9sJsKsAhAd");
    const full_house = ids.of("TsThTdAcAs6s7h");
    const wheel = ids.of("As6h7d8c9sKhQd");
    const six_high = ids.of("6s7h8d9cTsKhQd");
    try std.testing.expect(eval.rank_cards_in(.shortdeck, &trips) > eval.rank_cards_in(.shortdeck, &straight));
    try std.testing.expect(eval.rank_cards_in(.shortdeck_straights, &trips) < eval.rank_cards_in(.shortdeck_straights, &straight));
    inline for (.{ Game.shortdeck, Game.shortdeck_straights }) |game| {
        try std.testing.expect(eval.rank_cards_in(game, &flush) > eval.rank_cards_in(game, &full_house));
        try std.testing.expect(eval.rank_cards_in(game, &wheel) < eval.rank_cards_in(game, &six_high));
        try std.testing.expectEqual(@as(u16, 1), eval.rank_cards_in(game, &wheel) & 0xFFF);
    }
    // In Hold'em the same cards: a full house beats a flush, and A-6-7-8-9 is no straight.
    try std.testing.expect(eval.rank_cards(&flush) < eval.rank_cards(&full_house));
    try std.testing.expectEqual(@as(u4, 1), eval.category(eval.rank_cards(&wheel)));
    try std.testing.expectEqual(@as(u64, 16), @popCount(eval.short_deck_missing));
    comptime std.debug.assert(encoding.card_count - 16 == deck.len);
}
