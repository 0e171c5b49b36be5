//! Exact equity of known hands: every board completion for one deal of hole cards, counted
//! (`exact`). Monte Carlo, and exact equity over ranges on a board, are equity/monte_carlo.zig and
//! equity/range_exact.zig; preflop, exact equity over ranges runs `exact` once per deal of combos
//! (pypoker/_equity_runs.py).
//!
//! Each player's hole cards are tallied once. Boards are counted in groups that rank alike,
//! and the boards with a flush corrected in groups too (see `exact`). A board's pot is
//! shared among the players holding its best rank; shares are counted in whole units of
//! 1/2520 of a pot (2520 = lcm(1..10), so every split is exact).
const std = @import("std");
const eval = @import("../rank/eval.zig");
const encoding = @import("../cards/encoding.zig");
const random = @import("../cards/random.zig");
const assert = std.debug.assert;
const known_exact = @This();

/// A showdown needs two players; ten is the most equity takes.
pub const players_min = 2;
pub const players_max = 10;
pub const board_cards_max = encoding.board_cards_max;
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

/// The rows of a known-hands result (`write_result`), each `players` doubles: equity (pot
/// share), win and tie (fractions of the boards), then the tallies as counts.
pub const ResultRow = enum(u32) {
    equity = 0,
    win = 1,
    tie = 2,
    wins = 3,
    ties = 4,
    share_units = 5,
    share_units_squared = 6,

    pub const c_name = "pp_known_row";
};

pub const result_rows: u32 = @typeInfo(ResultRow).@"enum".field_names.len;

/// Each player's `tallies` over `games` boards → `result_rows` rows of `players` doubles
/// (`ResultRow`), the figures pypoker's results hold, so a small call's Python reads them
/// and builds nothing. Equity is (share units / pot_units) / games, win wins / games and tie
/// ties / games, in that order: the divisions pypoker/equity_result.py makes from the sums of
/// any other run, so the two agree bit for bit.
pub fn write_result(tallies: []const Tally, games: u64, out: []f64) void {
    const players = tallies.len;
    assert(players >= 2);
    assert(players <= players_max);
    assert(games > 0);
    assert(out.len == result_rows * players);
    const boards: f64 = @floatFromInt(games);
    for (tallies, 0..) |tally, player| {
        // Every count converts exactly (below 2^53): a share's square is at most pot_units^2
        // (< 2^23) a board, over at most C(48, 5) (< 2^21) boards.
        const wins: f64 = @floatFromInt(tally.wins);
        const ties: f64 = @floatFromInt(tally.ties);
        const share_units: f64 = @floatFromInt(tally.share_units);
        const squares: f64 = @floatFromInt(tally.share_units_squared);
        const at = out[player..];
        at[result_index(.equity, players)] = equity_of(tally, boards);
        at[result_index(.win, players)] = wins / boards;
        at[result_index(.tie, players)] = ties / boards;
        at[result_index(.wins, players)] = wins;
        at[result_index(.ties, players)] = ties;
        at[result_index(.share_units, players)] = share_units;
        at[result_index(.share_units_squared, players)] = squares;
    }
}

/// A player's pot share over `boards` boards: (share units / pot_units) / boards, the one
/// order every result divides in (pypoker/equity_result.py's `equities` too).
inline fn equity_of(tally: Tally, boards: f64) f64 {
    const units_per_pot: f64 = @floatFromInt(pot_units);
    return @as(f64, @floatFromInt(tally.share_units)) / units_per_pot / boards;
}

/// Where `row` starts in a result of `players` players.
fn result_index(row: ResultRow, players: usize) usize {
    assert(players <= players_max);
    assert(@backingInt(row) < result_rows);
    return @as(usize, @backingInt(row)) * players;
}

pub const Table = struct {
    holes: []const encoding.Accumulator,
    tallies: []Tally,
    games: u64 = 0,

    /// Adds `boards` boards' pots won by the players holding the best of `ranks` (the pots'
    /// share only: the boards are counted in `games` by the caller, once).
    inline fn add_shares(
        table: *Table,
        comptime players: usize,
        ranks: *const [players]u16,
        boards: u64,
    ) void {
        const outcome: Outcome(players) = .of(ranks);
        inline for (0..players) |i| {
            const tally = &table.tallies[i];
            tally.wins +%= outcome.wins[i] *% boards;
            tally.ties +%= outcome.ties[i] *% boards;
            tally.share_units +%= outcome.units[i] *% boards;
            tally.share_units_squared +%= outcome.units_squared[i] *% boards;
        }
    }
};

/// Boards counted on their way to a `Table`: `add` a board's ranking (`boards` times),
/// `correct` a ranking counted wrongly (take it back, add the true one), `fold` into the
/// table once at the end.
///
/// Counts may pass through the two's complement of a number (`0 -% n`): exact enumeration
/// takes back a fingerprint ranking that way, so every count adds modulo 2^64 and only the
/// finished sum (never negative) is meaningful. Branch-free: who wins a random board is a
/// coin toss to the branch predictor, and a miss a board would cost more than all the rest.
pub fn Pots(comptime players: usize) type {
    return if (players <= winner_sets_players_max) WinnerSets(players) else PlayerShares(players);
}

/// Up to this many players, `Pots` counts boards by their set of winners (2^players counts).
const winner_sets_players_max = 4;

/// Boards counted by who wins them: one count per set of winners (bit i: player i holds the
/// best rank), in a vector, so a board costs a few compares and one masked add where sharing
/// its pot costs four multiply-adds a player; `fold` shares each set's pots once. Exact
/// equity in turn on Xeon Ice Lake, against sharing each group's pot: QQ+,AKs vs JJ-99,AQs+
/// preflop 0.72 of the time, AhKh vs random 0.69, JJ+ vs AKs vs QQ 0.52.
fn WinnerSets(comptime players: usize) type {
    return struct {
        const Self = @This();
        const sets = 1 << players;
        const Counts = @Vector(sets, u64);
        const set_names: Counts = std.simd.iota(u64, sets);

        comptime {
            assert(players >= 2);
            assert(players <= winner_sets_players_max);
        }

        counts: Counts = @splat(0),
        games: u64 = 0,

        inline fn winners(ranks: *const [players]u16) Counts {
            var best: u16 = 0;
            inline for (ranks) |rank| best = @max(best, rank);
            var set: u64 = 0;
            inline for (ranks, 0..) |rank, i| set |= @as(u64, @intFromBool(rank == best)) << i;
            assert(set != 0); // someone holds the best rank
            return @splat(set);
        }

        pub inline fn add(pots: *Self, ranks: *const [players]u16, boards: u64) void {
            const zero: Counts = @splat(0);
            pots.counts +%= @select(u64, set_names == winners(ranks), @as(Counts, @splat(boards)), zero);
            pots.games +%= boards;
        }

        pub inline fn correct(
            pots: *Self,
            true_ranks: *const [players]u16,
            counted: *const [players]u16,
            boards: u64,
        ) void {
            const zero: Counts = @splat(0);
            const all: Counts = @splat(boards);
            pots.counts +%= @select(u64, set_names == winners(true_ranks), all, zero) -%
                @select(u64, set_names == winners(counted), all, zero);
        }

        pub inline fn merge(pots: *Self, other: Self) void {
            pots.counts +%= other.counts;
            pots.games +%= other.games;
        }

        pub fn fold(pots: Self, table: *Table) void {
            const counts: [sets]u64 = pots.counts;
            // Pair of `winners`: no board is counted without a winner (`correct` takes
            // back what it adds, always to a set of one or more).
            assert(counts[0] == 0);
            assert(table.tallies.len >= players);
            for (counts[1..], 1..) |boards, set| {
                // The winners hold rank 1, the others 0.
                var ranks: [players]u16 = undefined;
                inline for (&ranks, 0..) |*rank, i| rank.* = @intCast((set >> i) & 1);
                table.add_shares(players, &ranks, boards);
            }
            table.games +%= pots.games;
        }
    };
}

/// Boards' pots shared among the players at once (each player's tally in registers, for
/// more players than `WinnerSets` serves).
fn PlayerShares(comptime players: usize) type {
    return struct {
        const Self = @This();

        tallies: [players]Tally = @splat(.{}),
        games: u64 = 0,

        comptime {
            assert(players > winner_sets_players_max);
            assert(players <= players_max);
        }

        fn table(pots: *Self) Table {
            return .{ .holes = &.{}, .tallies = &pots.tallies };
        }

        pub inline fn add(pots: *Self, ranks: *const [players]u16, boards: u64) void {
            var sums = pots.table();
            sums.add_shares(players, ranks, boards);
            pots.games +%= boards;
        }

        pub inline fn correct(
            pots: *Self,
            true_ranks: *const [players]u16,
            counted: *const [players]u16,
            boards: u64,
        ) void {
            var sums = pots.table();
            sums.add_shares(players, true_ranks, boards);
            sums.add_shares(players, counted, 0 -% boards);
        }

        pub inline fn merge(pots: *Self, other: Self) void {
            for (&pots.tallies, other.tallies) |*tally, more| add_tally(tally, more);
            pots.games +%= other.games;
        }

        pub fn fold(pots: Self, into: *Table) void {
            assert(into.tallies.len >= players);
            for (into.tallies[0..players], pots.tallies) |*tally, more| add_tally(tally, more);
            into.games +%= pots.games;
        }
    };
}

inline fn add_tally(tally: *Tally, more: Tally) void {
    tally.wins +%= more.wins;
    tally.ties +%= more.ties;
    tally.share_units +%= more.share_units;
    tally.share_units_squared +%= more.share_units_squared;
}

/// Ranks every player on one complete board (`holes` each with `board`).
inline fn board_ranks(comptime players: usize, holes: []const encoding.Accumulator, board: encoding.Accumulator) [players]u16 {
    assert(holes.len >= players);
    var ranks: [players]u16 = undefined;
    inline for (&ranks, holes[0..players]) |*rank, hole| {
        var hand = board;
        hand.merge(hole);
        rank.* = eval.rank_accumulator(hand);
    }
    return ranks;
}

/// What one board gives each player: a win alone, a split, pot share units and their square.
/// Scalar on purpose: 64-bit lanes have no vector multiply before AVX-512, and a few
/// players fit in registers. The one place a pot is shared: every engine settles by it.
pub fn Outcome(comptime players: usize) type {
    return struct {
        wins: [players]u64,
        ties: [players]u64,
        units: [players]u64,
        units_squared: [players]u64,

        pub inline fn of(ranks: *const [players]u16) @This() {
            var best: u16 = 0;
            inline for (ranks) |rank| best = @max(best, rank);
            var winners: u32 = 0;
            inline for (ranks) |rank| winners += @intFromBool(rank == best);
            assert(winners >= 1);
            assert(winners <= players);
            const alone: u64 = @intFromBool(winners == 1);
            const units: u64 = shares[winners];
            var outcome: @This() = undefined;
            inline for (ranks, 0..) |rank, i| {
                const is_best: u64 = @intFromBool(rank == best);
                outcome.wins[i] = is_best & alone;
                outcome.ties[i] = is_best & (alone ^ 1);
                outcome.units[i] = is_best * units;
                outcome.units_squared[i] = is_best * units * units;
            }
            return outcome;
        }
    };
}

/// A pot's share for each number of winners, in units.
const shares: [players_max + 1]u64 = table: {
    var table: [players_max + 1]u64 = @splat(0);
    for (1..players_max + 1) |winners| table[winners] = pot_units / winners;
    break :table table;
};

comptime {
    // A pot is shared whole: every number of winners' shares add up to one pot.
    for (1..players_max + 1) |winners| assert(shares[winners] * winners == pot_units);
    // A board's squared share fits the counts `write_result` converts exactly (< 2^23).
    assert(pot_units * pot_units < 1 << 23);
}

/// Exact equity over every completion of `board` by `missing` cards from `deck`; this call
/// does work items `part`, `part + parts`, … (threads take interleaved shares; one call with
/// 0 and 1 does all).
///
/// Boards are counted, not visited one by one. Where no player makes a flush, a player's
/// rank depends only on the values of the cards, so the boards are grouped by the multiset
/// of their new cards' values (at most 6,188 groups for five cards): each group is ranked
/// once from fingerprints and weighted by its number of boards, the product of
/// C(cards of value v left, cards of value v drawn). Then the boards where someone makes a
/// flush, which need at least `5 - (most cards of that suit in one hand)` board cards of one
/// suit and so are few, are corrected: for each choice of that suit's cards, the boards
/// completing it with cards of other suits are grouped by those cards' values again (a
/// flush does not depend on them), and each group adds its true ranking and takes back the
/// fingerprint ranking it was counted with. Two suits can never both reach that (three
/// board cards each), so no board is corrected twice.
pub fn exact(
    table: *Table,
    board: encoding.Accumulator,
    deck: u64,
    missing: u32,
    part: u32,
    parts: u32,
) void {
    assert(missing <= board_cards_max);
    assert(@popCount(deck) >= missing);
    assert(part < parts);
    assert(deck & board.mask == 0);
    assert(table.tallies.len == table.holes.len);
    const games_before = table.games;
    switch (table.holes.len) {
        inline 2...players_max => |players| {
            var run: Exact(players) = .{ .table = table, .deck = deck, .part = part, .parts = parts };
            run.all(board, missing);
            run.pots.fold(table);
        },
        else => unreachable,
    }
    // Groups or boards one by one, one call alone counts every completion once.
    if (parts == 1) assert(table.games -% games_before == board_completions(@popCount(deck), missing));
}

/// C(n, k): the boards completing a board by k cards from a deck of n.
fn board_completions(n: u64, k: u64) u64 {
    assert(k <= board_cards_max);
    assert(n >= k);
    var ways: u64 = 1;
    for (0..k) |i| ways = ways * (n - i) / (i + 1);
    return ways;
}

fn Exact(comptime players: usize) type {
    return struct {
        const Run = @This();

        table: *Table,
        /// The boards counted so far, folded into `table` at the end.
        pots: Pots(players) = .{},
        deck: u64,
        part: u32,
        parts: u32,
        /// The next work item's number modulo `parts`.
        item: u32 = 0,
        /// The suit of the flushes `correct_flush_boards` visits, and how many cards of the
        /// other suits complete each of its boards.
        flush_suit: usize = 0,
        others_missing: u32 = 0,
        /// Each player's flush rank on the boards `correct_by_values` counts, 0 if no flush.
        flush_ranks: [players]u16 = undefined,
        /// Cards of each value left in the deck outside the flush suit.
        others_left: [encoding.value_count]u8 = undefined,

        fn all(run: *Run, board: encoding.Accumulator, missing: u32) void {
            assert(missing <= board_cards_max);
            assert(run.item == 0);
            const holes = run.table.holes[0..players];
            var flush_certain = false;
            var flush_need: [encoding.suit_count]u32 = undefined;
            for (&flush_need, 0..) |*need, suit| {
                var most: u32 = 0;
                for (holes) |hole| most = @max(most, suit_cards(hole.mask, suit));
                const have = suit_cards(board.mask, suit) + most;
                flush_certain = flush_certain or have >= 5;
                need.* = 5 -| have;
            }
            // Every board flushes (a flop of three spades and two spades in a hand): there
            // is nothing to group, so rank each board (at most C(47, 2) of them).
            if (flush_certain or missing == 0) {
                if (run.owns_next()) run.each_subset(run.deck, missing, board, settle);
                return;
            }
            var left: [encoding.value_count]u8 = @splat(0);
            for (&left, 0..) |*count, value| {
                for (0..encoding.suit_count) |suit| {
                    count.* += @intFromBool(run.deck & card_bit(suit, value) != 0);
                }
            }
            run.by_values(&left, missing, fingerprint(board));
            for (flush_need, 0..) |need, suit| {
                if (need > missing) continue;
                const of_suit = run.deck & suit_set(suit);
                run.flush_suit = suit;
                for (&run.others_left, 0..) |*count, value| {
                    count.* = left[value] - @intFromBool(run.deck & card_bit(suit, value) != 0);
                }
                for (need..missing + 1) |drawn| {
                    run.others_missing = missing - @as(u32, @intCast(drawn));
                    run.each_subset(of_suit, @intCast(drawn), board, correct_flush_boards);
                }
            }
        }

        /// Boards whose `missing` new cards' values are drawn from `left` (a value at most
        /// as often as it is left), grouped by those values: each multiset of values is one
        /// group of Π C(left[v], times v is drawn) boards, ranked once, and one work item.
        fn by_values(run: *Run, left: *const [encoding.value_count]u8, missing: u32, board_fingerprint: u32) void {
            assert(missing > 0);
            assert(missing <= board_cards_max);
            // Counted apart from `run`, in registers.
            var pots: Pots(players) = .{};
            switch (missing) {
                inline 0...board_cards_max => |cards| run.values_from(cards, &pots, left, 0, 0, 1, board_fingerprint),
                else => unreachable,
            }
            run.pots.merge(pots);
        }

        /// `by_values`' groups, `cards` values still to draw, in ascending order: one loop a
        /// card, nested at compile time (a recursion over the 13 values made 4 calls a group
        /// and took a fifth of exact preflop's time). `last` is the value drawn last, `times`
        /// how often so far (0 before the first), `ways` the boards of the values before it.
        inline fn values_from(
            run: *Run,
            comptime cards: u32,
            pots: *Pots(players),
            left: *const [encoding.value_count]u8,
            last: u32,
            times: u32,
            ways: u64,
            board_fingerprint: u32,
        ) void {
            if (cards == 0) {
                if (!run.owns_next()) return;
                var ranks: [players]u16 = undefined;
                inline for (&ranks, run.table.holes[0..players]) |*rank, hole| {
                    rank.* = eval.rank_fingerprint(board_fingerprint +% fingerprint(hole));
                }
                pots.add(&ranks, ways * binomials[left[last]][times]);
            } else {
                // `last` once more, if a card of it is left, then each higher value left (from
                // the first value of all before any is drawn), one call site for both.
                const done_ways = ways * binomials[left[last]][times];
                var value = last;
                while (value < encoding.value_count) : (value += 1) {
                    const again = value == last and times > 0;
                    const drawn = if (again) times else 0;
                    if (drawn >= left[value]) continue;
                    run.values_from(
                        cards - 1,
                        pots,
                        left,
                        value,
                        drawn + 1,
                        if (again) ways else done_ways,
                        board_fingerprint +% encoding.value_fingerprints[value],
                    );
                }
            }
        }

        /// `hand` holds the board and some cards of one suit, enough for a flush: each
        /// completion by cards of the other suits is one board where someone flushes, and
        /// those cards cannot change a flush, so each flusher's rank is known here.
        fn correct_flush_boards(run: *Run, hand: encoding.Accumulator) void {
            // The board and the suit's drawn cards: with a hand's two, five of the suit.
            assert(suit_cards(hand.mask, run.flush_suit) >= 3);
            if (!run.owns_next()) return;
            for (&run.flush_ranks, run.table.holes[0..players]) |*rank, hole| {
                var cards = hand;
                cards.merge(hole);
                const flushes = suit_cards(cards.mask, run.flush_suit) >= 5;
                rank.* = if (flushes) eval.rank_accumulator(cards) else 0;
            }
            run.correct_by_values(run.others_missing, fingerprint(hand));
        }

        /// The boards completing a flush board with `missing` cards of the other suits,
        /// grouped by their values as `by_values` groups (a flusher's rank does not depend
        /// on them, the others' ranks depend only on values): per group, its true ranking
        /// in and its fingerprint ranking out, `ways` boards each. At most two such cards
        /// (a flush takes three of the board's cards or more), so two loops serve, and the
        /// corrections are summed apart from the table and added to it once: a recursion
        /// adding to the table per group spent a third of its time on calls and on waiting
        /// for the last group's sum (exact QQ+,AKs vs JJ-99,AQs+ preflop, Xeon Ice Lake).
        fn correct_by_values(run: *Run, missing: u32, board_fingerprint: u32) void {
            assert(missing <= 2);
            var groups: Pots(players) = .{};
            const left = &run.others_left;
            const multipliers = encoding.value_fingerprints;
            switch (missing) {
                0 => run.correct_group(&groups, board_fingerprint, 1),
                1 => for (left, multipliers) |count, multiplier| {
                    if (count == 0) continue;
                    run.correct_group(&groups, board_fingerprint +% multiplier, count);
                },
                else => for (left, multipliers, 0..) |count, multiplier, value| {
                    if (count == 0) continue;
                    const with_one = board_fingerprint +% multiplier;
                    if (count >= 2) run.correct_group(&groups, with_one +% multiplier, binomials[count][2]);
                    for (left[value + 1 ..], multipliers[value + 1 ..]) |other_count, other| {
                        if (other_count == 0) continue;
                        run.correct_group(&groups, with_one +% other, @as(u64, count) * other_count);
                    }
                },
            }
            run.pots.merge(groups);
        }

        /// One group of `correct_by_values`: `ways` boards whose values make
        /// `board_fingerprint`, ranked truly and as counted.
        inline fn correct_group(run: *const Run, groups: *Pots(players), board_fingerprint: u32, ways: u64) void {
            var counted: [players]u16 = undefined;
            var true_ranks: [players]u16 = undefined;
            inline for (&counted, &true_ranks, run.flush_ranks, run.table.holes[0..players]) |*rank, *true_rank, flush_rank, hole| {
                rank.* = eval.rank_fingerprint(board_fingerprint +% fingerprint(hole));
                true_rank.* = if (flush_rank != 0) flush_rank else rank.*;
            }
            groups.correct(&true_ranks, &counted, ways);
        }

        fn settle(run: *Run, board: encoding.Accumulator) void {
            run.pots.add(&board_ranks(players, run.table.holes, board), 1);
        }

        /// Calls `visit` with `hand` plus each `count` cards of `cards` (copy and extend).
        fn each_subset(
            run: *Run,
            cards: u64,
            count: u32,
            hand: encoding.Accumulator,
            comptime visit: fn (*Run, encoding.Accumulator) void,
        ) void {
            assert(count <= board_cards_max);
            assert(cards & hand.mask == 0);
            if (count == 0) return visit(run, hand);
            var rest = cards;
            while (@popCount(rest) >= count) {
                var next = hand;
                next.add(@intCast(@ctz(rest)));
                rest &= rest - 1;
                run.each_subset(rest, count - 1, next, visit);
            }
        }

        /// Whether this call does the next work item (items go round-robin to the parts).
        fn owns_next(run: *Run) bool {
            assert(run.item < run.parts);
            const mine = run.item == run.part;
            run.item += 1;
            if (run.item == run.parts) run.item = 0;
            assert(run.item < run.parts);
            return mine;
        }
    };
}

/// C(n, k) for n, k <= 4: the ways to draw k of the n cards of one value left.
const binomials: [encoding.suit_count + 1][encoding.suit_count + 1]u64 = .{
    .{ 1, 0, 0, 0, 0 },
    .{ 1, 1, 0, 0, 0 },
    .{ 1, 2, 1, 0, 0 },
    .{ 1, 3, 3, 1, 0 },
    .{ 1, 4, 6, 4, 1 },
};

comptime {
    // Pascal's rule holds for every entry typed above.
    for (1..encoding.suit_count + 1) |n| for (1..n + 1) |k| {
        assert(binomials[n][k] == binomials[n - 1][k - 1] + binomials[n - 1][k]);
    };
}

inline fn fingerprint(hand: encoding.Accumulator) u32 {
    return @truncate(hand.key);
}

inline fn suit_set(suit: usize) u64 {
    assert(suit < encoding.suit_count);
    return ((@as(u64, 1) << encoding.value_count) - 1) << @intCast(suit * encoding.value_count);
}

inline fn suit_cards(set: u64, suit: usize) u32 {
    return @popCount(set & suit_set(suit));
}

inline fn card_bit(suit: usize, value: usize) u64 {
    assert(suit < encoding.suit_count);
    assert(value < encoding.value_count);
    return @as(u64, 1) << @intCast(suit * encoding.value_count + value);
}

/// Each deal's exact equity (pot share, 0..1) per player with the flop known and with the
/// turn known: `boards` holds each deal's five board cards (flop, turn, river), `holes` its
/// players' pairs; the cards of a deal must be valid and distinct (the caller checks). The
/// deal's own turn and river are unknown on the flop: every turn and river from the rest
/// of the deck counts.
pub fn street_equities(
    boards: []const u8,
    holes: []const u8,
    players: u32,
    flop_out: []f32,
    turn_out: []f32,
) void {
    assert(players >= 2);
    assert(players <= players_max);
    assert(flop_out.len == turn_out.len);
    const rows = flop_out.len / players;
    assert(flop_out.len == rows * players);
    assert(boards.len >= rows * board_cards_max);
    assert(holes.len >= rows * players * 2);
    for (0..rows) |row| {
        var hands: [players_max]encoding.Accumulator = undefined;
        var used: u64 = 0;
        for (hands[0..players], 0..) |*hand, player| {
            hand.* = .empty;
            hand.add(holes[(row * players + player) * 2]);
            hand.add(holes[(row * players + player) * 2 + 1]);
            used |= hand.mask;
        }
        const board_cards = boards[row * board_cards_max ..][0..board_cards_max];
        var board: encoding.Accumulator = .empty;
        for (board_cards[0..3]) |card| board.add(card);
        const first = row * players;
        street_equity(
            hands[0..players],
            board,
            encoding.full_deck & ~(used | board.mask),
            2,
            flop_out[first..][0..players],
        );
        board.add(board_cards[3]);
        street_equity(
            hands[0..players],
            board,
            encoding.full_deck & ~(used | board.mask),
            1,
            turn_out[first..][0..players],
        );
    }
}

/// Each of `rows` spots' exact equity per player over every completion of its board:
/// `boards` holds rows of `board_cards` (0, 3, 4 or 5) cards, `holes` rows of `players`
/// pairs, `out` rows of `players` pot shares. Each row is counted as one spot is (`exact`,
/// `equity_of`), so it equals that spot's `pp.equity` bit for bit. The caller has checked
/// the cards (every one a card, none twice in a row).
pub fn equity_rows(
    boards: []const u8,
    board_cards: u32,
    holes: []const u8,
    players: u32,
    out: []f64,
) void {
    assert(players >= 2);
    assert(players <= players_max);
    assert(board_cards == 0 or (board_cards >= 3 and board_cards <= board_cards_max));
    const rows = out.len / players;
    assert(out.len == rows * players);
    assert(holes.len == out.len * 2);
    assert(boards.len == rows * board_cards);
    for (0..rows) |row| {
        var hands: [players_max]encoding.Accumulator = undefined;
        var used: u64 = 0;
        const row_holes = holes[row * players * 2 ..][0 .. players * 2];
        for (hands[0..players], 0..) |*hand, player| {
            hand.* = .empty;
            hand.add(row_holes[2 * player]);
            hand.add(row_holes[2 * player + 1]);
            used |= hand.mask;
        }
        var board: encoding.Accumulator = .empty;
        for (boards[row * board_cards ..][0..board_cards]) |card| board.add(card);
        var tallies: [players_max]Tally = @splat(.{});
        var table: Table = .{ .holes = hands[0..players], .tallies = tallies[0..players] };
        exact(&table, board, encoding.full_deck & ~(used | board.mask), board_cards_max - board_cards, 0, 1);
        assert(table.games > 0);
        const boards_counted: f64 = @floatFromInt(table.games);
        for (out[row * players ..][0..players], tallies[0..players]) |*equity, tally| {
            equity.* = equity_of(tally, boards_counted);
        }
    }
}

fn street_equity(
    hands: []const encoding.Accumulator,
    board: encoding.Accumulator,
    deck: u64,
    missing: u32,
    out: []f32,
) void {
    assert(missing == 1 or missing == 2);
    assert(out.len == hands.len);
    var tallies: [players_max]Tally = @splat(.{});
    var table: Table = .{ .holes = hands, .tallies = tallies[0..hands.len] };
    exact(&table, board, deck, missing, 0, 1);
    assert(table.games > 0);
    const scale = 1.0 / (@as(f64, pot_units) * @as(f64, @floatFromInt(table.games)));
    for (out, tallies[0..hands.len]) |*equity, tally| {
        equity.* = @floatCast(@as(f64, @floatFromInt(tally.share_units)) * scale);
    }
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file).
pub const kernels = struct {
    /// `exact`: hole accumulators per player, the board's, the deck left; tallies per player
    /// are added to, and `*games` grows by the games settled.
    pub fn equity_exact(
        holes: [*]const encoding.Accumulator,
        players: u32,
        board: *const encoding.Accumulator,
        deck: u64,
        missing: u32,
        part: u32,
        parts: u32,
        tallies: [*]Tally,
        games: *u64,
    ) callconv(.c) void {
        var table: Table = .{ .holes = holes[0..players], .tallies = tallies[0..players] };
        exact(&table, board.*, deck, missing, part, parts);
        games.* += table.games;
    }

    /// `equity_rows`: boards (`rows x board_cards`: 0, 3, 4 or 5), holes (`rows x players x
    /// 2`) → each row's exact equity per player.
    pub fn equity_rows(boards: [*]const u8, board_cards: u32, holes: [*]const u8, players: u32, rows: u64, out: [*]f64) callconv(.c) void {
        const n = rows * players;
        known_exact.equity_rows(boards[0 .. rows * board_cards], board_cards, holes[0 .. n * 2], players, out[0..n]);
    }

    /// `street_equities`: boards (`rows x 5`), holes (`rows x players x 2`) → each player's
    /// flop and turn equity.
    pub fn street_equities(boards: [*]const u8, holes: [*]const u8, players: u32, rows: u64, flop_out: [*]f32, turn_out: [*]f32) callconv(.c) void {
        const n = rows * players;
        known_exact.street_equities(boards[0 .. rows * board_cards_max], holes[0 .. n * 2], players, flop_out[0..n], turn_out[0..n]);
    }
};

test "exact: AcKd vs QhQs over all 1,712,304 boards" {
    const ace_clubs = 13 + 12;
    const king_diamonds = 39 + 11;
    const queen_hearts = 26 + 10;
    const queen_spades = 0 + 10;
    var holes: [2]encoding.Accumulator = .{ .empty, .empty };
    holes[0].add(ace_clubs);
    holes[0].add(king_diamonds);
    holes[1].add(queen_hearts);
    holes[1].add(queen_spades);
    var tallies: [2]Tally = .{ .{}, .{} };
    var table: Table = .{ .holes = &holes, .tallies = &tallies };
    const deck = encoding.full_deck & ~(holes[0].mask | holes[1].mask);
    exact(&table, .empty, deck, 5, 0, 1);
    try std.testing.expectEqual(@as(u64, 1_712_304), table.games);
    try std.testing.expectEqual(@as(u64, 730_541), tallies[0].wins);
    try std.testing.expectEqual(@as(u64, 975_909), tallies[1].wins);
    try std.testing.expectEqual(@as(u64, 5_854), tallies[0].ties);
}

test "write_result: the shares of a pot, every row in its place" {
    // Three boards: player 0 wins one alone, the other two are split.
    const tallies = [_]Tally{
        .{ .wins = 1, .ties = 2, .share_units = 2520 + 2 * 1260, .share_units_squared = 2520 * 2520 + 2 * 1260 * 1260 },
        .{ .wins = 0, .ties = 2, .share_units = 2 * 1260, .share_units_squared = 2 * 1260 * 1260 },
    };
    var out: [result_rows * 2]f64 = undefined;
    write_result(&tallies, 3, &out);
    const equity_row = out[@backingInt(ResultRow.equity) * 2 ..][0..2];
    try std.testing.expectEqual(@as(f64, 5040.0 / 2520.0 / 3.0), equity_row[0]);
    try std.testing.expectEqual(@as(f64, 2520.0 / 2520.0 / 3.0), equity_row[1]);
    try std.testing.expectEqual(@as(f64, 1.0 / 3.0), out[@backingInt(ResultRow.win) * 2]);
    try std.testing.expectEqual(@as(f64, 2.0 / 3.0), out[@backingInt(ResultRow.tie) * 2 + 1]);
    try std.testing.expectEqual(@as(f64, 2), out[@backingInt(ResultRow.ties) * 2 + 1]);
    try std.testing.expectEqual(@as(f64, 2 * 1260 * 1260), out[@backingInt(ResultRow.share_units_squared) * 2 + 1]);
    try std.testing.expectEqual(equity_row[0] + equity_row[1], 1.0);
}

test "equity_rows: each row is its spot counted alone, every street" {
    // AsKs vs QdQc: preflop, on Jh7c2d, on Jh7c2d5s, on Jh7c2d5s9h (ids: suit * 13 + value).
    const holes_row = [_]u8{ 0 + 12, 0 + 11, 39 + 10, 13 + 10 };
    const board = [_]u8{ 26 + 9, 13 + 5, 39 + 0, 0 + 3, 26 + 7 };
    for ([_]u32{ 0, 3, 4, 5 }) |board_cards| {
        var out: [4]f64 = undefined;
        var boards: [10]u8 = undefined;
        @memcpy(boards[0..board_cards], board[0..board_cards]);
        @memcpy(boards[board_cards..][0..board_cards], board[0..board_cards]);
        const holes = holes_row ++ holes_row;
        equity_rows(boards[0 .. 2 * board_cards], board_cards, &holes, 2, &out);
        var hands: [2]encoding.Accumulator = .{ .empty, .empty };
        for (&hands, 0..) |*hand, player| {
            hand.add(holes_row[2 * player]);
            hand.add(holes_row[2 * player + 1]);
        }
        var on_board: encoding.Accumulator = .empty;
        for (board[0..board_cards]) |card| on_board.add(card);
        var tallies: [2]Tally = .{ .{}, .{} };
        var table: Table = .{ .holes = &hands, .tallies = &tallies };
        const deck = encoding.full_deck & ~(hands[0].mask | hands[1].mask | on_board.mask);
        exact(&table, on_board, deck, board_cards_max - board_cards, 0, 1);
        var alone: [result_rows * 2]f64 = undefined;
        write_result(&tallies, table.games, &alone);
        for (0..2) |row| try std.testing.expectEqualSlices(f64, alone[0..2], out[2 * row ..][0..2]);
    }
}

/// Every board visited one by one (Gosper over the deck's slots), for checking `exact`.
fn exact_by_visiting(table: *Table, board: encoding.Accumulator, deck: u64, missing: u32) void {
    const enumerate = @import("../cards/enumerate.zig");
    var state = if (missing == 0) 0 else enumerate.first_state(missing);
    var completions: [256]u64 = undefined;
    while (true) {
        // A river board has one completion, the empty one.
        const count = if (missing == 0) @intFromBool(state == 0) else enumerate.combinations(
            deck,
            &state,
            &completions,
        );
        if (missing == 0) {
            completions[0] = 0;
            state = 1;
        }
        if (count == 0) break;
        for (completions[0..count]) |completion| {
            var hand = board;
            var cards = completion;
            while (cards != 0) : (cards &= cards - 1) hand.add(@intCast(@ctz(cards)));
            switch (table.holes.len) {
                inline 2...players_max => |players| {
                    var pots: Pots(players) = .{};
                    pots.add(&board_ranks(players, table.holes, hand), 1);
                    pots.fold(table);
                },
                else => unreachable,
            }
        }
    }
}

test "exact: counting agrees with visiting every board, on random spots and any split" {
    var rng_state: u64 = 7;
    const spots = 60;
    for (0..spots) |spot| {
        // Boards of 0 cards are costly to visit: a few two- and three-way ones, the rest
        // flop, turn and river spots of 2 to 10 players, with a suited hand now and then.
        const board_sizes = [_]u32{ 0, 3, 4, 5 };
        const board_cards = if (spot < 4) 0 else board_sizes[1 + spot % 3];
        const players: usize = if (spot < 4) 2 + spot % 2 else 2 + spot % (players_max - 1);
        var used: u64 = 0;
        var holes: [players_max]encoding.Accumulator = undefined;
        var board: encoding.Accumulator = .empty;
        for (0..players * 2 + board_cards) |c| {
            var card: u8 = undefined;
            while (true) {
                rng_state = random.mix64(rng_state +% random.golden_gamma);
                // Every fourth spot deals from two suits only: many flushes to correct.
                const range: u64 = if (spot % 4 == 1) 26 else 52;
                card = @intCast(rng_state % range);
                if (used & (@as(u64, 1) << @intCast(card)) == 0) break;
            }
            used |= @as(u64, 1) << @intCast(card);
            if (c < players * 2) {
                if (c % 2 == 0) holes[c / 2] = .empty;
                holes[c / 2].add(card);
            } else board.add(card);
        }
        const deck = encoding.full_deck & ~used;
        const missing = board_cards_max - board_cards;

        var visited: [players_max]Tally = @splat(.{});
        var expected: Table = .{ .holes = holes[0..players], .tallies = visited[0..players] };
        exact_by_visiting(&expected, board, deck, missing);

        const parts = 1 + @as(u32, @intCast(spot % 3));
        var counted: [players_max]Tally = @splat(.{});
        var games: u64 = 0;
        for (0..parts) |part| {
            var table: Table = .{ .holes = holes[0..players], .tallies = counted[0..players] };
            exact(&table, board, deck, missing, @intCast(part), parts);
            games +%= table.games;
        }
        try std.testing.expectEqual(expected.games, games);
        try std.testing.expectEqualSlices(Tally, visited[0..players], counted[0..players]);
    }
}
