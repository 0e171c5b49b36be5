//! Range players of equal weights drawn by rejection in batches of tries (monte_carlo.zig's
//! `draw_rejected` where `Run.uniform_drawn`): every try of a batch draws each range player's
//! combo on its own, and every try whose combos share no card is kept, in order, as a deal
//! of its own. Each kept try is an independent exact sample of the target (each player's
//! combo uniform in its range, given that no card is shared), so a batch fills as many games
//! as it keeps: no try is drawn for a game and dropped when the game is dealt, and there is
//! no branch a game on whether its try was kept.
//!
//! The tries come from a stream of their own a chunk of `chunk_games` games (the words of
//! `random.draw_word(key, chunk, chunk_draw)` on): game g holds deal g mod `chunk_games` of
//! its chunk's kept tries, so a game's deal depends on (key, g) alone, whatever the split of
//! the games over calls and threads (a call that starts inside a chunk draws the chunk's
//! deals before its first game again, and drops them).
//!
//! Where few tries are kept (monte_carlo.zig's `grouped_games_a_deal`: six players on
//! 22+,A2+,K2+ keep 1 try in 9.6, a kept deal costing ~36 ns to a game's ~43 when K was chosen), a kept try is
//! the deal of `games_a_deal` games in a row: game g holds kept try (g mod `chunk_games`) /
//! `games_a_deal`. A deal's equity varies little between deals against the board's variance
//! within one (Vb/Vw ≈ 0.10 there), so sharing it costs less standard error than the draws it
//! saves; monte_carlo.zig counts such a group as one weighted game in the standard error.
//!
//! A draw is 16 bits of a word (four a word): its product with the range's size gives the
//! entry (its high 16 bits) and, below the floor 2^16 mod size in its low 16 bits, rejects
//! the try (Lemire's method): the entries kept are exactly uniform, and the rejection of a
//! draw joins the rejection of the try, so it costs no branch and at most size/2^16 of the
//! tries (0.27% a player for 430 combos).
const std = @import("std");
const assert = std.debug.assert;
const random = @import("../cards/random.zig");
const combos = @import("../cards/combos.zig");
const deck_lanes = @import("../cards/deck_lanes.zig");
const encoding = @import("../cards/encoding.zig");
const spot_zig = @import("spot.zig");
const Spot = spot_zig.Spot;

/// Games that share a stream of tries. A call that starts inside a chunk redraws the
/// chunk's deals before its first game (at most this many; pp.equity's calls start at
/// multiples of it).
pub const chunk_games = 1 << 12;
/// The draw of a chunk's row (`random.draw_word`) its stream starts from: games' own streams
/// start from draw 0 of their rows.
const chunk_draw = 1;
/// Tries a batch: their kept bits one word.
const batch_tries = 64;
const draw_bits = 16;
const draws_per_word = 64 / draw_bits;

comptime {
    // A range's size times a draw fits a word's half: sizes are at most 1,326 (11 bits).
    assert(combos.count < 1 << (32 - draw_bits));
    assert(chunk_games % batch_tries == 0);
}

/// The kept tries of a run's range players (`players` seats), served a game at a time.
pub fn Pool(comptime players: usize) type {
    return struct {
        const Self = @This();
        const words_a_try = (players + draws_per_word - 1) / draws_per_word;
        const Lanes = @Vector(batch_tries, u64);

        /// Each draw's card sets by entry, then `rejected`: draw d's for range player
        /// `drawn[d]`, and past the range players one entry of no card (size 1, never
        /// rejected).
        sets: [players][combos.count + 1]u64,
        /// Each draw's combos by entry (the spot's support of its range player), so a kept
        /// try's combos are one load each.
        combo_of: [players][combos.count + 1]u16,
        /// By word of a try: the sizes of its draws' ranges, each 16-bit lane's (lane 4t + j
        /// try t's draw j of the word), and their floors (2^16 mod size: a draw whose
        /// product's low 16 bits are below it is rejected).
        sizes: [words_a_try]Draws,
        floors: [words_a_try]Draws,
        drawn: [players]u8,
        drawn_len: usize,
        out: u64,
        spot: *const Spot,
        /// The chunk's stream: its first word's state, and the tries drawn from it so far.
        state: u64 = 0,
        tries: u64 = 0,
        /// Games a kept try is dealt to, as a power of two: `games_a_deal` = 1 << this.
        deal_shift: u6 = 0,
        /// The deal (game / `games_a_deal`) the next kept try goes to (none yet: maxInt).
        next_deal: u64 = std.math.maxInt(u64),
        /// The deal served last, and its place in `kept` (repeated for its group's games).
        last_deal: u64 = std.math.maxInt(u64),
        last: usize = 0,
        /// The last batch's kept tries not yet served: the range players' combos by draw,
        /// and the cards out with them.
        kept: [batch_tries][players]u16 = undefined,
        /// The same tries' hole cards by draw, as a block's row of holes takes them (two
        /// bytes a player, `combos.hole_word`), found once a kept try where each of its
        /// games found them (`holes_of`).
        kept_holes: [batch_tries][2 * players]u8 = undefined,
        used: [batch_tries]u64 = undefined,
        /// The same tries' cards as the avx2 level's deal takes them out of the deck
        /// (`keeps_places`): byte m the m-th lowest card's count of places left below it
        /// (`deck_lanes.places_word`), found once a kept try where each of its games' lanes
        /// found its cards by a trailing-zero count (`deck_lanes.DeckLanesOf.remove_rows32`).
        kept_places: if (keeps_places) [batch_tries][16]u8 else void = undefined,
        kept_len: usize = 0,
        served: usize = 0,

        /// Whether kept tries carry their cards' places (`kept_places`): on the avx2 level,
        /// where 32 lanes deal by place, for up to eight range players (16 cards).
        pub const keeps_places = deck_lanes.available32 and players <= 8;

        /// A rejected draw's entry: its set holds every bit, so the try's cards are too many.
        const rejected = combos.count;
        /// A batch's words as their draws (16-bit lanes): lane 4t + j try t's word's draw j
        /// (little-endian). Products of 16-bit lanes, high and low halves (`vpmulhuw`,
        /// `vpmullw`), where 32-bit lanes took twice the vectors and a shift and mask a draw.
        const Draws = @Vector(draws_per_word * batch_tries, u16);
        /// Each try's entries by word, as `Draws` holds its draws.
        const Entries = [words_a_try][draws_per_word * batch_tries]u16;
        const offsets = std.simd.iota(u64, batch_tries) *% @as(Lanes, @splat(words_a_try *% random.golden_gamma));

        /// The pool of `spot`'s range players `drawn`, each kept try dealt to
        /// `games_a_deal` games in a row (a power of two dividing `chunk_games`).
        pub fn init(pool: *Self, spot: *const Spot, drawn: []const u8, games_a_deal: u64) void {
            assert(drawn.len >= 2);
            assert(drawn.len <= players);
            assert(std.math.isPowerOfTwo(games_a_deal));
            assert(chunk_games % games_a_deal == 0);
            pool.* = .{ .sets = undefined, .combo_of = @splat(@splat(0)), .sizes = undefined, .floors = undefined, .drawn = @splat(0), .drawn_len = drawn.len, .out = spot.out_cards(), .spot = spot, .deal_shift = @intCast(@ctz(games_a_deal)) };
            var sizes: [words_a_try * draws_per_word]u32 = @splat(1);
            for (0..players) |d| {
                pool.sets[d][0] = 0;
                pool.sets[d][rejected] = ~@as(u64, 0);
            }
            for (drawn, 0..) |p, d| {
                assert(spot.uniform_weights[p] != 0);
                const size = spot.support_len[p];
                assert(size > 0);
                pool.drawn[d] = p;
                sizes[d] = size;
                for (spot.support[p][0..size], pool.sets[d][0..size]) |combo, *set| set.* = combos.set(combo);
                @memcpy(pool.combo_of[d][0..size], spot.support[p][0..size]);
            }
            for (0..words_a_try) |k| {
                var lane_sizes: [draws_per_word * batch_tries]u16 = undefined;
                var lane_floors: [draws_per_word * batch_tries]u16 = undefined;
                for (&lane_sizes, &lane_floors, 0..) |*size, *floor, lane| {
                    size.* = @intCast(sizes[k * draws_per_word + lane % draws_per_word]);
                    floor.* = @intCast((1 << draw_bits) % sizes[k * draws_per_word + lane % draws_per_word]);
                }
                pool.sizes[k] = lane_sizes;
                pool.floors[k] = lane_floors;
            }
        }

        /// Game `game`'s range players' combos into `held` (by seat), and its cards out:
        /// kept try (`game` mod `chunk_games`) / `games_a_deal` of its chunk's.
        pub fn take(pool: *Self, key: u64, game: u64, held: *[players]u16) u64 {
            const j = pool.serve(key, game);
            if (pool.drawn_len == players) {
                // Every seat drawn, in seat order: the row whole, where a loop of the draws'
                // seats stored a combo at a time (a fifth of the deal's samples, six ranges).
                held.* = pool.kept[j];
            } else for (pool.drawn[0..pool.drawn_len], pool.kept[j][0..pool.drawn_len]) |p, combo| held[p] = combo;
            assert(@popCount(pool.used[j]) == @popCount(pool.out) + 2 * pool.drawn_len);
            return pool.used[j];
        }

        /// The hole cards of the try `take` served last, by draw: a game's row of holes
        /// where every seat is drawn (`drawn_len == players`).
        pub fn holes_of_last(pool: *const Self) *const [2 * players]u8 {
            assert(pool.drawn_len == players);
            assert(pool.kept_len > 0);
            return &pool.kept_holes[pool.last];
        }

        /// The places of the try `take` served last (`keeps_places`).
        pub fn places_of_last(pool: *const Self) *const [16]u8 {
            comptime assert(keeps_places);
            assert(pool.kept_len > 0);
            return &pool.kept_places[pool.last];
        }

        /// The place in `kept` of game `game`'s try.
        fn serve(pool: *Self, key: u64, game: u64) usize {
            const deal = game >> pool.deal_shift;
            if (deal != pool.last_deal) {
                const chunk_deals = @as(u64, chunk_games) >> pool.deal_shift;
                if (deal != pool.next_deal or deal % chunk_deals == 0) {
                    pool.start(key, deal / chunk_deals, chunk_deals);
                    while (pool.next_deal < deal) _ = pool.next();
                }
                assert(pool.next_deal == deal);
                pool.last = pool.next();
                pool.last_deal = deal;
            }
            assert(pool.last < pool.kept_len);
            return pool.last;
        }

        /// The next kept try's place in `kept`, for deal `next_deal` (then the one after).
        fn next(pool: *Self) usize {
            while (pool.served == pool.kept_len) pool.batch();
            pool.served += 1;
            pool.next_deal += 1;
            return pool.served - 1;
        }

        fn start(pool: *Self, key: u64, chunk: u64, chunk_deals: u64) void {
            pool.state = random.draw_word(key, chunk, chunk_draw);
            pool.tries = 0;
            pool.next_deal = chunk * chunk_deals;
            pool.last_deal = std.math.maxInt(u64);
            pool.kept_len = 0;
            pool.served = 0;
        }

        /// Draws the next `batch_tries` tries of the chunk, keeping those whose draws were
        /// all accepted and whose cards meet neither each other nor the cards out. In two
        /// stages where more than one word's draws are range players': every try's first
        /// word (draws 0-3) first, then the rest of the try only for those whose first four
        /// combos fit (42% of the six ranges 22+,A2+,K2+'s, where 10% of the whole tries
        /// fit). A try is kept where all its combos fit, so stopping a try at its first
        /// clash keeps the same tries as drawing it whole: the kept deals stay exact, for
        /// less than three quarters of the words and loads.
        fn batch(pool: *Self) void {
            assert(pool.served == pool.kept_len);
            // Try t's word k: counter t * words_a_try + k + 1 of the chunk's stream, where
            // the first stage's survivor s takes the counters of try s for its words past
            // the first (every counter still drawn once).
            var entries: Entries = undefined;
            pool.draw_entries(0, 0, &entries);
            // Every try written, the count moved on by those kept: no branch a try. A try
            // shares no card where its union holds two a range player (a rejected draw's set
            // holds all 64 bits: too many).
            const first_len: usize = @min(pool.drawn_len, draws_per_word);
            var first_used: [batch_tries]u64 = undefined;
            var first_try: [batch_tries]u8 = undefined;
            var survived: usize = 0;
            for (0..batch_tries) |t| {
                var used = pool.out;
                inline for (0..@min(players, draws_per_word)) |d| used |= pool.sets[d][entries[0][draws_per_word * t + d]];
                first_try[survived] = @intCast(t);
                first_used[survived] = used;
                survived += @intFromBool(@popCount(used) == @popCount(pool.out) + 2 * first_len);
            }
            var order: [batch_tries]u8 = undefined;
            var kept: usize = 0;
            if (pool.drawn_len <= draws_per_word) {
                // Every range player drawn from the first word: the survivors are kept.
                @memcpy(pool.used[0..survived], first_used[0..survived]);
                for (order[0..survived], 0..) |*o, s| o.* = @intCast(s);
                kept = survived;
            } else {
                kept = pool.second_stage(&entries, first_used[0..survived], &order);
            }
            pool.tries += batch_tries;
            for (order[0..kept], pool.kept[0..kept]) |s, *row| {
                const t = first_try[s];
                inline for (0..players) |d| {
                    const lane = draws_per_word * @as(usize, if (d < draws_per_word) t else s) + d % draws_per_word;
                    if (d < pool.drawn_len) row[d] = pool.combo_of[d][entries[d / draws_per_word][lane]];
                }
            }
            // Only where every seat is drawn (`holes_of_last`): else a row's last draws are unset.
            if (pool.drawn_len == players) for (pool.kept[0..kept], pool.kept_holes[0..kept]) |*row, *holes| {
                inline for (0..players) |d| std.mem.writeInt(u16, holes[2 * d ..][0..2], combos.hole_word(row[d]), .little);
            };
            if (keeps_places) pool.find_places(kept);
            pool.kept_len = kept;
            pool.served = 0;
        }

        /// `kept_places` of the first `kept` kept tries: each card's places left below it
        /// in the deck without the cards out, less the try's cards below it.
        fn find_places(pool: *Self, kept: usize) void {
            assert(kept <= batch_tries);
            const deck = encoding.full_deck & ~pool.out;
            for (pool.used[0..kept], pool.kept_places[0..kept]) |used, *places| {
                const taken = used & ~pool.out;
                assert(@popCount(taken) == 2 * pool.drawn_len);
                places.* = @bitCast(deck_lanes.places_word(u128, deck, taken));
            }
        }

        /// The second stage of `batch`: the draws past the first word of the survivors
        /// `first_used` (their cards so far), in groups of `group` survivors; each kept
        /// survivor's cards into `used` and its number into `order`. Returns the count kept.
        fn second_stage(
            pool: *Self,
            entries: *Entries,
            first_used: []const u64,
            order: *[batch_tries]u8,
        ) usize {
            if (comptime players <= draws_per_word) unreachable;
            assert(pool.drawn_len > draws_per_word);
            assert(first_used.len <= batch_tries);
            var g: usize = 0;
            while (g < first_used.len) : (g += group) {
                inline for (1..words_a_try) |k| pool.draw_entries(k, g, entries);
            }
            const cards_kept = @popCount(pool.out) + 2 * pool.drawn_len;
            var kept: usize = 0;
            for (first_used, 0..) |first, s| {
                var used = first;
                inline for (draws_per_word..players) |d| {
                    used |= pool.sets[d][entries[d / draws_per_word][draws_per_word * s + d % draws_per_word]];
                }
                order[kept] = @intCast(s);
                pool.used[kept] = used;
                kept += @intFromBool(@popCount(used) == cards_kept);
            }
            assert(kept <= first_used.len);
            return kept;
        }

        /// Survivors whose words past the first are drawn at once.
        const group = 16;
        const GroupLanes = @Vector(group, u64);
        const group_offsets = std.simd.iota(u64, group) *% @as(GroupLanes, @splat(words_a_try *% random.golden_gamma));

        /// Word `k` of tries (or survivors) `first .. first + group` (all 64 where k is 0)
        /// mixed, and its draws' entries into `entries[k]` (`rejected` where Lemire's
        /// method rejects the draw).
        inline fn draw_entries(pool: *const Self, comptime k: usize, first: usize, entries: *Entries) void {
            const n = if (k == 0) batch_tries else group;
            assert(first + n <= batch_tries);
            const V = @Vector(n, u64);
            const D = @Vector(draws_per_word * n, u16);
            const Wide = @Vector(draws_per_word * n, u32);
            const base = pool.state +% (pool.tries *% words_a_try +% k +% 1) *% random.golden_gamma;
            const first_word = base +% @as(u64, first) *% words_a_try *% random.golden_gamma;
            const offs: V = if (k == 0) offsets else group_offsets;
            const draws: D = @bitCast(random.mix64_lanes(n, @as(V, @splat(first_word)) +% offs));
            const sizes_all: [draws_per_word * batch_tries]u16 = pool.sizes[k];
            const floors_all: [draws_per_word * batch_tries]u16 = pool.floors[k];
            const sizes: D = sizes_all[0 .. draws_per_word * n].*;
            const floors: D = floors_all[0 .. draws_per_word * n].*;
            const high: D = @truncate((@as(Wide, draws) * @as(Wide, sizes)) >> @splat(draw_bits));
            const low = draws *% sizes;
            entries[k][draws_per_word * first ..][0 .. draws_per_word * n].* = @select(u16, low < floors, @as(D, @splat(rejected)), high);
        }
    };
}
