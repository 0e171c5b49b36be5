//! A spot for equity over ranges: every player's weights over the 1,326 combos after card
//! removal, and what the samplers and counters read of them (alias tables, per-card sums,
//! partner masks), built once by `prepare` and then only read, by any number of threads.
//!
//! A player is *fixed* when one combo is left to it (a known hand: its cards are then out
//! for everyone else), *random* when the caller says so (every live combo at weight 1; Monte
//! Carlo deals it from the deck left rather than drawing a combo), and a *range* otherwise.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../cards/encoding.zig");
const combos = @import("../cards/combos.zig");
const equity = @import("known_exact.zig");
const random = @import("../cards/random.zig");
const deck_lanes = @import("../cards/deck_lanes.zig");

pub const players_max = equity.players_max;
pub const board_cards_max = equity.board_cards_max;

pub const Spot = extern struct {
    players: u32,
    /// Bit p: player p is random.
    random_players: u32,
    /// Bit p: player p holds one combo.
    fixed_players: u32,
    board_cards: u32,
    board: u64,
    dead: u64,
    /// The cards of the fixed players.
    fixed_cards: u64,
    /// Weights after card removal: combos holding a board, dead or other fixed player's card
    /// are 0.
    weights: [players_max][combos.count]f64,
    totals: [players_max]f64,
    /// `card_sums[p][c]`: the weight of p's combos holding card c.
    card_sums: [players_max][encoding.card_count]f64,
    /// `partners[p][c]`: the cards d such that p holds combo {c, d} with weight > 0.
    partners: [players_max][encoding.card_count]u64,
    /// `uniform_weights[p]`: the one weight of all p's combos left, or 0 where they differ.
    uniform_weights: [players_max]f64 = @splat(0),
    /// The combos of weight > 0, and their number.
    support: [players_max][combos.count]u16,
    support_len: [players_max]u32,
    /// Walker's alias table over `support`: entry i is kept with probability
    /// `alias_keep[i]`, else it is `alias_other[i]`.
    alias_keep: [players_max][combos.count]f64,
    alias_other: [players_max][combos.count]u16,
    /// Every combo some player holds, each once.
    union_support: [combos.count]u16,
    union_len: u32,
    /// Every deal of the range players (neither fixed nor random) sharing no card, when
    /// there are at most `joint_deals_max` (`prepare_joint`; else none): `joint_len`
    /// `JointDeal(players)` records, drawn by a Walker alias table over the deals' weights
    /// (the products of their combos'), so a game's deal of ranges is one draw, exactly of
    /// the joint distribution.
    joint_len: u64 = 0,
    joint_deals: ?*anyopaque = null,
    /// Whether every deal of the table weighs the same (ranges without weights): its alias
    /// table then keeps every entry, and a deal is its drawn index alone.
    joint_uniform: bool = false,

    /// The table of deals `prepare_joint` made (`joint_len` of them).
    pub fn joint_table(spot: *const Spot, comptime players: usize) []const JointDeal(players) {
        assert(spot.players == players);
        assert(spot.joint_len > 0);
        assert(spot.joint_len <= joint_deals_max);
        const first: [*]const JointDeal(players) = @ptrCast(@alignCast(spot.joint_deals.?));
        return first[0..@intCast(spot.joint_len)];
    }

    pub fn is_fixed(spot: *const Spot, player: usize) bool {
        assert(player < spot.players);
        return spot.fixed_players >> @intCast(player) & 1 != 0;
    }

    pub fn is_random(spot: *const Spot, player: usize) bool {
        assert(player < spot.players);
        return spot.random_players >> @intCast(player) & 1 != 0;
    }

    /// The weight player p holds among combos meeting none of `cards` (cards of players drawn
    /// before it; the board, dead and fixed cards are out already): inclusion-exclusion over
    /// the cards, and back in each pair of them that p holds as a combo.
    pub inline fn weight_without(spot: *const Spot, p: usize, cards: u64) f64 {
        if (spot.uniform_weights[p] != 0) return spot.uniform_weights[p] * @as(f64, @floatFromInt(spot.combos_without(p, cards)));
        var removed: f64 = 0;
        var rest = cards;
        while (rest != 0) : (rest &= rest - 1) {
            const x: u6 = @intCast(@ctz(rest));
            removed += spot.card_sums[p][x];
            var pairs = spot.partners[p][x] & rest & ~(@as(u64, 1) << x);
            while (pairs != 0) : (pairs &= pairs - 1) {
                removed -= spot.weights[p][combos.index[x][@ctz(pairs)]];
            }
        }
        return spot.totals[p] - removed;
    }

    /// How many of p's combos meet none of `cards`: the same inclusion-exclusion counted
    /// in bits (p's combos holding card x are its partners of x; those whose other card is
    /// a later card of `cards` are the pairs, counted back in), a popcount a card where the
    /// weighted sum walks every pair: multiway Monte Carlo over ranges weighs its deals
    /// with this, five times a game at six players.
    pub inline fn combos_without(spot: *const Spot, p: usize, cards: u64) u32 {
        var removed: u32 = 0;
        var rest = cards;
        while (rest != 0) : (rest &= rest - 1) {
            removed += @popCount(spot.partners[p][@ctz(rest)] & ~rest);
        }
        assert(removed <= spot.support_len[p]);
        return spot.support_len[p] - removed;
    }

    /// The cards no runout may hold.
    pub fn out_cards(spot: *const Spot) u64 {
        // Pair of `prepare`'s checks: the cards out are out once.
        assert(spot.board & spot.dead == 0);
        assert(spot.fixed_cards & (spot.board | spot.dead) == 0);
        return spot.board | spot.dead | spot.fixed_cards;
    }
};

/// What a run adds up for one player holding one combo (weighted by each game's or deal's
/// weight w): games, games won alone, games split, pot share in units of 1/`pot_units`, and
/// for Monte Carlo's standard errors, w², w²·share and w²·share².
pub const Sums = extern struct {
    games: f64 = 0,
    wins: f64 = 0,
    ties: f64 = 0,
    shares: f64 = 0,
    w2: f64 = 0,
    w2_shares: f64 = 0,
    w2_shares2: f64 = 0,

    pub const c_name = "pp_sums";
};

/// A run's output holds `slots` Sums per player: one per combo, then one for the player's
/// whole range where the run does not split it by combo (the counted player of `count`).
pub const slots = combos.count + 1;
pub const whole_range_slot = combos.count;

/// A pot's share for each number of winners, in units of 1/`equity.pot_units`.
pub const shares: [players_max + 2]f64 = table: {
    var table: [players_max + 2]f64 = @splat(0);
    for (1..players_max + 1) |winners| table[winners] = equity.pot_units / winners;
    break :table table;
};

/// Why `prepare` refused a spot: the record every failure fills, its row a player (or
/// `HandError.board_row`, `HandError.dead_row`).
const HandError = @import("../cards/failure.zig").HandError;

/// Fills `spot` from `weights` (`players` rows of `combos.count`, each finite and ≥ 0), the
/// random players' bits, the board (0, 3, 4 or 5 cards) and the dead cards; null when the
/// spot is ready, else why not.
pub fn prepare(
    spot: *Spot,
    weights: []const f64,
    players: u32,
    random_players: u32,
    board: u64,
    dead: u64,
) ?HandError {
    if (players < 2 or players > players_max) return fail(.bad_argument, -1, -1);
    if (weights.len != @as(usize, players) * combos.count) return fail(.bad_argument, -1, -1);
    if (board & encoding.set_invalid_bits != 0) return fail(
        .card_out_of_range,
        -1,
        @ctz(board & encoding.set_invalid_bits),
    );
    if (dead & encoding.set_invalid_bits != 0) return fail(
        .card_out_of_range,
        -2,
        @ctz(dead & encoding.set_invalid_bits),
    );
    if (board & dead != 0) return fail(.duplicate_card, -2, @ctz(board & dead));
    const board_cards = @popCount(board);
    if (!encoding.is_board_size(board_cards)) return fail(
        .bad_argument,
        -1,
        -1,
    );
    spot.* = .{
        .players = players,
        .random_players = random_players & ((@as(u32, 1) << @intCast(players)) - 1),
        .fixed_players = 0,
        .board_cards = board_cards,
        .board = board,
        .dead = dead,
        .fixed_cards = 0,
        .weights = undefined,
        .totals = @splat(0),
        .card_sums = @splat(@splat(0)),
        .partners = @splat(@splat(0)),
        .support = undefined,
        .support_len = @splat(0),
        .alias_keep = undefined,
        .alias_other = undefined,
        .union_support = undefined,
        .union_len = 0,
    };
    for (0..players) |p| {
        const row = weights[p * combos.count ..][0..combos.count];
        for (row) |w| if (!(w >= 0 and w <= std.math.floatMax(f64))) return fail(
            .bad_weight,
            @intCast(p),
            -1,
        );
        spot.weights[p] = row.*;
    }
    if (fix_known_hands(spot)) |failure| return failure;
    for (0..players) |p| {
        remove_cards(spot, p);
        if (spot.support_len[p] == 0) return fail(.empty_hand, @intCast(p), -1);
        build_alias(spot, p);
    }
    var seen: [combos.count]bool = @splat(false);
    for (0..players) |p| for (spot.support[p][0..spot.support_len[p]]) |c| {
        if (seen[c]) continue;
        seen[c] = true;
        spot.union_support[spot.union_len] = c;
        spot.union_len += 1;
    };
    return prepared(spot);
}

/// `prepare`'s success (null: no failure), once what every spot it accepts holds (for its readers to rely on)
/// is checked.
fn prepared(spot: *const Spot) ?HandError {
    assert(spot.players >= 2);
    assert(spot.players <= players_max);
    assert(spot.union_len > 0);
    assert(spot.union_len <= combos.count);
    assert(@popCount(spot.fixed_cards) == 2 * @as(u32, @popCount(spot.fixed_players)));
    assert(spot.fixed_players >> @intCast(spot.players) == 0);
    assert(spot.random_players >> @intCast(spot.players) == 0);
    for (spot.support_len[0..spot.players]) |len| assert(len > 0);
    return null;
}

/// A deal of the range players as a game starts from it, so that a game holds it by a copy
/// (a range player's cards looked up and written one by one took a fifth of such a game's
/// time), with its entry of the alias table beside it (one cache line or two a game, where
/// the table outgrows the caches).
pub fn JointDeal(comptime players: usize) type {
    return extern struct {
        /// Walker's alias entry: this deal is kept when a draw's 32-bit coin is below `keep`
        /// (its probability of being kept × 2^32, rounded up: the draws of comparing the coin
        /// × 2^-32 with the probability, in half the bytes, but for a probability within
        /// 2^-32 of 1), else the deal drawn is `other`. A deal kept always is its own `other`.
        keep: u32,
        other: u32,
        /// The cards out of the deck: the board, the dead cards and every combo held.
        used: u64,
        /// Every seat's combo (`combos.none` for a random player's), and its cards as a
        /// `combos.hole_word` (0 for a random player's).
        held: [players]u16,
        holes: [players]u16,
        /// The range players' cards, ascending, as `deck_lanes.DeckLanes` keeps cards taken
        /// out of the deck the spot leaves (`out_cards`' complement): byte m the m-th one's
        /// count of places left below it (the rest 0). Read where games are dealt by place,
        /// so a game takes its deal's cards out of the deck without finding them in `used`.
        places_left: PlacesRow(players),
    };
}

/// `JointDeal.places_left`: a byte a range player's card, as one word (a vector of them
/// splits into its bytes by shifts and truncations); past four players, nothing (their
/// deals are dealt from `used`).
pub fn PlacesRow(comptime players: usize) type {
    return if (players <= 2) u32 else if (players <= 4) u64 else void;
}

comptime {
    // The sizes the comments on `joint_deals_max` and the sampler's prefetching quote.
    std.debug.assert(@sizeOf(JointDeal(2)) == 32 and @sizeOf(JointDeal(4)) == 40);
    std.debug.assert(@sizeOf(JointDeal(players_max)) == 56);
}

/// Deals of range players up to which `prepare_joint` tabulates them (32 MiB at most with
/// two players, 56 MiB with ten).
pub const joint_deals_max = 1 << 20;

/// The range players (neither fixed nor random), in seat order.
pub fn range_players(spot: *const Spot, out: *[players_max]u8) usize {
    var count: usize = 0;
    for (0..spot.players) |p| {
        if (spot.is_fixed(p) or spot.is_random(p)) continue;
        out[count] = @intCast(p);
        count += 1;
    }
    assert(count + @popCount(spot.fixed_players | spot.random_players) == spot.players);
    return count;
}

/// Tabulates the deals of two or more range players when they number at most
/// `joint_deals_max`; leaves the spot without a table otherwise, or when memory is short
/// (its games then draw the ranges in turn, with weights).
pub fn prepare_joint(spot: *Spot, allocator: std.mem.Allocator) void {
    switch (spot.players) {
        inline 2...players_max => |players| tabulate_joint(players, spot, allocator) catch {},
        else => unreachable,
    }
}

fn tabulate_joint(comptime players: usize, spot: *Spot, allocator: std.mem.Allocator) !void {
    assert(spot.players == players);
    assert(spot.joint_len == 0);
    var ranged: [players_max]u8 = undefined;
    const count = range_players(spot, &ranged);
    if (count < 2) return;
    var product: u64 = 1;
    for (ranged[0..count]) |p| product = std.math.mul(u64, product, spot.support_len[p]) catch return;
    if (product > joint_deals_max * 16) return; // far too many: not worth counting
    var walk: DealWalk(players) = .{ .spot = spot, .players = ranged[0..count] };
    walk.visit(0, spot.out_cards(), 1);
    if (walk.deals == 0 or walk.deals > joint_deals_max) return;
    const n: usize = @intCast(walk.deals);
    const table = try allocator.alloc(JointDeal(players), n);
    errdefer allocator.free(table);
    const keeps = try allocator.alloc(f64, n);
    defer allocator.free(keeps);
    walk = .{ .spot = spot, .players = ranged[0..count], .table = table, .weights = keeps };
    for (0..players) |p| {
        const fixed = spot.is_fixed(p);
        walk.current.held[p] = if (fixed) spot.support[p][0] else combos.none;
        walk.current.holes[p] = if (fixed) combos.hole_word(spot.support[p][0]) else 0;
    }
    walk.visit(0, spot.out_cards(), 1);
    if (walk.deals != n) return error.DealsMiscounted;
    if (std.mem.allEqual(f64, keeps, keeps[0])) {
        // Every deal kept, its own alias (as `build_alias` for equal weights).
        for (table, 0..) |*deal, i| {
            deal.keep = std.math.maxInt(u32);
            deal.other = @intCast(i);
        }
        spot.joint_len = n;
        spot.joint_deals = table.ptr;
        spot.joint_uniform = true;
        assert(spot.joint_len <= joint_deals_max);
        return;
    }
    // The alias table: the probabilities in `keeps`, the aliases in the deals' entries
    // (arrays beside the table are pages touched only to be freed: a call of 1,000 games
    // of three ranges and a random player on a river, 850K deals, took 28 ms with a keep
    // and an alias array and 18 with neither).
    const small = try allocator.alloc(u32, n);
    defer allocator.free(small);
    const large = try allocator.alloc(u32, n);
    defer allocator.free(large);
    fill_alias(u32, JointAlias(players){ .keeps = keeps, .deals = table }, small, large);
    for (table, keeps) |*deal, keep| {
        const threshold = @ceil(keep * 0x1.0p32);
        deal.keep = if (threshold >= 0x1.0p32) std.math.maxInt(u32) else if (threshold <= 0) 0 else @intFromFloat(threshold);
    }
    spot.joint_len = n;
    spot.joint_deals = table.ptr;
    assert(spot.joint_len <= joint_deals_max);
    assert(!spot.joint_uniform);
}

/// Frees what `prepare_joint` allocated.
pub fn release_joint(spot: *Spot, allocator: std.mem.Allocator) void {
    if (spot.joint_len == 0) return;
    switch (spot.players) {
        inline 2...players_max => |players| allocator.free(spot.joint_table(players)),
        else => unreachable,
    }
    spot.joint_len = 0;
    spot.joint_deals = null;
    spot.joint_uniform = false;
}

/// Every deal of `players` sharing no card (nor the cards out): counted, or written to
/// `table` as `prepare_joint` keeps it, but for its alias entry, and its weight to `weights`.
fn DealWalk(comptime seats: usize) type {
    return struct {
        spot: *const Spot,
        players: []const u8,
        table: ?[]JointDeal(seats) = null,
        weights: []f64 = &.{},
        deals: u64 = 0,
        /// The deal so far, by seat.
        current: JointDeal(seats) = undefined,

        fn visit(walk: *@This(), level: usize, used: u64, weight: f64) void {
            assert(level <= walk.players.len);
            // The deal so far holds the cards out and two cards a player placed.
            assert(@popCount(used) == @popCount(walk.spot.out_cards()) + 2 * level);
            if (walk.deals > joint_deals_max) return;
            if (level == walk.players.len) {
                if (walk.table) |table| {
                    // More deals than counted would leave no table (`tabulate_joint`).
                    const i: usize = @intCast(walk.deals);
                    if (i < table.len) {
                        table[i] = walk.current;
                        table[i].used = used;
                        if (PlacesRow(seats) != void) {
                            table[i].places_left = places_left(seats, walk.spot.out_cards(), used);
                        }
                        walk.weights[i] = weight;
                    }
                }
                walk.deals += 1;
                return;
            }
            const p = walk.players[level];
            if (walk.table == null and level + 1 == walk.players.len) {
                // Counting, the last player's combos left are a popcount a card out.
                walk.deals += walk.spot.combos_without(p, used);
                return;
            }
            for (walk.spot.support[p][0..walk.spot.support_len[p]]) |combo| {
                const set = combos.set(combo);
                if (set & used != 0) continue;
                walk.current.held[p] = combo;
                walk.current.holes[p] = combos.hole_word(combo);
                walk.visit(level + 1, used | set, weight * walk.spot.weights[p][combo]);
            }
        }
    };
}

/// `JointDeal.places_left` of a deal whose cards out are `used`, `out` of them the spot's.
fn places_left(comptime seats: usize, out: u64, used: u64) PlacesRow(seats) {
    assert(used & out == out);
    return deck_lanes.places_word(PlacesRow(seats), encoding.full_deck & ~out, used & ~out);
}

/// A player's alias table: `keep` and `other` are arrays of the spot's.
const ArrayAlias = struct {
    keeps: []f64,
    others: []u16,

    fn keep(table: ArrayAlias, i: usize) *f64 {
        return &table.keeps[i];
    }

    fn other(table: ArrayAlias, i: usize) *u16 {
        return &table.others[i];
    }
};

/// The table of deals' alias table: the probabilities apart (`tabulate_joint` rounds them
/// into the deals' entries), each alias in its deal's entry.
fn JointAlias(comptime players: usize) type {
    return struct {
        keeps: []f64,
        deals: []JointDeal(players),

        fn keep(table: @This(), i: usize) *f64 {
            return &table.keeps[i];
        }

        fn other(table: @This(), i: usize) *u32 {
            return &table.deals[i].other;
        }
    };
}

/// Vose's construction of Walker's alias table, in place: entry i of `table` holds its
/// weight (any positive scale) in `keep(i)`, and leaves kept with probability `keep(i)`,
/// else drawn as `other(i)`; `small` and `large` are work space of an entry each.
fn fill_alias(comptime Index: type, table: anytype, small: []Index, large: []Index) void {
    const n = small.len;
    assert(n > 0);
    assert(large.len == n);
    var total: f64 = 0;
    for (0..n) |i| total += table.keep(i).*;
    const scale = @as(f64, @floatFromInt(n)) / total;
    var small_len: usize = 0;
    var large_len: usize = 0;
    for (0..n) |i| {
        const keep = table.keep(i);
        keep.* *= scale;
        table.other(i).* = @intCast(i);
        if (keep.* < 1) {
            small[small_len] = @intCast(i);
            small_len += 1;
        } else {
            large[large_len] = @intCast(i);
            large_len += 1;
        }
    }
    while (small_len > 0 and large_len > 0) {
        small_len -= 1;
        const s = small[small_len];
        const l = large[large_len - 1];
        table.other(s).* = l;
        table.keep(l).* -= 1 - table.keep(s).*;
        if (table.keep(l).* < 1) {
            large_len -= 1;
            small[small_len] = l;
            small_len += 1;
        }
    }
    // What is left is 1 up to rounding: kept always.
    for (small[0..small_len]) |i| table.keep(i).* = 1;
    for (large[0..large_len]) |i| table.keep(i).* = 1;
    // Every entry's alias is an entry.
    for (0..n) |i| assert(table.other(i).* < n);
}

fn fail(kind: HandError.Kind, player: i64, card: i32) ?HandError {
    return HandError.at(player, kind, card, -1);
}

/// Marks the players holding one combo (of weight > 0) before any removal; their cards may
/// not meet the board, the dead cards or each other.
fn fix_known_hands(spot: *Spot) ?HandError {
    for (0..spot.players) |p| {
        var only: ?u16 = null;
        var held: u32 = 0;
        for (spot.weights[p], 0..) |w, c| if (w > 0) {
            held += 1;
            only = @intCast(c);
        };
        if (held != 1) continue;
        const set = combos.set(only.?);
        const taken = spot.board | spot.dead | spot.fixed_cards;
        if (taken & set != 0) {
            return .{ .row = p, .kind = .duplicate_card, .card = @ctz(taken & set) };
        }
        spot.fixed_cards |= set;
        spot.fixed_players |= @as(u32, 1) << @intCast(p);
    }
    // Known hands share no card with each other or the cards out.
    assert(@popCount(spot.fixed_cards) == 2 * @as(u32, @popCount(spot.fixed_players)));
    assert(spot.fixed_cards & (spot.board | spot.dead) == 0);
    return null;
}

/// Zeroes player p's combos that hold a card out of play, and sums what is left.
fn remove_cards(spot: *Spot, p: usize) void {
    const own = if (spot.is_fixed(p)) combos.set(first_held(spot.weights[p])) else 0;
    const out = spot.board | spot.dead | (spot.fixed_cards & ~own);
    for (&spot.weights[p], 0..) |*w, i| {
        const c: u16 = @intCast(i);
        if (combos.set(c) & out != 0) w.* = 0;
        if (w.* == 0) continue;
        spot.support[p][spot.support_len[p]] = c;
        spot.support_len[p] += 1;
        spot.totals[p] += w.*;
        const a = combos.first[c];
        const b = combos.second[c];
        spot.card_sums[p][a] += w.*;
        spot.card_sums[p][b] += w.*;
        spot.partners[p][a] |= @as(u64, 1) << @intCast(b);
        spot.partners[p][b] |= @as(u64, 1) << @intCast(a);
    }
    const support = spot.support[p][0..spot.support_len[p]];
    assert(support.len <= combos.count);
    assert(spot.totals[p] >= 0);
    if (support.len == 0) return;
    const first = spot.weights[p][support[0]];
    for (support) |c| if (spot.weights[p][c] != first) return;
    spot.uniform_weights[p] = first;
}

fn first_held(weights: [combos.count]f64) u16 {
    for (weights, 0..) |w, c| if (w > 0) return @intCast(c);
    unreachable;
}

/// Vose's construction of Walker's alias table over player p's support: a combo is then
/// drawn in O(1), one uniform index and one uniform fraction.
fn build_alias(spot: *Spot, p: usize) void {
    const n = spot.support_len[p];
    assert(n > 0);
    assert(n <= combos.count);
    if (spot.uniform_weights[p] != 0) {
        // Equal weights: every entry kept, its own alias, as Vose's construction would leave
        // them but for rounding (n / total can leave a keep an ulp under 1, with an alias);
        // `sample`'s `alias_pick` then takes the index as the combo.
        @memset(spot.alias_keep[p][0..n], 1);
        for (spot.alias_other[p][0..n], 0..) |*other, i| other.* = @intCast(i);
        return;
    }
    for (spot.support[p][0..n], spot.alias_keep[p][0..n]) |c, *keep| keep.* = spot.weights[p][c];
    var small: [combos.count]u16 = undefined;
    var large: [combos.count]u16 = undefined;
    const table: ArrayAlias = .{ .keeps = spot.alias_keep[p][0..n], .others = spot.alias_other[p][0..n] };
    fill_alias(u16, table, small[0..n], large[0..n]);
}

test "prepare: removal, fixed hands, alias tables that sum to the weights" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    var weights: [3 * combos.count]f64 = @splat(0);
    // Player 0: AcKd only. Player 1: every combo holding the Ac or the 2s, weight 0.5 (0.25
    // for the 2s with an even card). Player 2: random.
    const ace_clubs = 25;
    const king_diamonds = 50;
    weights[combos.index[ace_clubs][king_diamonds]] = 1;
    for (0..52) |o| {
        if (o != ace_clubs) weights[combos.count + combos.index[ace_clubs][o]] = 0.5;
        if (o != 0) weights[combos.count + combos.index[0][o]] = if (o % 2 == 0) 0.25 else 0.5;
    }
    for (weights[2 * combos.count ..]) |*w| w.* = 1;
    const board: u64 = (1 << 1) | (1 << 2) | (1 << 3); // 3s 4s 5s
    try std.testing.expectEqual(@as(?HandError, null), prepare(spot, &weights, 3, 0b100, board, 0));
    try std.testing.expectEqual(@as(u32, 1), spot.fixed_players);
    try std.testing.expectEqual(@as(u32, 1), spot.support_len[0]);
    // Player 1 loses every Ac combo (fixed), and 2s with a board card or the Kd.
    try std.testing.expectEqual(@as(u32, 51 - 5), spot.support_len[1]);
    try std.testing.expectEqual(@as(u32, 47 * 46 / 2), spot.support_len[2]);
    for (0..3) |p| {
        var total: f64 = 0;
        var mass: [combos.count]f64 = @splat(0);
        const n = spot.support_len[p];
        for (0..n) |i| {
            mass[spot.support[p][i]] += spot.alias_keep[p][i];
            mass[spot.support[p][spot.alias_other[p][i]]] += 1 - spot.alias_keep[p][i];
        }
        for (0..n) |i| {
            const c = spot.support[p][i];
            const expected = spot.weights[p][c] / spot.totals[p] * @as(f64, @floatFromInt(n));
            try std.testing.expectApproxEqAbs(expected, mass[c], 1e-9);
            total += spot.weights[p][c];
        }
        try std.testing.expectApproxEqAbs(spot.totals[p], total, 1e-9);
    }
    // Equal weights (player 2, any two cards): every entry kept, its own alias, so the
    // sampler may take the entry as the draw; player 1's weights differ.
    try std.testing.expectEqual(@as(f64, 0), spot.uniform_weights[1]);
    try std.testing.expectEqual(@as(f64, 1), spot.uniform_weights[2]);
    for (0..spot.support_len[2]) |i| {
        try std.testing.expectEqual(@as(f64, 1), spot.alias_keep[2][i]);
        try std.testing.expectEqual(i, spot.alias_other[2][i]);
    }
    // Without the Kd and the 6s: player 2 (random) loses every combo holding either.
    const cards = (@as(u64, 1) << king_diamonds) | (1 << 4);
    const left = spot.weight_without(2, cards);
    var by_hand: f64 = 0;
    for (spot.support[2][0..spot.support_len[2]]) |c| {
        if (combos.set(c) & cards == 0) by_hand += spot.weights[2][c];
    }
    try std.testing.expectEqual(by_hand, left);
    // A known hand meeting the board is refused, naming the player and the card.
    weights[combos.index[ace_clubs][king_diamonds]] = 0;
    weights[combos.index[1][ace_clubs]] = 1;
    const refused = prepare(spot, &weights, 3, 0b100, board, 0);
    try std.testing.expectEqual(HandError.Kind.duplicate_card, refused.?.kind);
    try std.testing.expectEqual(@as(u64, 0), refused.?.row);
    try std.testing.expectEqual(@as(i32, 1), refused.?.card);
}

test "weight_without: by counts for equal weights, by sums otherwise, as counted by hand" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    var weights: [2 * combos.count]f64 = @splat(0);
    var x: u64 = 5;
    for (0..combos.count) |c| {
        x = random.mix64(x);
        if (x & 3 == 0) continue; // about 3/4 of the combos
        weights[c] = 0.3; // equal weights, not exact in binary
        weights[combos.count + c] = @floatFromInt(1 + (x >> 8) % 5);
    }
    weights[combos.count] = 0.5; // player 1's weights differ
    try std.testing.expectEqual(@as(?HandError, null), prepare(spot, &weights, 2, 0, 0, 0));
    try std.testing.expectEqual(@as(f64, 0.3), spot.uniform_weights[0]);
    try std.testing.expectEqual(@as(f64, 0), spot.uniform_weights[1]);
    for (0..500) |_| {
        x = random.mix64(x);
        var cards: u64 = 0; // 0 to 18 cards
        for (0..x % 19) |_| {
            x = random.mix64(x);
            cards |= @as(u64, 1) << @intCast(x % 52);
        }
        for (0..2) |p| {
            var count: u32 = 0;
            var sum: f64 = 0;
            for (spot.support[p][0..spot.support_len[p]]) |c| {
                if (combos.set(c) & cards != 0) continue;
                count += 1;
                sum += spot.weights[p][c];
            }
            try std.testing.expectEqual(count, spot.combos_without(p, cards));
            try std.testing.expectApproxEqRel(sum, spot.weight_without(p, cards), 1e-12);
        }
    }
}

/// The combos of the aces and kings (card ids 11, 12, 24, 25, 37, 38, 50, 51), 28 of them:
/// a range whose players collide often, for tests.
pub const aces_and_kings: [28]u16 = list: {
    const cards = [_]u8{ 11, 12, 24, 25, 37, 38, 50, 51 };
    var out: [28]u16 = undefined;
    var n = 0;
    for (cards, 0..) |a, i| for (cards[i + 1 ..]) |b| {
        out[n] = combos.index[a][b];
        n += 1;
    };
    break :list out;
};

test "prepare_joint: the deals counted are the deals written, with a board and dead cards" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    var weights: [2 * combos.count]f64 = @splat(0);
    // Both players: every combo of the aces and kings; the board holds an ace (51), a deuce
    // and a trey, a king (50) is dead: 6 of the 8 cards left, C(6, 2) = 15 combos each, and
    // 15 * C(4, 2) = 90 deals.
    for (aces_and_kings) |c| {
        weights[c] = 1;
        weights[combos.count + c] = 2;
    }
    const board = (@as(u64, 1) << 51) | (@as(u64, 1) << 0) | (@as(u64, 1) << 14);
    const dead = @as(u64, 1) << 50;
    try std.testing.expectEqual(@as(?HandError, null), prepare(spot, &weights, 2, 0, board, dead));
    prepare_joint(spot, page);
    defer release_joint(spot, page);
    try std.testing.expectEqual(@as(u64, 90), spot.joint_len);
    // Every deal weighs 1 * 2: the alias table keeps every entry, so a drawn index is the
    // deal, as `joint_uniform` lets the sampler take it.
    try std.testing.expect(spot.joint_uniform);
    for (spot.joint_table(2), 0..) |deal, i| {
        try std.testing.expectEqual(std.math.maxInt(u32), deal.keep);
        try std.testing.expectEqual(i, deal.other);
        const held = combos.set(deal.held[0]) | combos.set(deal.held[1]);
        try std.testing.expect(combos.set(deal.held[0]) & combos.set(deal.held[1]) == 0);
        try std.testing.expect(held & (board | dead) == 0);
        try std.testing.expectEqual(held | board | dead, deal.used);
    }
}

test "prepare_joint: every deal sharing no card, drawn in proportion to its weight" {
    const page = std.heap.page_allocator;
    const spot = try page.create(Spot);
    defer page.destroy(spot);
    var weights: [4 * combos.count]f64 = @splat(0);
    // Players 0 and 1: every combo of the aces and kings at weights 1 and 0.5 by parity;
    // player 2 random, player 3 fixed on 3c4c (neither tabulated).
    for (aces_and_kings) |c| {
        weights[c] = 1;
        weights[combos.count + c] = if (c % 2 == 0) 1 else 0.5;
    }
    for (weights[2 * combos.count ..][0..combos.count]) |*w| w.* = 1;
    const fixed = combos.index[14][15];
    weights[3 * combos.count + fixed] = 1;
    try std.testing.expectEqual(@as(?HandError, null), prepare(spot, &weights, 4, 0b100, 0, 0));
    prepare_joint(spot, page);
    defer release_joint(spot, page);
    // 28 combos each; deals sharing no card: 28 * C(6, 2) = 420.
    try std.testing.expectEqual(@as(u64, 28 * 15), spot.joint_len);
    try std.testing.expect(!spot.joint_uniform);
    var mass: f64 = 0;
    var total: f64 = 0;
    const table = spot.joint_table(4);
    var per_deal: [28 * 15]f64 = @splat(0);
    for (table, 0..) |deal, i| {
        const keep = @as(f64, @floatFromInt(deal.keep)) * 0x1.0p-32;
        per_deal[i] += keep;
        per_deal[deal.other] += 1 - keep;
    }
    for (table, 0..) |deal, i| {
        // Each deal as a game starts from it: the random seat holds nothing yet, the fixed
        // seat its combo, and every card held is out of the deck.
        const held = deal.held;
        try std.testing.expectEqual(combos.none, held[2]);
        try std.testing.expectEqual(fixed, held[3]);
        try std.testing.expect(combos.set(held[0]) & combos.set(held[1]) == 0);
        try std.testing.expectEqual(
            combos.set(held[0]) | combos.set(held[1]) | combos.set(fixed),
            deal.used,
        );
        for ([_]usize{ 0, 1, 3 }) |seat| {
            const combo = held[seat];
            const word = @as(u16, combos.first[combo]) | @as(u16, combos.second[combo]) << 8;
            try std.testing.expectEqual(word, deal.holes[seat]);
        }
        try std.testing.expectEqual(@as(u16, 0), deal.holes[2]);
        const w = spot.weights[0][held[0]] * spot.weights[1][held[1]];
        total += w;
        mass += per_deal[i] / w;
    }
    // Each deal's share of draws is its weight over the total.
    for (table, 0..) |deal, i| {
        const w = spot.weights[0][deal.held[0]] * spot.weights[1][deal.held[1]];
        try std.testing.expectApproxEqAbs(
            w / total,
            per_deal[i] / @as(f64, @floatFromInt(table.len)),
            1e-9, // a keep is rounded to 2^-32
        );
    }
    try std.testing.expect(mass > 0);
}
