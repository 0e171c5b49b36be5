//! Exhaustive checks of the table evaluator against the counting oracle, over every hand of
//! 0 to 7 cards (133,784,560 of seven). `zig build test` runs them, and the unit tests of
//! every module imported below.
const std = @import("std");
const eval = @import("eval.zig");
const oracle = @import("oracle.zig");

comptime {
    _ = @import("eval.zig");
    _ = @import("oracle.zig");
    _ = @import("batch.zig");
    _ = @import("parse.zig");
    _ = @import("deal.zig");
    _ = @import("deck_lanes.zig");
    _ = @import("random.zig");
    _ = @import("gather.zig");
    _ = @import("enumerate.zig");
    _ = @import("columns.zig");
    _ = @import("equity.zig");
    _ = @import("combos.zig");
    _ = @import("spot.zig");
    _ = @import("equity_sample.zig");
    _ = @import("equity_count.zig");
    _ = @import("rows_avx2.zig");
    _ = @import("rows_avx512.zig");
    _ = @import("blocks.zig");
    _ = @import("rows.zig");
    _ = @import("showdown.zig");
    _ = @import("capi.zig");
    _ = @import("isomorphism.zig");
    _ = @import("omaha.zig");
    _ = @import("omaha_boards.zig");
    _ = @import("omaha_vector.zig");
    _ = @import("omaha_equity.zig");
    _ = @import("board_sums.zig");
    _ = @import("features.zig");
    _ = @import("arena/tests.zig");
    _ = @import("arena/agents/tests.zig");
    _ = @import("capi/arena.zig");
}

const Accumulator = eval.Accumulator;

/// Oracle score → table rank, learnt from hands of 1..5 cards and then held to.
const ScoreMap = struct {
    ranks: []u16,

    fn learn(map: ScoreMap, score: u32, rank: u16) !void {
        if (map.ranks[score] == 0) map.ranks[score] = rank;
        try std.testing.expectEqual(map.ranks[score], rank);
    }
};

const Tally = struct {
    categories: [10]u64 = @splat(0),
    distinct: std.StaticBitSet(1 << 16) = .empty,
    hands: u64 = 0,
};

/// Visits every `k`-card hand (cards in increasing order), tallied by copy-and-extend.
fn walk(
    comptime k: usize,
    depth: usize,
    first: u8,
    accumulator: Accumulator,
    cards: *[7]u8,
    context: anytype,
) !void {
    if (depth == k) return context.visit(cards[0..k], accumulator);
    var card = first;
    while (card + (k - depth) <= eval.card_count) : (card += 1) {
        var next = accumulator;
        next.add(card);
        cards[depth] = card;
        try walk(k, depth + 1, card + 1, next, cards, context);
    }
}

const LearnContext = struct {
    map: ScoreMap,
    tally: *Tally,

    fn visit(context: LearnContext, cards: []const u8, accumulator: Accumulator) !void {
        const rank = eval.rank_accumulator(accumulator);
        const score = oracle.evaluate(cards);
        try std.testing.expectEqual(score >> 20, eval.category(rank));
        try std.testing.expectEqual(rank, eval.rank_cards(cards));
        try std.testing.expectEqual(rank, eval.rank_set(accumulator.mask));
        try context.map.learn(score, rank);
        context.tally.categories[eval.category(rank)] += 1;
        context.tally.distinct.set(rank);
        context.tally.hands += 1;
    }
};

const CheckContext = struct {
    map: ScoreMap,
    tally: *Tally,

    fn visit(context: CheckContext, cards: []const u8, accumulator: Accumulator) !void {
        const rank = eval.rank_accumulator(accumulator);
        const expected = context.map.ranks[oracle.evaluate(cards)];
        if (rank != expected or rank != eval.rank_set(accumulator.mask)) {
            std.debug.print("hand {any}: rank {d}, oracle's {d}\n", .{ cards, rank, expected });
            return error.TestUnexpectedResult;
        }
        context.tally.categories[eval.category(rank)] += 1;
        context.tally.hands += 1;
    }
};

test "exhaustive: every hand of 0 to 7 cards ranks as the oracle orders it" {
    const gpa = std.testing.allocator;
    const map: ScoreMap = .{ .ranks = try gpa.alloc(u16, 1 << 24) };
    defer gpa.free(map.ranks);
    @memset(map.ranks, 0);
    var cards: [7]u8 = undefined;

    // Hands of 0..5 cards teach the map; each category must agree with the oracle's.
    var tallies: [8]Tally = @splat(.{});
    inline for (0..6) |k| {
        try walk(k, 0, 0, .empty, &cards, LearnContext{ .map = map, .tally = &tallies[k] });
    }
    // Strictly monotonic: a higher oracle score always has a higher rank.
    var previous: u16 = 0;
    for (map.ranks) |rank| {
        if (rank == 0) continue;
        try std.testing.expect(rank > previous);
        previous = rank;
    }
    const five = tallies[5];
    try std.testing.expectEqual(@as(u64, 2_598_960), five.hands);
    try std.testing.expectEqual(@as(usize, 7462), five.distinct.count());
    try std.testing.expectEqualSlices(u64, &oracle.category_counts.five, &five.categories);

    // Six and seven cards: the rank of the best five, as the oracle picks them.
    inline for (6..8) |k| {
        try walk(k, 0, 0, .empty, &cards, CheckContext{ .map = map, .tally = &tallies[k] });
    }
    try std.testing.expectEqual(@as(u64, 20_358_520), tallies[6].hands);
    try std.testing.expectEqualSlices(u64, &oracle.category_counts.six, &tallies[6].categories);
    try std.testing.expectEqual(@as(u64, 133_784_560), tallies[7].hands);
    try std.testing.expectEqualSlices(u64, &oracle.category_counts.seven, &tallies[7].categories);
}
