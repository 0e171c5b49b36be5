//! Solver and ML features of hands on boards, exact over every runout to the river.
//!
//! Two ways in, for two shapes of work:
//! - `board_values`: every two-card hand at once against one weighted range on one board
//!   (a solver's showdown values, whole-street tables). Each complete board is counted once
//!   with `board_sums.Board`: all combos ranked, the range summed by rank, and each hand's
//!   wins, ties and opponents found by inclusion-exclusion over its two cards: O(n) per
//!   runout after the ranking, never O(n²).
//! - `row_features`: one hand on one board against a uniform random opponent, with the
//!   features that need each opponent's state now *and* after the runout (Billings et al.'s
//!   positive and negative potential), by visiting every opponent on every runout.
//!
//! Equity on a partial board is summed over runouts, not averaged per runout: the hand's
//! share of the pots over every (runout, opponent) pair divided by the opponents' weight over
//! the same pairs. The per-runout equities (for E[HS²] and the histograms) are weighted by
//! the opponents' weight in that runout, so their mean is that equity exactly; against a
//! uniform opponent every runout weighs the same.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const random = @import("../cards/random.zig");
const combos = @import("../cards/combos.zig");
const board_sums = @import("../equity/board_sums.zig");

pub const board_cards_max = encoding.board_cards_max;
/// Histograms of up to this many bins (a bound on the memory a call asks for per hand).
pub const bins_max = 1000;

/// What `board_values` adds up per combo, over runouts.
pub const Totals = struct {
    /// Σ (wins + ties / 2) · weight and Σ weight of the opponents, over (runout, opponent).
    share: [combos.count]f64 = @splat(0),
    weight: [combos.count]f64 = @splat(0),
    /// Σ weight(runout) · equity(runout)².
    square: [combos.count]f64 = @splat(0),
};

/// The histogram bin of an equity in [0, 1]: `bins` equal bins, an equity on an edge in
/// the bin above it, and 1 (the last edge) in the last bin.
///
/// An equity is a ratio of sums of weights, each rounded: 2/3 comes out as 0.666…6, and
/// `floor(2/3 · 6)` put it in bin 3. So an equity within `edge_tolerance` of an edge is on
/// it. The tolerance is above those sums' rounding (at most 1,326 terms: ~1e-13) and below
/// the gap between an edge k/bins and any other equity p/q a runout gives: q ≤ 2 · 1,326
/// (ties count half) for whole weights, times 10^d for weights of d decimals, so the gap
/// |p/q − k/bins| ≥ 1/(q · bins) is 3.8e-7 for whole weights and 3.8e-11 for 4 decimals.
pub inline fn bin_of(equity: f64, bins: u32) usize {
    assert(bins >= 1);
    assert(bins <= bins_max);
    assert(equity >= -edge_tolerance);
    assert(equity <= 1 + edge_tolerance);
    const scaled = equity * @as(f64, @floatFromInt(bins));
    const edge = @round(scaled);
    const on_edge = @abs(scaled - edge) <= edge_tolerance * @as(f64, @floatFromInt(bins));
    const b: usize = @intFromFloat(@max(0, if (on_edge) edge else @floor(scaled)));
    return @min(b, bins - 1);
}

/// How near an edge an equity counts as on it (see `bin_of`).
pub const edge_tolerance = 1e-12;

comptime {
    // Above the sums' rounding (~1e-13), below the nearest other equity to an edge (3.8e-11
    // for weights of four decimals: see `bin_of`).
    assert(edge_tolerance > 1e-13);
    assert(edge_tolerance < 3.8e-11);
}

test "bin_of: an equity on an edge goes to the bin above, however it was rounded" {
    try std.testing.expectEqual(@as(usize, 4), bin_of(2.0 / 3.0, 6)); // 0.666…6 · 6 < 4
    try std.testing.expectEqual(@as(usize, 4), bin_of(1.4 / 2.1, 6)); // weights 0.7: ~4 - 4e-16
    try std.testing.expectEqual(@as(usize, 1), bin_of(0.5, 2));
    try std.testing.expectEqual(@as(usize, 0), bin_of(0.0, 10));
    try std.testing.expectEqual(@as(usize, 9), bin_of(1.0, 10)); // the last edge closes the last
    try std.testing.expectEqual(@as(usize, 3), bin_of(2.0 / 3.0 - 1e-9, 6)); // below: not on it
    try std.testing.expectEqual(@as(usize, 3), bin_of(0.1 + 0.2, 10)); // 0.30000000000000004: an edge
    try std.testing.expectEqual(@as(usize, 3), bin_of(0.7 - 0.4, 10)); // 0.29999999999999993: too
}

/// Every combo against the range `weights` on `board` (3 to 5 cards), over every runout to
/// the river when `to_river` (else on the board as it is: hands of 5 or 6 cards). Adds to
/// `totals`; `histogram` (`combos.count * bins`, or empty) gets each runout's weight in
/// the bin of the combo's equity on it.
pub fn board_values(board: u64, to_river: bool, weights: *const [combos.count]f64, bins: u32, totals: *Totals, histogram: []f64, scratch: []f64, counted: *Board) void {
    assert(@popCount(board) >= 3);
    assert(@popCount(board) <= board_cards_max);
    assert(histogram.len == if (bins > 0) combos.count * bins else 0);
    const missing: u32 = if (to_river) board_cards_max - @popCount(board) else 0;
    const deck = encoding.full_deck & ~board;
    switch (missing) {
        0 => one_board(board, weights, bins, totals, histogram, scratch, counted),
        1 => {
            var rest = deck;
            while (rest != 0) : (rest &= rest - 1) {
                one_board(board | (rest & -%rest), weights, bins, totals, histogram, scratch, counted);
            }
        },
        2 => {
            var first = deck;
            while (first != 0) : (first &= first - 1) {
                const a = first & -%first;
                var second = first & (first - 1);
                while (second != 0) : (second &= second - 1) {
                    one_board(board | a | (second & -%second), weights, bins, totals, histogram, scratch, counted);
                }
            }
        },
        else => unreachable,
    }
}

pub const Board = struct {
    sums: board_sums.Board,
    ranked: [combos.count]u16,
    counted: [combos.count]u16,
};

fn one_board(cards: u64, weights: *const [combos.count]f64, bins: u32, totals: *Totals, histogram: []f64, scratch: []f64, b: *Board) void {
    var ranked_len: usize = 0;
    var counted_len: usize = 0;
    for (0..combos.count) |c| {
        if (combos.set(@intCast(c)) & cards != 0) continue;
        b.ranked[ranked_len] = @intCast(c);
        ranked_len += 1;
        if (weights[c] > 0) {
            b.counted[counted_len] = @intCast(c);
            counted_len += 1;
        }
    }
    // Every combo missing the board is ranked; the range's live ones among them counted.
    assert(ranked_len == combos_left(@popCount(cards)));
    assert(counted_len <= ranked_len);
    const board = &b.sums;
    board.setup(cards, b.ranked[0..ranked_len], b.counted[0..counted_len], weights, scratch);
    const sums = board.cumulative;
    const stride = board.stride;
    const last = board.distinct;
    const total_row = board_sums.total_row * stride;
    for (b.ranked[0..ranked_len]) |h| {
        const rank = board.ranks[h];
        const lo = board.place(rank);
        const hi = lo + @intFromBool(board.holds_rank(rank));
        const x = @as(usize, combos.first[h]) * stride;
        const y = @as(usize, combos.second[h]) * stride;
        const own = weights[h]; // counted in the total and in both card rows: put back once
        const below = sums[total_row + lo] - sums[x + lo] - sums[y + lo];
        const up_to = sums[total_row + hi] - sums[x + hi] - sums[y + hi] + own;
        const weight = sums[total_row + last] - sums[x + last] - sums[y + last] + own;
        if (weight <= 0) continue;
        const share = below + (up_to - below) / 2;
        const equity = share / weight;
        totals.share[h] += share;
        totals.weight[h] += weight;
        totals.square[h] += weight * equity * equity;
        if (bins > 0) histogram[@as(usize, h) * bins + bin_of(equity, bins)] += weight;
    }
}

/// One hand's features against a uniform random opponent (the field order is the ABI's).
pub const HandFeatures = extern struct {
    /// Hand strength now: the share of opponents beaten (ties half) on the board as it is.
    hs: f64,
    /// Equity to the river (EHS): HS on the river, averaged over every runout.
    ehs: f64,
    /// E[HS²] over runouts to the river.
    ehs2: f64,
    /// Positive and negative potential (Billings et al.) to the river, and one card ahead.
    ppot: f64,
    npot: f64,
    ppot1: f64,
    npot1: f64,

    pub const c_name = "pp_features";
};

inline fn state_of(hero: u16, villain: u16) usize {
    return @as(usize, @intFromBool(hero >= villain)) + @intFromBool(hero > villain);
}

/// The runouts of `missing` (1 or 2) cards from a deck of `deck` cards.
fn runouts_of(deck: u32, missing: u32) u32 {
    assert(missing == 1 or missing == 2);
    assert(deck >= missing);
    return if (missing == 1) deck else deck * (deck - 1) / 2;
}

/// The two-card combos left once `cards_out` cards are out (a board, and maybe a hand).
fn combos_left(cards_out: u32) usize {
    assert(cards_out <= board_cards_max + 2);
    const left: usize = encoding.card_count - cards_out;
    return left * (left - 1) / 2;
}

/// Billings' transition counts: [state now][state after].
const Transitions = [3][3]f64;

fn potentials(t: *const Transitions) [2]f64 {
    const behind = 0;
    const tied = 1;
    const ahead = 2;
    var now: [3]f64 = undefined;
    for (0..3) |s| now[s] = t[s][0] + t[s][1] + t[s][2];
    for (now) |count| assert(count >= 0);
    const up = t[behind][ahead] + t[behind][tied] / 2 + t[tied][ahead] / 2;
    const down = t[ahead][behind] + t[tied][behind] / 2 + t[ahead][tied] / 2;
    const up_base = now[behind] + now[tied] / 2;
    const down_base = now[ahead] + now[tied] / 2;
    // Never behind (or never ahead): no way to improve (or to fall back).
    return .{ if (up_base > 0) up / up_base else 0, if (down_base > 0) down / down_base else 0 };
}

/// Each live opponent's state against the hero now (behind, tied, ahead) into `now_state`,
/// and how many opponents are in each.
fn states_now(hero_now: u16, board_hand: encoding.Accumulator, used: u64, now_state: *[combos.count]u8) [3]f64 {
    var counts: [3]f64 = @splat(0);
    for (0..combos.count) |c| {
        if (combos.set(@intCast(c)) & used != 0) continue;
        var villain = board_hand;
        villain.merge(combos.accumulator(@intCast(c)));
        const s = state_of(hero_now, eval.rank_accumulator(villain));
        now_state[c] = @intCast(s);
        counts[s] += 1;
    }
    // Every combo missing the hero's and the board's cards is an opponent.
    assert(counts[0] + counts[1] + counts[2] == @as(f64, @floatFromInt(combos_left(@popCount(used)))));
    return counts;
}

/// Features of hole cards `hole` (2 cards) on `board` (3 to 5 cards, disjoint); `histogram`
/// (`bins`, or empty) gets the share of runouts in each bin of the final equity.
pub fn row_features(hole: u64, board: u64, bins: u32, histogram: []f64) HandFeatures {
    assert(@popCount(hole) == 2);
    assert(@popCount(board) >= 3); // and at most 5: the switch on the cards missing
    assert(hole & board == 0);
    assert(histogram.len == bins);
    const board_hand = accumulator_of(board);
    const used = board | hole;
    var hero = board_hand;
    hero.merge(accumulator_of(hole));
    var now_state: [combos.count]u8 = undefined;
    const counts = states_now(eval.rank_accumulator(hero), board_hand, used, &now_state);
    var f: HandFeatures = .{ .hs = share_of(counts), .ehs = 0, .ehs2 = 0, .ppot = 0, .npot = 0, .ppot1 = 0, .npot1 = 0 };
    if (bins > 0) @memset(histogram, 0);
    const deck = encoding.full_deck & ~used;
    var to_river: Transitions = @splat(@splat(0));
    var runouts: f64 = 0;
    switch (board_cards_max - @popCount(board)) {
        0 => {
            f.ehs = f.hs;
            f.ehs2 = f.hs * f.hs;
            if (bins > 0) histogram[bin_of(f.hs, bins)] = 1;
            return f;
        },
        1 => {
            var rest = deck;
            while (rest != 0) : (rest &= rest - 1) {
                runout(board | (rest & -%rest), hole, used | (rest & -%rest), &now_state, &to_river, &f, bins, histogram);
                runouts += 1;
            }
            const p = potentials(&to_river);
            f.ppot = p[0];
            f.npot = p[1];
            f.ppot1 = p[0];
            f.npot1 = p[1];
        },
        2 => {
            var one_ahead: Transitions = @splat(@splat(0));
            var first = deck;
            while (first != 0) : (first &= first - 1) {
                const a = first & -%first;
                var turn_f: HandFeatures = undefined;
                runout(board | a, hole, used | a, &now_state, &one_ahead, &turn_f, 0, histogram);
                var second = first & (first - 1);
                while (second != 0) : (second &= second - 1) {
                    const b = second & -%second;
                    runout(board | a | b, hole, used | a | b, &now_state, &to_river, &f, bins, histogram);
                    runouts += 1;
                }
            }
            const p = potentials(&to_river);
            f.ppot = p[0];
            f.npot = p[1];
            const q = potentials(&one_ahead);
            f.ppot1 = q[0];
            f.npot1 = q[1];
        },
        else => unreachable,
    }
    // Every river: C(deck, missing) of them.
    assert(runouts == @as(f64, @floatFromInt(runouts_of(
        encoding.card_count - @popCount(used),
        board_cards_max - @popCount(board),
    ))));
    f.ehs /= runouts;
    f.ehs2 /= runouts;
    if (bins > 0) for (histogram) |*h| {
        h.* /= runouts;
    };
    return f;
}

/// One runout: every live opponent's final state; adds the hand's equity on it to `f`.
fn runout(full: u64, hole: u64, used: u64, now_state: *const [combos.count]u8, t: *Transitions, f: *HandFeatures, bins: u32, histogram: []f64) void {
    const full_hand = accumulator_of(full);
    var hero = full_hand;
    hero.merge(accumulator_of(hole));
    const hero_rank = eval.rank_accumulator(hero);
    var counts: [3]f64 = @splat(0);
    for (0..combos.count) |c| {
        if (combos.set(@intCast(c)) & used != 0) continue;
        var villain = full_hand;
        villain.merge(combos.accumulator(@intCast(c)));
        const s = state_of(hero_rank, eval.rank_accumulator(villain));
        counts[s] += 1;
        t[now_state[c]][s] += 1;
    }
    assert(@popCount(full) == board_cards_max - 1 or @popCount(full) == board_cards_max);
    assert(used & hole == hole);
    const equity = share_of(counts);
    f.ehs += equity;
    f.ehs2 += equity * equity;
    if (bins > 0) histogram[bin_of(equity, bins)] += 1;
}

fn share_of(counts: [3]f64) f64 {
    const opponents = counts[0] + counts[1] + counts[2];
    assert(opponents > 0); // at most 9 cards are out: hundreds of opponents are left
    const share = (counts[2] + counts[1] / 2) / opponents;
    assert(share >= 0);
    assert(share <= 1);
    return share;
}

fn accumulator_of(set: u64) encoding.Accumulator {
    var hand: encoding.Accumulator = .empty;
    var rest = set;
    while (rest != 0) : (rest &= rest - 1) hand.add(@intCast(@ctz(rest)));
    assert(hand.mask == set);
    return hand;
}

/// The working memory of `board_value_rows` (about 0.6 MB): allocate once per call.
pub const Scratch = struct {
    board: Board,
    totals: Totals,
    sums: [board_sums.scratch_len]f64,
};

/// `board_values` for each board of `boards` (`board_cards` cards a row, valid): the range is
/// `weights` (one row of `combos.count`, or one per board when `per_board`). Writes per board
/// and combo the equity, E[HS²] and histogram (fractions), NaN where the combo meets the
/// board or no opponent combo is left.
pub fn board_value_rows(
    boards: []const u8,
    board_cards: u32,
    weights: []const f64,
    per_board: bool,
    to_river: bool,
    bins: u32,
    equity: []f64,
    ehs2: []f64,
    histogram: []f64,
    scratch: *Scratch,
) void {
    const rows = equity.len / combos.count;
    assert(equity.len == rows * combos.count);
    assert(boards.len == rows * board_cards);
    assert(ehs2.len == 0 or ehs2.len == equity.len);
    assert(weights.len == if (per_board) rows * combos.count else combos.count);
    const nan = std.math.nan(f64);
    for (0..rows) |row| {
        var board: u64 = 0;
        for (boards[row * board_cards ..][0..board_cards]) |card| board |= @as(u64, 1) << @intCast(card);
        const w: *const [combos.count]f64 = @ptrCast(weights[if (per_board) row * combos.count else 0..][0..combos.count]);
        const row_histogram = if (bins > 0) histogram[row * combos.count * bins ..][0 .. combos.count * bins] else histogram[0..0];
        @memset(row_histogram, 0);
        scratch.totals = .{};
        board_values(board, to_river, w, bins, &scratch.totals, row_histogram, &scratch.sums, &scratch.board);
        const t = &scratch.totals;
        for (0..combos.count) |h| {
            const weight = t.weight[h];
            const at = row * combos.count + h;
            const live = weight > 0;
            equity[at] = if (live) t.share[h] / weight else nan;
            if (ehs2.len > 0) ehs2[at] = if (live) t.square[h] / weight else nan;
            for (row_histogram[h * bins ..][0..bins]) |*x| x.* = if (live) x.* / weight else nan;
        }
    }
}

/// `row_features` for each row: holes `[n][2]`, boards `[n][board_cards]` (3..5, valid and
/// disjoint from the holes); `histogram` is `[n][bins]` or empty.
pub fn feature_rows(holes: []const u8, boards: []const u8, board_cards: u32, bins: u32, out: []HandFeatures, histogram: []f64) void {
    assert(holes.len == out.len * 2);
    assert(boards.len == out.len * board_cards);
    assert(histogram.len == if (bins > 0) out.len * bins else 0);
    for (out, 0..) |*o, row| {
        var board: u64 = 0;
        for (boards[row * board_cards ..][0..board_cards]) |card| board |= @as(u64, 1) << @intCast(card);
        const hole = (@as(u64, 1) << @intCast(holes[2 * row])) | (@as(u64, 1) << @intCast(holes[2 * row + 1]));
        o.* = row_features(hole, board, bins, if (bins > 0) histogram[row * bins ..][0..bins] else histogram[0..0]);
    }
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file).
pub const kernels = struct {
    /// `board_value_rows` on rows already checked: boards (`n x board_cards`), weights (1,326,
    /// or per board), per board, to the river, bins → equity, E[HS²] and histograms per board
    /// and combo (the last two may be empty: length 0); scratch for the counts.
    pub fn board_values(
        boards: [*]const u8,
        board_cards: u32,
        n: u64,
        weights: [*]const f64,
        per_board: bool,
        to_river: bool,
        bins: u32,
        equity_out: [*]f64,
        ehs2: [*]f64,
        ehs2_len: u64,
        histogram: [*]f64,
        histogram_len: u64,
        scratch: *Scratch,
    ) callconv(.c) void {
        const cells = n * combos.count;
        board_value_rows(
            boards[0 .. n * board_cards],
            board_cards,
            weights[0..if (per_board) cells else combos.count],
            per_board,
            to_river,
            bins,
            equity_out[0..cells],
            ehs2[0..ehs2_len],
            histogram[0..histogram_len],
            scratch,
        );
    }

    /// `feature_rows`: holes (`n x 2`), boards (`n x board_cards`), bins → features per row,
    /// histograms (`n x bins`).
    pub fn hand_features(
        holes: [*]const u8,
        boards: [*]const u8,
        board_cards: u32,
        n: u64,
        bins: u32,
        out: [*]HandFeatures,
        histogram: [*]f64,
    ) callconv(.c) void {
        feature_rows(holes[0 .. 2 * n], boards[0 .. n * board_cards], board_cards, bins, out[0..n], histogram[0 .. n * bins]);
    }
};

test "features: board_values agrees with row_features against a uniform opponent" {
    const page = std.heap.page_allocator;
    const scratch = try page.alloc(f64, board_sums.scratch_len);
    defer page.free(scratch);
    const b = try page.create(Board);
    defer page.destroy(b);
    const totals = try page.create(Totals);
    defer page.destroy(totals);
    const ones: [combos.count]f64 = @splat(1);
    const bins = 10;
    var histogram: [combos.count * bins]f64 = undefined;
    var state: u64 = 5;
    for ([_]u32{ 5, 4, 3, 5 }) |n| {
        var board: u64 = 0;
        while (@popCount(board) < n) {
            state = random.mix64(state +% 1);
            board |= @as(u64, 1) << @intCast(state % 52);
        }
        totals.* = .{};
        @memset(&histogram, 0);
        board_values(board, true, &ones, bins, totals, &histogram, scratch, b);
        var checked: usize = 0;
        for (0..combos.count) |h| {
            if (combos.set(@intCast(h)) & board != 0 or h % 37 != 0) continue;
            var row_histogram: [bins]f64 = undefined;
            const f = row_features(combos.set(@intCast(h)), board, bins, &row_histogram);
            const w = totals.weight[h];
            try std.testing.expectApproxEqAbs(f.ehs, totals.share[h] / w, 1e-12);
            try std.testing.expectApproxEqAbs(f.ehs2, totals.square[h] / w, 1e-12);
            for (0..bins) |i| try std.testing.expectApproxEqAbs(row_histogram[i], histogram[h * bins + i] / w, 1e-12);
            checked += 1;
        }
        try std.testing.expect(checked > 20);
    }
}
