//! Omaha (PLO4, PLO5, PLO6): the best five-card hand of exactly two hole cards and three
//! board cards, on the Hold'em rank scale (eval.zig), for every player of every row.
//!
//! A five-card hand is a flush only when its two hole cards and three board cards share a
//! suit; otherwise its rank depends on its values alone, i.e. on its fingerprint, the sum
//! of the two hole cards' fingerprint and the three board cards'. So a row costs:
//! - the board's triples (C(b, 3): 1, 4 or 10) summed once, shared by every player;
//! - per player, the hole pairs (C(k, 2): 6, 10 or 15) summed, and one table lookup per
//!   (pair, triple), all independent (no branch, no flush test): 60 for PLO4 on a river;
//! - flushes apart, per suit holding two hole cards and three board cards: the flush table
//!   read for each pair and triple of that suit's values. Taking the maximum with the
//!   lookups is right because a flush outranks whatever the same five cards make without
//!   their suits (a straight flush included, the table knows it).
//! Card ids 52..255 add nothing (eval.card_keys), so a bad row ranks garbage without
//! leaving the tables; the row's card count then tells, and the diagnosis names the card.
const std = @import("std");
const eval = @import("eval.zig");
const batch = @import("batch.zig");
const assert = std.debug.assert;

pub const hole_cards_min = 4;
pub const hole_cards_max = 6;
pub const board_cards_min = 3;
pub const board_cards_max = 5;

/// Every `k`-subset of `0 .. n`, in lexicographic order.
fn subsets(comptime n: u32, comptime k: u32) []const [k]u8 {
    comptime {
        var list: []const [k]u8 = &.{};
        var subset: [k]u8 = undefined;
        for (&subset, 0..) |*s, i| s.* = i;
        while (true) {
            list = list ++ .{subset};
            // The next: bump the last place that can still grow, reset the ones after it.
            var i = k;
            while (i > 0 and subset[i - 1] == n - k + i - 1) i -= 1;
            if (i == 0) return list;
            subset[i - 1] += 1;
            for (i..k) |j| subset[j] = subset[j - 1] + 1;
        }
    }
}

inline fn fingerprint(card: u8) u32 {
    return @truncate(eval.card_keys[card]);
}

/// The best flush of two of `hole` and three of `board` (13-bit value patterns of one suit).
fn best_flush(hole: u13, board: u13) u16 {
    var best: u16 = 0;
    var pairs: u13 = hole;
    while (pairs != 0) : (pairs &= pairs - 1) {
        const first = pairs & (~pairs +% 1);
        var seconds = pairs & (pairs - 1);
        while (seconds != 0) : (seconds &= seconds - 1) {
            const pair = first | (seconds & (~seconds +% 1));
            var a = board;
            while (a != 0) : (a &= a - 1) {
                var b = a & (a - 1);
                while (b != 0) : (b &= b - 1) {
                    var c = b & (b - 1);
                    while (c != 0) : (c &= c - 1) {
                        const pattern = pair | lowest(a) | lowest(b) | lowest(c);
                        best = @max(best, eval.rank_flush_pattern(pattern));
                    }
                }
            }
        }
    }
    return best;
}

inline fn lowest(bits: u13) u13 {
    return bits & (~bits +% 1);
}

inline fn suit_pattern(set: u64, suit: u32) u13 {
    return @truncate(set >> @intCast(eval.value_count * suit));
}

/// Ranks `rows` of Omaha: boards (rows x `board_cards`, 3..5), holes (rows x `players` x
/// `hole_cards`, 4..6) → `out` (rows x players). A row is bad when a card is not a card or
/// appears twice anywhere in it; the first bad row is returned and `out` is zeroed.
pub fn rank_rows(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    hole_cards: u32,
    players: u32,
    out: []u16,
) ?batch.HandError {
    assert(players >= 1);
    const rows = out.len / players;
    assert(boards.len == rows * board_cards and holes.len == rows * players * hole_cards);
    const invalid = switch (board_cards) {
        inline board_cards_min...board_cards_max => |b| switch (hole_cards) {
            inline hole_cards_min...hole_cards_max => |k| rank_fixed(b, k, boards, holes, players, out),
            else => unreachable,
        },
        else => unreachable,
    };
    if (!invalid) return null;
    @memset(out, 0);
    var row_cards: [eval.card_count]u8 = undefined;
    const n = board_cards + players * hole_cards;
    assert(n <= eval.card_count); // the caller checks that the deck holds every player
    for (0..rows) |row| {
        @memcpy(row_cards[0..board_cards], boards[row * board_cards ..][0..board_cards]);
        @memcpy(row_cards[board_cards..n], holes[row * players * hole_cards ..][0 .. players * hole_cards]);
        if (batch.diagnose_card_row(row_cards[0..n], row)) |e| return e;
    }
    unreachable;
}

fn rank_fixed(comptime b: u32, comptime k: u32, boards: []const u8, holes: []const u8, players: u32, out: []u16) bool {
    @setEvalBranchQuota(10_000); // the unrolled (pair, triple) loop: up to 150 lookups
    const triples = comptime subsets(b, 3);
    const pairs = comptime subsets(k, 2);
    const rows = out.len / players;
    var invalid = false;
    for (0..rows) |row| {
        const board = boards[row * b ..][0..b];
        var board_set: u64 = 0;
        var triple_prints: [triples.len]u32 = undefined;
        inline for (triples, 0..) |t, j| {
            triple_prints[j] = fingerprint(board[t[0]]) + fingerprint(board[t[1]]) + fingerprint(board[t[2]]);
        }
        inline for (0..b) |i| board_set |= eval.card_masks[board[i]];
        var row_set = board_set;
        var row_cards: u32 = b;
        for (0..players) |p| {
            const hole = holes[(row * players + p) * k ..][0..k];
            var hole_set: u64 = 0;
            inline for (0..k) |i| hole_set |= eval.card_masks[hole[i]];
            var pair_prints: [pairs.len]u32 = undefined;
            inline for (pairs, 0..) |pair, i| pair_prints[i] = fingerprint(hole[pair[0]]) + fingerprint(hole[pair[1]]);
            var best: u16 = 0;
            inline for (pair_prints) |pair_print| {
                inline for (triple_prints) |triple_print| {
                    best = @max(best, eval.rank_fingerprint_unmasked(pair_print + triple_print));
                }
            }
            inline for (0..eval.suit_count) |suit| {
                const hole_suit = suit_pattern(hole_set, suit);
                const board_suit = suit_pattern(board_set, suit);
                if (@popCount(hole_suit) >= 2 and @popCount(board_suit) >= 3) {
                    best = @max(best, best_flush(hole_suit, board_suit));
                }
            }
            out[row * players + p] = best;
            row_set |= hole_set;
            row_cards += k;
        }
        invalid = invalid or @popCount(row_set) != row_cards;
    }
    return invalid;
}

test "omaha: subsets" {
    try std.testing.expectEqual(@as(usize, 10), comptime subsets(5, 3).len);
    try std.testing.expectEqual(@as(usize, 15), comptime subsets(6, 2).len);
    try std.testing.expectEqualSlices(u8, &.{ 0, 1 }, &comptime subsets(4, 2)[0]);
    try std.testing.expectEqualSlices(u8, &.{ 2, 3 }, &comptime subsets(4, 2)[5]);
}

test "omaha: against every two-and-three choice ranked by the evaluator" {
    var prng = std.Random.DefaultPrng.init(7);
    const random = prng.random();
    inline for (board_cards_min..board_cards_max + 1) |b| {
        inline for (hole_cards_min..hole_cards_max + 1) |k| {
            const players = 2;
            for (0..3000) |_| {
                var deck: [52]u8 = undefined;
                for (&deck, 0..) |*c, i| c.* = @intCast(i);
                random.shuffle(u8, &deck);
                // Suits crowded into two, so flushes are common.
                if (random.boolean()) for (&deck) |*c| {
                    c.* = c.* % 26;
                };
                var seen: u64 = 0;
                var cards: [b + players * k]u8 = undefined;
                var n: usize = 0;
                for (deck) |c| {
                    if (n == cards.len) break;
                    if (seen >> @intCast(c) & 1 != 0) continue;
                    seen |= @as(u64, 1) << @intCast(c);
                    cards[n] = c;
                    n += 1;
                }
                if (n < cards.len) continue;
                var out: [players]u16 = undefined;
                try std.testing.expectEqual(@as(?batch.HandError, null), rank_rows(cards[0..b], b, cards[b..], k, players, &out));
                for (0..players) |p| {
                    const hole = cards[b + p * k ..][0..k];
                    var best: u16 = 0;
                    for (comptime subsets(k, 2)) |pair| for (comptime subsets(b, 3)) |t| {
                        const five = [5]u8{ hole[pair[0]], hole[pair[1]], cards[t[0]], cards[t[1]], cards[t[2]] };
                        best = @max(best, eval.rank_cards(&five));
                    };
                    try std.testing.expectEqual(best, out[p]);
                }
            }
        }
    }
}

test "omaha: bad rows are named" {
    const board = [_]u8{ 0, 1, 2, 3, 4 };
    var out: [1]u16 = undefined;
    const repeated = [_]u8{ 5, 6, 7, 4 };
    const e = rank_rows(&board, 5, &repeated, 4, 1, &out).?;
    try std.testing.expectEqual(batch.HandError.Kind.duplicate_card, e.kind);
    try std.testing.expectEqual(@as(i32, 4), e.card);
    try std.testing.expectEqual(@as(i32, 8), e.position);
    const outside = [_]u8{ 5, 6, 60, 8 };
    const e2 = rank_rows(&board, 5, &outside, 4, 1, &out).?;
    try std.testing.expectEqual(batch.HandError.Kind.card_out_of_range, e2.kind);
    try std.testing.expectEqual(@as(i32, 60), e2.card);
}
