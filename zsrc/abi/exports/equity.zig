//! Exports of the equity engine: known hands exact (equity/known_exact.zig), street equities, spots over
//! ranges sampled and counted (equity/spot.zig, equity/monte_carlo.zig, equity/range_exact.zig), and Omaha.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../../cards/encoding.zig");
const batch = @import("../../rank/batch.zig");
const random = @import("../../cards/random.zig");
const combos = @import("../../cards/combos.zig");
const equity = @import("../../equity/known_exact.zig");
const spot_zig = @import("../../equity/spot.zig");
const equity_count = @import("../../equity/range_exact.zig");
const equity_sample = @import("../../equity/monte_carlo.zig");
const omaha = @import("../../omaha/rank.zig");
const omaha_equity = @import("../../omaha/equity.zig");
const Tally = equity.Tally;
const Sums = spot_zig.Sums;
const reports = @import("../status.zig");
const pool = @import("../pool.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;
const report_hand_error = reports.report_hand_error;
const HandError = @import("../../cards/failure.zig").HandError;

/// The table of an equity call, checked: hole accumulators, the board's, the deck left.
const EquitySetup = struct {
    holes: [equity.players_max]encoding.Accumulator,
    board: encoding.Accumulator,
    deck: u64,
    missing: u32,
};

const EquitySetupResult = union(enum) { ok: EquitySetup, failed: Status };

fn equity_setup(
    hole_sets: ?[*]const u64,
    players: u32,
    board: u64,
    dead: u64,
    err: ?*Error,
) EquitySetupResult {
    if (players < equity.players_min or players > equity.players_max) return .{ .failed = .bad_argument };
    const holes = hole_sets orelse return .{ .failed = .null_pointer };
    const board_cards = @popCount(board);
    if (!encoding.is_board_size(board_cards)) {
        return .{ .failed = .bad_argument };
    }
    var setup: EquitySetup = .{ .holes = undefined, .board = .empty, .deck = 0, .missing = 0 };
    var seen: u64 = 0;
    // Row -1 is the board, -2 the dead cards; players are rows 0..players-1.
    const groups = [2]struct { set: u64, row: i64 }{ .{ .set = board, .row = -1 }, .{ .set = dead, .row = -2 } };
    for (groups) |group| {
        if (group.set & encoding.set_invalid_bits != 0) return fail_equity(
            err,
            group.row,
            @ctz(group.set & encoding.set_invalid_bits),
            .card_out_of_range,
        );
        if (seen & group.set != 0) return fail_equity(
            err,
            group.row,
            @ctz(seen & group.set),
            .duplicate_card,
        );
        seen |= group.set;
    }
    for (holes[0..players], 0..) |set, player| {
        if (set & encoding.set_invalid_bits != 0) return fail_equity(
            err,
            @intCast(player),
            @ctz(set & encoding.set_invalid_bits),
            .card_out_of_range,
        );
        if (@popCount(set) != 2) return fail_equity(
            err,
            @intCast(player),
            -1,
            if (set == 0) .empty_hand else .too_many_cards,
        );
        if (seen & set != 0) return fail_equity(
            err,
            @intCast(player),
            @ctz(seen & set),
            .duplicate_card,
        );
        seen |= set;
        var hole: encoding.Accumulator = .empty;
        var cards = set;
        while (cards != 0) : (cards &= cards - 1) hole.add(@intCast(@ctz(cards)));
        setup.holes[player] = hole;
    }
    var cards = board;
    while (cards != 0) : (cards &= cards - 1) setup.board.add(@intCast(@ctz(cards)));
    setup.deck = encoding.full_deck & ~seen;
    setup.missing = equity.board_cards_max - board_cards;
    if (@popCount(setup.deck) < setup.missing) return .{ .failed = .bad_argument };
    // Every card in play once: the holes' two each, the board's, and the deck left apart.
    assert(@popCount(seen) == 2 * players + board_cards + @popCount(dead));
    assert(setup.deck & seen == 0);
    assert(setup.board.card_total() == board_cards);
    return .{ .ok = setup };
}

fn fail_equity(err: ?*Error, row: i64, card: i32, kind: HandError.Kind) EquitySetupResult {
    assert(row >= -2 and card >= -1); // a player, the board (-1) or the dead cards (-2)
    return .{ .failed = report_hand_error(err, .at(row, kind, card, -1)) };
}

fn as_spot(pointer: anytype) *const spot_zig.Spot {
    const spot: *const spot_zig.Spot = @ptrCast(@alignCast(pointer));
    // What `pp_spot_new` made: a spot of two or more players and a board it can complete.
    assert(spot.players >= equity.players_min and spot.players <= spot_zig.players_max);
    return spot;
}

/// Buffers kept between calls (abi/pool.zig): `pp_spot_sample`'s per-combo counts (fresh
/// pages a call cost 60 µs, 2% of a chunk of 2^18 games), `pp_spot_count`'s scratch, and
/// the spots themselves (~270 KB: 40 µs of a hand against a small range's ~250 µs call).
const Counts = [spot_zig.players_max * spot_zig.slots]equity_sample.Counts;
const counts_pool = pool.Pool(Counts, 8);
const scratch_pool = pool.Pool([equity_count.scratch_len]f64, 8);
const spot_pool = pool.Pool(spot_zig.Spot, 8);

pub const api = struct {
    /// Exact equity of `players` (2..10) known hands (`hole_sets[i]`: two cards each) on
    /// `board` (0, 3, 4 or 5 cards) with `dead` cards out, over every completion of the
    /// board. The work is dealt round-robin into `parts` shares and this call does share
    /// `part` (threads take one each; one call with 0 and 1 does all): the sum over all
    /// parts, modulo 2^64, is the answer, though one part's tallies alone mean nothing.
    /// Adds to `tallies[players]` and `*games`. On a bad card, `err.row` is the player (-1
    /// board, -2 dead).
    pub fn pp_equity_exact(
        hole_sets: ?[*]const u64,
        players: u32,
        board: u64,
        dead: u64,
        part: u32,
        parts: u32,
        tallies: ?[*]Tally,
        games: ?*u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const setup = switch (equity_setup(hole_sets, players, board, dead, err)) {
            .ok => |s| s,
            .failed => |status| return status,
        };
        if (part >= parts) return .bad_argument;
        kernels().equity_exact(&setup.holes, players, &setup.board, setup.deck, setup.missing, part, parts, tallies orelse
            return .null_pointer, games orelse return .null_pointer);
        return .ok;
    }

    /// Exact equity of `players` (2..10) known hands as `pp_equity_exact` counts it, every
    /// board in this one call, written straight into a result: `out` holds `PP_KNOWN_ROWS`
    /// rows of `players` doubles (`pp_known_row`: equity, win, tie, then the tallies) and
    /// `*games` the boards. Errors as `pp_equity_exact`'s; nothing is written on one.
    pub fn pp_equity_known(
        hole_sets: ?[*]const u64,
        players: u32,
        board: u64,
        dead: u64,
        out: ?[*]f64,
        games: ?*u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const setup = switch (equity_setup(hole_sets, players, board, dead, err)) {
            .ok => |s| s,
            .failed => |status| return status,
        };
        const result = out orelse return .null_pointer;
        const boards = games orelse return .null_pointer;
        var tallies: [equity.players_max]Tally = @splat(.{});
        var counted: u64 = 0;
        kernels().equity_exact(&setup.holes, players, &setup.board, setup.deck, setup.missing, 0, 1, &tallies, &counted);
        equity.write_result(tallies[0..players], counted, result[0 .. equity.result_rows * players]);
        boards.* = counted;
        return .ok;
    }

    /// The tallies `pp_equity_exact` counted for `players` (2..10) players over `games`
    /// boards (every part's, summed) → the rows `pp_equity_known` writes into `out`.
    pub fn pp_equity_result(
        tallies: ?[*]const Tally,
        players: u32,
        games: u64,
        out: ?[*]f64,
    ) callconv(.c) Status {
        if (players < equity.players_min or players > equity.players_max or games == 0) return .bad_argument;
        const counted = tallies orelse return .null_pointer;
        const result = out orelse return .null_pointer;
        equity.write_result(counted[0..players], games, result[0 .. equity.result_rows * players]);
        return .ok;
    }

    /// Each of `rows` spots' exact equity per player (pot share, 0..1) over every completion
    /// of its board, into `out` (`rows * players` doubles): `boards` holds rows of
    /// `board_cards` (0, 3, 4 or 5) cards (null for 0), `holes` rows of `players` (2..10)
    /// pairs. A row holding a card that is not a card, or one twice, fails the call (`err.row`
    /// the row, `err.position` the card's place: the board's cards, then the holes') before
    /// anything is computed. A row equals its spot's `pp_equity_known` equity bit for bit.
    pub fn pp_equity_rows(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        players: u32,
        rows: u64,
        out: ?[*]f64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (players < equity.players_min or players > equity.players_max) return .bad_argument;
        if (!encoding.is_board_size(board_cards)) {
            return .bad_argument;
        }
        if (rows == 0) return .ok;
        const b: [*]const u8 = if (board_cards == 0) &.{} else boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        if (batch.diagnose_showdown_rows(b[0 .. rows * board_cards], board_cards, h[0 .. rows * players * 2], players, rows)) |e| {
            return report_hand_error(err, e);
        }
        kernels().equity_rows(b, board_cards, h, players, rows, o);
        return .ok;
    }

    /// Each of `rows` deals' exact equity per player (pot share, 0..1) with the flop known
    /// (`flop_out`) and with the turn known (`turn_out`), both `rows * players` floats:
    /// `boards` holds each deal's five board cards (flop, turn, river), `holes` its
    /// `players` (2..10) pairs. A deal holding a card that is not a card, or one twice, fails
    /// the call (`err.row` names it) before anything is computed.
    pub fn pp_street_equities(
        boards: ?[*]const u8,
        holes: ?[*]const u8,
        players: u32,
        rows: u64,
        flop_out: ?[*]f32,
        turn_out: ?[*]f32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (players < equity.players_min or players > equity.players_max) return .bad_argument;
        if (rows == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const flop = flop_out orelse return .null_pointer;
        const turn = turn_out orelse return .null_pointer;
        const board_cards = equity.board_cards_max;
        if (batch.diagnose_showdown_rows(b[0 .. rows * board_cards], board_cards, h[0 .. rows * players * 2], players, rows)) |e| {
            return report_hand_error(err, e);
        }
        kernels().street_equities(b, h, players, rows, flop, turn);
        return .ok;
    }

    /// Prepares a spot for equity over ranges: `weights` holds `players` (2..10) rows of
    /// 1,326 combo weights (finite, ≥ 0; the combo order of `pp.COMBOS`), `random_players`
    /// bit p marks player p random (dealt from the deck by Monte Carlo), `board` holds 0, 3,
    /// 4 or 5 cards. A player holding one combo is a known hand: no board, dead or other
    /// known card may meet it (`duplicate_card`, `err.row` the player, -1 board, -2 dead).
    /// `empty_hand` names a player left with no combo. Free the spot with `pp_spot_free`.
    pub fn pp_spot_new(
        weights: ?[*]const f64,
        players: u32,
        random_players: u32,
        board: u64,
        dead: u64,
        spot: ?*?*anyopaque,
        err: ?*Error,
    ) callconv(.c) Status {
        const w = weights orelse return .null_pointer;
        const out = spot orelse return .null_pointer;
        if (players < equity.players_min or players > spot_zig.players_max) return .bad_argument;
        const prepared = spot_pool.take() orelse return .out_of_memory;
        if (spot_zig.prepare(prepared, w[0 .. players * @as(usize, combos.count)], players, random_players, board, dead)) |failure| {
            spot_pool.give(prepared);
            return report_hand_error(err, failure);
        }
        out.* = prepared;
        return .ok;
    }

    pub fn pp_spot_free(spot: ?*anyopaque) callconv(.c) void {
        const s: *spot_zig.Spot = @ptrCast(@alignCast(spot orelse return));
        spot_zig.release_joint(s, std.heap.page_allocator);
        spot_pool.give(s);
    }

    /// The combos player `player` holds once cards out of play are removed (0: no player).
    pub fn pp_spot_support(spot: ?*const anyopaque, player: u32) callconv(.c) u32 {
        const s = as_spot(spot orelse return 0);
        if (player >= s.players) return 0;
        assert(s.support_len[player] <= combos.count);
        return s.support_len[player];
    }

    /// Player `player`'s 1,326 combo weights after card removal, into `out[1326]`.
    pub fn pp_spot_weights(spot: ?*const anyopaque, player: u32, out: ?[*]f64) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        if (player >= s.players) return .bad_argument;
        @memcpy(o[0..combos.count], &s.weights[player]);
        return .ok;
    }

    /// How many runouts complete the board (1 on a river).
    pub fn pp_spot_runouts(spot: ?*const anyopaque) callconv(.c) u64 {
        const runouts = equity_count.runouts(as_spot(spot orelse return 0));
        assert(runouts >= 1); // a river's one, or more
        return runouts;
    }

    /// Readies the spot for `pp_spot_sample`: where two or more players hold ranges, a table
    /// of every deal of theirs sharing no card (at most 2^20 deals, 24 to 56 bytes each;
    /// none past that or when memory is short), so a game draws its deal in one step rather
    /// than each range in turn. Call it once before sampling, from one thread (later calls
    /// do nothing); exact counts do not need it. Games follow the same distribution either
    /// way, but not the same draws: a seed's games are those of a spot prepared alike.
    pub fn pp_spot_prepare_sampling(spot: ?*anyopaque) callconv(.c) Status {
        const s: *spot_zig.Spot = @ptrCast(@alignCast(spot orelse return .null_pointer));
        if (s.joint_len == 0) spot_zig.prepare_joint(s, std.heap.page_allocator);
        return .ok;
    }

    /// Monte Carlo over the spot: games `first_game .. first_game + games` of the stream
    /// `seed` (game g depends on seed and g only; fewer than 2^32 a call), added to `out` (`out_len` Sums, at least
    /// players × 1,327: per player, one per combo held, then one unused).
    pub fn pp_spot_sample(
        spot: ?*const anyopaque,
        seed: u64,
        first_game: u64,
        games: u64,
        out: ?[*]Sums,
        out_len: u64,
    ) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        if (out_len < s.players * spot_zig.slots or games >= 1 << 32) return .bad_argument;
        const counts = counts_pool.take() orelse return .out_of_memory;
        defer counts_pool.give(counts);
        kernels().equity_sample(s, random.seed_key(seed), first_game, games, counts, o);
        return .ok;
    }

    /// Exact count over the spot (boards of 3 to 5 cards): `order` lists every player once,
    /// the counted player last; items `first_item .. first_item + items` of
    /// `pp_spot_runouts × pp_spot_support(order[0])` are added to `out` as in
    /// `pp_spot_sample`, the counted player's in its last slot.
    pub fn pp_spot_count(
        spot: ?*const anyopaque,
        order: ?[*]const u8,
        first_item: u64,
        items: u64,
        out: ?[*]Sums,
        out_len: u64,
    ) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        const ord = order orelse return .null_pointer;
        if (out_len < s.players * spot_zig.slots) return .bad_argument;
        var seen: u32 = 0;
        for (ord[0..s.players]) |p| {
            if (p >= s.players or seen >> @intCast(p) & 1 != 0) return .bad_argument;
            seen |= @as(u32, 1) << @intCast(p);
        }
        assert(@popCount(seen) == s.players); // every player once
        const total = equity_count.items(s, ord[0]);
        if (first_item > total or items > total - first_item) return .bad_argument;
        if (items == 0) return .ok;
        const scratch = scratch_pool.take() orelse return .out_of_memory;
        defer scratch_pool.give(scratch);
        kernels().equity_count(s, ord, first_item, items, scratch, o);
        return .ok;
    }

    /// Omaha equity (zsrc/omaha/equity.zig): `players` (2..10) hands of `hole_cards` (4..6)
    /// card ids each, 255 for a card dealt each game; `board_cards` (0, 3, 4 or 5) known
    /// board cards; `dead` cards out of play. Exact (`exact`, every hole card known): adds
    /// the runouts numbered `part` modulo `parts` to `out` (`players` Sums) and `*games`.
    /// Monte Carlo: adds games `first_game .. first_game + games` of the stream `seed`.
    /// A card that is not a card or is dealt twice fails naming it (`err.row` the player,
    /// -1 the board, -2 the dead cards). `hilo`: Omaha hi-lo, eight or better, the pot split
    /// high and low; `out` then holds `PP_OMAHA_HILO_PARTS` Sums a player: the pot (wins:
    /// scoops), the high's part of it and the low's (zsrc/omaha/equity.zig).
    pub fn pp_omaha_equity(
        holes: ?[*]const u8,
        hole_cards: u32,
        players: u32,
        board: ?[*]const u8,
        board_cards: u32,
        dead: u64,
        hilo: bool,
        exact: bool,
        seed: u64,
        first: u64,
        count: u64,
        out: ?[*]Sums,
        games: ?*u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const g = games orelse return .null_pointer;
        if (!omaha_shape(hole_cards, players, board_cards)) return .bad_argument;
        const b: []const u8 = if (board_cards == 0) &.{} else (board orelse return .null_pointer)[0..board_cards];
        const held = h[0 .. players * hole_cards];
        var used: u64 = 0;
        var unknown: u32 = 0;
        const places = [_]struct { cards: []const u8, row: i64, per: u32 }{
            .{ .cards = b, .row = -1, .per = 1 },
            .{ .cards = held, .row = 0, .per = hole_cards },
        };
        for (places) |place| for (place.cards, 0..) |card, i| {
            const row: i64 = if (place.row < 0) place.row else @intCast(i / place.per);
            if (card == omaha_equity.unknown and place.row >= 0) {
                unknown += 1;
                continue;
            }
            if (card >= encoding.card_count) return report_hand_error(err, .at(row, .card_out_of_range, card, -1));
            const bit = @as(u64, 1) << @intCast(card);
            if (used & bit != 0 or dead & bit != 0) return report_hand_error(err, .at(row, .duplicate_card, card, -1));
            used |= bit;
        };
        if (dead & encoding.full_deck != dead) return report_hand_error(err, .at(-2, .card_out_of_range, @ctz(dead & ~encoding.full_deck), -1));
        const deck = encoding.full_deck & ~used & ~dead;
        assert(@popCount(used) + unknown == b.len + held.len); // each known card counted once
        if (@popCount(deck) < unknown + 5 - board_cards) return .bad_argument;
        // Exact: `first` is the part and `count` the parts, at least one (u32 each).
        if (exact and (unknown > 0 or count == 0 or count > std.math.maxInt(u32) or first >= count)) {
            return .bad_argument;
        }
        const spot: omaha_equity.Spot = .{ .holes = held, .hole_cards = hole_cards, .players = players, .board = b, .deck = deck, .hilo = hilo };
        if (exact) {
            // first: this part, count: the parts.
            g.* += kernels().omaha_exact(&spot, @intCast(first), @intCast(count), o);
        } else {
            kernels().omaha_sample(&spot, random.seed_key(seed), first, count, o);
            g.* += count;
        }
        return .ok;
    }
};

/// Whether `pp_omaha_equity`'s counts are a game: hands of 4..6 cards, 2..10 players, and a
/// board of 0, 3, 4 or 5 known cards.
fn omaha_shape(hole_cards: u32, players: u32, board_cards: u32) bool {
    return hole_cards >= omaha.hole_cards_min and hole_cards <= omaha.hole_cards_max and
        players >= equity.players_min and players <= omaha_equity.players_max and
        encoding.is_board_size(board_cards);
}

test "capi: a spot readied for sampling samples the distribution it did before, and only once" {
    try std.testing.expectEqual(Status.null_pointer, api.pp_spot_prepare_sampling(null));
    // Two ranges, every combo of the aces and kings each (a table of deals), on a flop.
    var weights: [2 * combos.count]f64 = @splat(0);
    for (spot_zig.aces_and_kings) |c| {
        weights[c] = 1;
        weights[combos.count + c] = 1;
    }
    const board = (@as(u64, 1) << 0) | (@as(u64, 1) << 14) | (@as(u64, 1) << 28);
    var handle: ?*anyopaque = null;
    try std.testing.expectEqual(Status.ok, api.pp_spot_new(&weights, 2, 0, board, 0, &handle, null));
    defer api.pp_spot_free(handle);
    const spot: *const spot_zig.Spot = @ptrCast(@alignCast(handle.?));
    try std.testing.expectEqual(@as(u64, 0), spot.joint_len); // not built for exact counts
    var drawn_in_turn: [2 * spot_zig.slots]Sums = @splat(.{});
    try std.testing.expectEqual(Status.ok, api.pp_spot_sample(handle, 7, 0, 20_000, &drawn_in_turn, drawn_in_turn.len));
    try std.testing.expectEqual(Status.ok, api.pp_spot_prepare_sampling(handle));
    const deals = spot.joint_len;
    try std.testing.expectEqual(@as(u64, 28 * 15), deals);
    try std.testing.expectEqual(Status.ok, api.pp_spot_prepare_sampling(handle));
    try std.testing.expectEqual(deals, spot.joint_len);
    var drawn_from_table: [2 * spot_zig.slots]Sums = @splat(.{});
    try std.testing.expectEqual(Status.ok, api.pp_spot_sample(handle, 7, 0, 20_000, &drawn_from_table, drawn_from_table.len));
    // Both ways, player 0's share of the pots: the same equity within Monte Carlo's noise
    // (identical ranges: 1/2; a standard error below 0.004 at 20,000 games).
    for ([_][2 * spot_zig.slots]Sums{ drawn_in_turn, drawn_from_table }) |sums| {
        var games: f64 = 0;
        var shares: f64 = 0;
        for (sums[0..spot_zig.slots]) |s| {
            games += s.games;
            shares += s.shares;
        }
        try std.testing.expectEqual(@as(f64, 20_000), games);
        try std.testing.expectApproxEqAbs(0.5, shares / equity.pot_units / games, 0.02);
    }
}
