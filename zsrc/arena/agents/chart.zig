//! `chart`: a preflop opening and calling chart by the strength of the 169 starting-hand
//! classes, then check/fold. With `top` = the share of the 1,326 combos whose class's EHS
//! is at least the combo's (strength.zig: AA 6/1326 ... the worst class 1),
//!   play = 1 - tightness (the share of hands it plays), raising = play * aggression,
//!   r = gate(raising - top, temperature), g = gate(play - top, temperature)
//! (gate: a step at 0 at temperature 0, else the logistic of x / temperature), the policy
//! preflop is policy.fold_call_raise(r, g): RAISE r when legal (to the `bet` size of the
//! pot when nothing is to call, else the `raise` size of the pot after calling), CALL the
//! rest of max(r, g), FOLD the rest (CHECK in place of FOLD when nothing is to call; a
//! raise's share calls when raising is closed). The same chart opens, calls and re-raises.
//! After the flop: CHECK when it may, else FOLD (all cards alike).
const std = @import("std");
const policy_zig = @import("policy.zig");
const strength = @import("strength.zig");
const table_zig = @import("../table.zig");
const Kind = @import("../rules.zig").Kind;
const Agent = policy_zig.Agent;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

pub fn policy(agent: Agent, spot: Spot, combo: u16) Policy {
    if (spot.street != table_zig.Street.preflop) {
        return policy_zig.only(if (spot.faces_bet()) Kind.fold else Kind.check, 0);
    }
    return policy_at(agent, spot, strength.preflop_top(combo));
}

/// The preflop policy of a combo whose class has top share `top` (the Range Reader asks it
/// once per class); `spot` must be preflop.
pub fn policy_at(agent: Agent, spot: Spot, top: f64) Policy {
    std.debug.assert(spot.street == table_zig.Street.preflop);
    const play = 1 - @as(f64, agent.tightness);
    const raising = play * agent.aggression;
    const t: f64 = agent.temperature;
    return policy_zig.fold_call_raise(spot, policy_zig.gate(raising - top, t), policy_zig.gate(play - top, t), policy_zig.sizing(agent, spot));
}
