//! `raise`: always the largest bet. Its policy, any cards:
//!   RAISE to max_to (everything it has) when raising is legal; else CALL facing a bet,
//!   CHECK when nothing is to call;
//! then mixed with the uniform choice among its options (policy.mix_uniform; its raise
//! stays the largest) in the share temperature / (1 + temperature).
const policy_zig = @import("policy.zig");
const Kind = @import("../rules.zig").Kind;
const Agent = policy_zig.Agent;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

pub fn policy(agent: Agent, spot: Spot) Policy {
    const largest = spot.legal.max_to;
    const base = if (spot.may_raise())
        policy_zig.only(Kind.raise, largest)
    else
        policy_zig.only(if (spot.faces_bet()) Kind.call else Kind.check, 0);
    return policy_zig.mix_uniform(spot, base, agent.temperature, largest);
}
