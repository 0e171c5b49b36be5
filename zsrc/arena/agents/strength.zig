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
const eval = @import("../../rank/eval.zig");
const encoding = @import("../../cards/encoding.zig");
const combos = @import("../../cards/combos.zig");
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

/// Each card value's share of a fingerprint (the low 32 bits of an accumulator's key).
const value_keys: [value_count]u32 = keys: {
    var out: [value_count]u32 = undefined;
    for (&out, 0..) |*key, v| key.* = @truncate(eval.key_of_set(@as(u64, 1) << v) -% eval.key_of_set(0));
    break :keys out;
};
const suit_mask: u64 = (1 << value_count) - 1;
/// The four cards of value 0 (one a suit); shifted left by v, those of value v.
const value_bits: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

/// Opponent hands beaten and tied, counted in halves: HS = halves / (2 * hands).
const Tally = struct {
    halves: u64 = 0,

    inline fn add(tally: *Tally, own: u16, theirs: u16, count: u64) void {
        tally.halves += count * (@as(u64, @intFromBool(theirs < own)) * 2 + @intFromBool(theirs == own));
    }

    inline fn sub(tally: *Tally, own: u16, theirs: u16, count: u64) void {
        tally.halves -= count * (@as(u64, @intFromBool(theirs < own)) * 2 + @intFromBool(theirs == own));
    }
};

/// One board's facts for HS, found once per board (`rank`): without a flush a hand's rank
/// depends on its values alone and its fingerprint is the board's plus one multiplier a
/// hole card, so the 91 value pairs are ranked (a lookup each); the one suit with three or
/// more board cards, if any, is kept for the flushes. `hs` then counts the opponent hands
/// by value pair (how many of each are left after the combo's cards) and puts right the
/// few that flush: no per-combo work a board. Checked against a brute count with
/// `eval.rank_set` over every combo of thousands of boards (tests below).
pub const Board = struct {
    /// The board (a card set); `unset` before any.
    cards: u64 = unset,
    count: u8 = 0,
    by_values: [value_count][value_count]u16 = undefined,
    /// Cards of each value on the board.
    on_board: [value_count]u8 = undefined,
    /// The suit of three or more board cards, its board pattern and how many hole cards of
    /// it make a flush (0: the board is one); `need` 3 when there is none.
    suit: u6 = 0,
    pattern: u13 = 0,
    need: u8 = 3,

    const unset: u64 = std.math.maxInt(u64);

    pub fn rank(self: *Board, board: u64) void {
        if (self.cards == board) return;
        assert(@popCount(board) >= 3 and @popCount(board) <= 5);
        const base: u32 = @truncate(eval.key_of_set(board));
        for (0..value_count) |x| for (x..value_count) |y| {
            const r = eval.rank_fingerprint(base +% value_keys[x] +% value_keys[y]);
            self.by_values[x][y] = r;
            self.by_values[y][x] = r;
        };
        self.on_board = @splat(0);
        self.need = 3;
        for (0..4) |suit| {
            const pattern: u13 = @truncate(board >> @intCast(value_count * suit));
            for (0..value_count) |v| self.on_board[v] += @intCast(pattern >> @intCast(v) & 1);
            if (@popCount(pattern) >= 3) {
                self.suit = @intCast(suit);
                self.pattern = pattern;
                self.need = 5 - @as(u8, @popCount(pattern));
            }
        }
        self.cards = board;
        self.count = @popCount(board);
    }

    /// The rank of `hand` (two cards off the board) on the board.
    fn rank_of(self: *const Board, hand: u64) u16 {
        const mine: u13 = @truncate(hand >> (value_count * @as(u6, self.suit)));
        if (self.need < 3 and @popCount(mine) >= self.need) return eval.rank_flush_pattern(self.pattern | mine);
        var values: [2]u8 = undefined;
        var rest = hand;
        for (&values) |*v| {
            v.* = @intCast(@ctz(rest) % value_count);
            rest &= rest - 1;
        }
        return self.by_values[values[0]][values[1]];
    }

    /// HS of `combo` (which must not meet the board): (opponent hands it beats + ties / 2)
    /// / hands, over the hands of two cards of neither the board nor the combo.
    pub fn hs(self: *const Board, combo: u16) f64 {
        const hand = combos.set(combo);
        assert(hand & self.cards == 0);
        const own = self.rank_of(hand);
        const dead = self.cards | hand;
        var left: [value_count]u64 = undefined;
        for (&left, self.on_board, 0..) |*n, on, v| {
            const mine = @popCount(hand & (value_bits << @intCast(v)));
            n.* = 4 - on - mine;
        }
        var tally: Tally = .{};
        if (self.need > 0) {
            for (0..value_count) |x| {
                tally.add(own, self.by_values[x][x], left[x] * (left[x] -% 1) / 2);
                for (x + 1..value_count) |y| tally.add(own, self.by_values[x][y], left[x] * left[y]);
            }
        }
        if (self.need < 3) self.flushes(own, dead, &tally);
        const live: u64 = encoding.card_count - 2 - @as(u64, self.count);
        return @as(f64, @floatFromInt(tally.halves)) / @as(f64, @floatFromInt(live * (live - 1)));
    }

    /// Puts right the tally for the opponent hands that flush: each one's value-pair rank
    /// out (counted above unless the board is a flush), its flush rank in.
    fn flushes(self: *const Board, own: u16, dead: u64, tally: *Tally) void {
        const shift = value_count * @as(u6, self.suit);
        const suited: u13 = @truncate(~dead >> shift & suit_mask); // live cards of the suit
        const others = ~dead & encoding.full_deck & ~(suit_mask << shift); // live cards of no flush
        var xs = suited;
        while (xs != 0) : (xs &= xs - 1) {
            const x: u4 = @intCast(@ctz(xs));
            // Two cards of the suit.
            var ys = xs & (xs - 1);
            while (ys != 0) : (ys &= ys - 1) {
                const y: u4 = @intCast(@ctz(ys));
                const pair = @as(u13, 1) << x | @as(u13, 1) << y;
                if (self.need < 3) tally.add(own, eval.rank_flush_pattern(self.pattern | pair), 1);
                if (self.need > 0) tally.sub(own, self.by_values[x][y], 1);
            }
            if (self.need > 1) continue;
            // One card of the suit and one of another: counted by the other's value.
            const flush = eval.rank_flush_pattern(self.pattern | @as(u13, 1) << x);
            tally.add(own, flush, @popCount(others));
            if (self.need == 1) for (0..value_count) |v| {
                const n = @popCount(others & (value_bits << @intCast(v)));
                tally.sub(own, self.by_values[x][v], n);
            };
        }
        if (self.need == 0) {
            // Board flushes: two cards of no flush play the board's.
            const n: u64 = @popCount(others);
            tally.add(own, eval.rank_flush_pattern(self.pattern), n * (n -% 1) / 2);
        }
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
                const mine = eval.rank_set(set | combos.set(combo));
                const theirs = eval.rank_set(set | combos.set(opp));
                win += if (mine > theirs) 1 else if (mine == theirs) 0.5 else 0;
            }
            try testing.expectApproxEqAbs(win / n, board.hs(combo), 1e-12);
        }
    }
    // HS on boards of every suit pattern (flush draws, four and five of a suit), against
    // a brute count of the evaluator's ranks.
    var state: u64 = 0x9e37_79b9;
    var ranks: [combos.count]u16 = undefined;
    for (0..400) |trial| {
        var set: u64 = 0;
        const k = 3 + trial % 3;
        while (@popCount(set) < k) {
            state = state *% 6364136223846793005 +% 1442695040888963407;
            // Most boards from one or two suits, so flush boards come often.
            const range: u64 = if (trial % 4 == 0) 13 else if (trial % 4 == 1) 26 else 52;
            set |= @as(u64, 1) << @intCast((state >> 33) % range);
        }
        board.rank(set);
        for (0..combos.count) |c| {
            ranks[c] = if (combos.set(@intCast(c)) & set != 0) 0 else eval.rank_set(set | combos.set(@intCast(c)));
        }
        var c: usize = trial % 7;
        while (c < combos.count) : (c += 7) {
            const combo: u16 = @intCast(c);
            if (ranks[c] == 0) continue;
            var halves: u64 = 0;
            var n: u64 = 0;
            for (0..combos.count) |o| {
                if (ranks[o] == 0 or combos.set(@intCast(o)) & combos.set(combo) != 0) continue;
                n += 1;
                halves += @as(u64, @intFromBool(ranks[o] < ranks[c])) * 2 + @intFromBool(ranks[o] == ranks[c]);
            }
            try testing.expectEqual(@as(f64, @floatFromInt(halves)) / @as(f64, @floatFromInt(2 * n)), board.hs(combo));
        }
    }
}
