//! Monte Carlo over ranges and random players: each game deals every player a combo from the
//! joint distribution "each player's combo by its weight, given that no card is shared",
//! then completes the board, ranks every player and shares the pot.
//!
//! How a game is dealt (sequential importance sampling):
//! - Fixed players hold their combo; the other players' ranges are already without its cards.
//! - Range players draw in turn. The first draws by weight (an alias table, O(1)). Each next
//!   player k draws by weight among the combos meeting no card drawn before it, so the deal
//!   comes with probability q = Π_k w_k(c_k) / W_k(U_k), where W_k(U) is k's weight left
//!   once the cards U are out (`spot.weight_without`, O(cards) by inclusion-exclusion).
//!   The target is π ∝ Π_k w_k(c_k) over deals sharing no card, so the game carries the
//!   importance weight π/q ∝ Π_k W_k(U_k) / W_k: equities are weighted means Σ w·s / Σ w
//!   (self-normalised), their standard errors sqrt(Σ w²(s - mean)²) / Σ w. With one range
//!   player every weight is 1 and this is plain Monte Carlo.
//!   A draw among the combos left is an alias draw redrawn while it meets U (kept as long
//!   as W_k(U) / W_k ≥ 1/4, so at most 4 draws expected), else a walk over the support.
//! - Random players hold every live combo at weight 1. Whatever the range players hold, the
//!   deck left has the same size, so the number of ways to deal the random players is the
//!   same for every deal of the others: they add nothing to the weight, and are dealt two
//!   cards each from the deck left, as the board is after them. Never drawn and rejected.
//!
//! Game g uses only the random stream of (seed, g), so any split over calls and threads
//! plays the same games.
const std = @import("std");
const eval = @import("eval.zig");
const deal = @import("deal.zig");
const combos = @import("combos.zig");
const spot_zig = @import("spot.zig");
const Spot = spot_zig.Spot;
const Sums = spot_zig.Sums;

/// Below this share of its weight left, a player's combo is found by a walk, not redrawn.
const redraw_share_min = 0.25;
/// A remaining weight this small against the total is rounding, not a combo left.
const weight_left_min = 1e-12;

/// Plays games `first_game .. first_game + games` of the stream `key`, adding to `out`
/// (`spot.players * spot_zig.slots` Sums, player-major, indexed by the combo held).
pub fn sample(spot: *const Spot, key: u64, first_game: u64, games: u64, out: []Sums) void {
    std.debug.assert(out.len >= spot.players * spot_zig.slots);
    switch (spot.players) {
        inline 2...spot_zig.players_max => |players| {
            const run: Run(players) = .init(spot);
            for (0..games) |g| run.game(key, first_game + g, out);
        },
        else => unreachable,
    }
}

/// A per-game random stream: SplitMix64 from (key, game).
const Stream = struct {
    state: u64,

    fn init(key: u64, game: u64) Stream {
        return .{ .state = deal.draw_word(key, game, 0) };
    }

    inline fn next(stream: *Stream) u64 {
        stream.state +%= 0x9e3779b97f4a7c15; // SplitMix64's increment: 2^64 / golden ratio
        return deal.mix64(stream.state);
    }

    /// Uniform in [0, 1): the top 53 bits of a word, scaled by 2^-53.
    inline fn fraction(stream: *Stream) f64 {
        return @as(f64, @floatFromInt(stream.next() >> 11)) * 0x1.0p-53;
    }
};

fn Run(comptime players: usize) type {
    return struct {
        const Self = @This();

        spot: *const Spot,
        /// Player numbers by role, in seat order.
        drawn: [players]u8 = undefined,
        drawn_len: usize = 0,
        random: [players]u8 = undefined,
        random_len: usize = 0,
        /// The fixed players' combos (none where not fixed).
        fixed_combo: [players]u16 = @splat(combos.none),
        board: eval.Accumulator = .empty,
        missing: u32,

        fn init(spot: *const Spot) Self {
            var run: Self = .{ .spot = spot, .missing = spot_zig.board_cards_max - spot.board_cards };
            for (0..players) |p| {
                if (spot.is_fixed(p)) {
                    run.fixed_combo[p] = spot.support[p][0];
                } else if (spot.is_random(p)) {
                    run.random[run.random_len] = @intCast(p);
                    run.random_len += 1;
                } else {
                    run.drawn[run.drawn_len] = @intCast(p);
                    run.drawn_len += 1;
                }
            }
            var cards = spot.board;
            while (cards != 0) : (cards &= cards - 1) run.board.add(@intCast(@ctz(cards)));
            return run;
        }

        fn game(run: *const Self, key: u64, number: u64, out: []Sums) void {
            const spot = run.spot;
            var stream: Stream = .init(key, number);
            var held = run.fixed_combo;
            var used = spot.out_cards();
            var drawn_cards: u64 = 0;
            var weight: f64 = 1;
            for (run.drawn[0..run.drawn_len], 0..) |p, i| {
                const combo = if (i == 0) alias_draw(spot, p, &stream) else choice: {
                    const left = spot.weight_without(p, drawn_cards);
                    if (left <= spot.totals[p] * weight_left_min) return; // no deal: weight 0
                    weight *= left / spot.totals[p];
                    break :choice draw_without(spot, p, used, left, &stream);
                };
                if (combo == combos.none) return; // rounding left a weight and no combo

                held[p] = combo;
                used |= combos.set(combo);
                drawn_cards |= combos.set(combo);
            }
            var deck = deal.full_deck & ~used;
            var deck_size: u32 = @popCount(deck);
            var hands: [players]eval.Accumulator = undefined;
            for (run.random[0..run.random_len]) |p| {
                const a = take_card(&deck, &deck_size, &stream);
                const b = take_card(&deck, &deck_size, &stream);
                held[p] = combos.index[a][b];
            }
            var board = run.board;
            for (0..run.missing) |_| board.add(take_card(&deck, &deck_size, &stream));
            var ranks: [players]u16 = undefined;
            inline for (&ranks, &hands, held) |*rank, *hand, combo| {
                hand.* = board;
                hand.merge(combos.accumulator(combo));
                rank.* = eval.rank_accumulator(hand.*);
            }
            settle(&ranks, &held, weight, out);
        }

        inline fn settle(ranks: *const [players]u16, held: *const [players]u16, weight: f64, out: []Sums) void {
            var best: u16 = 0;
            inline for (ranks) |rank| best = @max(best, rank);
            var winners: u32 = 0;
            inline for (ranks) |rank| winners += @intFromBool(rank == best);
            const alone: f64 = @floatFromInt(@intFromBool(winners == 1));
            const w2 = weight * weight;
            inline for (ranks, held, 0..) |rank, combo, p| {
                const is_best: f64 = @floatFromInt(@intFromBool(rank == best));
                const units = is_best * spot_zig.shares[winners];
                const sums = &out[p * spot_zig.slots + combo];
                sums.games += weight;
                sums.wins += weight * is_best * alone;
                sums.ties += weight * is_best * (1 - alone);
                sums.shares += weight * units;
                sums.w2 += w2;
                sums.w2_shares += w2 * units;
                sums.w2_shares2 += w2 * units * units;
            }
        }
    };
}

inline fn take_card(deck: *u64, deck_size: *u32, stream: *Stream) u6 {
    const card = deal.nth_set_bit(deck.*, deal.below(stream.next(), deck_size.*));
    deck.* &= ~(@as(u64, 1) << card);
    deck_size.* -= 1;
    return card;
}

/// A combo of player p by weight (Walker's alias method).
inline fn alias_draw(spot: *const Spot, p: usize, stream: *Stream) u16 {
    const i = deal.below(stream.next(), spot.support_len[p]);
    const kept = stream.fraction() < spot.alias_keep[p][i];
    return spot.support[p][if (kept) i else spot.alias_other[p][i]];
}

/// A combo of player p by weight among those meeting no card of `used`, `left` their weight.
fn draw_without(spot: *const Spot, p: usize, used: u64, left: f64, stream: *Stream) u16 {
    if (left >= spot.totals[p] * redraw_share_min) {
        // Expected draws: totals / left ≤ 4; a walk after 64 misses keeps the worst case short.
        for (0..64) |_| {
            const combo = alias_draw(spot, p, stream);
            if (combos.set(combo) & used == 0) return combo;
        }
    }
    const target = stream.fraction() * left;
    var sum: f64 = 0;
    var last: u16 = combos.none;
    for (spot.support[p][0..spot.support_len[p]]) |combo| {
        if (combos.set(combo) & used != 0) continue;
        sum += spot.weights[p][combo];
        last = combo;
        if (sum > target) return combo;
    }
    return last; // rounding: the target fell past the last combo's running sum
}
