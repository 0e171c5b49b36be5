//! Omaha equity (PLO4, PLO5, PLO6): players holding hands known in full or in part (the
//! cards not known, `unknown`, are dealt each game), a board of 0 to 5 known cards, and the
//! deck the rest comes from. Each player's result is a `spot.Sums` (games, wins, ties, pot
//! share in units of 1/`equity.pot_units`, and the squares Monte Carlo's error needs), the
//! same sums Hold'em equity adds to, so Python builds the same `EquityResult`.
//!
//! - `exact`: every completion of the board, for hands known in full. The runouts are
//!   walked in Gosper order and numbered; a call settles those numbered `part` modulo
//!   `parts`, so threads split the walk evenly and the sums do not depend on the split.
//! - `sample`: games numbered from `first_game`; game g deals the hole cards not known, in
//!   player order, then the board's missing cards, each drawn uniformly from the cards still
//!   in the deck (random words `random.draw_word(key, g, draw)`). Drawing without replacement
//!   card by card gives every deal of the cards left the same chance: the deal given the
//!   known cards, as the game is played. A game's cards depend on its number only, so any
//!   split of the games into calls gives the same sums.
//!
//! Hi-lo (`Spot.hilo`, eight or better): each game's pot is split in two halves, the high
//! half to the best high and the low half to the best low (omaha/low.zig), each half shared
//! among its tied winners (so a player tying the low and taking the high alone gets three
//! quarters); with no low the high takes the whole pot. A player then adds `hilo_sums` Sums:
//! the pot (wins: scoops, the whole pot alone; ties: part of it), the share it took with its
//! high, and with its low (wins and ties: of that half). The pot's shares are the other two's.
const std = @import("std");
const encoding = @import("../cards/encoding.zig");
const bits = @import("../cards/bits.zig");
const random = @import("../cards/random.zig");
const enumerate = @import("../cards/enumerate.zig");
const equity = @import("../equity/known_exact.zig");
const omaha = @import("rank.zig");
const low = @import("low.zig");
const spot = @import("../equity/spot.zig");
const assert = std.debug.assert;

pub const unknown = encoding.no_card;
pub const players_max = spot.players_max;
/// Sums per player of a hi-lo spot: the pot, the high's part of it, the low's.
pub const hilo_sums = 3;

/// A prepared Omaha spot, as `pp_omaha_equity` receives it (checked there).
pub const Spot = struct {
    /// `players` x `hole_cards` card ids; `unknown` for a card dealt each game.
    holes: []const u8,
    hole_cards: u32,
    players: u32,
    /// The known board cards (0, 3, 4 or 5).
    board: []const u8,
    /// The cards a game may deal: not held, not on the board, not dead.
    deck: u64,
    /// Omaha hi-lo, eight or better: the pot split high and low (`hilo_sums` Sums a player).
    hilo: bool = false,

    /// How many Sums a player adds to.
    pub fn sums_per_player(s: *const Spot) u32 {
        return if (s.hilo) hilo_sums else 1;
    }
};

/// Adds the runouts numbered `part` modulo `parts` to `out` (`players` Sums); returns how many.
pub fn exact(s: Spot, part: u32, parts: u32, out: []spot.Sums) u64 {
    assert(parts >= 1);
    assert(part < parts);
    assert(out.len == s.players * s.sums_per_player());
    assert(s.players >= 2);
    assert(s.players <= players_max);
    assert(s.board.len <= 5);
    // Exact only for hands known in full.
    assert(std.mem.indexOfScalar(u8, s.holes[0 .. s.players * s.hole_cards], unknown) == null);
    omaha.ready();
    return switch (s.hole_cards) {
        inline omaha.hole_cards_min...omaha.hole_cards_max => |k| exact_k(k, s, part, parts, out),
        else => unreachable,
    };
}

fn exact_k(comptime k: u32, s: Spot, part: u32, parts: u32, out: []spot.Sums) u64 {
    var pairs: [players_max]omaha.Pairs(k) = undefined;
    for (0..s.players) |p| pairs[p] = omaha.hole_pairs(k, s.holes[p * k ..][0..k]);
    var cards: [5]u8 = undefined;
    @memcpy(cards[0..s.board.len], s.board);
    const missing: u32 = @intCast(5 - s.board.len);
    assert(@popCount(s.deck) >= missing);
    if (missing == 0) {
        if (part != 0) return 0;
        settle(k, s, &pairs, &cards, out);
        return 1;
    }
    const end = enumerate.done_state(s.deck);
    var combo = enumerate.first_state(missing);
    var number: u64 = 0;
    var settled: u64 = 0;
    while (combo < end) : ({
        combo = enumerate.gosper_next(combo);
        number += 1;
    }) {
        if (number % parts != part) continue;
        var dealt = enumerate.deposit(combo, s.deck);
        for (s.board.len..5) |i| {
            cards[i] = @intCast(@ctz(dealt));
            dealt &= dealt - 1;
        }
        settle(k, s, &pairs, &cards, out);
        settled += 1;
    }
    // The walk numbered every runout: this part settled its share, rounded down or up.
    assert(settled == number / parts + @intFromBool(part < number % parts));
    return settled;
}

/// Adds games `first_game .. first_game + games` to `out` (`players` Sums).
pub fn sample(s: Spot, key: u64, first_game: u64, games: u64, out: []spot.Sums) void {
    assert(out.len == s.players * s.sums_per_player());
    assert(s.players >= 2);
    assert(s.players <= players_max);
    assert(s.board.len <= 5);
    omaha.ready();
    switch (s.hole_cards) {
        inline omaha.hole_cards_min...omaha.hole_cards_max => |k| sample_k(k, s, key, first_game, games, out),
        else => unreachable,
    }
}

fn sample_k(
    comptime k: u32,
    s: Spot,
    key: u64,
    first_game: u64,
    games: u64,
    out: []spot.Sums,
) void {
    var holes: [players_max * k]u8 = undefined;
    var cards: [5]u8 = undefined;
    const known_holes = s.holes[0 .. s.players * k];
    @memcpy(cards[0..s.board.len], s.board);
    // A hand known in full has the same value pairs every game: numbered once, here.
    var pairs: [players_max]omaha.Pairs(k) = undefined;
    var dealt_to: u32 = 0; // players holding a card dealt each game, a bit each
    for (0..s.players) |p| {
        const hand = known_holes[p * k ..][0..k];
        if (std.mem.indexOfScalar(u8, hand, unknown) != null) {
            dealt_to |= @as(u32, 1) << @intCast(p);
        } else pairs[p] = omaha.hole_pairs(k, hand);
    }
    // The deck holds every card a game deals.
    assert(@popCount(s.deck) >= count_unknown(known_holes) + (5 - s.board.len));
    var game = first_game;
    const end = first_game + games;
    if (omaha.vector_lanes > 0) {
        const blocks = games / omaha.vector_lanes;
        sample_blocks(k, s, key, game, blocks, out);
        game += blocks * omaha.vector_lanes;
    }
    for (game..end) |g| {
        deal(k, s, key, g, holes[0..known_holes.len], &cards);
        var rest = dealt_to;
        while (rest != 0) : (rest &= rest - 1) {
            const p = @ctz(rest);
            pairs[p] = omaha.hole_pairs(k, holes[p * k ..][0..k]);
        }
        settle(
            k,
            .{ .holes = holes[0..known_holes.len], .hole_cards = k, .players = s.players, .board = s.board, .deck = s.deck, .hilo = s.hilo },
            &pairs,
            &cards,
            out,
        );
    }
}

/// How many of `cards` are dealt each game.
fn count_unknown(cards: []const u8) usize {
    const count = std.mem.count(u8, cards, &.{unknown});
    assert(count <= cards.len);
    return count;
}

/// Game `game`'s cards: the hole cards not known, in player order, then the board's missing
/// cards, into `holes` (every player's) and `board`.
inline fn deal(comptime k: u32, s: Spot, key: u64, game: u64, holes: []u8, board: *[5]u8) void {
    var deck = s.deck;
    var left: u32 = @popCount(deck);
    var draw: u64 = 0;
    for (s.holes[0 .. s.players * k], holes) |card, *held| {
        held.* = if (card != unknown) card else draw_card(key, game, &draw, &deck, &left);
    }
    @memcpy(board[0..s.board.len], s.board);
    for (s.board.len..5) |i| board[i] = draw_card(key, game, &draw, &deck, &left);
    // Pair of `draw_card`: every draw took one card out of the deck.
    assert(@popCount(deck) == left);
    assert(left + draw == @popCount(s.deck));
}

/// Games `first .. first + blocks * vector_lanes`, `vector_lanes` at a time: each game
/// dealt as `deal` deals it (the same cards, drawn in the same order), a block's hands of
/// one player ranked together (omaha's vector rows), then the games settled in order. The
/// known cards are written into the blocks once, for every block.
fn sample_blocks(comptime k: u32, s: Spot, key: u64, first: u64, blocks: u64, out: []spot.Sums) void {
    const lanes = omaha.vector_lanes;
    comptime assert(lanes > 0);
    assert(out.len == s.players * s.sums_per_player());
    var boards: [lanes * 5]u8 = undefined;
    var holes: [players_max][lanes * k]u8 = undefined;
    var dealt_places: [players_max * k]u16 = undefined; // player * k + card, in deal order
    var dealt: usize = 0;
    for (s.holes[0 .. s.players * k], 0..) |card, place| {
        if (card == unknown) {
            dealt_places[dealt] = @intCast(place);
            dealt += 1;
        } else for (0..lanes) |lane| {
            holes[place / k][lane * k + place % k] = card;
        }
    }
    assert(dealt <= s.players * k);
    for (0..lanes) |lane| @memcpy(boards[lane * 5 ..][0..s.board.len], s.board);
    const cards_left: u32 = @popCount(s.deck);
    for (0..blocks) |block| {
        const block_first = first + block * lanes;
        for (0..lanes) |lane| {
            const game = block_first + lane;
            var deck = s.deck;
            var left = cards_left;
            var draw: u64 = 0;
            for (dealt_places[0..dealt]) |place| {
                holes[place / k][lane * k + place % k] = draw_card(key, game, &draw, &deck, &left);
            }
            for (s.board.len..5) |i| boards[lane * 5 + i] = draw_card(key, game, &draw, &deck, &left);
        }
        var ranks: [players_max][lanes]u16 = undefined;
        var lows: [players_max][lanes]u16 = undefined;
        for (0..s.players) |p| {
            const bad = if (s.hilo)
                omaha.rank_lanes_hilo(5, k, &boards, &holes[p], &ranks[p], &lows[p])
            else
                omaha.rank_lanes(5, k, &boards, &holes[p], &ranks[p]);
            assert(!bad); // every card was dealt from the deck
        }
        for (0..lanes) |lane| {
            var game_ranks: [players_max]u16 = undefined;
            var game_lows: [players_max]u16 = undefined;
            for (0..s.players) |p| game_ranks[p] = ranks[p][lane];
            if (!s.hilo) {
                share(game_ranks[0..s.players], out);
                continue;
            }
            for (0..s.players) |p| game_lows[p] = lows[p][lane];
            share_hilo(game_ranks[0..s.players], game_lows[0..s.players], out);
        }
    }
}

inline fn draw_card(key: u64, game: u64, draw: *u64, deck: *u64, left: *u32) u8 {
    assert(left.* > 0);
    assert(@popCount(deck.*) == left.*);
    const card = bits.nth_set_bit(
        deck.*,
        random.below(random.draw_word(key, game, draw.*), left.*),
    );
    deck.* &= ~(@as(u64, 1) << card);
    left.* -= 1;
    draw.* += 1;
    return card;
}

/// Ranks every player's hand (its value pairs numbered in `pairs`) on the full board
/// `cards` and shares the pot.
inline fn settle(
    comptime k: u32,
    s: Spot,
    pairs: *const [players_max]omaha.Pairs(k),
    cards: *const [5]u8,
    out: []spot.Sums,
) void {
    assert(s.players <= players_max);
    const board: omaha.Board(5) = .init(cards);
    var ranks: [players_max]u16 = undefined;
    for (0..s.players) |p| {
        ranks[p] = board.rank_pairs(k, &pairs[p], s.holes[p * k ..][0..k]);
    }
    if (!s.hilo) return share(ranks[0..s.players], out);
    var lows: [players_max]u16 = undefined;
    const board_low = low.mask_of(cards);
    for (0..s.players) |p| lows[p] = low.of_masks(low.mask_of(s.holes[p * k ..][0..k]), board_low);
    share_hilo(ranks[0..s.players], lows[0..s.players], out);
}

/// Adds one hi-lo game to `out` (`hilo_sums` a player: pot, high, low): the high half to the
/// best of `ranks`, the low half to the best of `lows` when any player has a low, else the
/// whole pot to the high.
inline fn share_hilo(ranks: []const u16, lows: []const u16, out: []spot.Sums) void {
    assert(ranks.len == lows.len);
    assert(out.len == ranks.len * hilo_sums);
    const best_high = std.mem.max(u16, ranks);
    const best_low = std.mem.max(u16, lows);
    var high_winners: u32 = 0;
    var low_winners: u32 = 0;
    for (ranks, lows) |r, l| {
        high_winners += @intFromBool(r == best_high);
        low_winners += @intFromBool(l == best_low);
    }
    const split = best_low != low.no_low;
    // A half pot shared by n: the whole pot's share for 2n winners.
    const high_units = if (split) spot.shares[high_winners] / low.pot_parts else spot.shares[high_winners];
    const low_units = if (split) spot.shares[low_winners] / low.pot_parts else 0;
    for (ranks, lows, 0..) |r, l, p| {
        const sums = out[p * hilo_sums ..][0..hilo_sums];
        const high = if (r == best_high) high_units else 0;
        const low_share = if (split and l == best_low) low_units else 0;
        add_game(&sums[1], high, r == best_high and high_winners == 1, r == best_high and high_winners > 1);
        add_game(&sums[2], low_share, split and l == best_low and low_winners == 1, split and l == best_low and low_winners > 1);
        const pot = high + low_share;
        const scoop = pot == equity.pot_units;
        add_game(&sums[0], pot, scoop, pot > 0 and !scoop);
    }
}

inline fn add_game(sums: *spot.Sums, units: f64, won: bool, tied: bool) void {
    sums.games += 1;
    sums.w2 += 1;
    sums.wins += @floatFromInt(@intFromBool(won));
    sums.ties += @floatFromInt(@intFromBool(tied));
    sums.shares += units;
    sums.w2_shares += units;
    sums.w2_shares2 += units * units;
}

/// Adds one game to `out`: the pot shared by the best of `ranks`, a rank a player.
inline fn share(ranks: []const u16, out: []spot.Sums) void {
    const best = std.mem.max(u16, ranks);
    var winners: u32 = 0;
    for (ranks) |r| winners += @intFromBool(r == best);
    assert(winners >= 1);
    assert(winners <= ranks.len);
    assert(out.len == ranks.len);
    const share_units = spot.shares[winners];
    for (ranks, out) |r, *sums| {
        sums.games += 1;
        sums.w2 += 1;
        if (r != best) continue;
        sums.wins += @floatFromInt(@intFromBool(winners == 1));
        sums.ties += @floatFromInt(@intFromBool(winners > 1));
        sums.shares += share_units;
        sums.w2_shares += share_units;
        sums.w2_shares2 += share_units * share_units;
    }
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// on a checked spot, exact (part, parts → runouts settled) or Monte Carlo (key, first game,
/// games), adding to `sums_per_player` Sums per player (one; hi-lo's three).
pub const kernels = struct {
    pub fn omaha_exact(s: *const Spot, part: u32, parts: u32, out: [*]spot.Sums) callconv(.c) u64 {
        return exact(s.*, part, parts, out[0 .. s.players * s.sums_per_player()]);
    }

    pub fn omaha_sample(s: *const Spot, key: u64, first_game: u64, games: u64, out: [*]spot.Sums) callconv(.c) void {
        sample(s.*, key, first_game, games, out[0 .. s.players * s.sums_per_player()]);
    }
};

test "omaha equity: exact equals every runout ranked by the plain rules, in any split" {
    // AhAsKhKs vs 9c8c7d6d on 2h3cTs: every turn and river (C(41, 2)), each hand's best of 60 fives.
    const holes = [_]u8{ 38, 12, 37, 11, 20, 19, 44, 43 };
    const board = [_]u8{ 26, 14, 8 };
    var deck = encoding.full_deck;
    for (holes ++ board) |c| deck &= ~(@as(u64, 1) << @intCast(c));
    const s: Spot = .{ .holes = &holes, .hole_cards = 4, .players = 2, .board = &board, .deck = deck };
    var whole: [2]spot.Sums = @splat(.{});
    try std.testing.expectEqual(@as(u64, 820), exact(s, 0, 1, &whole)); // C(41, 2)
    var split: [2]spot.Sums = @splat(.{});
    var games: u64 = 0;
    for (0..3) |part| games += exact(s, @intCast(part), 3, &split);
    try std.testing.expectEqual(@as(u64, 820), games);
    try std.testing.expectEqual(whole, split);

    var wins: [2]f64 = @splat(0);
    var ties: f64 = 0;
    var rest = deck;
    while (rest != 0) : (rest &= rest - 1) {
        var later = rest & (rest - 1);
        while (later != 0) : (later &= later - 1) {
            const full = [5]u8{ 26, 14, 8, @intCast(@ctz(rest)), @intCast(@ctz(later)) };
            var out: [2]u16 = undefined;
            try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), omaha.rank_rows(&full, 5, &holes, 4, 2, &out));
            if (out[0] > out[1]) wins[0] += 1 else if (out[1] > out[0]) wins[1] += 1 else ties += 1;
        }
    }
    try std.testing.expectEqual(wins[0], whole[0].wins);
    try std.testing.expectEqual(wins[1], whole[1].wins);
    try std.testing.expectEqual(ties, whole[0].ties);
    try std.testing.expectEqual(@as(f64, 820), whole[0].games);
}

test "omaha equity: sampled games do not depend on the split, and land near exact" {
    const holes = [_]u8{ 38, 12, 37, 11, unknown, unknown, unknown, unknown };
    var deck = encoding.full_deck;
    for (holes[0..4]) |c| deck &= ~(@as(u64, 1) << @intCast(c));
    const s: Spot = .{ .holes = &holes, .hole_cards = 4, .players = 2, .board = &.{}, .deck = deck };
    var whole: [2]spot.Sums = @splat(.{});
    sample(s, 11, 0, 20_000, &whole);
    var split: [2]spot.Sums = @splat(.{});
    sample(s, 11, 0, 7_000, &split);
    sample(s, 11, 7_000, 13_000, &split);
    try std.testing.expectEqual(whole, split);
    // AAKK double-suited against a random hand: about 73% (published figures 72-74%).
    const pot_share = whole[0].shares / equity.pot_units / whole[0].games;
    try std.testing.expect(pot_share > 0.68 and pot_share < 0.78);
}

test "omaha hi-lo equity: exact equals every runout split by the plain rules, in any split" {
    // A2 with a wheel draw against kings on 4h 5c Ts: every turn and river (C(41, 2)).
    const holes = [_]u8{ 38, 51, 26, 14, 50, 24, 32, 7 }; // Ah Ad 2h 3c, Kd Kc 8h 9s
    const board = [_]u8{ 28, 16, 8 }; // 4h 5c Ts
    var deck = encoding.full_deck;
    for (holes ++ board) |c| deck &= ~(@as(u64, 1) << @intCast(c));
    const s: Spot = .{ .holes = &holes, .hole_cards = 4, .players = 2, .board = &board, .deck = deck, .hilo = true };
    var whole: [2 * hilo_sums]spot.Sums = @splat(.{});
    try std.testing.expectEqual(@as(u64, 820), exact(s, 0, 1, &whole));
    var split: [2 * hilo_sums]spot.Sums = @splat(.{});
    var games: u64 = 0;
    for (0..3) |part| games += exact(s, @intCast(part), 3, &split);
    try std.testing.expectEqual(@as(u64, 820), games);
    try std.testing.expectEqual(whole, split);

    // The plain rules: each runout's highs and lows, the halves split by hand.
    var expected: [2][hilo_sums]f64 = @splat(@splat(0)); // pot, high, low units
    var scoops: [2]f64 = @splat(0);
    var rest = deck;
    while (rest != 0) : (rest &= rest - 1) {
        var later = rest & (rest - 1);
        while (later != 0) : (later &= later - 1) {
            const full = [5]u8{ 28, 16, 8, @intCast(@ctz(rest)), @intCast(@ctz(later)) };
            var highs: [2]u16 = undefined;
            var lows: [2]u16 = undefined;
            try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), omaha.rank_rows_hilo(&full, 5, &holes, 4, 2, &highs, &lows));
            for (0..2) |p| try std.testing.expectEqual(low.brute_force(holes[p * 4 ..][0..4], &full), lows[p]);
            const half: f64 = if (lows[0] == 0 and lows[1] == 0) equity.pot_units else equity.pot_units / 2;
            for (0..2) |p| {
                const high: f64 = if (highs[p] > highs[1 - p]) half else if (highs[p] == highs[1 - p]) half / 2 else 0;
                const low_units: f64 = if (lows[p] == 0 or lows[p] < lows[1 - p]) 0 else if (lows[p] == lows[1 - p]) half / 2 else half;
                expected[p][1] += high;
                expected[p][2] += low_units;
                expected[p][0] += high + low_units;
                if (high + low_units == equity.pot_units) scoops[p] += 1;
            }
        }
    }
    for (0..2) |p| {
        for (0..hilo_sums) |part| try std.testing.expectEqual(expected[p][part], whole[p * hilo_sums + part].shares);
        try std.testing.expectEqual(scoops[p], whole[p * hilo_sums].wins);
        try std.testing.expectEqual(@as(f64, 820), whole[p * hilo_sums].games);
    }
    // Every pot handed out whole, and the aces made a low somewhere.
    try std.testing.expectEqual(@as(f64, 820 * equity.pot_units), whole[0].shares + whole[hilo_sums].shares);
    try std.testing.expect(whole[2].shares > 0);
}

test "omaha hi-lo equity: sampled games do not depend on the split, and land near exact" {
    const holes = [_]u8{ 38, 51, 26, 14, 50, 24, 32, 7 };
    var deck = encoding.full_deck;
    for (holes) |c| deck &= ~(@as(u64, 1) << @intCast(c));
    const s: Spot = .{ .holes = &holes, .hole_cards = 4, .players = 2, .board = &.{}, .deck = deck, .hilo = true };
    var whole: [2 * hilo_sums]spot.Sums = @splat(.{});
    sample(s, 3, 0, 30_000, &whole);
    var split: [2 * hilo_sums]spot.Sums = @splat(.{});
    sample(s, 3, 0, 10_001, &split);
    sample(s, 3, 10_001, 19_999, &split);
    try std.testing.expectEqual(whole, split);
    var exact_sums: [2 * hilo_sums]spot.Sums = @splat(.{});
    const boards = exact(s, 0, 1, &exact_sums);
    for (0..hilo_sums) |part| {
        const sampled = whole[part].shares / equity.pot_units / whole[part].games;
        const counted = exact_sums[part].shares / equity.pot_units / @as(f64, @floatFromInt(boards));
        try std.testing.expectApproxEqAbs(counted, sampled, 0.015);
    }
}
