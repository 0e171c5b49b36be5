//! `fold`: folds whenever it faces a bet, checks when it may. Its policy, any cards:
//!   facing a bet: FOLD 1; else CHECK 1;
//! then mixed with the uniform choice among its options (policy.mix_uniform: FOLD and CALL
//! when facing a bet, else CHECK; RAISE to the `bet` / `raise` size when legal) in the
//! share temperature / (1 + temperature).
const policy_zig = @import("policy.zig");
const Kind = @import("../rules.zig").Kind;
const Agent = policy_zig.Agent;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

pub fn policy(agent: Agent, spot: Spot) Policy {
    const base = policy_zig.only(if (spot.faces_bet()) Kind.fold else Kind.check, 0);
    return policy_zig.mix_uniform(spot, base, agent.temperature, policy_zig.sizing(agent, spot));
}
