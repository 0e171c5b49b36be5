//! The agents' constants the Python layer reads from the generated header (capi.zig
//! appends them to `header_constants`): `PP_AGENT_FOLD`, ...
const registry = @import("registry.zig");
const combos = @import("../../cards/combos.zig");
const learner = @import("learner.zig");
const population = @import("population.zig");

pub const header_constants = .{
    .{ "AGENT_FOLD", registry.Kind.fold },
    .{ "AGENT_CALL", registry.Kind.call },
    .{ "AGENT_RAISE", registry.Kind.raise },
    .{ "AGENT_RANDOM", registry.Kind.random },
    .{ "AGENT_CHART", registry.Kind.chart },
    .{ "AGENT_EQUITY", registry.Kind.equity },
    .{ "AGENT_KINDS", registry.Kind.count },
    .{ "AGENT_EXTERNAL", registry.Kind.external },
    .{ "AGENT_SIZE_MAX", @as(u32, @intFromFloat(registry.size_max)) },
    .{ "AGENT_TEMPERATURE_MAX", @as(u32, @intFromFloat(registry.temperature_max)) },
    .{ "POLICY_COMBOS", combos.count },
    .{ "RL_HISTORY_MAX", learner.history_max },
    .{ "RL_SCHEME_DISCRETE", learner.Scheme.discrete },
    .{ "RL_SCHEME_CONTINUOUS", learner.Scheme.continuous },
    .{ "RL_DISCRETE_ACTIONS", learner.discrete_actions },
    .{ "RL_CONTINUOUS_ACTIONS", learner.continuous_actions },
    .{ "POPULATION_STYLES_MAX", population.styles_max },
    .{ "NO_STYLE", population.no_style },
};
