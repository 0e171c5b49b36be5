//! Hand strength for the agents, exact:
//! - preflop: a combo's class's EHS (equity against one uniform random hand over every
//!   board; preflop_ehs.zig, generated from pypoker.features) and its class's place in the
//!   order of the 169 classes (`top`: the share of the 1,326 combos whose class's EHS is at
//!   least its own: AA 6/1326, the worst class 1);
//! - after the flop: HS on the board as it stands, against one uniform random hand that
//!   does not hold the combo's or the board's cards: (hands it beats + ties / 2) / hands.
//!   `Board` ranks the 1,326 combos once per board (a few microseconds) and answers each
//!   combo by counting, so a table's seats share one ranking a street.
const std = @import("std");
const eval = @import("../../eval.zig");
const combos = @import("../../combos.zig");
const chart = @import("preflop_ehs.zig");
const assert = std.debug.assert;

const value_count = 13;

/// The combo's class in `chart.ehs`: (row, column), suited above the diagonal's mirror.
pub fn class_of(combo: u16) [2]u8 {
    const a = combos.first[combo];
    const b = combos.second[combo];
    const va = a % value_count;
    const vb = b % value_count;
    const high = @max(va, vb);
    const low = @min(va, vb);
    if (a / value_count == b / value_count) return .{ high, low }; // suited (never a pair)
    return .{ low, high };
}

/// Combos in a class: 6 a pair, 4 suited, 12 offsuit.
fn class_combos(row: usize, column: usize) u32 {
    if (row == column) return 6;
    return if (row > column) 4 else 12;
}

/// `top_share[row][column]`: the share of the 1,326 combos whose class's EHS is at least
/// this class's (its own combos included).
const top_share: [value_count][value_count]f64 = table: {
    @setEvalBranchQuota(200_000);
    var out: [value_count][value_count]f64 = undefined;
    for (0..value_count) |r| for (0..value_count) |c| {
        var at_least: u32 = 0;
        for (0..value_count) |r2| for (0..value_count) |c2| {
            if (chart.ehs[r2][c2] >= chart.ehs[r][c]) at_least += class_combos(r2, c2);
        };
        out[r][c] = @as(f64, at_least) / combos.count;
    };
    break :table out;
};

pub fn preflop_ehs(combo: u16) f64 {
    const class = class_of(combo);
    return chart.ehs[class[0]][class[1]];
}

pub fn preflop_top(combo: u16) f64 {
    const class = class_of(combo);
    return top_share[class[0]][class[1]];
}

/// A rank no hand has: combos that meet the board.
const dead: u16 = std.math.maxInt(u16);
const lanes = 32;
const padded = (combos.count + lanes - 1) / lanes * lanes;

/// The ranks of the 1,326 combos on one board (`dead` where a combo meets it).
pub const Board = struct {
    /// The board ranked (a card set); `unset` before any.
    cards: u64 = unset,
    count: u8 = 0,
    ranks: [padded]u16 = undefined,

    const unset: u64 = std.math.maxInt(u64);

    /// Ranks every combo on `board` (3 to 5 cards) unless it is the board ranked last.
    pub fn rank(self: *Board, board: u64) void {
        if (self.cards == board) return;
        assert(@popCount(board) >= 3 and @popCount(board) <= 5);
        var base: eval.Accumulator = .empty;
        var rest = board;
        while (rest != 0) : (rest &= rest - 1) base.add(@ctz(rest));
        for (0..combos.count) |i| {
            const combo: u16 = @intCast(i);
            if (combos.set(combo) & board != 0) {
                self.ranks[i] = dead;
                continue;
            }
            var hand = base;
            hand.merge(combos.accumulator(combo));
            self.ranks[i] = eval.rank_accumulator(hand);
        }
        @memset(self.ranks[combos.count..], dead);
        self.cards = board;
        self.count = @popCount(board);
    }

    /// HS of `combo` (which must not meet the board) on the board ranked.
    pub fn hs(self: *const Board, combo: u16) f64 {
        const own = self.ranks[combo];
        assert(own != dead);
        // Every live combo below / level with it, then those that share one of its cards
        // taken out (the combo itself is among them twice, and level with itself once).
        const V = @Vector(lanes, u16);
        const W = @Vector(lanes, u32);
        var below: W = @splat(0);
        var level: W = @splat(0);
        var i: usize = 0;
        while (i < padded) : (i += lanes) {
            const r: V = self.ranks[i..][0..lanes].*;
            below += @intFromBool(r < @as(V, @splat(own)));
            level += @intFromBool(r == @as(V, @splat(own)));
        }
        var beaten: i64 = @reduce(.Add, below);
        var tied: i64 = @as(i64, @reduce(.Add, level)) + 1;
        inline for (.{ combos.first[combo], combos.second[combo] }) |card| {
            for (0..eval.card_count) |other| {
                if (other == card) continue;
                const r = self.ranks[combos.index[card][other]];
                beaten -= @intFromBool(r < own);
                tied -= @intFromBool(r == own);
            }
        }
        const left: i64 = eval.card_count - 2 - @as(i64, self.count);
        const hands: f64 = @floatFromInt(@divExact(left * (left - 1), 2));
        assert(beaten >= 0 and tied >= 0);
        return (@as(f64, @floatFromInt(beaten)) + 0.5 * @as(f64, @floatFromInt(tied))) / hands;
    }
};

test "agents strength: classes, top shares and HS against a brute count" {
    const testing = std.testing;
    // AA (aces are value 12): cards 12 and 25.
    const aces = combos.index[12][25];
    try testing.expectEqual([2]u8{ 12, 12 }, class_of(aces));
    try testing.expectApproxEqAbs(@as(f64, 6.0 / 1326.0), preflop_top(aces), 1e-15);
    try testing.expect(preflop_ehs(aces) > 0.85 and preflop_ehs(aces) < 0.86);
    // AKs (same suit) above AKo.
    const aks = combos.index[12][11];
    const ako = combos.index[12][24];
    try testing.expect(preflop_ehs(aks) > preflop_ehs(ako));
    // The worst class by EHS against one random hand is 32o: every combo is at least as good.
    try testing.expectEqual(@as(f64, 1), preflop_top(combos.index[1][13])); // 32o
    // HS on a board: against every opponent hand by brute force.
    var board: Board = .{};
    const cards = [_]u8{ 0, 14, 28, 42, 9 }; // 2s 3h 4d 5c Js (spades 0..12)
    for ([_]usize{ 3, 4, 5 }) |k| {
        var set: u64 = 0;
        for (cards[0..k]) |c| set |= @as(u64, 1) << @intCast(c);
        board.rank(set);
        for ([_]u16{ aces, aks, combos.index[7][20], combos.index[3][51] }) |combo| {
            if (combos.set(combo) & set != 0) continue;
            var win: f64 = 0;
            var n: f64 = 0;
            for (0..combos.count) |o| {
                const opp: u16 = @intCast(o);
                if (combos.set(opp) & (set | combos.set(combo)) != 0) continue;
                n += 1;
                const mine = board.ranks[combo];
                const theirs = board.ranks[opp];
                win += if (mine > theirs) 1 else if (mine == theirs) 0.5 else 0;
            }
            try testing.expectApproxEqAbs(win / n, board.hs(combo), 1e-12);
        }
    }
}
