//! What every native agent shares: the public facts of a decision (`Spot`), a policy (the
//! probability of each action kind, and the raise's size), the agent's parameters, and how
//! an action is drawn from a policy.
//!
//! A native agent's policy is a pure function of (the public state, the agent's own hole
//! cards, its parameters): it never reads another seat's cards, so `policy(spot, combo)`
//! for each of the 1,326 combos is the exact likelihood of each action given those cards.
//! The action played is drawn from exactly that policy with one uniform word a decision:
//!
//!   u = (w >> 11) * 2^-53, w = `decision_word(key, table, hand, decision)`
//!   kind = the first k (FOLD, CHECK, CALL, RAISE, ALL_IN order) with u < p_0 + ... + p_k
//!
//! (inverse CDF; a kind with p = 0 is never drawn; rounding past the sum picks the last
//! kind with p > 0). `w` is the reference random player's first word of the decision
//! (random_player.zig's w0), so every agent draws from the same stream of the seed.
//! The draw's probabilities are the reported ones to within 2^-53 (the uniform's grain).
const std = @import("std");
const random = @import("../../cards/random.zig");
const combos = @import("../../cards/combos.zig");
const table_zig = @import("../table.zig");
const rules = @import("../rules.zig");
const Table = table_zig.Table;
const Kind = rules.Kind;
const assert = std.debug.assert;

/// An action to apply: `amount` is a RAISE's total bet on the street.
pub const Action = @import("../random_player.zig").Action;

/// One native agent: which (`kind`, registry.zig) and how it plays. Every field means the
/// same to every agent that uses it; agents ignore the ones they do not (registry.zig).
pub const Agent = extern struct {
    kind: u8,
    pad: [3]u8 = @splat(0),
    /// 0..1: how many hands it gives up (chart: folds the bottom `tightness` of starting
    /// hands; equity: demands pot odds times 1 + tightness to call).
    tightness: f32,
    /// 0..1: how readily it raises (chart: raises the top `aggression` share of the hands it
    /// plays; equity: raises once its winning chance clears fair share by 1 - aggression of
    /// the way to 1).
    aggression: f32,
    /// A first bet's size as a fraction of the pot (0 < bet <= 100).
    bet: f32,
    /// A raise's size above the current bet as a fraction of the pot after calling.
    raise: f32,
    /// >= 0: 0 plays the agent's choice outright; larger mixes its choices (each agent's
    /// doc says how).
    temperature: f32,

    pub const c_name = "pp_agent";
};

comptime {
    assert(@sizeOf(Agent) == 24);
}

/// A policy: `prob[k]` of each action kind (summing to 1 over legal kinds), a RAISE to
/// `raise_to` chips, or, with `raise_uniform`, to an amount uniform over the legal range
/// (the reference random player's raise).
pub const Policy = struct {
    prob: [Kind.count]f64 = @splat(0),
    raise_to: u32 = 0,
    raise_uniform: bool = false,

    pub fn total(policy: Policy) f64 {
        var sum: f64 = 0;
        for (policy.prob) |p| sum += p;
        return sum;
    }
};

/// The public facts of the decision of the seat to act: the same whatever cards it holds.
pub const Spot = struct {
    legal: rules.Legal,
    street: u8,
    /// Every chip in the middle: antes and every bet of every street.
    pot: u64,
    current_bet: u32,
    /// Other seats still in the hand.
    opponents: u8,
    /// The board cards shown (a card set) and how many.
    board: u64,
    board_count: u8,
    /// The seat's own cards are `no_card` (a replay): no agent can play it natively.
    blind: bool,

    pub fn faces_bet(spot: Spot) bool {
        return spot.legal.allows(Kind.call);
    }

    pub fn may_raise(spot: Spot) bool {
        return spot.legal.allows(Kind.raise);
    }
};

pub fn spot_of(table: *const Table) Spot {
    assert(table.actor != table_zig.no_seat);
    // Pair of `Table.well_formed`: the seat to act is seated and still in the hand.
    assert(table.actor < table.seats);
    assert(table.in_hand >> @intCast(table.actor) & 1 == 1);
    var pot: u64 = table.antes;
    for (table.committed) |chips| pot += chips;
    const shown = table_zig.board_shown[table.street];
    var board: u64 = 0;
    for (table.board[0..shown]) |card| board |= @as(u64, 1) << @intCast(card & 63);
    const hole = table.hole[table.actor];
    return .{
        .legal = rules.legal(table),
        .street = table.street,
        .pot = pot,
        .current_bet = table.current_bet,
        .opponents = @popCount(table.in_hand) - 1,
        .board = board,
        .board_count = shown,
        .blind = hole[0] == table_zig.no_card or hole[1] == table_zig.no_card,
    };
}

/// The combo of the seat to act.
pub fn own_combo(table: *const Table) u16 {
    const hole = table.hole[table.actor];
    assert(hole[0] != hole[1]); // two cards dealt, not hidden
    const combo = combos.index[hole[0]][hole[1]];
    assert(combo < combos.count);
    return combo;
}

/// The decision's uniform word: the reference random player's w0 (random_player.words).
pub fn decision_word(key: u64, table_number: u32, hand: u32, decision: u16) u64 {
    const hand_row = @as(u64, table_number) << 32 | hand;
    const hand_key = random.mix64(key +% hand_row *% random.golden_gamma);
    return random.mix64(hand_key +% (4 * @as(u64, decision)) *% random.golden_gamma);
}

/// The action the inverse CDF picks for the word `word`.
pub fn sample(policy: Policy, word: u64) Action {
    const u = @as(f64, @floatFromInt(word >> 11)) * 0x1.0p-53;
    var sum: f64 = 0;
    var last: u8 = Kind.count;
    for (policy.prob, 0..) |p, k| {
        if (p <= 0) continue;
        last = @intCast(k);
        sum += p;
        if (u < sum) break;
    }
    assert(last < Kind.count);
    return .{ .kind = last, .amount = if (last == Kind.raise) policy.raise_to else 0 };
}

/// A RAISE's total: the current bet plus `fraction` of the pot after calling (for a first
/// bet, of the pot), in whole chips, within the legal range.
pub fn raise_size(spot: Spot, fraction: f64) u32 {
    if (!spot.may_raise()) return 0;
    assert(spot.legal.min_to <= spot.legal.max_to);
    const after_call: f64 = @floatFromInt(spot.pot + spot.legal.to_call);
    const wanted = @as(f64, @floatFromInt(spot.current_bet)) + @floor(fraction * after_call);
    const low: f64 = @floatFromInt(spot.legal.min_to);
    const high: f64 = @floatFromInt(spot.legal.max_to);
    const raise_to: u32 = @intFromFloat(std.math.clamp(wanted, low, high));
    assert(raise_to >= spot.legal.min_to);
    assert(raise_to <= spot.legal.max_to);
    return raise_to;
}

/// The bet or raise fraction that applies: `bet` when nothing is to call, else `raise`.
pub fn sizing(agent: Agent, spot: Spot) u32 {
    return raise_size(spot, if (spot.faces_bet()) agent.raise else agent.bet);
}

/// The soft step of the threshold agents: 1 when `x >= 0` at temperature 0, else the
/// logistic 1 / (1 + e^(-x / temperature)).
pub fn gate(x: f64, temperature: f64) f64 {
    if (temperature <= 0) return if (x >= 0) 1 else 0;
    return 1 / (1 + @exp(-x / temperature));
}

/// The threshold agents' policy from two chances: `raise` (raise) and `go_on` (at least
/// call). RAISE gets `raise` when raising is legal (else its share calls); CALL (CHECK when
/// nothing is to call) what is left of max(raise, go_on); FOLD the rest (CHECK when free).
pub fn fold_call_raise(spot: Spot, raise: f64, go_on: f64, raise_to: u32) Policy {
    var policy: Policy = .{};
    const stay = @max(raise, go_on);
    const raised = if (spot.may_raise()) raise else 0;
    if (spot.faces_bet()) {
        policy.prob[Kind.fold] = 1 - stay;
        policy.prob[Kind.call] = stay - raised;
    } else {
        policy.prob[Kind.check] = 1 - raised;
    }
    policy.prob[Kind.raise] = raised;
    policy.raise_to = if (raised > 0) raise_to else 0;
    return policy;
}

/// `base` mixed with the uniform choice among the agent's options (fold when facing a bet,
/// check or call, raise when legal) in the share `temperature / (1 + temperature)`.
pub fn mix_uniform(spot: Spot, base: Policy, temperature: f64, raise_to: u32) Policy {
    if (temperature <= 0) return base;
    const share = temperature / (1 + temperature);
    const options: f64 = if (spot.faces_bet()) 2 else 1;
    const count = options + @as(f64, if (spot.may_raise()) 1 else 0);
    var policy = base;
    for (&policy.prob) |*p| p.* *= 1 - share;
    const each = share / count;
    if (spot.faces_bet()) {
        policy.prob[Kind.fold] += each;
        policy.prob[Kind.call] += each;
    } else policy.prob[Kind.check] += each;
    if (spot.may_raise()) {
        policy.prob[Kind.raise] += each;
        if (policy.raise_to == 0) policy.raise_to = raise_to;
    }
    return policy;
}

/// A policy that plays one kind outright.
pub fn only(kind: u8, raise_to: u32) Policy {
    assert(kind < Kind.count);
    var policy: Policy = .{ .raise_to = if (kind == Kind.raise) raise_to else 0 };
    policy.prob[kind] = 1;
    return policy;
}
