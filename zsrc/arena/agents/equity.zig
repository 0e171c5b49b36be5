//! `equity`: bets, raises, calls or folds by its hand's equity on the current street
//! against a uniform range. Its strength e: preflop the class's exact EHS (equity against
//! one random hand over every board); after the flop its exact HS on the board as it
//! stands (against one random hand, ties half: strength.zig). Not EHS to the river: that
//! is ~25 ms a flop board, and HS now is exact and cheap (one ranking of the 1,326 combos
//! a street, shared by the table's seats); draws count for nothing until they come in.
//!
//! With n opponents still in the hand, its winning chance is taken as w = e^n (beating n
//! independent random hands), and
//!   fair     = 1 / (n + 1)                           (a random hand's share)
//!   raise_at = fair + (1 - aggression) * (1 - fair)
//!   call_at  = min(1, pot_odds * (1 + tightness)),   pot_odds = to_call / (pot + to_call)
//!   r = gate(w - raise_at, temperature), g = gate(w - call_at, temperature)
//! and the policy is policy.fold_call_raise(r, g): RAISE r when legal (to the `bet` size of
//! the pot when nothing is to call, else the `raise` size of the pot after calling), CALL
//! the rest of max(r, g), FOLD the rest (CHECK when free). gate is a step at 0 at
//! temperature 0, else the logistic of x / temperature.
const std = @import("std");
const assert = std.debug.assert;
const policy_zig = @import("policy.zig");
const strength = @import("strength.zig");
const combos = @import("../../cards/combos.zig");
const table_zig = @import("../table.zig");
const Agent = policy_zig.Agent;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

/// The combo's strength e (see above); `board` is ranked on the spot's board after the flop.
pub fn hand_strength(spot: Spot, combo: u16, board: *strength.Board) f64 {
    assert(combo < combos.count);
    if (spot.street == table_zig.Street.preflop) return strength.preflop_ehs(combo);
    board.rank(spot.board);
    const e = board.hs(combo);
    // A share of the opponents beaten, ties half.
    assert(e >= 0);
    assert(e <= 1);
    return e;
}

pub fn policy(agent: Agent, spot: Spot, combo: u16, board: *strength.Board) Policy {
    return policy_at(agent, spot, hand_strength(spot, combo, board));
}

/// The policy of a hand of strength `e` (`hand_strength`): how the Range Reader asks it for
/// every combo at once from strengths it found in bulk, exactly as `policy` plays.
pub fn policy_at(agent: Agent, spot: Spot, e: f64) Policy {
    assert(e >= 0);
    assert(e <= 1);
    const n: f64 = @floatFromInt(@max(spot.opponents, 1));
    const w = std.math.pow(f64, e, n);
    const fair = 1 / (n + 1);
    const raise_at = fair + (1 - @as(f64, agent.aggression)) * (1 - fair);
    const to_call: f64 = @floatFromInt(spot.legal.to_call);
    const pot_odds = to_call / (@as(f64, @floatFromInt(spot.pot)) + to_call);
    const call_at = @min(1, pot_odds * (1 + @as(f64, agent.tightness)));
    const t: f64 = agent.temperature;
    return policy_zig.fold_call_raise(spot, policy_zig.gate(w - raise_at, t), policy_zig.gate(w - call_at, t), policy_zig.sizing(agent, spot));
}
