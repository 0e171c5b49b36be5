//! Exact equity over ranges on boards of 3 to 5 cards: every runout, and on each complete
//! board every deal of combos sharing no card, counted rather than visited one by one.
//!
//! On one complete board a combo's rank does not depend on who holds it, so every combo
//! any player holds is ranked once. One player, the *counted* one (the caller picks the
//! widest range), is never enumerated: its combos are sorted into the board's distinct ranks
//! and summed cumulatively, per card too (`Board.cumulative`). The others' deals are
//! enumerated; for each, with m the best rank among them, the counted player's weight below
//! m, at m and above m, over combos meeting none of the deal's cards U, comes from those
//! sums by inclusion-exclusion:
//!     Σ_{c ∩ U = ∅, rank c < m} w(c) = S(<m) − Σ_{x∈U} S_x(<m) + Σ_{{x,y}⊂U} w({x,y})·[rank < m]
//! (a combo holding two cards of U is taken out twice, so it is put back once). The deal's
//! share of the pot follows from those three weights. Work per board: ranking the combos,
//! 53 running sums over the distinct ranks, and O(|U|) per enumerated deal.
//!
//! Work items are (runout, combo of the first enumerated player), numbered runout-major, so
//! a run splits into calls of any size over threads, with progress between calls.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const deal = @import("../cards/deal.zig");
const bits = @import("../cards/bits.zig");
const random = @import("../cards/random.zig");
const combos = @import("../cards/combos.zig");
const spot_zig = @import("spot.zig");
const Spot = spot_zig.Spot;
const Sums = spot_zig.Sums;

const board_sums = @import("board_sums.zig");
const Board = board_sums.Board;
const total_row = board_sums.total_row;
pub const scratch_len = board_sums.scratch_len;

/// C(n, k) for n ≤ 52 and k ≤ 5.
const binomials: [encoding.card_count + 1][spot_zig.board_cards_max + 1]u64 = table: {
    var table: [encoding.card_count + 1][spot_zig.board_cards_max + 1]u64 = @splat(@splat(0));
    for (0..encoding.card_count + 1) |n| {
        table[n][0] = 1;
        for (1..spot_zig.board_cards_max + 1) |k| {
            table[n][k] = if (n == 0) 0 else table[n - 1][k - 1] + table[n - 1][k];
        }
    }
    break :table table;
};

/// The cards a runout comes from: every card not on the board, dead or held by a fixed player.
fn runout_deck(spot: *const Spot) u64 {
    return encoding.full_deck & ~spot.out_cards();
}

comptime {
    // The table's corners: one empty runout, C(52, 5) flopless boards.
    assert(binomials[encoding.card_count][0] == 1);
    assert(binomials[encoding.card_count][5] == 2_598_960);
}

pub fn runouts(spot: *const Spot) u64 {
    assert(spot.board_cards <= spot_zig.board_cards_max);
    return binomials[@popCount(runout_deck(spot))][spot_zig.board_cards_max - spot.board_cards];
}

/// Work items of a count whose first enumerated player is `first`.
pub fn items(spot: *const Spot, first: usize) u64 {
    assert(first < spot.players);
    return runouts(spot) * spot.support_len[first];
}

/// Counts items `first_item .. first_item + item_count` (see `items`); `order` lists the
/// enumerated players, then the counted one last. Adds to `out` (`spot.players * slots`
/// Sums: the enumerated players' by combo, the counted player's in its whole-range slot).
pub fn count(
    spot: *const Spot,
    order: []const u8,
    first_item: u64,
    item_count: u64,
    scratch: []f64,
    out: []Sums,
) void {
    assert(order.len == spot.players);
    assert(order.len >= 2);
    assert(scratch.len >= scratch_len);
    assert(out.len >= spot.players * spot_zig.slots);
    const first = order[0];
    // The caller checked the items exist.
    assert(first_item + item_count <= items(spot, first));
    const per_runout: u64 = spot.support_len[first];
    var board: Board = undefined;
    var runout: u64 = std.math.maxInt(u64);
    var item = first_item;
    const end = first_item + item_count;
    while (item < end) {
        if (item / per_runout != runout) {
            runout = item / per_runout;
            const counted = order[order.len - 1];
            board.setup(
                spot.board | unrank(spot, runout),
                spot.union_support[0..spot.union_len],
                spot.support[counted][0..spot.support_len[counted]],
                &spot.weights[counted],
                scratch,
            );
        }
        const stop = @min(end, (runout + 1) * per_runout);
        var deal_state: Deal = .{ .spot = spot, .board = &board, .order = order, .out = out };
        for (item - runout * per_runout..stop - runout * per_runout) |j| {
            deal_state.first_combo(spot.support[first][j]);
        }
        assert(stop > item);
        item = stop;
    }
    assert(item == end);
}

/// Runout `index` in colexicographic order of the runout deck's subsets.
fn unrank(spot: *const Spot, index: u64) u64 {
    assert(index < runouts(spot));
    const deck = runout_deck(spot);
    var rest = index;
    var cards: u64 = 0;
    var k = spot_zig.board_cards_max - spot.board_cards;
    var n: u32 = @popCount(deck);
    while (k > 0) : (k -= 1) {
        n -= 1;
        while (binomials[n][k] > rest) n -= 1;
        rest -= binomials[n][k];
        cards |= @as(u64, 1) << bits.nth_set_bit(deck, n);
    }
    // A runout of the cards the board misses, from the deck left.
    assert(rest == 0);
    assert(cards & ~deck == 0);
    assert(@popCount(cards) == spot_zig.board_cards_max - spot.board_cards);
    return cards;
}

/// The enumeration of deals on one board.
const Deal = struct {
    spot: *const Spot,
    board: *const Board,
    order: []const u8,
    out: []Sums,
    held: [spot_zig.players_max]u16 = undefined,

    fn first_combo(d: *Deal, combo: u16) void {
        assert(d.order.len >= 2);
        assert(combo < combos.count);
        if (combos.set(combo) & d.board.cards != 0) return;
        const p = d.order[0];
        d.held[p] = combo;
        d.descend(1, combos.set(combo), d.board.ranks[combo], d.spot.weights[p][combo]);
    }

    fn descend(d: *Deal, level: usize, used: u64, best: u16, weight: f64) void {
        assert(level >= 1);
        assert(level < d.order.len);
        // The enumerated players so far hold two cards each, none of the board's.
        assert(@popCount(used) == 2 * level);
        assert(used & d.board.cards == 0);
        if (level == d.order.len - 1) return d.settle(used, best, weight);
        const p = d.order[level];
        const taken = used | d.board.cards;
        for (d.spot.support[p][0..d.spot.support_len[p]]) |combo| {
            if (combos.set(combo) & taken != 0) continue;
            d.held[p] = combo;
            const rank = d.board.ranks[combo];
            d.descend(
                level + 1,
                used | combos.set(combo),
                @max(best, rank),
                weight * d.spot.weights[p][combo],
            );
        }
    }

    /// One deal of the enumerated players, `used` their cards, `best` their best rank: the
    /// counted player's weight below, at and above it decides every share.
    fn settle(d: *Deal, used: u64, best: u16, weight: f64) void {
        const spot = d.spot;
        const board = d.board;
        const counted = d.order[d.order.len - 1];
        const lo = board.place(best);
        const hi = lo + @intFromBool(board.holds_rank(best));
        const last = board.distinct;
        assert(lo <= hi);
        assert(hi <= last);
        const sums = board.cumulative;
        const stride = board.stride;
        var below = sums[total_row * stride + lo];
        var up_to = sums[total_row * stride + hi];
        var total = sums[total_row * stride + last];
        var cards = used & ~spot.fixed_cards; // the counted player holds no fixed card already
        while (cards != 0) : (cards &= cards - 1) {
            const x: u6 = @intCast(@ctz(cards));
            const row = @as(usize, x) * stride;
            below -= sums[row + lo];
            up_to -= sums[row + hi];
            total -= sums[row + last];
            var pairs = spot.partners[counted][x] & cards & ~(@as(u64, 1) << x);
            while (pairs != 0) : (pairs &= pairs - 1) {
                const c = combos.index[x][@ctz(pairs)];
                const w = spot.weights[counted][c];
                const r = board.ranks[c];
                total += w;
                if (r < best) below += w;
                if (r <= best) up_to += w;
            }
        }
        const under = @max(below, 0);
        const level = @max(up_to - under, 0);
        const over = @max(total - under - level, 0);
        if (under + level + over <= 0) return;
        var tied: u32 = 0;
        for (d.order[0 .. d.order.len - 1]) |p| tied += @intFromBool(
            board.ranks[d.held[p]] == best,
        );
        // The best rank is some enumerated player's.
        assert(tied >= 1);
        assert(tied < d.order.len);
        const alone: f64 = @floatFromInt(@intFromBool(tied == 1));
        const games = weight * (under + level + over);
        for (d.order[0 .. d.order.len - 1]) |p| {
            const s = &d.out[@as(usize, p) * spot_zig.slots + d.held[p]];
            s.games += games;
            if (board.ranks[d.held[p]] != best) continue;
            s.wins += weight * under * alone;
            s.ties += weight * (level + under * (1 - alone));
            s.shares += weight * (under * spot_zig.shares[tied] + level * spot_zig.shares[tied + 1]);
        }
        const s = &d.out[@as(usize, counted) * spot_zig.slots + spot_zig.whole_range_slot];
        s.games += games;
        s.wins += weight * over;
        s.ties += weight * level;
        s.shares += weight * (level * spot_zig.shares[tied + 1] + over * spot_zig.shares[1]);
    }
};

/// Every runout and every deal visited one by one: the definition `count` must agree with.
fn count_by_visiting(spot: *const Spot, out: []Sums) void {
    const total = runouts(spot);
    for (0..total) |r| {
        const cards = spot.board | unrank(spot, r);
        var held: [spot_zig.players_max]u16 = undefined;
        visit(spot, cards, 0, cards | spot.dead, 1, &held, out);
    }
}

fn visit(
    spot: *const Spot,
    board: u64,
    player: usize,
    used: u64,
    weight: f64,
    held: *[spot_zig.players_max]u16,
    out: []Sums,
) void {
    assert(player <= spot.players);
    assert(used & board == board);
    if (player == spot.players) {
        var hand: encoding.Accumulator = .empty;
        var cards = board;
        while (cards != 0) : (cards &= cards - 1) hand.add(@intCast(@ctz(cards)));
        var ranks: [spot_zig.players_max]u16 = undefined;
        var best: u16 = 0;
        for (0..spot.players) |p| {
            var full = hand;
            full.merge(combos.accumulator(held[p]));
            ranks[p] = eval.rank_accumulator(full);
            best = @max(best, ranks[p]);
        }
        var winners: u32 = 0;
        for (ranks[0..spot.players]) |r| winners += @intFromBool(r == best);
        for (0..spot.players) |p| {
            const s = &out[p * spot_zig.slots + spot_zig.whole_range_slot];
            s.games += weight;
            if (ranks[p] != best) continue;
            if (winners == 1) s.wins += weight else s.ties += weight;
            s.shares += weight * spot_zig.shares[winners];
        }
        return;
    }
    for (spot.support[player][0..spot.support_len[player]]) |c| {
        if (combos.set(c) & used != 0) continue;
        held[player] = c;
        visit(
            spot,
            board,
            player + 1,
            used | combos.set(c),
            weight * spot.weights[player][c],
            held,
            out,
        );
    }
}

/// A player's totals: its whole-range slot plus every combo's.
fn totals(out: []const Sums, player: usize) Sums {
    assert(out.len >= (player + 1) * spot_zig.slots);
    var sum: Sums = .{};
    for (out[player * spot_zig.slots ..][0..spot_zig.slots]) |s| {
        inline for (@typeInfo(Sums).@"struct".field_names) |name| @field(sum, name) += @field(s, name);
    }
    return sum;
}

/// This file's kernel, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// `count` on a prepared spot, items (order, first item, count, scratch of `scratch_len`),
/// adding to `players * spot.slots` Sums.
pub const kernels = struct {
    pub fn equity_count(spot: *const Spot, order: [*]const u8, first_item: u64, items_counted: u64, scratch: [*]f64, out: [*]Sums) callconv(.c) void {
        const sums = out[0 .. spot.players * spot_zig.slots];
        count(spot, order[0..spot.players], first_item, items_counted, scratch[0..scratch_len], sums);
    }
};

test "count: agrees with visiting every runout and deal, on random ranges of 2 to 5 players" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    const scratch = try page.alloc(f64, scratch_len);
    defer page.free(scratch);
    const out_counted = try page.alloc(Sums, spot_zig.players_max * spot_zig.slots);
    defer page.free(out_counted);
    const out_visited = try page.alloc(Sums, spot_zig.players_max * spot_zig.slots);
    defer page.free(out_visited);
    var weights: [spot_zig.players_max * combos.count]f64 = undefined;
    var state: u64 = 11;
    var checked: usize = 0;
    for (0..24) |spot_number| {
        const players: u32 = 2 + @as(u32, @intCast(spot_number % 4));
        // Rivers mostly (visiting is slow), a few turns; boards from few suits make flushes.
        const board_cards: u32 = if (spot_number % 6 == 5) 4 else 5;
        var board: u64 = 0;
        while (@popCount(board) < board_cards) {
            state = random.mix64(state +% 1);
            const range: u64 = if (spot_number % 3 == 0) 26 else 52;
            board |= @as(u64, 1) << @intCast(state % range);
        }
        // Each player: a few random combos with random weights; now and then one known hand.
        @memset(&weights, 0);
        for (0..players) |p| {
            state = random.mix64(state +% 1);
            // Some heads-up ranges past `board_sums.small_levels`, so both ways a board
            // places ranks (sorted levels, bitmap) are counted.
            const wide = players == 2 and spot_number % 4 == 0;
            const most: u64 = if (players > 3) 10 else if (wide) 400 else 40;
            const held: usize = if (state % 5 == 0) 1 else 2 + state % most;
            for (0..held) |_| {
                state = random.mix64(state +% 1);
                const c = state % combos.count;
                weights[p * combos.count + c] = @as(f64, @floatFromInt(1 + (state >> 32) % 4)) / 4;
            }
        }
        const prepared = spot_zig.prepare(
            spot,
            weights[0 .. players * combos.count],
            players,
            0,
            board,
            0,
        );
        if (prepared != null) continue;
        checked += 1;
        @memset(out_counted, .{});
        @memset(out_visited, .{});
        var order: [spot_zig.players_max]u8 = undefined;
        for (0..players) |p| order[p] = @intCast((p + spot_number) % players);
        count(spot, order[0..players], 0, items(spot, order[0]), scratch, out_counted);
        count_by_visiting(spot, out_visited);
        for (0..players) |p| {
            const want = totals(out_visited, p);
            const got = totals(out_counted, p);
            inline for (.{ "games", "wins", "ties", "shares" }) |name| {
                const tolerance = 1e-9 * @max(1, @field(want, name));
                try std.testing.expectApproxEqAbs(@field(want, name), @field(got, name), tolerance);
            }
        }
    }
    try std.testing.expect(checked >= 16);
}
