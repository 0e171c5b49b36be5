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
//! - Where that mean weight Π W_k(U_k) / W_k (the share of independent draws that share
//!   no card) is at least `accept_mean_min`, the range players are drawn by rejection
//!   instead (`draw_rejected`): each player's combo by its alias table on its own, the
//!   whole deal drawn again while two combos share a card. The deals kept follow the target
//!   exactly and weigh 1 each (counted in integers, with no loss of precision to weights).
//!   Where every range player's combos weigh alike, the tries go in batches
//!   (`range_tries.zig`), every kept try a game's deal, from a stream of tries a chunk of
//!   `range_tries.chunk_games` games.
//! - Where those tries keep less than `grouped_accept_max` of themselves (six players on
//!   22+,A2+,K2+: 1 in 9.6) and no board card is known, a kept try is the deal of
//!   K = `grouped_games_a_deal` games in a row (game g holds kept try (g mod chunk) / K),
//!   each game dealing its own board from its own stream: the draw, ~36 ns a deal there
//!   against ~43 ns for the rest of a game (avx2, when K was chosen), is paid a quarter as often. The games of
//!   a deal are not independent (the deal's equity varies between deals: Vb ≈ 0.1 of the
//!   board's variance Vw within a deal, for those six), so the mean has variance
//!   (K·Vb + Vw) / N, 1.27x a game's, for 1.5x the games/s. The standard error sees this:
//!   a group of m games (K, or fewer where a call cuts it) counts as one game of weight m
//!   and share S / m (`Group`, `add_counts`).
//! - Random players hold every live combo at weight 1. Whatever the range players hold, the
//!   deck left has the same size, so the number of ways to deal the random players is the
//!   same for every deal of the others: they add nothing to the weight, and are dealt two
//!   cards each from the deck left, as the board is after them. Never drawn and rejected.
//!
//! Game g uses only the random stream of (seed, g) (and, for batched tries, the kept tries of
//! its chunk's stream, before its own), so any split over calls and threads plays the same
//! games (and sums the same, where games are grouped, for splits at multiples of a group:
//! pp.equity's calls start at multiples of a chunk).
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../cards/encoding.zig");
const bits = @import("../cards/bits.zig");
const deck_lanes = @import("../cards/deck_lanes.zig");
const gather = @import("../rank/gather.zig");
const random = @import("../cards/random.zig");
const combos = @import("../cards/combos.zig");
const spot_zig = @import("spot.zig");
const Spot = spot_zig.Spot;
const Sums = spot_zig.Sums;
const batch = @import("../rank/batch.zig");
const showdown = @import("../rank/showdown.zig");
const equity = @import("known_exact.zig");
const builtin = @import("builtin");
const pot_units = equity.pot_units;
const range_tries = @import("range_tries.zig");
const Outcome = equity.Outcome;

/// Range players' deals are drawn by rejection (every game then weighs 1,
/// `draw_rejected`) when the mean weight is at least this, estimated from `probe_deals`
/// deals of the fixed stream `probe_key`: at most 32 tries a game expected, each a few
/// nanoseconds, where a weighted deal costs as much as 20 and counts for less.
const accept_mean_min = 1.0 / 32.0;
const probe_deals = 256;
const probe_key = 0x5eed_0f_9a0be;

/// Games a kept try of the range players is played on, in a row, where the tries keep less
/// than `grouped_accept_max` of themselves (`Run.games_a_deal`): each game still deals its
/// own board (and random players) from its own stream. A deal then costs a quarter of its
/// tries a game, and the mean of N games has variance (K·Vb + Vw) / N, Vb the variance of
/// a deal's equity between deals and Vw the board's within one: for six players on
/// 22+,A2+,K2+ (10.5% of tries kept) Vb/Vw ≈ 0.10 (300 deals of 40k games each). Measured
/// there (Zen 4, one thread, CPU time to stderr 0.0005 from 2M-game runs, medians of 5
/// rounds; bench/NOTES.md, 2026-12-07 22:16): K = 1, 2, 4, 8 took 41.5, 36.9, 34.7, 37.8 ms
/// on the avx2 level and 32.8, 30.9, 28.4, 29.1 on avx512; K = 4 plays 1.5x the games/s
/// for 1.27x the variance a game.
const grouped_games_a_deal = 4;
/// Pooled runs whose probe keeps less than this share of tries (at least four tries a
/// deal) play each deal on `grouped_games_a_deal` games, preflop only; the rest, one game a
/// deal. Preflop the board's five cards to come make most of a game's variance (Vw); on a
/// known flop the deal decides much more of it (on a river all of it: the games of a deal
/// would be the same game, K times the variance for nothing).
const grouped_accept_max = 1.0 / 4.0;

comptime {
    // A group never straddles a chunk of tries nor a block of games that starts at a
    // multiple of it.
    assert(std.math.isPowerOfTwo(grouped_games_a_deal));
    assert(range_tries.chunk_games % grouped_games_a_deal == 0);
    assert(block_games % grouped_games_a_deal == 0);
}

/// Below this share of its weight left, a player's combo is found by a walk, not redrawn.
const redraw_share_min = 0.25;
/// A remaining weight this small against the total is rounding, not a combo left.
const weight_left_min = 1e-12;

/// Plays games `first_game .. first_game + games` of the stream `key`, adding to `out`
/// (`spot.players * spot_zig.slots` Sums, player-major, indexed by the combo held).
///
/// Games go in blocks, in three passes as the row kernels do (rank/blocks.zig): deal every game
/// of the block, rank every hand of the block with the vector showdown (its table loads
/// independent, so they overlap), then share each pot.
///
/// Where every game weighs 1 (at most one range player), games are counted in integers in
/// `counts` (`spot.players * spot_zig.slots` of them, zeroed here) and added to `out` at
/// the end: cheaper per game than weighted floats, and exact.
pub fn sample(
    spot: *const Spot,
    key: u64,
    first_game: u64,
    games: u64,
    counts: []Counts,
    out: []Sums,
) void {
    assert(spot.players >= 2);
    assert(spot.players <= spot_zig.players_max);
    assert(out.len >= spot.players * spot_zig.slots);
    assert(counts.len >= out.len);
    switch (spot.players) {
        inline 2...spot_zig.players_max => |players| {
            const run: Run(players) = .init(spot);
            if (run.drawn_len >= 2 and spot.joint_len == 0 and !run.accept_by_weight) {
                return run.play(key, first_game, games, out, .weighted);
            }
            const tally: Tally = .of(counts, players * spot_zig.slots);
            const grouped = run.games_a_deal > 1;
            for (tally.planes[0..if (grouped) count_kinds else game_kinds]) |plane| @memset(plane, 0);
            if (grouped) run.play(key, first_game, games, tally, .grouped) else run.play(key, first_game, games, tally, .counted);
            add_counts(tally, run.games_a_deal, out[0 .. players * spot_zig.slots]);
        },
        else => unreachable,
    }
}

/// `sample`'s integer counts → Sums. Where games are grouped (K = `games_a_deal` > 1), a
/// group counts as one game of weight m (its games in the call) and share S / m (S its
/// games' pot units): w2 sums m², w2_shares m·S and w2_shares2 S². A whole group (m = K)
/// adds K·m and K·S, which follow from the game and unit counts; only groups cut by the
/// call's edges leave the group planes what they fall short by. Else each game weighs 1
/// and those follow from the game counts.
fn add_counts(tally: Tally, games_a_deal: u64, out: []Sums) void {
    assert(tally.planes[0].len == out.len);
    assert(games_a_deal >= 1);
    const grouped = games_a_deal > 1;
    for (0..out.len, out) |slot, *o| {
        const games_and_wins = tally.of_count(.games_and_wins)[slot];
        const played = games_and_wins & 0xffff_ffff;
        if (played == 0) continue;
        const wins = games_and_wins >> 32;
        const n: f64 = @floatFromInt(played);
        // A win alone takes the whole pot: units and their square follow from wins.
        const units = wins * pot_units + tally.of_count(.tie_units)[slot];
        const shares: f64 = @floatFromInt(units);
        o.games += n;
        o.wins += @floatFromInt(wins);
        o.ties += @floatFromInt(tally.of_count(.ties)[slot]);
        o.shares += shares;
        if (grouped) {
            // Every game of the slot is in one of its groups: m² ≥ m.
            const w2 = games_a_deal * played - tally.of_count(.group_w2_short)[slot];
            assert(w2 >= played);
            o.w2 += @floatFromInt(w2);
            o.w2_shares += @floatFromInt(games_a_deal * units - tally.of_count(.group_w2_shares_short)[slot]);
            o.w2_shares2 += @floatFromInt(tally.of_count(.group_shares2)[slot]);
        } else {
            o.w2 += n;
            o.w2_shares += shares;
            o.w2_shares2 += @floatFromInt(wins * pot_units * pot_units + tally.of_count(.tie_units_squared)[slot]);
        }
    }
}

/// A combo's games counted in integers (a call plays fewer than 2^32 games). A game adds
/// to one word, games in its low half and wins in its high half; a split adds to the rest,
/// and a pot won alone is `pot_units`, so shares come out of wins and splits. Five adds a
/// player a game cost multiway Monte Carlo a fifth of its time. Grouped games
/// (`Run.games_a_deal`, K) add a group's games and wins and its S² (S its pot units) at its
/// end, and where the group is cut short (m < K games) what its m² and m·S fall short of
/// K·m and K·S.
const Count = enum { games_and_wins, ties, tie_units, tie_units_squared, group_w2_short, group_w2_shares_short, group_shares2 };
const count_kinds = std.enums.values(Count).len;
/// The counts every run keeps (the group planes only where games are grouped).
const game_kinds = @backingInt(Count.group_w2_short);

comptime {
    // `Tally.of` views the buffer as `count_kinds` planes of words: a slot's room must be
    // exactly one word a kind, with no padding.
    assert(@sizeOf(Counts) == count_kinds * @sizeOf(u64));
}

/// A slot's room in the caller's buffer of integer counts: one word a `Count`. `sample`
/// lays the buffer out as a `Tally`.
pub const Counts = extern struct { words: [count_kinds]u64 };

/// The buffer by `Count`, each a plane of its own: every slot's games-and-wins word side
/// by side, as every game adds to it, and the counts of splits (a game in a few) apart.
/// Random players count into 1,326 slots each, whose words then stay in L1 (8 bytes a
/// slot, not 32).
const Tally = struct {
    planes: [count_kinds][]u64,

    fn of(counts: []Counts, slots: usize) Tally {
        assert(slots > 0);
        assert(counts.len >= slots);
        const words = std.mem.bytesAsSlice(u64, std.mem.sliceAsBytes(counts[0..slots]));
        assert(words.len == count_kinds * slots);
        var tally: Tally = undefined;
        for (&tally.planes, 0..) |*plane, i| plane.* = words[i * slots ..][0..slots];
        // The planes tile the buffer: the last ends where the slots' room ends.
        assert(tally.planes[count_kinds - 1].ptr + slots == words.ptr + words.len);
        return tally;
    }

    inline fn of_count(tally: Tally, comptime count: Count) []u64 {
        return tally.planes[@backingInt(count)];
    }
};

const block_games = 128;

/// Whether this compilation's CPU has SSE4.1's `phminposuw` (the avx2 and avx512 levels do).
const has_minpos = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .sse4_1);
extern fn @"llvm.x86.sse41.phminposuw"(@Vector(8, u16)) callconv(bits.intrinsic) @Vector(8, u16);

/// Tables of deals above this many (32 to 40 bytes a deal with two to four players; 512 to
/// 640 KB here) outgrow L2 beside the lookup table: their entries are prefetched a block of
/// lanes at a time.
const joint_cached_max = 1 << 14;

/// Bytes past the block's boards (and the showdown's slack) that `deal_rest`'s last store
/// reaches: a word's three, or a 64-byte vector's 24 (`store_boards`).
const board_slack = 24;

comptime {
    // `store_boards` writes 64 bytes for each eight boards of 40: 24 past the last.
    assert(board_slack == 64 - 8 * 5);
    // `deal_boards` writes a word a board: three bytes past it, within the slack.
    assert(board_slack >= @sizeOf(u64) - 5);
    // A block of games is whole vectors of lanes where it is not the tail.
    assert(block_games % deck_lanes.lanes == 0);
    assert(joint_cached_max > block_games);
}

fn Block(comptime players: usize) type {
    // Rows past the block the vector showdown reads: with them, it ranks every game (without,
    // the last 13 to 32 of 128 went to the scalar path, 8 to 25% of the games).
    const showdown_slack = showdown.spare_rows(players, 5);
    return struct {
        /// Five cards a game, the rows the showdown ranks past the games (`ranked_rows`),
        /// its slack, and `board_slack` bytes that `deal_rest`'s last store may reach past
        /// them.
        boards: [(ranked_max + showdown_slack) * 5 + board_slack]u8,
        holes: [(ranked_max + showdown_slack) * players * 2]u8,
        /// Every game's ranks, those of the rows ranked past them, and `count_game`'s
        /// read past the last game's.
        ranks: [ranked_max * players + Showdowns(players).rank_lanes - players]u16,
        held: [block_games][players]u16,
        /// The cards out of the deck once the fixed and range players hold theirs.
        used: [block_games]u64,
        /// A table's deal's `places_left`, where games are dealt by place (its `used` then
        /// unread).
        places_left: [block_games]spot_zig.PlacesRow(players),
        /// A game of weight 0 (no deal of the ranges fits) is dealt as any valid game and
        /// counts for nothing.
        weights: [block_games]f64,
        /// The range players' kept tries, where they are drawn by `range_tries` (`Run.pooled`).
        tries: range_tries.Pool(players),
        /// Each pooled game's try's places (`range_tries.Pool.kept_places`), for `set_decks`.
        try_places: if (range_tries.Pool(players).keeps_places) [block_games][16]u8 else void,

        /// Rows the vector showdown ranks for `games` games (`showdown.rank_dealt`): whole
        /// blocks of its rows, the last reaching past the games (the rows there, zero or
        /// an earlier block's games, ranked and dropped).
        pub fn ranked_rows(games: usize) usize {
            assert(games <= block_games);
            if (!showdown.available) return games;
            const rows = showdown.block_rows(players);
            return (games + rows - 1) / rows * rows;
        }

        const ranked_max = ranked_rows(block_games);
    };
}

/// A per-game random stream: SplitMix64 from (key, game).
const Stream = extern struct {
    state: u64,

    fn init(key: u64, game: u64) Stream {
        return .{ .state = random.draw_word(key, game, 0) };
    }

    comptime {
        // `Deal.take` and `hold_joints` treat an array of streams as an array of words.
        assert(@sizeOf(Stream) == @sizeOf(u64));
    }

    inline fn next(stream: *Stream) u64 {
        stream.state +%= random.golden_gamma;
        return random.mix64(stream.state);
    }

    /// Uniform in [0, 1): the top 53 bits of a word, scaled by 2^-53.
    inline fn fraction(stream: *Stream) f64 {
        const result = @as(f64, @floatFromInt(stream.next() >> 11)) * 0x1.0p-53;
        assert(result >= 0);
        assert(result < 1);
        return result;
    }
};

fn Run(comptime players: usize) type {
    return struct {
        const Self = @This();

        // Its parts, each a type of its own below; called as methods all the same.
        const mean_weight = RangeDraws(players).mean_weight;
        const draw_ranges = RangeDraws(players).draw_ranges;
        const draw_joint = RangeDraws(players).draw_joint;
        const pick_joint = RangeDraws(players).pick_joint;
        const hold_joint = RangeDraws(players).hold_joint;
        const hold_joints = RangeDraws(players).hold_joints;
        const hold_joint_lanes = RangeDraws(players).hold_joint_lanes;
        const draw_weighted = RangeDraws(players).draw_weighted;
        const draw_rejected = RangeDraws(players).draw_rejected;
        const deal_rest = Dealing(players).deal_rest;
        const whole_pair = Dealing(players).whole_pair;
        const deal_whole_block = Dealing(players).deal_whole_block;
        const set_decks = Dealing(players).set_decks;
        const deal_boards = Dealing(players).deal_boards;
        const board_rows = Dealing(players).board_rows;
        const store_boards = Dealing(players).store_boards;
        const pack_mask = Dealing(players).pack_mask;
        const by_joint_places = Dealing(players).by_joint_places;
        const row_words = Dealing(players).row_words;
        const Row = Dealing(players).Row;
        const deal_random_rows = Dealing(players).deal_random_rows;
        const seat_bytes = Dealing(players).seat_bytes;
        const spread_mask = Dealing(players).spread_mask;
        const play = Showdowns(players).play;
        const count_game = Showdowns(players).count_game;
        const rank_games = Showdowns(players).rank_games;
        const settle = Showdowns(players).settle;

        spot: *const Spot,
        /// Player numbers by role, in seat order.
        drawn: [players]u8 = undefined,
        drawn_len: usize = 0,
        random: [players]u8 = undefined,
        random_len: usize = 0,
        /// The fixed players' combos (none where not fixed).
        fixed_combo: [players]u16 = @splat(combos.none),
        board_cards: [5]u8 = undefined,
        board_len: usize = 0,
        /// The known board cards as the low bytes of a word (`deal_rest` adds the rest).
        board_word: u64 = 0,
        /// Whether the range players' deals are drawn by rejection (`draw_rejected`: every
        /// game weighs 1), rather than by `draw_weighted` and kept with their weight.
        accept_by_weight: bool = false,
        /// Whether every range player's combos weigh alike.
        uniform_drawn: bool = false,
        /// Whether the range players' deals come from batches of tries (`range_tries`):
        /// drawn by rejection, every combo of a range weighing alike.
        pooled: bool = false,
        /// Games a pooled deal is played on (`grouped_games_a_deal` where few tries are
        /// kept; 1 elsewhere, every game a deal of its own).
        games_a_deal: u64 = 1,
        /// The spot's table of the range players' deals, if it has one.
        joint: []const spot_zig.JointDeal(players) = &.{},
        /// The deck every game starts from, as `Deal` finds cards by place in it.
        deck_table: if (deck_lanes.available) deck_lanes.Table else void = undefined,
        /// The same for 32 lanes (`deck_lanes.available32`).
        deck_table32: if (deck_lanes.available32) deck_lanes.Table32 else void = undefined,

        fn init(spot: *const Spot) Self {
            assert(spot.players == players);
            assert(spot.board_cards == @popCount(spot.board));
            var run: Self = .{ .spot = spot };
            if (spot.joint_len > 0) run.joint = spot.joint_table(players);
            if (deck_lanes.available) run.deck_table = .of(encoding.full_deck & ~spot.out_cards());
            if (deck_lanes.available32) run.deck_table32 = .of(encoding.full_deck & ~spot.out_cards());
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
            while (cards != 0) : (cards &= cards - 1) {
                run.board_cards[run.board_len] = @intCast(@ctz(cards));
                run.board_word |= @as(u64, @ctz(cards)) << @intCast(8 * run.board_len);
                run.board_len += 1;
            }
            // Every player has one role.
            assert(run.drawn_len + run.random_len + @popCount(spot.fixed_players) == players);
            assert(run.board_len == spot.board_cards);
            assert(run.board_len <= 5);
            run.uniform_drawn = true;
            for (run.drawn[0..run.drawn_len]) |p| {
                run.uniform_drawn = run.uniform_drawn and spot.uniform_weights[p] != 0;
            }
            if (run.drawn_len >= 2 and spot.joint_len == 0) {
                const kept = run.mean_weight();
                run.accept_by_weight = kept >= accept_mean_min;
                run.pooled = run.accept_by_weight and run.uniform_drawn;
                if (run.pooled and kept < grouped_accept_max and run.board_len == 0) run.games_a_deal = grouped_games_a_deal;
            }
            return run;
        }

        /// What every game of a block shares: the fixed players' cards and the board's.
        fn fill_block(run: *const Self, block: *Block(players)) void {
            assert(run.board_len <= 5);
            assert(run.drawn_len + run.random_len <= players);
            if (run.pooled) block.tries.init(run.spot, run.drawn[0..run.drawn_len], run.games_a_deal);
            // Rows past the games dealt and the slack are read and ranked, their ranks
            // dropped: cards all the same (deuces), whose fingerprints are in the tables.
            @memset(&block.boards, 0);
            @memset(&block.holes, 0);
            @memset(&block.ranks, 0);
            for (0..block_games) |i| {
                block.held[i] = run.fixed_combo;
                block.used[i] = run.spot.out_cards();
                block.weights[i] = 1;
                @memcpy(
                    block.boards[i * 5 ..][0..run.board_len],
                    run.board_cards[0..run.board_len],
                );
                for (0..players) |p| {
                    const combo = run.fixed_combo[p];
                    if (combo == combos.none) continue;
                    std.mem.writeInt(u16, block.holes[(i * players + p) * 2 ..][0..2], combos.hole_word(combo), .little);
                }
            }
        }

        /// Deals games `game .. game + count` into the block.
        fn deal_block(
            run: *const Self,
            key: u64,
            game: u64,
            count: usize,
            block: *Block(players),
        ) void {
            const lanes = if (deck_lanes.available) deck_lanes.lanes else if (deck_lanes.available32) deck_lanes.lanes32 else 8;
            assert(count > 0);
            assert(count <= block_games);
            if (comptime Deal(lanes, players).by_place32 and players == 2) {
                if (run.whole_pair()) return run.deal_whole_block(key, game, count, block);
            }
            var i: usize = 0;
            while (i < count) : (i += lanes) {
                if (i + lanes > count) { // the tail, one game at a time
                    for (i..count) |j| {
                        var one = [1]Stream{run.start_game(key, game + j, block, j)};
                        run.deal_rest(1, &one, block, j);
                    }
                    return;
                }
                var streams: [lanes]Stream = undefined;
                run.start_games(lanes, key, game + i, block, i, &streams);
                run.deal_rest(lanes, &streams, block, i);
            }
        }

        /// `start_game` for games `number .. number + lanes` into slots `i ..`: the streams'
        /// first words mixed in vectors where every game starts alike (no range players, or
        /// a table of their deals), so no game waits on the multiplies of the one before.
        inline fn start_games(
            run: *const Self,
            comptime lanes: usize,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
            streams: *[lanes]Stream,
        ) void {
            const Lanes = @Vector(lanes, u64);
            const spot = run.spot;
            assert(i + lanes <= block_games);
            if (run.drawn_len >= 2 and spot.joint_len == 0 and !run.pooled) {
                for (streams, 0..) |*stream, l| stream.* = run.start_game(key, number + l, block, i + l);
                return;
            }
            const starts = random.draw_words(lanes, key, number, 0); // as `Stream.init`
            if (run.pooled) {
                inline for (streams, 0..) |*stream, l| stream.* = .{ .state = starts[l] };
                for (0..lanes) |l| run.take_try(key, number + l, block, i + l);
                return;
            }
            if (run.drawn_len == 0) {
                inline for (streams, 0..) |*stream, l| stream.* = .{ .state = starts[l] };
                return;
            }
            // One alias draw a game, from the joint table or the one range player's: a word
            // each, as `Stream.next` draws it, split into entry and coin as `alias_draw` does.
            const states = starts +% @as(Lanes, @splat(random.golden_gamma));
            const words = random.mix64_lanes(lanes, states);
            const entries: Lanes = if (spot.joint_len > 0) @splat(spot.joint_len) else @splat(spot.support_len[run.drawn[0]]);
            const indices = ((words >> @splat(32)) * entries) >> @splat(32);
            const coin_bits = words & @as(Lanes, @splat(0xffff_ffff));
            // A loop, not unrolled: 32 copies of the table's part made the deal's code three
            // times the size (53 KB a player count), no faster.
            const index_array: [lanes]u64 = indices;
            const state_array: [lanes]u64 = states;
            if (spot.joint_len > 0) {
                // A big table of deals is read where caches miss: every lane's entry is asked
                // for first, then every lane's deal, so the misses overlap rather than wait
                // one after another.
                const big = spot.joint_len > joint_cached_max;
                if (big) for (index_array) |index| @prefetch(&run.joint[index], .{});
                // Every lane's entry and alias loaded, then the coins compared at once (as
                // `pick_joint` compares one), with no branch on a coin, a toss-up. Deals of
                // one weight keep every entry (keep 2^32-1, alias itself): the index is the
                // deal, the same one, and nothing is loaded to learn it (+4% games/s for
                // QQ+,AKs vs JJ-99,AQs+).
                var chosen: [lanes]u64 = index_array;
                if (!spot.joint_uniform) {
                    var keeps: [lanes]u64 = undefined;
                    var others: [lanes]u64 = undefined;
                    for (index_array, &keeps, &others) |index, *keep, *other| {
                        keep.* = run.joint[index].keep;
                        other.* = run.joint[index].other;
                    }
                    chosen = @select(u64, coin_bits < @as(Lanes, keeps), indices, @as(Lanes, others));
                    if (big) for (chosen) |c| @prefetch(&run.joint[c], .{});
                }
                return run.hold_joints(lanes, chosen, block, i, streams, state_array);
            }
            const p = run.drawn[0];
            if (spot.uniform_weights[p] != 0) return run.hold_alone_lanes(lanes, block, i, streams, state_array, index_array);
            const coin_array: [lanes]f64 = @as(@Vector(lanes, f64), @floatFromInt(coin_bits)) *
                @as(@Vector(lanes, f64), @splat(0x1.0p-32));
            for (streams, state_array, index_array, coin_array, 0..) |*stream, state, index, coin, l| {
                stream.* = .{ .state = state };
                run.hold_alone(alias_pick(spot, p, index, coin), block, i + l);
            }
        }

        /// `hold_alone` of `lanes` games from slot `i` on, the one range player's combos of
        /// equal weight (AA): each entry its combo, with no coin (32 lanes' words to floats
        /// took several operations a lane on AVX2) and the spot's cards out loaded once, not
        /// a game (the stores to the block might have changed them, for all the compiler
        /// knew).
        inline fn hold_alone_lanes(
            run: *const Self,
            comptime lanes: usize,
            block: *Block(players),
            i: usize,
            streams: *[lanes]Stream,
            states: [lanes]u64,
            entries: [lanes]u64,
        ) void {
            const spot = run.spot;
            const p = run.drawn[0];
            assert(spot.uniform_weights[p] != 0);
            assert(i + lanes <= block_games);
            const out = spot.out_cards();
            const support = spot.support[p][0..spot.support_len[p]];
            for (streams, states, entries, block.held[i..][0..lanes], block.used[i..][0..lanes]) |*stream, state, entry, *held, *used| {
                stream.* = .{ .state = state };
                const combo = support[entry];
                held[p] = combo;
                used.* = out | combos.set(combo);
            }
        }

        /// The one range player (AA vs the field) holds `combo` in game slot `i`: what
        /// `draw_weighted` makes of its first draw, inline, the weight staying 1 and the
        /// rest of the row as `fill_block` left it.
        inline fn hold_alone(run: *const Self, combo: u16, block: *Block(players), i: usize) void {
            block.held[i][run.drawn[0]] = combo;
            block.used[i] = run.spot.out_cards() | combos.set(combo);
        }

        /// Game `number`'s kept try of the range players into slot `i`: their combos and
        /// cards out, and where every seat is drawn its row of hole cards (the try's, found
        /// once for its games; `deal_rest` writes the others').
        inline fn take_try(run: *const Self, key: u64, number: u64, block: *Block(players), i: usize) void {
            assert(run.pooled);
            block.used[i] = block.tries.take(key, number, &block.held[i]);
            if (comptime range_tries.Pool(players).keeps_places) block.try_places[i] = block.tries.places_of_last().*;
            if (run.drawn_len == players) block.holes[i * players * 2 ..][0 .. 2 * players].* = block.tries.holes_of_last().*;
        }

        /// A game's stream, after its range players' draws if it has any.
        inline fn start_game(
            run: *const Self,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
        ) Stream {
            if (run.drawn_len == 0) return .init(key, number);
            if (run.pooled) {
                run.take_try(key, number, block, i);
                return .init(key, number);
            }
            if (run.drawn_len == 1) {
                var stream: Stream = .init(key, number);
                run.hold_alone(alias_draw(run.spot, run.drawn[0], &stream), block, i);
                return stream;
            }
            return run.draw_ranges(key, number, block, i);
        }
    };
}

/// `Run`'s draws of the range players' hands: by weight with rejection, or from the
/// table of their joint deals.
fn RangeDraws(comptime players: usize) type {
    return struct {
        const Self = Run(players);
        const deal_rest = Dealing(players).deal_rest;
        const by_joint_places = Dealing(players).by_joint_places;
        const row_words = Dealing(players).row_words;
        const Row = Dealing(players).Row;

        /// The mean weight of `probe_deals` deals, from a fixed stream (so every call of a
        /// run decides alike): the share of deals that acceptance would keep.
        pub fn mean_weight(run: *const Self) f64 {
            // Only several range players weigh their deals (`draw_weighted`).
            assert(run.drawn_len >= 2);
            assert(run.spot.joint_len == 0);
            var block: Block(players) = undefined;
            var sum: f64 = 0;
            for (0..probe_deals) |i| {
                _ = run.draw_weighted(probe_key, i, &block, 0);
                sum += block.weights[0];
            }
            assert(sum >= 0);
            return sum / probe_deals;
        }

        /// Deals the fixed and range players of game `number` into slot `i` of the block,
        /// with the game's weight; returns the game's stream, to deal the rest.
        pub fn draw_ranges(
            run: *const Self,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
        ) Stream {
            assert(run.drawn_len >= 2);
            assert(i < block_games);
            if (run.spot.joint_len > 0) return run.draw_joint(key, number, block, i);
            if (!run.accept_by_weight) return run.draw_weighted(key, number, block, i);
            return run.draw_rejected(key, number, block, i);
        }

        /// `draw_ranges` by rejection: every range player draws by weight on its own (one
        /// alias draw each), and the whole deal is drawn again while any two of its combos
        /// share a card. The deals kept follow π exactly (each player's combo by its
        /// weight, given that no card is shared), each weighing 1, and the game is counted
        /// in integers. Its mean number of tries is 1 / P(no card shared), which is the mean
        /// importance weight `mean_weight` estimates (chosen where that is at least
        /// `accept_mean_min`). A try is a few multiplies and loads a player with no branch
        /// but the one at its end, where `draw_weighted`'s inclusion-exclusion weights, a
        /// division and redraws a player cost six players' spots 2/3 of their time.
        pub fn draw_rejected(
            run: *const Self,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
        ) Stream {
            const spot = run.spot;
            assert(run.drawn_len >= 2);
            assert(i < block_games);
            const out = spot.out_cards();
            var stream: Stream = .init(key, number);
            var held = run.fixed_combo;
            var used = out;
            // Equal weights are drawn by `range_tries` (`Run.pooled`), not a game at a time.
            assert(!run.pooled);
            while (true) {
                used = out;
                var clash: u64 = 0;
                var word: u64 = 0;
                // Two players a word, a half each: a try mixes half as many words.
                for (run.drawn[0..run.drawn_len], 0..) |p, d| {
                    if (d % 2 == 0) word = stream.next();
                    const combo = alias_half(spot, p, @truncate(word >> @intCast(32 * (d % 2))));
                    const set = combos.set(combo);
                    clash |= used & set;
                    used |= set;
                    held[p] = combo;
                }
                if (clash == 0) break;
            }
            // The range players' combos share no card, with each other or what was out.
            assert(@popCount(used) == @popCount(out) + 2 * run.drawn_len);
            block.held[i] = held;
            block.used[i] = used;
            block.weights[i] = 1;
            return stream;
        }

        /// `draw_ranges` from the spot's table of every deal of the range players: one alias
        /// draw, exactly the joint distribution, every game weighing 1.
        pub fn draw_joint(
            run: *const Self,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
        ) Stream {
            const spot = run.spot;
            assert(spot.joint_len > 0);
            assert(run.joint.len == spot.joint_len);
            var stream: Stream = .init(key, number);
            // One word: its high half picks the deal (at most 2^20 of them), its low half the
            // coin, as `alias_draw` does.
            const word = stream.next();
            const index = ((word >> 32) * spot.joint_len) >> 32;
            assert(index < spot.joint_len);
            run.hold_joint(run.pick_joint(index, word & 0xffff_ffff), block, i, false);
            return stream;
        }

        /// The deal `draw_joint` picks: entry `index`, or its alias by the 32-bit `coin`.
        pub inline fn pick_joint(run: *const Self, index: u64, coin: u64) u64 {
            const entry = &run.joint[index];
            return if (coin < entry.keep) index else entry.other;
        }

        /// The range players hold deal `chosen` of the table in game slot `i`: the game's
        /// row of combos, of hole cards and its cards out (as places left if the game is
        /// dealt `by_place`), each a copy (random players' entries are dealt over by
        /// `deal_rest`; the weight stays `fill_block`'s 1).
        pub inline fn hold_joint(run: *const Self, chosen: u64, block: *Block(players), i: usize, comptime by_place: bool) void {
            const deal = &run.joint[chosen];
            block.held[i] = deal.held;
            block.holes[i * players * 2 ..][0 .. players * 2].* = std.mem.asBytes(&deal.holes).*;
            if (by_place and by_joint_places) block.places_left[i] = deal.places_left else block.used[i] = deal.used;
        }

        /// `lanes` games of slots `i ..` start: their streams from `states`, each holding
        /// its deal of `chosen`.
        pub inline fn hold_joints(
            run: *const Self,
            comptime lanes: usize,
            chosen: [lanes]u64,
            block: *Block(players),
            i: usize,
            streams: *[lanes]Stream,
            states: [lanes]u64,
        ) void {
            if (comptime Deal(lanes, players).by_place and row_words and by_joint_places and gather.available512) {
                const stream_words: *[lanes]u64 = @ptrCast(streams);
                stream_words.* = states;
                return run.hold_joint_lanes(lanes, chosen, block, i);
            }
            for (streams, states, chosen, 0..) |*stream, state, c, l| {
                stream.* = .{ .state = state };
                run.hold_joint(c, block, i + l, Deal(lanes, players).by_place);
            }
        }

        /// `hold_joint` by place of `lanes` games at once, their deals `chosen`: each field
        /// of a lane's deal gathered (`vpgatherdd`, `vpgatherdq`) and stored for all of
        /// them, where a loop copied the fields a game at a time (a quarter of the deal's
        /// time for QQ+,AKs vs JJ-99,AQs+; in turn on Xeon +6 to +14% games/s).
        pub inline fn hold_joint_lanes(
            run: *const Self,
            comptime lanes: usize,
            chosen: [lanes]u64,
            block: *Block(players),
            i: usize,
        ) void {
            const Joint = spot_zig.JointDeal(players);
            const Places = spot_zig.PlacesRow(players);
            comptime std.debug.assert(@sizeOf(Joint) % 8 == 0 and @sizeOf(Row) == @sizeOf(Places));
            const per_gather = 64 / @bitSizeOf(Row) * 8; // 16 words or 8 double words
            const base: [*]const u8 = @ptrCast(run.joint.ptr);
            const held: *align(2) [lanes]Row = @ptrCast(&block.held[i]);
            const holes: *align(1) [lanes]Row = @ptrCast(block.holes[i * players * 2 ..][0 .. lanes * players * 2]);
            const places: *[lanes]Places = block.places_left[i..][0..lanes];
            inline for (0..lanes / per_gather) |k| {
                const numbers: @Vector(per_gather, u64) = chosen[k * per_gather ..][0..per_gather].*;
                // Deal numbers are below 2^20 (`joint_deals_max`): their steps fit 32 bits.
                const index: @Vector(per_gather, u32) = @intCast(numbers * @as(@Vector(per_gather, u64), @splat(@sizeOf(Joint) / 8)));
                const fetch = if (Row == u32) gather.gather32_at8 else gather.gather64_at8;
                held[k * per_gather ..][0..per_gather].* = fetch(base + @offsetOf(Joint, "held"), index);
                holes[k * per_gather ..][0..per_gather].* = fetch(base + @offsetOf(Joint, "holes"), index);
                places[k * per_gather ..][0..per_gather].* = fetch(base + @offsetOf(Joint, "places_left"), index);
            }
        }

        /// `draw_ranges` by sequential importance sampling: the weight is Π W_k(U_k)/W_k.
        pub fn draw_weighted(
            run: *const Self,
            key: u64,
            number: u64,
            block: *Block(players),
            i: usize,
        ) Stream {
            const spot = run.spot;
            assert(run.drawn_len >= 2);
            assert(i < block_games);
            var stream: Stream = .init(key, number);
            var held = run.fixed_combo;
            var used = spot.out_cards();
            var drawn_cards: u64 = 0;
            var weight: f64 = 1;
            for (run.drawn[0..run.drawn_len], 0..) |p, d| {
                var combo = if (d == 0) alias_draw(spot, p, &stream) else choice: {
                    const left = spot.weight_without(p, drawn_cards);
                    if (left <= spot.totals[p] * weight_left_min) break :choice combos.none;
                    weight *= left / spot.totals[p];
                    break :choice draw_without(spot, p, used, left, &stream);
                };
                if (combo == combos.none) { // no deal fits: weight 0, any valid cards
                    weight = 0;
                    combo = first_free(spot, p, used);
                }
                held[p] = combo;
                used |= combos.set(combo);
                drawn_cards |= combos.set(combo);
            }
            // The range players' combos share no card, with each other or what was out.
            assert(@popCount(drawn_cards) == 2 * run.drawn_len);
            assert(@popCount(used) == @popCount(spot.out_cards()) + 2 * run.drawn_len);
            assert(weight >= 0);
            block.held[i] = held;
            block.used[i] = used;
            block.weights[i] = weight;
            return stream;
        }
    };
}

/// `Run`'s dealing of the rest of a block's games: the random players' hole cards and the
/// boards, lanes abreast.
fn Dealing(comptime players: usize) type {
    return struct {
        const Self = Run(players);

        /// Deals the random players and the board of `lanes` games side by side: each card
        /// waits on the one before it in its game (the deck it is taken from), so games in
        /// lockstep keep several such chains in flight. Every game of a run has a deck of the
        /// same size at each draw (the fixed cards, and two cards a range player), so one
        /// size and one count of draws left in the word serve all the lanes.
        pub fn deal_rest(
            run: *const Self,
            comptime lanes: usize,
            streams: *[lanes]Stream,
            block: *Block(players),
            first: usize,
        ) void {
            // Every random seat's takes and spreads are unrolled (`deal_random_rows`: up to six
            // seats, 12 vectors of rows each).
            @setEvalBranchQuota(200_000);
            assert(first + lanes <= block_games);
            var deal: Deal(lanes, players) = .{ .streams = streams };
            run.set_decks(lanes, &deal, block, first);
            // The cards leave the vectors a word a game (a player's two cards, a board's
            // five), through an array: moving them out a byte at a time (`vpextrb`) took a
            // tenth of the deal's time in a profile of random vs random.
            if (comptime vector_rows(lanes)) {
                if (run.random_len > 0) run.deal_random_rows(lanes, &deal, block, first);
            } else for (run.random[0..run.random_len]) |p| {
                const a = deal.take();
                const b = deal.take();
                const held: [lanes]u16 = combos.index_lanes(lanes, a, b);
                const holes: [lanes]u16 = @as(@Vector(lanes, u16), a) |
                    @as(@Vector(lanes, u16), b) << @splat(8);
                for (0..lanes) |l| {
                    const i = first + l;
                    block.held[i][p] = held[l];
                    std.mem.writeInt(u16, block.holes[(i * players + p) * 2 ..][0..2], holes[l], .little);
                }
            }
            const size_before_board = deal.size;
            if (run.board_len < 5) run.deal_boards(lanes, &deal, block, first);
            // Every card the game needs was drawn, each from a deck one card smaller.
            assert(size_before_board - deal.size == 5 - run.board_len);
            assert(deal.size + 2 * (run.drawn_len + run.random_len) + 5 ==
                @popCount(encoding.full_deck & ~run.spot.out_cards()) + run.board_len);
            // The range players' cards (fixed players' and the board's were set per block, a
            // table's deal's as it was held).
            if (run.spot.joint_len > 0) return;
            if (run.pooled and run.drawn_len == players) return; // `take_try` wrote them
            for (run.drawn[0..run.drawn_len]) |p| {
                for (0..lanes) |l| {
                    const i = first + l;
                    const combo = block.held[i][p];
                    std.mem.writeInt(u16, block.holes[(i * players + p) * 2 ..][0..2], combos.hole_word(combo), .little);
                }
            }
        }

        /// Whether both of two players are random and nothing is out of the deck (no
        /// board, no dead cards): random vs random, dealt by `deal_whole_pair32`.
        pub fn whole_pair(run: *const Self) bool {
            return players == 2 and run.random_len == 2 and run.board_len == 0 and run.spot.out_cards() == 0;
        }

        /// `deal_block` for random vs random on the avx2 level (`whole_pair`): a function
        /// of its own, so the other spots' deal compiles as it did (inlined in
        /// `deal_block`).
        pub fn deal_whole_block(run: *const Self, key: u64, game: u64, count: usize, block: *Block(players)) void {
            // Nine draws unrolled, each over the cards taken before it.
            @setEvalBranchQuota(200_000);
            const lanes = deck_lanes.lanes32;
            assert(run.whole_pair());
            assert(count > 0);
            assert(count <= block_games);
            var i: usize = 0;
            while (i + lanes <= count) : (i += lanes) {
                var streams: [lanes]Stream = undefined;
                run.start_games(lanes, key, game + i, block, i, &streams);
                deal_whole_pair32(run, &streams, block, i);
            }
            for (i..count) |j| { // the tail, one game at a time
                var one = [1]Stream{run.start_game(key, game + j, block, j)};
                run.deal_rest(1, &one, block, j);
            }
        }

        /// `deal_rest` for random vs random on the avx2 level (`whole_pair`): the same
        /// nine draws in one straight line, so every draw's count of cards taken is known
        /// when compiled. The deck's counts then stay in registers, not loaded and stored
        /// at every board card of a loop that reads its length, and no place is looked up
        /// (`DeckLanesOf.whole`: place p is card p).
        pub inline fn deal_whole_pair32(run: *const Self, streams: *[deck_lanes.lanes32]Stream, block: *Block(players), first: usize) void {
            const lanes = deck_lanes.lanes32;
            assert(run.whole_pair());
            assert(first + lanes <= block_games);
            var deal: Deal(lanes, players) = .{ .streams = streams, .size = encoding.card_count };
            deal.places = .{ .table = run.deck_table32, .whole = true };
            deal_random_pair32(&deal, block, first);
            var cards: [5]@Vector(lanes, u8) = undefined;
            inline for (&cards) |*card| card.* = deal.take();
            assert(deal.size == encoding.card_count - 9);
            store_boards32(cards, block.boards[first * 5 ..]);
        }

        /// 32 games' boards (card c of game g: `cards[c][g]`) stored as rows of five
        /// bytes: the first four cards' bytes interleaved into rows (`interleave4`), each
        /// row joined to its fifth card widened to 32 bits by a 32-bit unpack (words, two
        /// rows a 128-bit half), each half's two boards packed to its front by a byte
        /// shuffle and stored as 16 bytes, in order, each store's six bytes past its boards
        /// (zeros) rewritten by the next, the last within `board_slack`. Where each card
        /// widened to 64-bit lanes and shifted in, then a word a game stored, took about
        /// 30 operations a card and two a game.
        pub inline fn store_boards32(cards: [5]@Vector(32, u8), out: []u8) void {
            assert(out.len >= 32 * 5 + 6);
            const rows = interleave4(cards[0], cards[1], cards[2], cards[3]);
            const fifth: [32]u8 = cards[4];
            inline for (rows, 0..) |row, o| {
                // Vector o: rows 8o .. 8o+8, in order.
                const low: @Vector(8, u32) = @bitCast(row);
                const high: @Vector(8, u32) = @as(@Vector(8, u8), fifth[8 * o ..][0..8].*);
                // Per 128-bit half h: rows 8o+4h, 8o+4h+1 (the low unpack), then 8o+4h+2,
                // 8o+4h+3 (the high).
                const pairs: [2][32]u8 = .{
                    @shuffle(u8, @as(@Vector(32, u8), @bitCast(@shuffle(u32, low, high, unpack_mask(32, false)))), zero32, pack_pairs_mask),
                    @shuffle(u8, @as(@Vector(32, u8), @bitCast(@shuffle(u32, low, high, unpack_mask(32, true)))), zero32, pack_pairs_mask),
                };
                inline for (0..2) |h| {
                    inline for (pairs, 0..) |pair, which| {
                        const row_at = 8 * o + 4 * h + 2 * which;
                        out[row_at * 5 ..][0..16].* = pair[16 * h ..][0..16].*;
                    }
                }
            }
        }

        const zero32: @Vector(32, u8) = @splat(0);

        /// Per 128-bit half (two words): each word's low five bytes, one after the other,
        /// then zeros.
        const pack_pairs_mask: @Vector(32, i32) = mask: {
            var mask: [32]i32 = undefined;
            for (0..32) |j| {
                const half = j / 16;
                const k = j % 16;
                mask[j] = if (k < 10) @intCast(16 * half + 8 * (k / 5) + k % 5) else ~@as(i32, 0);
            }
            break :mask mask;
        };

        /// Each lane's deck for `deal_rest`: the cards no player or board holds yet, as the
        /// level deals them (a table of places, 64 or 32 lanes wide, or a set per lane).
        pub fn set_decks(run: *const Self, comptime lanes: usize, deal_of: *Deal(lanes, players), block: *Block(players), first: usize) void {
            if (comptime Deal(lanes, players).by_place) {
                // One deck for every lane, the range players' cards taken out of each: a
                // table's deals come with their places (QQ+,AKs vs JJ-99,AQs+ +5% games/s on Xeon).
                const out = run.spot.out_cards();
                deal_of.places = .{ .table = run.deck_table };
                if (by_joint_places and run.spot.joint_len > 0) {
                    const Places = spot_zig.PlacesRow(players);
                    deal_of.places.remove_places(Places, block.places_left[first..][0..lanes].*, 2 * run.drawn_len);
                } else {
                    const used: @Vector(lanes, u64) = block.used[first..][0..lanes].*;
                    deal_of.places.remove_sets(used & ~@as(@Vector(lanes, u64), @splat(out)), 2 * run.drawn_len);
                }
                deal_of.size = @intCast(@popCount(encoding.full_deck & ~out) - 2 * run.drawn_len);
            } else if (comptime Deal(lanes, players).by_place32) {
                const out = run.spot.out_cards();
                deal_of.places = .{ .table = run.deck_table32, .whole = out == 0 };
                if (range_tries.Pool(players).keeps_places and run.pooled) {
                    deal_of.places.remove_rows32(block.try_places[first..][0..lanes], 2 * run.drawn_len);
                } else {
                    const used: @Vector(lanes, u64) = block.used[first..][0..lanes].*;
                    deal_of.places.remove_sets(used & ~@as(@Vector(lanes, u64), @splat(out)), 2 * run.drawn_len);
                }
                deal_of.size = @intCast(@popCount(encoding.full_deck & ~out) - 2 * run.drawn_len);
            } else {
                inline for (0..lanes) |l| {
                    deal_of.decks[l] = encoding.full_deck & ~block.used[first + l];
                    std.debug.assert(@popCount(deal_of.decks[l]) == @popCount(deal_of.decks[0]));
                }
                deal_of.size = @popCount(deal_of.decks[0]);
            }
        }

        /// `deal_rest`'s boards: each game's as a word, the known cards' bytes first, then
        /// stored as rows of five bytes.
        pub inline fn deal_boards(run: *const Self, comptime lanes: usize, deal: *Deal(lanes, players), block: *Block(players), first: usize) void {
            if (comptime Deal(lanes, players).by_place) return store_boards(run.board_rows(deal), block.boards[first * 5 ..]);
            var boards: @Vector(lanes, u64) = @splat(run.board_word);
            for (run.board_len..5) |c| {
                const cards: @Vector(lanes, u64) = deal.take();
                boards |= cards << @splat(@as(u6, @intCast(8 * c)));
            }
            // A word a game in order, each store's three bytes past the board rewritten by
            // the next (the last into `Block.board_slack`).
            const words: [lanes]u64 = boards;
            for (words, first..) |word, i| std.mem.writeInt(u64, block.boards[i * 5 ..][0..8], word, .little);
        }

        /// The boards of 64 games dealt by place, as words (byte c card c): the cards'
        /// byte vectors transposed into rows by byte permutes (`deck_lanes.rows_of_bytes`),
        /// where widening each card's bytes to words and shifting them in took about 20
        /// shuffles a card on the one port Golden Cove has for them (known hands +5%
        /// games/s, random vs random +5%, on Xeon: medians of 7 pairs in turn).
        pub inline fn board_rows(run: *const Self, deal: *Deal(deck_lanes.lanes, players)) @Vector(deck_lanes.lanes, u64) {
            var cards: [8]deck_lanes.Bytes = @splat(@splat(0));
            for (run.board_cards[0..run.board_len], 0..) |card, c| cards[c] = @splat(card);
            for (run.board_len..5) |c| cards[c] = deal.take();
            return deck_lanes.rows_of_bytes(u64, cards);
        }

        /// 64 boards as rows of five bytes from their words: each eight words' boards
        /// packed to the front of a vector by one permute and stored whole, each store's
        /// 24 bytes past them rewritten by the next (the last into `Block.board_slack`),
        /// where a word a game went out through memory in 64 loads and stores (known hands
        /// +2.5% games/s, random vs random +1.5%, on Xeon).
        pub inline fn store_boards(rows: @Vector(deck_lanes.lanes, u64), out: []u8) void {
            // The last store reaches `board_slack` bytes past the 64 boards.
            assert(out.len >= deck_lanes.lanes * 5 + board_slack);
            const all: @Vector(8 * deck_lanes.lanes, u8) = @bitCast(rows);
            inline for (0..8) |k| {
                const words = @shuffle(u8, all, undefined, std.simd.iota(i32, 64) + @as(@Vector(64, i32), @splat(64 * k)));
                // In assembly: as a shuffle, LLVM merged it into the transpose's and made
                // byte extracts and inserts of it all (known hands -15% games/s).
                out[40 * k ..][0..64].* = asm ("vpermb %[words], %[mask], %[out]"
                    : [out] "=v" (-> @Vector(64, u8)),
                    : [words] "v" (words),
                      [mask] "v" (pack_mask),
                );
            }
        }

        /// Eight words' low five bytes, one after another; then the words' last byte (0).
        pub const pack_mask: @Vector(64, u8) = mask: {
            var mask: [64]u8 = @splat(7);
            for (0..40) |j| mask[j] = 8 * (j / 5) + j % 5;
            break :mask mask;
        };

        /// Whether a table's deals carry their `places_left` (up to four players).
        pub const by_joint_places = spot_zig.PlacesRow(players) != void;

        /// Whether a game's row of combos, and of hole-card words, is one machine word (two
        /// or four players): the random players' cards then go in as vectors of rows.
        pub const row_words = players == 2 or players == 4;
        pub const Row = @Int(.unsigned, 16 * players);

        /// Whether `deal_random_rows` writes the random players' cards for `lanes` games:
        /// rows of a word (`row_words`), or rows of other widths where 64 games go abreast
        /// (their rows then fill whole vectors). Up to six players: AA vs five
        /// random +6% games/s on the avx512 level (Zen 4), where its rows were written lane
        /// by lane with scalar stores, two a game and seat; not on the avx2 level, whose
        /// 32-byte shuffles across 128-bit halves made it 2-3% slower (bench/NOTES.md).
        pub fn vector_rows(comptime lanes: usize) bool {
            return row_words or (lanes == deck_lanes.lanes and players <= 6);
        }

        /// `deal_rest`'s random players for `vector_rows` tables: each lane's rows of combos
        /// and hole cards loaded whole, a random seat's two bytes of each spread into every
        /// row by byte permutes and blended in, stored whole. A vector store for many games
        /// where there were two scalar stores a game and seat (random vs random +3-5%
        /// games/s, AKs vs random +6%, AA vs 3 random +2%); bytes, not 16- or 32-bit lanes
        /// shifted into place, so no lane is widened: a permute and a blend a vector of rows
        /// where the widening and shifting took four (random vs random +1% games/s on
        /// Xeon, medians of 9 pairs in turn).
        pub inline fn deal_random_rows(
            run: *const Self,
            comptime lanes: usize,
            deal: *Deal(lanes, players),
            block: *Block(players),
            first: usize,
        ) void {
            if (comptime lanes == deck_lanes.lanes32 and players == 2) {
                if (run.random_len == 2) return deal_random_pair32(deal, block, first);
            }
            const row_bytes = 2 * players;
            // The rows as vectors of at most 64 bytes (a row may straddle two).
            const span = @min(64, lanes * row_bytes);
            const spans = lanes * row_bytes / span;
            comptime assert(spans * span == lanes * row_bytes);
            const Span = @Vector(span, u8);
            const held_spans: *align(2) [spans][span]u8 = @ptrCast(&block.held[first]);
            const hole_spans: *align(1) [spans][span]u8 = @ptrCast(block.holes[first * players * 2 ..][0 .. lanes * players * 2]);
            var held: [spans]Span = undefined;
            var holes: [spans]Span = undefined;
            inline for (0..spans) |o| {
                held[o] = held_spans[o];
                holes[o] = hole_spans[o];
            }
            inline for (0..players) |p| {
                if (run.spot.is_random(p)) {
                    const a = deal.take();
                    const b = deal.take();
                    const combo = combos.index_bytes(lanes, a, b);
                    inline for (0..spans) |o| {
                        const seat = comptime seat_bytes(span, o * span, p);
                        const spread = comptime spread_mask(span, o * span, p);
                        held[o] = @select(u8, seat, @shuffle(u8, combo.low, combo.high, spread), held[o]);
                        holes[o] = @select(u8, seat, @shuffle(u8, a, b, spread), holes[o]);
                    }
                }
            }
            inline for (0..spans) |o| {
                held_spans[o] = held[o];
                hole_spans[o] = holes[o];
            }
        }

        /// `deal_random_rows` where both of two players are random, 32 games abreast (the
        /// avx2 level): every byte of the rows is dealt, so none is loaded and blended, and
        /// the four bytes of a game's row are interleaved by unpacks within 128-bit halves
        /// and one cross-half permute a vector of rows, where the generic 64-byte shuffles
        /// took several shuffles and blends each on AVX2.
        pub inline fn deal_random_pair32(deal: *Deal(deck_lanes.lanes32, players), block: *Block(players), first: usize) void {
            comptime assert(players == 2);
            assert(first + deck_lanes.lanes32 <= block_games);
            const a = deal.take();
            const b = deal.take();
            const c = deal.take();
            const d = deal.take();
            const first_combo = combos.index_bytes(deck_lanes.lanes32, a, b);
            const second_combo = combos.index_bytes(deck_lanes.lanes32, c, d);
            const Rows = [4]@Vector(32, u8);
            const held: *align(2) [4][32]u8 = @ptrCast(&block.held[first]);
            const holes: *align(1) [4][32]u8 = @ptrCast(block.holes[first * players * 2 ..][0 .. deck_lanes.lanes32 * players * 2]);
            const held_rows: Rows = interleave4(first_combo.low, first_combo.high, second_combo.low, second_combo.high);
            const hole_rows: Rows = interleave4(a, b, c, d);
            inline for (0..4) |o| {
                held[o] = held_rows[o];
                holes[o] = hole_rows[o];
            }
        }

        /// 32 rows of four bytes, byte j of row g from `x[j][g]`, as four vectors of eight
        /// rows: bytes paired, then pairs paired, by unpacks (`vpunpck*`, within 128-bit
        /// halves), then each vector's halves gathered (`vperm2i128`).
        pub inline fn interleave4(x0: @Vector(32, u8), x1: @Vector(32, u8), x2: @Vector(32, u8), x3: @Vector(32, u8)) [4]@Vector(32, u8) {
            const V = @Vector(32, u8);
            const W = @Vector(16, u16);
            const low01: W = @bitCast(@shuffle(u8, x0, x1, unpack_mask(8, false)));
            const high01: W = @bitCast(@shuffle(u8, x0, x1, unpack_mask(8, true)));
            const low23: W = @bitCast(@shuffle(u8, x2, x3, unpack_mask(8, false)));
            const high23: W = @bitCast(@shuffle(u8, x2, x3, unpack_mask(8, true)));
            // Per half h: rows 16h+0..3, 16h+4..7, 16h+8..11, 16h+12..15.
            const q0: V = @bitCast(@shuffle(u16, low01, low23, unpack_mask(16, false)));
            const q1: V = @bitCast(@shuffle(u16, low01, low23, unpack_mask(16, true)));
            const q2: V = @bitCast(@shuffle(u16, high01, high23, unpack_mask(16, false)));
            const q3: V = @bitCast(@shuffle(u16, high01, high23, unpack_mask(16, true)));
            return .{
                @shuffle(u8, q0, q1, halves_mask(0)),
                @shuffle(u8, q2, q3, halves_mask(0)),
                @shuffle(u8, q0, q1, halves_mask(1)),
                @shuffle(u8, q2, q3, halves_mask(1)),
            };
        }

        /// `vpunpckl*`/`vpunpckh*` on 256 bits of `bits`-bit elements: per 128-bit half, its
        /// low (or high) elements of the two operands alternately.
        fn unpack_mask(comptime elem_bits: usize, comptime high: bool) @Vector(256 / elem_bits, i32) {
            const n = 256 / elem_bits;
            const per_half = n / 2;
            var mask: [n]i32 = undefined;
            for (0..n) |j| {
                const half = j / per_half;
                const k = (j % per_half) / 2 + (if (high) per_half / 2 else 0);
                const at: i32 = @intCast(half * per_half + k);
                mask[j] = if (j % 2 == 0) at else ~at;
            }
            return mask;
        }

        /// Half `which` of the first vector, then the same half of the second.
        fn halves_mask(comptime which: usize) @Vector(32, i32) {
            var mask: [32]i32 = undefined;
            for (0..32) |j| {
                const at: i32 = @intCast(16 * which + j % 16);
                mask[j] = if (j < 16) at else ~at;
            }
            return mask;
        }

        /// The bytes of seat p's u16 in a vector of `span` bytes of rows, from byte
        /// `first_byte` of the rows on.
        pub fn seat_bytes(comptime span: usize, comptime first_byte: usize, comptime p: usize) @Vector(span, bool) {
            @setEvalBranchQuota(4 * span);
            comptime assert(p < players);
            var mask: [span]bool = @splat(false);
            for (0..span) |j| mask[j] = (first_byte + j) % (2 * players) / 2 == p;
            return mask;
        }

        /// A vector of the rows' bytes `first_byte ..`: seat p's low byte from the first
        /// vector's lane of its game, its high byte from the second's; the other bytes
        /// anything (`seat_bytes` keeps them from the row).
        pub fn spread_mask(comptime span: usize, comptime first_byte: usize, comptime p: usize) @Vector(span, i32) {
            @setEvalBranchQuota(4 * span);
            comptime assert(p < players);
            var mask: [span]i32 = @splat(0);
            for (0..span) |j| {
                const game: i32 = @intCast((first_byte + j) / (2 * players));
                const byte = (first_byte + j) % (2 * players);
                if (byte == 2 * p) mask[j] = game;
                if (byte == 2 * p + 1) mask[j] = ~game;
            }
            return mask;
        }
    };
}

/// `Run`'s games played out: each showdown ranked, counted and settled into the sums.
fn Showdowns(comptime players: usize) type {
    return struct {
        const Self = Run(players);

        /// How `play` adds its games up: weighted Sums (`settle`), integer counts
        /// (`count_game`), or integer counts with each group of games that share a deal
        /// (`Run.games_a_deal`) counted as one weighted game for the standard error.
        pub const Mode = enum { weighted, counted, grouped };

        pub fn play(
            run: *const Self,
            key: u64,
            first_game: u64,
            games: u64,
            out: anytype,
            comptime mode: Mode,
        ) void {
            // Integer counts hold a combo's games in half a word (`Counts`).
            assert(mode == .weighted or games < 1 << 32);
            assert((mode == .grouped) == (run.games_a_deal > 1));
            var block: Block(players) = undefined;
            run.fill_block(&block);
            var group: Group(players) = .{};
            var game = first_game;
            const end = first_game + games;
            while (game < end) {
                const count: usize = @intCast(@min(block_games, end - game));
                run.deal_block(key, game, count, &block);
                run.rank_games(&block, count);
                for (0..count) |i| {
                    const ranks = block.ranks[i * players ..];
                    switch (mode) {
                        .weighted => settle(ranks[0..players], &block.held[i], block.weights[i], out),
                        .counted => count_game(ranks, &block.held[i], out, {}),
                        .grouped => {
                            count_game(ranks, &block.held[i], out, &group);
                            // A group ends at a multiple of its size, or where the call does.
                            // (A power of two: a mask, where `%` was a division a game.)
                            const next = game + i + 1;
                            if (next & (run.games_a_deal - 1) == 0 or next == end) group.flush(&block.held[i], run.games_a_deal, out);
                        },
                    }
                }
                game += count;
            }
            assert(game == end);
            assert(group.games == 0);
        }

        /// Counts a game from its ranks (`ranks[0..players]`; at least `rank_lanes` readable,
        /// `Block.ranks`' slack past the last game). Most games have one winner: each
        /// player's game and the winner's win are one add a player, of the row of
        /// `increments` the winner picks (the last row, games alone, for a split), where a
        /// compare and a shift a player built them; the outcome's four counts a player are
        /// worked out only for a split.
        /// Ranks the block's first `count` games: the vector showdown's blocks of rows
        /// dealt, past the games to a whole block, where there is one; else the checked
        /// batch showdown, each game dealt from one deck never bad.
        pub fn rank_games(run: *const Self, block: *Block(players), count: usize) void {
            _ = run;
            assert(count >= 1 and count <= block_games);
            if (comptime showdown.available) {
                const rows = Block(players).ranked_rows(count);
                return showdown.rank_dealt(5, players, &block.boards, &block.holes, block.ranks[0 .. rows * players]);
            }
            const ranked = batch.rank_showdown(&block.boards, 5, &block.holes, players, block.ranks[0 .. count * players]);
            std.debug.assert(ranked == null); // dealt from one deck: never a bad row
        }

        /// `group`: void, or the `Group` the game is in, which takes its pot units too.
        pub inline fn count_game(
            ranks: []const u16,
            held: *const [players]u16,
            out: Tally,
            group: anytype,
        ) void {
            assert(ranks.len >= rank_lanes);
            const grouped = @TypeOf(group) != void;
            const top = if (comptime vector_best) best_in_lanes(ranks[0..rank_lanes]) else best_in_row(ranks[0..players]);
            assert(top.winners >= 1 and top.winners <= players);
            assert(top.winner < players);
            const alone = top.winners == 1;
            if (grouped) {
                group.add(held, alone, top.winner);
            } else {
                const row = &increments[if (alone) top.winner else players];
                const games_and_wins = out.of_count(.games_and_wins);
                inline for (held, row, 0..) |combo, increment, p| games_and_wins[p * spot_zig.slots + combo] += increment;
            }
            if (alone) return;
            const outcome: Outcome(players) = .of(ranks[0..players]);
            inline for (held, 0..) |combo, p| {
                const slot = p * spot_zig.slots + combo;
                out.of_count(.ties)[slot] += outcome.ties[p];
                out.of_count(.tie_units)[slot] += outcome.ties[p] * outcome.units[p];
                out.of_count(.tie_units_squared)[slot] += outcome.ties[p] * outcome.units_squared[p];
                if (grouped) group.tie_units[p] += outcome.ties[p] * outcome.units[p];
            }
        }

        /// A game's best rank, how many players hold it, and the first of them.
        const Top = struct { winners: u32, winner: u32 };

        /// Whether `count_game` finds the best rank by `phminposuw` (SSE4.1: the avx2 and
        /// avx512 levels): a game's ranks in one 16-byte load, the lanes past its players
        /// masked off, where six ranks a game took five maxes, six compares and their sum
        /// (bench/NOTES.md, 2026-12-07 17:40: no faster alone, within the noise).
        const vector_best = has_minpos and players <= 8;
        /// Ranks `count_game` reads from a game's first on.
        pub const rank_lanes = if (vector_best) 8 else players;
        const Ranks8 = @Vector(8, u16);

        /// Per winner, each player's add to its games-and-wins word: a game, and the
        /// winner's win in the high half; past them (a split), a game each.
        const increments: [players + 1][players]u64 = table: {
            var table: [players + 1][players]u64 = @splat(@splat(1));
            for (0..players) |w| table[w][w] = 1 | 1 << 32;
            break :table table;
        };

        inline fn best_in_row(ranks: *const [players]u16) Top {
            var best: u16 = 0;
            inline for (ranks) |rank| best = @max(best, rank);
            var winners: u32 = 0;
            var winner: u32 = 0;
            inline for (ranks, 0..) |rank, p| {
                const is_best = @intFromBool(rank == best);
                winners += is_best;
                winner |= is_best * @as(u32, p); // the one winner's number, where alone
            }
            return .{ .winners = winners, .winner = if (winners == 1) winner else 0 };
        }

        /// `best_in_row` by `phminposuw`: the least of the ranks' complements (lanes past
        /// the players 0xFFFF, never below a player's) is the best rank, its lane the first
        /// player holding it.
        inline fn best_in_lanes(ranks: *const [8]u16) Top {
            const row: Ranks8 = ranks.*;
            const real = comptime std.simd.iota(u16, 8) < @as(Ranks8, @splat(players));
            const pads = @select(u16, real, @as(Ranks8, @splat(0)), @as(Ranks8, @splat(0xffff)));
            const found = @"llvm.x86.sse41.phminposuw"(~row | pads);
            const best = ~found[0];
            const holders: u8 = @bitCast((row == @as(Ranks8, @splat(best))) & real);
            return .{ .winners = @popCount(holders), .winner = found[1] };
        }

        pub inline fn settle(
            ranks: *const [players]u16,
            held: *const [players]u16,
            weight: f64,
            out: []Sums,
        ) void {
            assert(weight >= 0);
            if (weight == 0) return;
            const outcome: Outcome(players) = .of(ranks);
            const w2 = weight * weight;
            inline for (held, 0..) |combo, p| {
                const units: f64 = @floatFromInt(outcome.units[p]);
                const sums = &out[p * spot_zig.slots + combo];
                sums.games += weight;
                sums.wins += weight * @as(f64, @floatFromInt(outcome.wins[p]));
                sums.ties += weight * @as(f64, @floatFromInt(outcome.ties[p]));
                sums.shares += weight * units;
                sums.w2 += w2;
                sums.w2_shares += w2 * units;
                sums.w2_shares2 += w2 * @as(f64, @floatFromInt(outcome.units_squared[p]));
            }
        }
    };
}

/// The games of one deal so far (`Run.games_a_deal`, fewer at a call's edges), all
/// holding the same combos: each player's games and wins over them, added to its slot once
/// at the group's end where each game added them (six ranges, 24 scattered adds a group of
/// four, not 6), and its pot units; the group counts as one game of weight `games` and
/// share units / games for the standard error.
fn Group(comptime players: usize) type {
    return struct {
        const Self = @This();
        /// A byte a player: its wins alone in the group (at most `grouped_games_a_deal`).
        const Wins = @Int(.unsigned, 8 * players);

        comptime {
            assert(grouped_games_a_deal < 1 << 8);
        }

        /// Each player's wins alone so far, a byte each: one shift and add a game, where a
        /// vector of each player's games-and-wins words (six ranges: 48 bytes, a register and
        /// a half) was moved between registers and the stack every game.
        wins: Wins = 0,
        /// Each player's pot units from split pots (a win alone is `pot_units`).
        tie_units: [players]u64 = @splat(0),
        games: u64 = 0,
        /// The combos every game of the group holds, kept to check where asserts are.
        held: if (checked) [players]u16 else void = undefined,

        const checked = std.debug.runtime_safety;

        /// A game of the group: `winner` wins it where `alone`, else it is split.
        inline fn add(group: *Self, held: *const [players]u16, alone: bool, winner: u32) void {
            assert(winner < players);
            if (checked) {
                if (group.games == 0) group.held = held.*;
                assert(std.mem.eql(u16, &group.held, held));
            }
            group.games += 1;
            group.wins += @as(Wins, @intFromBool(alone)) << @intCast(8 * winner);
        }

        /// Adds the group's games and wins and S² to each player's slot, and where it is cut
        /// short (m < K = `games_a_deal`) what its m² and m·S fall short of K·m and K·S
        /// (`add_counts`); then starts the next.
        inline fn flush(group: *Self, held: *const [players]u16, games_a_deal: u64, out: Tally) void {
            const m = group.games;
            assert(m >= 1 and m <= games_a_deal);
            if (checked) assert(std.mem.eql(u16, &group.held, held));
            inline for (held, group.tie_units, 0..) |combo, tie_units, p| {
                const add_p = m | @as(u64, @as(u8, @truncate(group.wins >> (8 * p)))) << 32;
                const units = (add_p >> 32) * pot_units + tie_units;
                assert(units <= m * pot_units);
                const slot = p * spot_zig.slots + combo;
                out.of_count(.games_and_wins)[slot] += add_p;
                out.of_count(.group_shares2)[slot] += units * units;
                if (m != games_a_deal) {
                    out.of_count(.group_w2_short)[slot] += m * (games_a_deal - m);
                    out.of_count(.group_w2_shares_short)[slot] += (games_a_deal - m) * units;
                }
            }
            group.* = .{};
        }
    };
}

/// `lanes` games dealt in lockstep from decks of one size, each from its game's stream.
///
/// Cards are drawn several to a random word of 52 bits: a draw takes the bits of word ×
/// size from 52 up and keeps the low 52 as the next word (Lemire's multiply-shift, reused;
/// `random.multiply52_lanes`): the `draws_per_word` cards of a word are uniform within
/// 8e-8 (a deal's five board cards, one word). 52 bits, not 64, because AVX512-IFMA
/// multiplies them in two instructions a vector where a 64-bit word took ten (in turn on
/// Xeon: random vs random +8% games/s, known hands +7%; five draws a word, not four, a
/// further +5% and +4%).
///
/// The lanes live in vectors. On the avx512 level 64 games go abreast and a draw is found by its place in
/// the deck every lane started from (`cards/deck_lanes.zig`): against the select on 32 lanes' bit
/// sets it replaced, known hands +16% games/s, random vs random +28%, QQ+,AKs vs JJ-99,AQs+
/// +10%, AA vs three random +14%, six range players alike (their 12 cards taken out first
/// cost what the select saved). On the avx2 level 32 games go abreast, dealt by place the
/// same way (`deck_lanes.DeckLanesOf(32, …)`, four `vpshufb` a lookup), and the 52-bit words
/// are kept as 26-bit halves so a draw is two 32-bit multiplies (`random.multiply26_lanes`):
/// AVX2 has no 64-bit multiply. Against eight lanes' scalar select (a PDEP each), on Zen 4
/// running the avx2 level: known hands +44% games/s, random vs random +43-52% (0.72-0.84x
/// the known-hands rate, 0.61-0.70x before; bench/NOTES.md, 2026-12-06). The baseline level selects in each lane's bit set. The
/// cards are the same on every level: the same draws, the n-th card left.
fn Deal(comptime lanes: usize, comptime players: usize) type {
    return struct {
        streams: *[lanes]Stream,
        /// Each lane's deck as a set, where a card is selected in it.
        decks: Lanes = undefined,
        /// The lanes' decks by place, where bytes permute.
        places: if (by_place) deck_lanes.DeckLanes(2 * players + 5) else if (by_place32) deck_lanes.DeckLanesOf(lanes, 2 * players + 5) else void = undefined,
        /// The word each lane draws from.
        words: Lanes = undefined,
        /// The same words as 26-bit halves, where 32 lanes deal by place
        /// (`random.multiply26_lanes`).
        high: if (by_place32) Halves else void = undefined,
        low: if (by_place32) Halves else void = undefined,
        size: u32 = 0,
        /// Draws left in the lanes' words: the lanes start fresh words together.
        draws_left: u32 = 0,

        const Lanes = @Vector(lanes, u64);
        const draws_per_word = 5;
        const by_place = deck_lanes.available and lanes == deck_lanes.lanes;
        const by_place32 = deck_lanes.available32 and lanes == deck_lanes.lanes32;
        const Halves = @Vector(lanes, u32);

        /// A card of each lane's deck, uniform among them, taken out.
        inline fn take(deal: *@This()) @Vector(lanes, u8) {
            if (comptime by_place32) return deal.take32();
            if (deal.draws_left == 0) {
                if (comptime by_place) {
                    // `Stream.next` of every lane in one vector: the same words, without
                    // 64 scalar mixes (two multiplies each) in a row.
                    // The states as one array of words (`Stream` is extern: a word), loaded
                    // and stored as vectors: lane by lane they were 64 inserts and extracts.
                    const words: *[lanes]u64 = @ptrCast(deal.streams);
                    const states = @as(Lanes, words.*) +% @as(Lanes, @splat(random.golden_gamma));
                    words.* = states;
                    deal.words = random.mix64_lanes(lanes, states) >> @splat(12);
                } else inline for (0..lanes) |l| deal.words[l] = deal.streams[l].next() >> 12;
                deal.draws_left = draws_per_word;
            }
            assert(deal.draws_left > 0);
            assert(deal.size > 0);
            deal.draws_left -= 1;
            const product = random.multiply52_lanes(lanes, deal.words, deal.size);
            deal.words = product.low;
            deal.size -= 1;
            if (comptime by_place) return deal.places.take(deck_lanes.low_bytes(product.high));
            var cards: Lanes = undefined;
            inline for (0..lanes) |l| cards[l] = bits.nth_set_bit(deal.decks[l], @intCast(product.high[l]));
            deal.decks &= ~(@as(Lanes, @splat(1)) << @intCast(cards));
            return @intCast(cards);
        }

        /// `take` on the avx2 level: the same words mixed in vectors, then kept and drawn
        /// from as 26-bit halves in 32-bit lanes, the card found by its place.
        inline fn take32(deal: *@This()) @Vector(lanes, u8) {
            if (deal.draws_left == 0) {
                const words: *[lanes]u64 = @ptrCast(deal.streams);
                const states = @as(Lanes, words.*) +% @as(Lanes, @splat(random.golden_gamma));
                words.* = states;
                const mixed = random.mix64_lanes(lanes, states) >> @splat(12);
                deal.high = @truncate(mixed >> @splat(26));
                deal.low = @as(Halves, @truncate(mixed)) & @as(Halves, @splat(random.half26_mask));
                deal.draws_left = draws_per_word;
            }
            assert(deal.draws_left > 0);
            assert(deal.size > 0);
            deal.draws_left -= 1;
            const split = random.multiply26_lanes(lanes, deal.high, deal.low, deal.size);
            deal.high = split.high;
            deal.low = split.low;
            deal.size -= 1;
            return deal.places.take(@truncate(split.draw));
        }
    };
}

/// A combo of player p by weight (Walker's alias method).
/// One word serves both: its high 32 bits pick the entry (multiply-shift), its low 32 bits
/// the coin (a keep probability quantised to 2^-32: a bias under 1e-9 a combo).
inline fn alias_draw(spot: *const Spot, p: usize, stream: *Stream) u16 {
    const word = stream.next();
    const i = ((word >> 32) * spot.support_len[p]) >> 32;
    const coin = @as(f64, @floatFromInt(word & 0xffff_ffff)) * 0x1.0p-32;
    return alias_pick(spot, p, i, coin);
}

/// A combo of player p by weight from 32 random bits: their product with the table's size
/// picks the entry (its high word) and the coin (its low word: given the entry, uniform on
/// a grid of step size/2^32, a bias under 3.1e-7 a combo). Half a word a draw, where
/// `alias_draw` takes a word: `draw_rejected`'s tries mix half as many.
inline fn alias_half(spot: *const Spot, p: usize, bits32: u32) u16 {
    const product = @as(u64, bits32) * spot.support_len[p];
    const coin = @as(f64, @floatFromInt(product & 0xffff_ffff)) * 0x1.0p-32;
    return alias_pick(spot, p, product >> 32, coin);
}

/// The table's part of `alias_draw`: entry `i`, or its alias by `coin`. Equal weights keep
/// every entry (`spot.build_alias`): the entry is the combo, nothing more loaded to learn it.
inline fn alias_pick(spot: *const Spot, p: usize, i: u64, coin: f64) u16 {
    assert(i < spot.support_len[p]);
    if (spot.uniform_weights[p] != 0) return spot.support[p][i];
    const kept = coin < spot.alias_keep[p][i];
    return spot.support[p][if (kept) i else spot.alias_other[p][i]];
}

/// Some combo of player p meeting no card of `used`, or else any two cards left: the cards
/// of a game that counts for nothing.
fn first_free(spot: *const Spot, p: usize, used: u64) u16 {
    for (spot.support[p][0..spot.support_len[p]]) |combo| {
        if (combos.set(combo) & used == 0) return combo;
    }
    const free = encoding.full_deck & ~used;
    // At most six players and five board cards: many cards are always left.
    assert(@popCount(free) >= 2);
    const a = @ctz(free);
    const combo = combos.index[a][@ctz(free & (free - 1))];
    assert(combos.set(combo) & used == 0);
    return combo;
}

/// A combo of player p by weight among those meeting no card of `used`, `left` their weight.
inline fn draw_without(spot: *const Spot, p: usize, used: u64, left: f64, stream: *Stream) u16 {
    assert(left > 0);
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

/// For tests: `games` games of the stream `key` in one call, checked equal to the same games
/// split at `cut` over two calls; returns the one call's sums (the caller frees them).
fn sample_checked_split(spot: *const Spot, key: u64, games: u64, cut: u64) ![]Sums {
    const page = std.heap.page_allocator;
    const whole, const split = try sample_split(spot, key, games, cut);
    defer page.free(split);
    errdefer page.free(whole);
    try std.testing.expectEqualSlices(Sums, whole, split);
    return whole;
}

/// For tests: `games` games of the stream `key` in one call, and the same games split at
/// `cut` over two calls (the caller frees both).
fn sample_split(spot: *const Spot, key: u64, games: u64, cut: u64) ![2][]Sums {
    assert(cut <= games);
    const page = std.heap.page_allocator;
    const n = spot.players * spot_zig.slots;
    const counts = try page.alloc(Counts, n);
    defer page.free(counts);
    const split = try page.alloc(Sums, n);
    errdefer page.free(split);
    const whole = try page.alloc(Sums, n);
    errdefer page.free(whole);
    @memset(whole, .{});
    @memset(split, .{});
    sample(spot, key, 0, games, counts, whole);
    sample(spot, key, 0, cut, counts, split);
    sample(spot, key, cut, games - cut, counts, split);
    return .{ whole, split };
}

/// This file's kernel, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// `sample` on a prepared spot, games (key, first game, count) with per-combo counts as
/// scratch, adding to `players * spot.slots` Sums.
pub const kernels = struct {
    pub fn equity_sample(spot: *const Spot, key: u64, first_game: u64, games: u64, counts: [*]Counts, out: [*]Sums) callconv(.c) void {
        const n = spot.players * spot_zig.slots;
        sample(spot, key, first_game, games, counts[0..n], out[0..n]);
    }
};

test "sample: known hands close to exact, the same games whatever the split" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    var weights: [2 * combos.count]f64 = @splat(0);
    weights[combos.index[12][25]] = 1; // As Ac
    weights[combos.count + combos.index[11][24]] = 1; // Ks Kc
    try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), spot_zig.prepare(spot, &weights, 2, 0, 0, 0));
    const whole = try sample_checked_split(spot, random.seed_key(1), 20_000, 7_001);
    defer page.free(whole);
    const aces = whole[combos.index[12][25]];
    try std.testing.expectEqual(@as(f64, 20_000), aces.games);
    // AA vs KK: 81.95% exactly (pp.equity's exact count); 20,000 games: stderr 0.27%.
    try std.testing.expect(@abs(aces.shares / pot_units / aces.games - 0.8195) < 0.012);
}

test "sample: range and random players, every game counted once, the same whatever the split" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    const players = 4;
    // AA, random, KK or QQ, random: one range player then two (a table of their deals).
    var weights: [players * combos.count]f64 = @splat(0);
    for (0..4) |a| for (a + 1..4) |b| {
        weights[combos.index[12 * 4 + a][12 * 4 + b]] = 1;
        weights[2 * combos.count + combos.index[11 * 4 + a][11 * 4 + b]] = 1;
        weights[2 * combos.count + combos.index[10 * 4 + a][10 * 4 + b]] = 1;
    };
    @memset(weights[combos.count..][0..combos.count], 1);
    @memset(weights[3 * combos.count ..][0..combos.count], 1);
    for ([_]bool{ false, true }) |joint| {
        if (joint) {
            try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), spot_zig.prepare(spot, &weights, players, 0b1010, 0, 0));
            spot_zig.prepare_joint(spot, page);
            try std.testing.expect(spot.joint_len > 0);
        } else {
            // AA alone holds a range: the random players and KK,QQ's place taken by a third.
            var one_range = weights;
            @memset(one_range[2 * combos.count ..][0..combos.count], 1);
            try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), spot_zig.prepare(spot, &one_range, players, 0b1110, 0, 0));
        }
        defer spot_zig.release_joint(spot, page);
        const whole = try sample_checked_split(spot, random.seed_key(9), 10_000, 4_321);
        defer page.free(whole);
        var shares: f64 = 0;
        for (0..players) |p| {
            var games: f64 = 0;
            for (whole[p * spot_zig.slots ..][0..spot_zig.slots]) |sums| {
                games += sums.games;
                shares += sums.shares;
            }
            try std.testing.expectEqual(@as(f64, 10_000), games);
        }
        try std.testing.expectEqual(@as(f64, 10_000 * pot_units), shares);
    }
}

test "sample: range players of equal weights by batches of tries, the same whatever the split" {
    // Four players on every combo holding an ace (A2+): drawn by rejection, in batches of
    // one stage (a word's draws).
    try check_pooled_split(4, struct {
        fn holds(a: usize, b: usize) bool {
            return a / 4 == 12 or b / 4 == 12;
        }
    }.holds);
    // Six players on 22+,A2+,K2+: two stages, the last two players drawn for the tries
    // whose first four fit.
    try check_pooled_split(6, struct {
        fn holds(a: usize, b: usize) bool {
            return a / 4 == b / 4 or a / 4 >= 11 or b / 4 >= 11;
        }
    }.holds);
}

test "sample: six players on 22+,A2+,K2+ play each deal on a group of games, the same whatever the split" {
    const page = std.heap.page_allocator;
    const players = 6;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    try prepare_everywhere(players, spot, struct {
        fn holds(a: usize, b: usize) bool {
            return a / 4 == b / 4 or a / 4 >= 11 or b / 4 >= 11;
        }
    }.holds);
    const run: Run(players) = .init(spot);
    // About a tenth of the tries kept: each deal played on a group of games.
    try std.testing.expectEqual(@as(u64, grouped_games_a_deal), run.games_a_deal);
    const games = 9_000;
    const key = random.seed_key(5);
    // Split at a multiple of the group (inside a chunk of tries): the same Sums exactly.
    const whole = try sample_checked_split(spot, key, games, range_tries.chunk_games + 4 * 19);
    defer page.free(whole);
    // Split inside a group: the same games, each in two groups of the split's calls.
    const again, const split = try sample_split(spot, key, games, range_tries.chunk_games + 4 * 19 + 1);
    defer page.free(again);
    defer page.free(split);
    try std.testing.expectEqualSlices(Sums, whole, again);
    var w2_changed = false;
    for (whole, split) |a, b| {
        try std.testing.expectEqual(a.games, b.games);
        try std.testing.expectEqual(a.wins, b.wins);
        try std.testing.expectEqual(a.ties, b.ties);
        try std.testing.expectEqual(a.shares, b.shares);
        w2_changed = w2_changed or a.w2 != b.w2;
    }
    try std.testing.expect(w2_changed); // the cut group counted as two of 1 and 3 games
    // Whole groups of 4 games: a player's w2 sums 4² a group, w2_shares 4 times its shares.
    for (0..players) |p| {
        var total: Sums = .{};
        for (whole[p * spot_zig.slots ..][0..spot_zig.slots]) |sums| {
            total.games += sums.games;
            total.shares += sums.shares;
            total.w2 += sums.w2;
            total.w2_shares += sums.w2_shares;
        }
        try std.testing.expectEqual(@as(f64, games), total.games);
        try std.testing.expectEqual(@as(f64, grouped_games_a_deal * games), total.w2);
        try std.testing.expectEqual(grouped_games_a_deal * total.shares, total.w2_shares);
    }
}

/// For tests: `spot` prepared for `players` players, each on the combos (cards a, b) where
/// `holds(a, b)`.
fn prepare_everywhere(comptime players: usize, spot: *Spot, comptime holds: fn (usize, usize) bool) !void {
    var weights: [players * combos.count]f64 = @splat(0);
    for (0..encoding.card_count) |a| for (a + 1..encoding.card_count) |b| {
        if (!holds(a, b)) continue;
        for (0..players) |p| weights[p * combos.count + combos.index[a][b]] = 1;
    };
    try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), spot_zig.prepare(spot, &weights, players, 0, 0, 0));
}

/// `players` players on the combos (cards a, b) where `holds(a, b)`, drawn in batches of
/// tries: every game counted once, the same whatever the split of the calls.
fn check_pooled_split(comptime players: usize, comptime holds: fn (usize, usize) bool) !void {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    try prepare_everywhere(players, spot, holds);
    const run: Run(players) = .init(spot);
    try std.testing.expect(run.pooled);
    // Cuts inside a chunk of tries and past its end: each call draws its chunk's deals again
    // (at a multiple of a group's games, where they are grouped).
    const cut: u64 = range_tries.chunk_games + @as(u64, if (run.games_a_deal > 1) 4 * 19 else 77);
    const whole = try sample_checked_split(spot, random.seed_key(5), 9_000, cut);
    defer page.free(whole);
    var games: f64 = 0;
    for (whole[0..spot_zig.slots]) |sums| games += sums.games;
    try std.testing.expectEqual(@as(f64, 9_000), games);
}

test "deal_whole_block: random vs random, the games deal_rest deals" {
    if (comptime !Deal(deck_lanes.lanes32, 2).by_place32) return error.SkipZigTest;
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    const weights: [2 * combos.count]f64 = @splat(1);
    try std.testing.expectEqual(@as(?@import("../cards/failure.zig").HandError, null), spot_zig.prepare(spot, &weights, 2, 0b11, 0, 0));
    const run: Run(2) = .init(spot);
    try std.testing.expect(run.whole_pair());
    const blocks = try page.alloc(Block(2), 2);
    defer page.free(blocks);
    const whole, const general = .{ &blocks[0], &blocks[1] };
    run.fill_block(whole);
    run.fill_block(general);
    const key = random.seed_key(3);
    // A whole block, and one with a tail of games dealt one at a time.
    for ([_]usize{ block_games, 77 }) |count| {
        run.deal_whole_block(key, 1_000 + count, count, whole);
        var i: usize = 0;
        while (i + deck_lanes.lanes32 <= count) : (i += deck_lanes.lanes32) {
            var streams: [deck_lanes.lanes32]Stream = undefined;
            run.start_games(deck_lanes.lanes32, key, 1_000 + count + i, general, i, &streams);
            run.deal_rest(deck_lanes.lanes32, &streams, general, i);
        }
        for (i..count) |j| {
            var one = [1]Stream{run.start_game(key, 1_000 + count + j, general, j)};
            run.deal_rest(1, &one, general, j);
        }
        try std.testing.expectEqualSlices(u8, general.boards[0 .. count * 5], whole.boards[0 .. count * 5]);
        try std.testing.expectEqualSlices(u8, general.holes[0 .. count * 4], whole.holes[0 .. count * 4]);
        for (general.held[0..count], whole.held[0..count]) |a, b| try std.testing.expectEqualSlices(u16, &a, &b);
    }
}

test "store_boards32: each game's five cards as its row, zeros past the last" {
    var cards: [5][32]u8 = undefined;
    for (&cards, 0..) |*card, c| {
        for (card, 0..) |*b, g| b.* = @intCast((g * 7 + c * 13 + 1) % 52);
    }
    var vectors: [5]@Vector(32, u8) = undefined;
    for (&vectors, cards) |*v, card| v.* = card;
    var out: [32 * 5 + 6]u8 = @splat(0xff);
    Dealing(2).store_boards32(vectors, &out);
    for (0..32) |g| {
        for (cards, 0..) |card, c| try std.testing.expectEqual(card[g], out[g * 5 + c]);
    }
    try std.testing.expectEqualSlices(u8, &@as([6]u8, @splat(0)), out[32 * 5 ..]);
}

test "interleave4: byte j of row g from vector j's lane g" {
    var x: [4][32]u8 = undefined;
    for (&x, 0..) |*v, j| {
        for (v, 0..) |*b, g| b.* = @intCast(4 * g + j);
    }
    const rows = Dealing(2).interleave4(x[0], x[1], x[2], x[3]);
    for (rows, 0..) |row, o| {
        const got: [32]u8 = row;
        for (got, 0..) |b, k| try std.testing.expectEqual(@as(u8, @intCast(32 * o + k)), b);
    }
}
