//! The native agents by number (`pp_agent.kind`), their parameters' bounds, and the one
//! dispatch from an agent to its policy and its action. `external` marks a seat played by a
//! Python agent: the native loops stop at its decisions (mixed.zig).
const std = @import("std");
const table_zig = @import("../table.zig");
const random_player = @import("../random_player.zig");
const policy_zig = @import("policy.zig");
const strength = @import("strength.zig");
const Table = table_zig.Table;
const Agent = policy_zig.Agent;
const Policy = policy_zig.Policy;
const Spot = policy_zig.Spot;
const Action = policy_zig.Action;

pub const Kind = struct {
    pub const fold: u8 = 0;
    pub const call: u8 = 1;
    pub const raise: u8 = 2;
    pub const random: u8 = 3;
    pub const chart: u8 = 4;
    pub const equity: u8 = 5;
    pub const count: u8 = 6;
    /// A seat whose decisions the caller makes (a Python agent).
    pub const external: u8 = 255;
};

/// Bounds of the parameters (the header's PP_AGENT_*; Python words the refusals).
pub const size_max: f32 = 100;
pub const temperature_max: f32 = 100;

/// Which parameter of an agent is out of bounds (`pp_error.card`), or `none`.
pub const Fault = enum(u8) {
    none = 0,
    kind = 1,
    tightness = 2,
    aggression = 3,
    bet = 4,
    raise = 5,
    temperature = 6,
    /// A population's style weight (population.zig): negative, not a number, or all 0.
    weight = 7,

    pub const c_name = "pp_agent_fault";
};

pub fn fault(agent: Agent) Fault {
    if (agent.kind >= Kind.count and agent.kind != Kind.external) return .kind;
    if (!within(agent.tightness, 0, 1)) return .tightness;
    if (!within(agent.aggression, 0, 1)) return .aggression;
    if (!within(agent.bet, 0, size_max) or agent.bet == 0) return .bet;
    if (!within(agent.raise, 0, size_max) or agent.raise == 0) return .raise;
    if (!within(agent.temperature, 0, temperature_max)) return .temperature;
    return .none;
}

fn within(x: f32, low: f32, high: f32) bool {
    return x >= low and x <= high; // false for NaN
}

/// The policy of `agent` at `spot` holding `combo` (which must not meet the board).
/// `board` caches the board's ranking between calls (the equity agent's).
pub fn policy(agent: Agent, spot: Spot, combo: u16, board: *strength.Board) Policy {
    return switch (agent.kind) {
        Kind.fold => @import("fold.zig").policy(agent, spot),
        Kind.call => @import("call.zig").policy(agent, spot),
        Kind.raise => @import("raise.zig").policy(agent, spot),
        Kind.random => @import("random.zig").policy(spot),
        Kind.chart => @import("chart.zig").policy(agent, spot, combo),
        Kind.equity => @import("equity.zig").policy(agent, spot, combo, board),
        else => unreachable,
    };
}

/// The action `agent` plays for the seat to act: the reference random player's own choice
/// for `random`, else a draw from its policy with the decision's word (policy.zig).
pub fn choose(agent: Agent, table: *const Table, key: u64, board: *strength.Board) Action {
    std.debug.assert(agent.kind < Kind.count);
    if (agent.kind == Kind.random) return random_player.choose(table, key);
    const spot = policy_zig.spot_of(table);
    const combo = policy_zig.own_combo(table);
    const chosen = policy(agent, spot, combo, board);
    return policy_zig.sample(chosen, policy_zig.decision_word(key, table.table, table.hand, table.decision));
}
