//! Exports of the arena's native agents (zsrc/arena/agents/): checking a lineup, an agent's
//! policy over the 1,326 combos, native play with an agent at each seat, and the mixed
//! loop that stops where a Python agent must act.
//!
//! A lineup is `seats` `pp_agent`s, seat by seat. Every export checks the config, the
//! lineup and each table before it touches any; on failure nothing changes.
const std = @import("std");
const table_zig = @import("../../arena/table.zig");
const rules = @import("../../arena/rules.zig");
const deal = @import("../../arena/deal.zig");
const play = @import("../../arena/play.zig");
const combos = @import("../../cards/combos.zig");
const policy_zig = @import("../../arena/agents/policy.zig");
const registry = @import("../../arena/agents/registry.zig");
const strength = @import("../../arena/agents/strength.zig");
const seating_zig = @import("../../arena/agents/seating.zig");
const mixed = @import("../../arena/agents/mixed.zig");
const population_zig = @import("../../arena/agents/population.zig");
const Population = population_zig.Population;
const reports = @import("../status.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const Status = reports.Status;
const Error = reports.Error;
const Table = table_zig.Table;
const Config = deal.Config;
const Agent = policy_zig.Agent;
const seats_max = table_zig.seats_max;

fn report(err: ?*Error, row: i64, card: i32, position: i32, kind: HandError.Kind) Status {
    return reports.report_hand_error(err, .at(row, kind, card, position));
}

/// The lineup's first bad agent (`err.row` its seat, `err.card` a `pp_agent_fault`), or,
/// with `native_only`, the first external one (fault `kind`); else the lineup, padded.
fn lineup_of(agents: [*]const Agent, seats: u8, native_only: bool, err: ?*Error) union(enum) { ok: [seats_max]Agent, bad: Status } {
    var lineup: [seats_max]Agent = @splat(.{ .kind = registry.Kind.fold, .tightness = 0, .aggression = 0, .bet = 1, .raise = 1, .temperature = 0 });
    for (agents[0..seats], 0..) |agent, seat| {
        var fault = registry.fault(agent);
        if (fault == .none and native_only and agent.kind == registry.Kind.external) fault = .kind;
        if (fault != .none) return .{ .bad = report(err, @intCast(seat), @backingInt(fault), 0, .bad_argument) };
        lineup[seat] = agent;
    }
    return .{ .ok = lineup };
}

/// The config (row -2), then each table (its row) the rules can play.
/// The two seated play exports' common end: `n` tables checked against the config, then
/// played as `seating` says into `record`'s buffers (`finish` writes back how it ended).
fn play_checked(seating: *seating_zig.Seating, c: *const Config, tables: ?[*]Table, n: u64, hands_left: ?[*]u32, record: *play.Io, err: ?*Error) Status {
    record.finish(null, .done);
    if (n == 0) return .ok;
    const t = (tables orelse return .null_pointer)[0..n];
    const left = (hands_left orelse return .null_pointer)[0..n];
    const checked = check_tables(c, t, err);
    if (checked != .ok) return checked;
    var opened = record.recorder() catch return .null_pointer;
    const recorder: ?*play.Recorder = if (opened) |*r| r else null;
    record.finish(recorder, play.play_seated(seating, t, c, left, recorder, record.cancel, record.progress));
    return .ok;
}

fn check_tables(config: *const Config, tables: []const Table, err: ?*Error) Status {
    if (!config.valid()) return report(err, -2, 0, 0, .bad_argument);
    for (tables, 0..) |*table, t| {
        if (table.seats != config.seats or !table.valid()) return report(err, @intCast(t), -1, 0, .bad_argument);
    }
    return .ok;
}

pub const api = struct {
    /// Whether each of `n` agents is one the arena can play: on the first that is not,
    /// `bad_argument` with its index in `err.row` and the parameter (a `pp_agent_fault`)
    /// in `err.card`.
    pub fn pp_agents_check(agents: ?[*]const Agent, n: u64, err: ?*Error) callconv(.c) Status {
        if (n == 0) return .ok;
        const a = agents orelse return .null_pointer;
        for (a[0..n], 0..) |agent, i| {
            const fault = registry.fault(agent);
            if (fault != .none) return report(err, @intCast(i), @backingInt(fault), 0, .bad_argument);
        }
        return .ok;
    }

    /// The policy of `agent` for the seat to act at `table`, for each of the 1,326 combos it
    /// might hold (pp.COMBOS order): `prob[c][5]` per action kind, `raise_to[c]` (a RAISE's
    /// total; 0 when it never raises there) and `raise_uniform[c]` (1: the raise is to an
    /// amount uniform over the legal range instead). Combos that meet the board shown get
    /// all zeros. Only public facts and the combo enter: never the table's hole cards.
    pub fn pp_agent_policy(
        agent: ?*const Agent,
        table: ?*const Table,
        prob: ?[*]f64,
        raise_to: ?[*]u32,
        raise_uniform: ?[*]u8,
        err: ?*Error,
    ) callconv(.c) Status {
        const a = agent orelse return .null_pointer;
        const t = table orelse return .null_pointer;
        const p = prob orelse return .null_pointer;
        const r = raise_to orelse return .null_pointer;
        const u = raise_uniform orelse return .null_pointer;
        const fault = registry.fault(a.*);
        if (fault != .none or a.kind == registry.Kind.external) return report(err, 0, @backingInt(if (fault == .none) registry.Fault.kind else fault), 0, .bad_argument);
        if (!t.valid()) return report(err, -1, -1, 0, .bad_argument);
        if (t.actor == table_zig.no_seat) return report(err, -1, -2, 0, .bad_argument);
        const spot = policy_zig.spot_of(t);
        var board: strength.Board = .{};
        for (0..combos.count) |c| {
            const combo: u16 = @intCast(c);
            var chosen: policy_zig.Policy = .{};
            if (combos.set(combo) & spot.board == 0) chosen = registry.policy(a.*, spot, combo, &board);
            p[c * rules.Kind.count ..][0..rules.Kind.count].* = chosen.prob;
            r[c] = chosen.raise_to;
            u[c] = @intFromBool(chosen.raise_uniform);
        }
        return .ok;
    }

    /// `pp_arena_play` with the lineup's native agents at the seats (none external), and
    /// each finished hand's net chips per seat written to `net` when given:
    /// `net[((table - first_table) * net_hands + hand - first_hand) * seats + seat]`
    /// for tables below first_table + net_tables and hands below first_hand + net_hands.
    /// `rotation` > 0 (duplicate play): every hand dealt from here on has its hole cards
    /// moved `rotation` seats back (seat s holds seat s + rotation's; agents/seating.zig).
    pub fn pp_agents_play(
        config: ?*const Config,
        agents: ?[*]const Agent,
        tables: ?[*]Table,
        n: u64,
        hands_left: ?[*]u32,
        net: ?[*]i32,
        net_tables: u32,
        net_hands: u32,
        first_table: u32,
        first_hand: u32,
        rotation: u8,
        io: ?*play.Io,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        const record = io orelse return .null_pointer;
        if (!c.valid()) return report(err, -2, 0, 0, .bad_argument);
        var seating: seating_zig.Seating = .{};
        const lineup = switch (lineup_of(agents orelse return .null_pointer, c.seats, true, err)) {
            .ok => |l| l,
            .bad => |status| return status,
        };
        seating.lineup = &lineup;
        seating.rotation = rotation;
        if (net) |rows| seating.ledger = .{ .net = rows, .tables = net_tables, .hands = net_hands, .first_table = first_table, .first_hand = first_hand, .seats = c.seats };
        return play_checked(&seating, c, tables, n, hands_left, record, err);
    }

    /// The mixed loop (agents/mixed.zig): the answers `kinds[t]` / `amounts[t]` of the
    /// tables with `waiting[t] == 1` are checked (the first illegal one: `illegal_action`,
    /// `err.row` its table, `err.card` the `pp_refusal`, `err.position` its kind; nothing
    /// changes) and applied; then every table plays natively until a seat whose agent is
    /// `external` must act (`waiting[t] = 1`) or its `hands_left[t]` are done. Net chips of
    /// finished hands go to `net` as in `pp_agents_play` (`rotation` too); `*finished`
    /// counts the hands.
    pub fn pp_agents_run(
        config: ?*const Config,
        agents: ?[*]const Agent,
        tables: ?[*]Table,
        n: u64,
        hands_left: ?[*]u32,
        waiting: ?[*]u8,
        kinds: ?[*]const u8,
        amounts: ?[*]const i64,
        net: ?[*]i32,
        net_hands: u32,
        first_hand: u32,
        rotation: u8,
        finished: ?*u64,
        cancel: ?*const u32,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        if (!c.valid()) return report(err, -2, 0, 0, .bad_argument);
        const lineup = switch (lineup_of(agents orelse return .null_pointer, c.seats, false, err)) {
            .ok => |l| l,
            .bad => |status| return status,
        };
        const f = finished orelse return .null_pointer;
        f.* = 0;
        if (n == 0) return .ok;
        if (n > std.math.maxInt(u32)) return .bad_argument;
        const t = (tables orelse return .null_pointer)[0..n];
        const left = (hands_left orelse return .null_pointer)[0..n];
        const wait = (waiting orelse return .null_pointer)[0..n];
        const k = (kinds orelse return .null_pointer)[0..n];
        const a = (amounts orelse return .null_pointer)[0..n];
        const checked = check_tables(c, t, err);
        if (checked != .ok) return checked;
        const refused = mixed.check_answers(t, wait, k, a);
        if (refused.why != .none) return report(err, @intCast(refused.row), @backingInt(refused.why), k[refused.row], .illegal_action);
        var seating: seating_zig.Seating = .{ .lineup = &lineup, .rotation = rotation };
        if (net) |rows| seating.ledger = .{ .net = rows, .tables = @intCast(n), .hands = net_hands, .first_table = t[0].table, .first_hand = first_hand, .seats = c.seats };
        f.* = mixed.run(&seating, t, c, left, wait, k, a, cancel);
        return .ok;
    }
    /// Whether `population` is one the arena can play: on failure `bad_argument` with the
    /// first bad style in `err.row` and its fault (a `pp_agent_fault`) in `err.card`.
    pub fn pp_population_check(population: ?*const Population, err: ?*Error) callconv(.c) Status {
        const p = population orelse return .null_pointer;
        const found = p.fault();
        if (found.fault != .none) return report(err, found.row, @backingInt(found.fault), 0, .bad_argument);
        return .ok;
    }

    /// The style each of `seats` seats plays in hand `hands[i]` of table `tables[i]` under
    /// `seed` (population.zig), into `styles[n][seats]`.
    pub fn pp_population_styles(
        population: ?*const Population,
        seed: u64,
        tables: ?[*]const u32,
        hands: ?[*]const u32,
        n: u64,
        seats: u8,
        styles: ?[*]u8,
    ) callconv(.c) Status {
        const p = population orelse return .null_pointer;
        if (p.fault().fault != .none or seats > seats_max) return .bad_argument;
        if (n == 0) return .ok;
        const t = tables orelse return .null_pointer;
        const h = hands orelse return .null_pointer;
        const out = styles orelse return .null_pointer;
        const key = population_zig.population_key(seed);
        for (0..n) |i| {
            for (0..seats) |s| out[i * seats + s] = p.style(key, t[i], h[i], @intCast(s));
        }
        return .ok;
    }

    /// `pp_agents_play` with the population's styles dealt afresh to every seat of every
    /// hand (population.zig) under the config's seed, no ledger.
    pub fn pp_population_play(
        config: ?*const Config,
        population: ?*const Population,
        tables: ?[*]Table,
        n: u64,
        hands_left: ?[*]u32,
        io: ?*play.Io,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        const record = io orelse return .null_pointer;
        const p = population orelse return .null_pointer;
        if (!c.valid()) return report(err, -2, 0, 0, .bad_argument);
        const found = p.fault();
        if (found.fault != .none) return report(err, found.row, @backingInt(found.fault), 0, .bad_argument);
        var seating: seating_zig.Seating = .{ .population = p, .population_key = population_zig.population_key(c.seed) };
        return play_checked(&seating, c, tables, n, hands_left, record, err);
    }
};
