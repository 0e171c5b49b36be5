//! Equity: exact enumeration of every board completion for one deal of hole cards, or Monte
//! Carlo over known hands (`monte_carlo`) or ranges (`monte_carlo_ranges`, combos drawn by
//! weight). Exact equity over ranges runs `exact` once per deal of combos (pypoker/equity.py).
//!
//! Each player's hole cards are tallied once; each board is tallied once (exactly: by
//! copy-and-extend over the remaining cards; Monte Carlo: one PDEP draw per card) and copied
//! per player. A board's pot is shared among the players holding its best rank; shares are
//! counted in whole units of 1/2520 of a pot (2520 = lcm(1..10), so every split is exact).
const std = @import("std");
const eval = @import("eval.zig");
const deal = @import("deal.zig");
const assert = std.debug.assert;

pub const players_max = 10;
pub const board_cards_max = 5;
/// One pot, in share units: divisible by every player count from 1 to 10.
pub const pot_units = 2520;

comptime {
    for (1..players_max + 1) |players| assert(pot_units % players == 0);
}

/// Per player: boards won alone, boards split, pot share (units) and its square's sum.
pub const Tally = extern struct {
    wins: u64 = 0,
    ties: u64 = 0,
    share_units: u64 = 0,
    share_units_squared: u64 = 0,

    pub const c_name = "pp_tally";
};

pub const Table = struct {
    holes: []const eval.Accumulator,
    tallies: []Tally,
    games: u64 = 0,

    /// Ranks every player on one complete board and shares its pot.
    inline fn settle(table: *Table, comptime players: usize, board: eval.Accumulator) void {
        var ranks: [players]u16 = undefined;
        inline for (&ranks, 0..) |*rank, i| {
            var hand = board;
            hand.merge(table.holes[i]);
            rank.* = eval.rank_accumulator(hand);
        }
        table.share(players, &ranks);
    }

    /// Shares one pot among the best ranks. Branch-free: who wins a random board is a coin
    /// toss to the branch predictor, and a miss a board would cost more than all the rest.
    inline fn share(table: *Table, comptime players: usize, ranks: *const [players]u16) void {
        var best: u16 = 0;
        inline for (ranks) |rank| best = @max(best, rank);
        var winners: u32 = 0;
        inline for (ranks) |rank| winners += @intFromBool(rank == best);
        const alone: u64 = @intFromBool(winners == 1);
        const units: u64 = shares[winners];
        inline for (ranks, 0..) |rank, i| {
            const tally = &table.tallies[i];
            const is_best: u64 = @intFromBool(rank == best);
            tally.wins += is_best & alone;
            tally.ties += is_best & (alone ^ 1);
            tally.share_units += is_best * units;
            tally.share_units_squared += is_best * units * units;
        }
        table.games += 1;
    }
};

/// A pot's share for each number of winners, in units.
const shares: [players_max + 1]u64 = table: {
    var table: [players_max + 1]u64 = @splat(0);
    for (1..players_max + 1) |winners| table[winners] = pot_units / winners;
    break :table table;
};

/// Every completion of `board` by `missing` cards from `deck`, first cards taken from the
/// deck's slots `first_slot`, `first_slot + stride`, … (threads take interleaved shares).
pub fn exact(table: *Table, board: eval.Accumulator, deck: u64, missing: u32, first_slot: u32, stride: u32) void {
    assert(missing <= board_cards_max and stride >= 1);
    // Value-major order (2s 2c 2h 2d 3s …): the last card's loop then meets the cards of one
    // value in a row, and those make the same fingerprint, so `extend_last` looks it up once.
    var cards: [eval.card_count]u8 = undefined;
    var n: u32 = 0;
    for (0..eval.value_count) |value| {
        for (0..eval.suit_count) |suit| {
            const card: u8 = @intCast(suit * eval.value_count + value);
            if (deck & (@as(u64, 1) << @intCast(card)) == 0) continue;
            cards[n] = card;
            n += 1;
        }
    }
    switch (table.holes.len) {
        inline 2...players_max => |players| {
            if (missing == 0) {
                if (first_slot == 0) table.settle(players, board);
                return;
            }
            switch (missing) {
                inline 1...board_cards_max => |depth| {
                    var slot = first_slot;
                    while (slot + depth <= n) : (slot += stride) {
                        var next = board;
                        next.add(cards[slot]);
                        extend(players, depth - 1, table, cards[0..n], slot + 1, next);
                    }
                },
                else => unreachable,
            }
        },
        else => unreachable,
    }
}

fn extend(comptime players: usize, comptime depth: u32, table: *Table, cards: []const u8, first: u32, board: eval.Accumulator) void {
    if (depth == 0) return table.settle(players, board);
    if (depth == 1) return extend_last(players, table, cards, first, board);
    var i = first;
    while (i + depth <= cards.len) : (i += 1) {
        var next = board;
        next.add(cards[i]);
        extend(players, depth - 1, table, cards, i + 1, next);
    }
}

/// The last board card, where all the time goes: each player's six cards are tallied once,
/// and a player none of whose suits holds four cannot make a flush with one more card, so
/// is ranked from the fingerprint alone.
fn extend_last(comptime players: usize, table: *Table, cards: []const u8, first: u32, board: eval.Accumulator) void {
    var six: [players]eval.Accumulator = undefined;
    var flush_possible: [players]bool = undefined;
    inline for (&six, &flush_possible, 0..) |*hand, *possible, i| {
        hand.* = board;
        hand.merge(table.holes[i]);
        possible.* = hand.flush_within_one();
    }
    var ranks: [players]u16 = undefined;
    var last_value: u32 = eval.value_count; // none yet
    for (cards[first..]) |card| {
        // Same value as the card before: every flush-free player's rank stands.
        const value = card % eval.value_count;
        const new_value = value != last_value;
        last_value = value;
        inline for (0..players) |i| {
            if (flush_possible[i]) {
                var hand = six[i];
                hand.add(card);
                ranks[i] = eval.rank_accumulator(hand);
            } else if (new_value) {
                const fingerprint: u32 = @truncate(six[i].key +% eval.card_keys[card]);
                ranks[i] = eval.rank_fingerprint(fingerprint);
            }
        }
        table.share(players, &ranks);
    }
}

/// Players' ranges for Monte Carlo: each player's combos (two-card sets) and the running
/// sums of their weights, player p's at `offsets[p] .. offsets[p + 1]`.
pub const Ranges = struct {
    combos: []const u64,
    cumulative_weights: []const f64,
    offsets: []const u32,
};

/// Draws per game before giving up on finding combos that share no card.
pub const attempts_max = 10_000;

/// Monte Carlo over ranges: each game draws one combo per player by weight, again and again
/// until no two share a card (so the deal is the ranges' joint distribution given that), then
/// completes the board from what is left. Returns false when some game found no such deal in
/// `attempts_max` tries: the ranges (almost) always collide.
pub fn monte_carlo_ranges(table: *Table, ranges: Ranges, board: eval.Accumulator, dead: u64, missing: u32, key: u64, first_game: u64, games: u64) bool {
    return switch (table.tallies.len) {
        inline 2...players_max => |players| monte_carlo_ranges_players(players, table, ranges, board, dead, missing, key, first_game, games),
        else => unreachable,
    };
}

fn monte_carlo_ranges_players(comptime players: usize, table: *Table, ranges: Ranges, board: eval.Accumulator, dead: u64, missing: u32, key: u64, first_game: u64, games: u64) bool {
    var holes: [players]eval.Accumulator = undefined;
    for (0..games) |g| {
        const game = first_game + g;
        var used: u64 = undefined;
        var attempt: u64 = 0;
        while (true) : (attempt += 1) {
            if (attempt == attempts_max) return false;
            used = board.mask | dead;
            var clash: u64 = 0;
            inline for (&holes, 0..) |*hole, p| {
                const set = draw_combo(ranges, p, deal.mix64(key ^ (game *% 0x9E3779B97F4A7C15) ^ (attempt << 8 | p)));
                clash |= used & set;
                used |= set;
                hole.* = .empty;
                hole.add(@intCast(@ctz(set)));
                hole.add(@intCast(63 - @clz(set)));
            }
            if (clash == 0) break;
        }
        const hand = complete_board(board, deal.full_deck & ~used, missing, key, game);
        var ranks: [players]u16 = undefined;
        inline for (&ranks, holes) |*rank, hole| {
            var full = hand;
            full.merge(hole);
            rank.* = eval.rank_accumulator(full);
        }
        table.share(players, &ranks);
    }
    return true;
}

/// The board of game `game`: `missing` cards drawn from `deck`, one draw each (the same
/// counter-based draws as `pp.deal`: row = game).
inline fn complete_board(board: eval.Accumulator, deck: u64, missing: u32, key: u64, game: u64) eval.Accumulator {
    const deck_size: u32 = @popCount(deck);
    var hand = board;
    var left = deck;
    for (0..missing) |j| {
        const n = deal.below(deal.draw_word(key, game, j), deck_size - @as(u32, @intCast(j)));
        const card = deal.nth_set_bit(left, n);
        left &= ~(@as(u64, 1) << card);
        hand.add(card);
    }
    return hand;
}

/// Player p's combo for a random word: the first whose running weight exceeds a uniform
/// draw in [0, total).
fn draw_combo(ranges: Ranges, p: usize, word: u64) u64 {
    const first = ranges.offsets[p];
    const last = ranges.offsets[p + 1];
    const sums = ranges.cumulative_weights[first..last];
    const target = @as(f64, @floatFromInt(word >> 11)) * (1.0 / 9007199254740992.0) * sums[sums.len - 1];
    var low: usize = 0;
    var high: usize = sums.len - 1;
    while (low < high) {
        const middle = (low + high) / 2;
        if (sums[middle] > target) high = middle else low = middle + 1;
    }
    return ranges.combos[first + low];
}

/// Games `first_game .. first_game + games` of the stream named by `key`: each completes
/// the board with `missing` cards drawn from `deck` (game g depends only on key and g).
pub fn monte_carlo(table: *Table, board: eval.Accumulator, deck: u64, missing: u32, key: u64, first_game: u64, games: u64) void {
    assert(missing <= board_cards_max and @popCount(deck) >= missing);
    switch (table.holes.len) {
        inline 2...players_max => |players| monte_carlo_players(players, table, board, deck, missing, key, first_game, games),
        else => unreachable,
    }
}

fn monte_carlo_players(comptime players: usize, table: *Table, board: eval.Accumulator, deck: u64, missing: u32, key: u64, first_game: u64, games: u64) void {
    for (0..games) |g| {
        table.settle(players, complete_board(board, deck, missing, key, first_game + g));
    }
}

test "exact: AcKd vs QhQs over all 1,712,304 boards" {
    const ace_clubs = 13 + 12;
    const king_diamonds = 39 + 11;
    const queen_hearts = 26 + 10;
    const queen_spades = 0 + 10;
    var holes: [2]eval.Accumulator = .{ .empty, .empty };
    holes[0].add(ace_clubs);
    holes[0].add(king_diamonds);
    holes[1].add(queen_hearts);
    holes[1].add(queen_spades);
    var tallies: [2]Tally = .{ .{}, .{} };
    var table: Table = .{ .holes = &holes, .tallies = &tallies };
    const deck = deal.full_deck & ~(holes[0].mask | holes[1].mask);
    exact(&table, .empty, deck, 5, 0, 1);
    try std.testing.expectEqual(@as(u64, 1_712_304), table.games);
    try std.testing.expectEqual(@as(u64, 730_541), tallies[0].wins);
    try std.testing.expectEqual(@as(u64, 975_909), tallies[1].wins);
    try std.testing.expectEqual(@as(u64, 5_854), tallies[0].ties);
}

test "monte_carlo: close to exact, and the same games whatever the split" {
    var holes: [2]eval.Accumulator = .{ .empty, .empty };
    holes[0].add(12);
    holes[0].add(25); // As Ac
    holes[1].add(11);
    holes[1].add(24); // Ks Kc
    const deck = deal.full_deck & ~(holes[0].mask | holes[1].mask);
    var whole: [2]Tally = .{ .{}, .{} };
    var table: Table = .{ .holes = &holes, .tallies = &whole };
    monte_carlo(&table, .empty, deck, 5, deal.seed_key(1), 0, 20_000);
    var split: [2]Tally = .{ .{}, .{} };
    var first: Table = .{ .holes = &holes, .tallies = &split };
    monte_carlo(&first, .empty, deck, 5, deal.seed_key(1), 0, 7_000);
    monte_carlo(&first, .empty, deck, 5, deal.seed_key(1), 7_000, 13_000);
    try std.testing.expectEqual(whole, split);
    const equity = @as(f64, @floatFromInt(whole[0].share_units)) / (pot_units * 20_000.0);
    try std.testing.expect(@abs(equity - 0.82) < 0.02);
}
