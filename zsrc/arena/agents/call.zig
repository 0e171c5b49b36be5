//! `call`: the calling station. Calls every bet, checks when it may, never raises. Its
//! policy, any cards:
//!   facing a bet: CALL 1 (all in when its stack is short); else CHECK 1;
//! then mixed with the uniform choice among its options (policy.mix_uniform) in the share
//! temperature / (1 + temperature).
const policy_zig = @import("policy.zig");
const Kind = @import("../rules.zig").Kind;
const Agent = policy_zig.Agent;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

pub fn policy(agent: Agent, spot: Spot) Policy {
    const base = policy_zig.only(if (spot.faces_bet()) Kind.call else Kind.check, 0);
    return policy_zig.mix_uniform(spot, base, agent.temperature, policy_zig.sizing(agent, spot));
}
