//! One complete board (or a partial one, ranking hands of fewer cards): every combo's rank
//! on it, and one range's weights summed cumulatively by rank, in total and per card, so
//! that the weight of the range's combos meeting none of a set of cards U and ranking
//! below, at or above any rank comes from O(|U|) lookups by inclusion-exclusion:
//!     Σ_{c ∩ U = ∅, rank c < m} w(c) = S(<m) − Σ_{x∈U} S_x(<m) + Σ_{{x,y}⊂U} w({x,y})·[rank < m]
//! Exact equity over ranges (equity/range_exact.zig) and every hand against a range (features/strength.zig)
//! both count with it.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const combos = @import("../cards/combos.zig");

/// Rows of running sums: one per card, and the total.
pub const sum_rows = encoding.card_count + 1;
pub const total_row = encoding.card_count;
/// The scratch a board needs: every row as long as the board's distinct ranks + 1.
pub const scratch_len = sum_rows * (combos.count + 1);

comptime {
    // `rank_bits` holds a bit for every rank a hand can have (ranks are u16, at most 7,462
    // distinct), and `below` counts up to the distinct ranks of 1,326 combos.
    assert(64 * (1 << 10) >= std.math.maxInt(u16) + 1);
    assert(combos.count <= std.math.maxInt(u16));
    // A row is at most one entry per combo and one: `scratch_len` covers every board.
    assert(scratch_len == sum_rows * (combos.count + 1));
}

/// Up to this many counted combos, a board keeps its distinct ranks in a sorted vector and
/// finds a rank's place by one vector compare; more, in a bitmap over every rank. The bitmap
/// costs a fixed ~1 µs a board (8 KB cleared, 1,024 words counted), which dominated small
/// ranges: a hand against QQ's 6 combos on a flop (990 boards) took 1.3 ms, not ~20 µs.
pub const small_levels = 64;
const Levels = @Vector(small_levels, u16);
/// Past the last distinct rank: above every rank a hand can have.
const level_pad = std.math.maxInt(u16);

comptime {
    // The pad ranks above every hand (the top category, a straight flush, is 9), so a pad
    // entry never counts as below or at a rank.
    assert((9 + 1) << eval.category_shift <= level_pad);
}

/// One complete board: every held combo's rank, and the counted player's running sums.
pub const Board = struct {
    cards: u64,
    ranks: [combos.count]u16,
    /// Few counted combos (`small`): their distinct ranks ascending, padded with `level_pad`.
    levels: Levels,
    small: bool,
    /// Otherwise bit r: some live combo of the counted player ranks r; `below[w]`: bits set in
    /// words before w. A rank's place among the distinct ranks is then two loads and a popcount.
    rank_bits: [1 << 10]u64,
    below: [1 << 10]u16,
    distinct: u32,
    /// `sum_rows` rows of `distinct + 1`: row x, entry i is the counted player's weight in
    /// combos holding card x (row 52: all its combos) ranking below the i-th distinct rank.
    cumulative: []f64,
    stride: usize,

    /// Ranks the combos `ranked` on the board `cards` (0 for a combo meeting it) and sums
    /// the weights of the combos `counted` (a subset of `ranked`) by rank.
    pub fn setup(
        board: *Board,
        cards_on_board: u64,
        ranked: []const u16,
        counted: []const u16,
        weights: *const [combos.count]f64,
        scratch: []f64,
    ) void {
        assert(counted.len <= ranked.len);
        assert(ranked.len <= combos.count);
        assert(scratch.len >= scratch_len);
        assert(cards_on_board & ~encoding.full_deck == 0);
        board.cards = cards_on_board;
        var hand: encoding.Accumulator = .empty;
        var cards = board.cards;
        while (cards != 0) : (cards &= cards - 1) hand.add(@intCast(@ctz(cards)));
        for (ranked) |c| {
            var full = hand;
            full.merge(combos.accumulator(c));
            board.ranks[c] = if (combos.set(c) & board.cards != 0) 0 else eval.rank_accumulator(
                full,
            );
        }
        board.small = counted.len <= small_levels;
        board.distinct = if (board.small) board.index_levels(counted) else board.index_bitmap(counted);
        // At most a distinct rank a counted combo.
        assert(board.distinct <= counted.len);
        board.stride = board.distinct + 1;
        board.cumulative = scratch[0 .. sum_rows * board.stride];
        board.sum_weights(counted, weights);
    }

    /// The counted combos' distinct ranks, sorted into `levels`; returns how many.
    fn index_levels(board: *Board, counted: []const u16) u32 {
        assert(counted.len <= small_levels);
        var levels: [small_levels]u16 = @splat(level_pad);
        var n: u32 = 0;
        for (counted) |c| {
            const r = board.ranks[c];
            if (r == 0) continue;
            // Insertion into the sorted prefix, skipping a rank already there.
            var i = n;
            while (i > 0 and levels[i - 1] > r) i -= 1;
            if (i > 0 and levels[i - 1] == r) continue;
            std.mem.copyBackwards(u16, levels[i + 1 .. n + 1], levels[i..n]);
            levels[i] = r;
            n += 1;
        }
        board.levels = levels;
        assert(n <= counted.len);
        return n;
    }

    /// The counted combos' ranks as bits, and the bits below each word; returns how many.
    fn index_bitmap(board: *Board, counted: []const u16) u32 {
        board.rank_bits = @splat(0);
        for (counted) |c| {
            const r = board.ranks[c];
            if (r != 0) board.rank_bits[r >> 6] |= @as(u64, 1) << @intCast(r & 63);
        }
        var total: u32 = 0;
        for (board.rank_bits, &board.below) |bits, *below| {
            below.* = @intCast(total);
            total += @popCount(bits);
        }
        assert(total <= counted.len);
        return total;
    }

    /// The counted weights summed by rank, per card and in total, then made running sums.
    fn sum_weights(board: *Board, counted: []const u16, weights: *const [combos.count]f64) void {
        assert(board.cumulative.len == sum_rows * board.stride);
        @memset(board.cumulative, 0);
        for (counted) |c| {
            const r = board.ranks[c];
            if (r == 0) continue;
            const w = weights[c];
            const at = board.place(r) + 1;
            board.cumulative[total_row * board.stride + at] += w;
            board.cumulative[@as(usize, combos.first[c]) * board.stride + at] += w;
            board.cumulative[@as(usize, combos.second[c]) * board.stride + at] += w;
        }
        for (0..sum_rows) |row| {
            const sums = board.cumulative[row * board.stride ..][0..board.stride];
            for (1..sums.len) |i| sums[i] += sums[i - 1];
        }
        // Below the lowest rank nothing is counted.
        assert(board.cumulative[total_row * board.stride] == 0);
    }

    /// How many of the counted player's distinct ranks lie below `rank`.
    pub inline fn place(board: *const Board, rank: u16) usize {
        const result = if (board.small)
            @popCount(@as(u64, @bitCast(board.levels < @as(Levels, @splat(rank)))))
        else
            board.below[rank >> 6] + @popCount(
                board.rank_bits[rank >> 6] & ((@as(u64, 1) << @intCast(rank & 63)) - 1),
            );
        assert(result <= board.distinct);
        return result;
    }

    pub inline fn holds_rank(board: *const Board, rank: u16) bool {
        if (board.small) return @reduce(.Or, board.levels == @as(Levels, @splat(rank)));
        return board.rank_bits[rank >> 6] >> @intCast(rank & 63) & 1 != 0;
    }
};
