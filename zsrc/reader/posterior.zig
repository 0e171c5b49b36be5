//! The exact posterior over a read seat's 1,326 combos at an example's moment, for hands
//! played by a population of native agents whose policies are known (likelihood.zig).
//!
//! Per seat and style, a vector of the likelihood of the seat's actions so far for each
//! combo, multiplied in action by action as the hand is replayed (and rescaled each time,
//! its log scale kept, so long hands never underflow). At a moment:
//! - the seat's own term M_s(c) = sum over its styles k of w_k * L_s,k(c): with styles known
//!   the one style it played (w = 1), hidden the population's weights (the posterior over
//!   the style rides along);
//! - heads-up (two seats dealt) exactly: the opponent's cards are summed out with card
//!   removal, P(c) ∝ M_s(c) * sum over o live and disjoint from c of M_o(o), the inner sum
//!   found for every c at once as T - C[x] - C[y] + M_o(c) (T the sum over live combos, C[x]
//!   over those holding card x, c = {x, y});
//! - multiway: the independent-ranges posterior of public-belief-state solvers,
//!   P(c) ∝ M_s(c): the other seats' cards are taken as independent of the read seat's
//!   (their card removal is left out: each other seat blocks two of ~47 cards);
//! and zero where c meets the board shown, normalised to sum 1. A prior uniform over the
//! combos the board leaves is what M starts from.
const std = @import("std");
const HandError = @import("../cards/failure.zig").HandError;
const table_zig = @import("../arena/table.zig");
const play = @import("../arena/play.zig");
const combos = @import("../cards/combos.zig");
const encoding = @import("../cards/encoding.zig");
const population_zig = @import("../arena/agents/population.zig");
const replay_zig = @import("replay.zig");
const examples_zig = @import("examples.zig");
const likelihood = @import("likelihood.zig");
const Strengths = @import("strengths.zig").Strengths;
const Likelihoods = likelihood.Likelihoods;
const HandRecord = play.HandRecord;
const ActionRecord = play.ActionRecord;
const Example = examples_zig.Example;
const Population = population_zig.Population;
const Problem = replay_zig.Problem;
const seats_max = table_zig.seats_max;
const styles_max = population_zig.styles_max;
const assert = std.debug.assert;

pub const Input = struct {
    hands: []const HandRecord,
    actions: []const ActionRecord,
    /// Each hand's styles, `seats_max` a hand; null when unknown.
    styles: ?[]const u8,
    population: *const Population,
    /// Styles known (each seat's from `styles`) or hidden (mixed by the population's weights).
    known: bool,
};

/// Working memory of one call (about 1.8 MB): a likelihood vector per seat and style.
pub const Scratch = struct {
    vectors: [seats_max][styles_max]Likelihoods,
    log_scale: [seats_max][styles_max]f64,
    styles: [seats_max]u16,
    strengths: Strengths,
    step: Likelihoods,
    mixed: [2]Likelihoods,
    replay: replay_zig.Replay,
    row: u32,
    /// Seats whose likelihoods are kept, and whether the hand is heads-up.
    tracked: u16,
    heads_up: bool,
};

/// The posterior of each example into `out` (1,326 a row). Examples of a hand are fastest
/// in the order `examples` gives them (the hand replayed once); any order is right. A failed
/// example's row (`problem.at`) and why, or null.
pub fn run(input: Input, examples: []const Example, out: []f64, scratch: *Scratch, cancel: ?*const u32) ?HandError {
    assert(out.len == examples.len * combos.count);
    scratch.row = std.math.maxInt(u32);
    for (examples, 0..) |*e, i| {
        const seen = e.actions_seen;
        if (e.hand_row != scratch.row or scratch.replay.next > seen) {
            if (cancel) |flag| if (@atomicLoad(u32, flag, .monotonic) != 0) return null;
            const problem = start_hand(input, examples[i..], scratch);
            if (problem.fault != .none) return problem.at(i);
        }
        if (seen > scratch.replay.actions.len) return Problem.at(.{ .fault = .actions }, i);
        while (scratch.replay.next < seen) {
            const problem = advance(input, scratch);
            if (problem.fault != .none) return problem.at(i);
        }
        const problem = emit(input, e, scratch, out[i * combos.count ..][0..combos.count]);
        if (problem.fault != .none) return problem.at(i);
    }
    return null;
}

fn start_hand(input: Input, rest: []const Example, scratch: *Scratch) Problem {
    const row = rest[0].hand_row;
    if (row >= input.hands.len) return .{ .fault = .actions };
    const record = &input.hands[row];
    if (record.action_first > input.actions.len or record.action_count > input.actions.len - record.action_first) return .{ .fault = .actions };
    const actions = input.actions[record.action_first..][0..record.action_count];
    const started = replay_zig.start(&scratch.replay, record, actions);
    if (started.fault != .none) return started;
    scratch.row = row;
    scratch.heads_up = @popCount(scratch.replay.table.dealt) == 2;
    scratch.tracked = if (scratch.heads_up) scratch.replay.table.dealt else 0;
    for (rest) |e| {
        if (e.hand_row != row) break;
        if (e.seat >= record.seats or record.start[e.seat] == 0) return .{ .fault = .seat, .where = e.seat };
        scratch.tracked |= @as(u16, 1) << @intCast(e.seat);
    }
    for (0..seats_max) |s| {
        if (scratch.tracked >> @intCast(s) & 1 == 0) continue;
        const problem = set_styles(input, row, @intCast(s), scratch);
        if (problem.fault != .none) return problem;
        for (0..input.population.count) |k| {
            @memset(&scratch.vectors[s][k], 1);
            scratch.log_scale[s][k] = 0;
        }
    }
    return .{};
}

/// The styles a seat may have played (a bit each): its own when known, else every style
/// with a weight.
fn set_styles(input: Input, row: u32, seat: u8, scratch: *Scratch) Problem {
    const population = input.population;
    if (input.known) {
        const styles = input.styles orelse return .{ .fault = .style, .where = seat };
        const style = styles[@as(usize, row) * seats_max + seat];
        if (style >= population.count) return .{ .fault = .style, .where = seat };
        scratch.styles[seat] = @as(u16, 1) << @intCast(style);
        return .{};
    }
    scratch.styles[seat] = 0;
    for (population.weights[0..population.count], 0..) |w, k| {
        if (w > 0) scratch.styles[seat] |= @as(u16, 1) << @intCast(k);
    }
    return .{};
}

/// Multiplies the next action's likelihood into its actor's vectors, then plays it.
fn advance(input: Input, scratch: *Scratch) Problem {
    const table = &scratch.replay.table;
    const action = scratch.replay.actions[scratch.replay.next];
    const seat = table.actor;
    if (seat < seats_max and scratch.tracked >> @intCast(seat) & 1 == 1 and action.seat == seat) {
        const spot_board = board_shown(table);
        if (table.street != table_zig.Street.preflop) scratch.strengths.rank(spot_board);
        var styles = scratch.styles[seat];
        while (styles != 0) : (styles &= styles - 1) {
            const k: u8 = @ctz(styles);
            likelihood.likelihoods(input.population.agents[k], table, action.kind, action.amount, &scratch.strengths, &scratch.step);
            rescale(&scratch.vectors[seat][k], &scratch.log_scale[seat][k], &scratch.step);
        }
    }
    return replay_zig.step(&scratch.replay);
}

fn board_shown(table: *const table_zig.Table) u64 {
    var board: u64 = 0;
    for (table.board[0..table_zig.board_shown[table.street]]) |card| board |= @as(u64, 1) << @intCast(card & 63);
    return board;
}

/// `vector *= step`, rescaled to sum 1 (the scale's log added to `log_scale`).
fn rescale(vector: *Likelihoods, log_scale: *f64, step: *const Likelihoods) void {
    var sum: f64 = 0;
    for (vector, step) |*v, l| {
        v.* *= l;
        sum += v.*;
    }
    if (sum == 0 or !std.math.isFinite(sum)) return;
    for (vector) |*v| v.* /= sum;
    log_scale.* += @log(sum);
}

/// `out` = the seat's term M (see the file's doc), zero off the live combos.
fn mix(input: Input, scratch: *const Scratch, seat: u8, board: u64, out: *Likelihoods) void {
    const styles = scratch.styles[seat];
    var top: f64 = -std.math.inf(f64);
    var rest = styles;
    while (rest != 0) : (rest &= rest - 1) top = @max(top, scratch.log_scale[seat][@ctz(rest)]);
    @memset(out, 0);
    var total: f64 = 0;
    for (input.population.weights[0..input.population.count]) |w| total += w;
    rest = styles;
    while (rest != 0) : (rest &= rest - 1) {
        const k: u8 = @ctz(rest);
        const weight = if (input.known) 1 else input.population.weights[k] / total * @exp(scratch.log_scale[seat][k] - top);
        for (out, scratch.vectors[seat][k]) |*m, v| m.* += weight * v;
    }
    for (out, 0..) |*m, c| if (combos.set(@intCast(c)) & board != 0) {
        m.* = 0;
    };
}

fn emit(input: Input, e: *const Example, scratch: *Scratch, out: []f64) Problem {
    var board: u64 = 0;
    for (e.board) |card| if (card < encoding.card_count) {
        board |= @as(u64, 1) << @intCast(card);
    };
    const own = &scratch.mixed[0];
    mix(input, scratch, e.seat, board, own);
    @memcpy(out, own);
    if (scratch.heads_up) {
        const other: u8 = @ctz(scratch.replay.table.dealt & ~(@as(u16, 1) << @intCast(e.seat)));
        const theirs = &scratch.mixed[1];
        mix(input, scratch, other, board, theirs);
        var per_card: [encoding.card_count]f64 = @splat(0);
        var total: f64 = 0;
        for (theirs, 0..) |m, c| {
            total += m;
            per_card[combos.first[c]] += m;
            per_card[combos.second[c]] += m;
        }
        for (out, theirs, 0..) |*p, m, c| {
            const disjoint = total - per_card[combos.first[c]] - per_card[combos.second[c]] + m;
            p.* *= @max(disjoint, 0);
        }
    }
    var sum: f64 = 0;
    for (out) |p| sum += p;
    if (!(sum > 0) or !std.math.isFinite(sum)) return .{ .fault = .impossible, .where = e.seat };
    for (out) |*p| p.* /= sum;
    return .{};
}
