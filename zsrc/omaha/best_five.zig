//! The five cards that make an Omaha hand's rank: exactly two of the hole cards (4..6) and
//! three of the board's (3..5), ordered and tie-broken as rank/best_five.zig says for
//! Hold'em (of the fives that tie, the one whose ids, read in order, are lowest).
//!
//! Every choice of two and three (60 for PLO4 on a river, 150 for PLO6) is ranked; the
//! best's five are picked and ordered by rank/best_five.zig. One row at a time: the bars
//! (bench/bench_best_five.py) are Hold'em's, and a row's ranks are the cost.
const std = @import("std");
const eval = @import("../rank/eval.zig");
const batch = @import("../rank/batch.zig");
const fives = @import("../rank/best_five.zig");
const encoding = @import("../cards/encoding.zig");
const rank = @import("rank.zig");
const HandError = @import("../cards/failure.zig").HandError;
const assert = std.debug.assert;

const five = fives.five;

/// The best five of `out.len / 5` rows: holes (rows x `hole_cards`, 4..6), boards (rows x
/// `board_cards`, 3..5). A card that is not a card, or twice in a row, fails the row (its
/// position counts the board's cards first, then the hole cards); `out` is then zeroed.
pub fn best_five_rows(
    holes: []const u8,
    hole_cards: u32,
    boards: []const u8,
    board_cards: u32,
    out: []u8,
) ?HandError {
    assert(hole_cards >= rank.hole_cards_min and hole_cards <= rank.hole_cards_max);
    assert(board_cards >= rank.board_cards_min and board_cards <= rank.board_cards_max);
    const rows = out.len / five;
    assert(holes.len == rows * hole_cards and boards.len == rows * board_cards);
    var row_cards: [rank.board_cards_max + rank.hole_cards_max]u8 = undefined;
    for (0..rows) |row| {
        const board = boards[row * board_cards ..][0..board_cards];
        const hole = holes[row * hole_cards ..][0..hole_cards];
        @memcpy(row_cards[0..board_cards], board);
        @memcpy(row_cards[board_cards..][0..hole_cards], hole);
        if (batch.diagnose_card_row(row_cards[0 .. board_cards + hole_cards], row)) |e| {
            @memset(out, 0);
            return e;
        }
        out[row * five ..][0..five].* = best_of_row(hole, board);
    }
    return null;
}

/// The best five of one row of valid, distinct cards.
pub fn best_of_row(hole: []const u8, board: []const u8) [five]u8 {
    assert(hole.len >= 2 and board.len >= 3);
    var best_rank: u16 = 0;
    var best: [five]u8 = undefined;
    for (0..hole.len) |a| for (a + 1..hole.len) |b| {
        for (0..board.len) |c| for (c + 1..board.len) |d| for (d + 1..board.len) |e| {
            const hand = [five]u8{ hole[a], hole[b], board[c], board[d], board[e] };
            const r = eval.rank_cards(&hand);
            if (r < best_rank) continue;
            const ordered = fives.pick_one(&hand, r);
            if (r > best_rank or std.mem.order(u8, &ordered, &best) == .lt) {
                best_rank = r;
                best = ordered;
            }
        };
    };
    assert(best_rank != 0);
    return best;
}

test "Omaha best five: two from the hand, three from the board" {
    // Hole A♥ A♠ K♥ K♠, board Q♥ J♥ T♥ 2♣ 3♦: the royal flush A♥ K♥ with Q♥ J♥ T♥.
    const hole = [_]u8{ 38, 12, 37, 11 };
    const board = [_]u8{ 36, 35, 34, 13, 40 };
    try std.testing.expectEqualSlices(u8, &.{ 38, 37, 36, 35, 34 }, &best_of_row(&hole, &board));
    // Four hearts on the board and one in the hand is no flush: two must come from the hand.
    const one_heart = [_]u8{ 38, 12, 11, 24 }; // A♥ A♠ K♠ K♣
    const hearts = [_]u8{ 36, 35, 34, 27, 0 }; // Q♥ J♥ T♥ 3♥ 2♠
    // Best: A♠ K♠ with Q♥ J♥ T♥ is a straight (ace high), lowest ids: A♠ K♠.
    try std.testing.expectEqualSlices(u8, &.{ 12, 11, 36, 35, 34 }, &best_of_row(&one_heart, &hearts));
    var out: [2 * five]u8 = undefined;
    const holes = hole ++ one_heart;
    const boards = board ++ [_]u8{ 36, 35, 34, 27, 38 }; // row 1: A♥ twice
    const e = best_five_rows(&holes, 4, &boards, 5, &out) orelse return error.TestUnexpectedResult;
    try std.testing.expectEqual(@as(u64, 1), e.row);
    try std.testing.expectEqual(HandError.Kind.duplicate_card, e.kind);
    try std.testing.expectEqual(@as(i32, 5), e.position);
}
