//! Exports of the RL environments' native loop (zsrc/arena/agents/learner.zig and
//! observation.zig): dealing every table to an external seat's decision, stepping all of
//! them with the caller's answers, and writing each table's observation, action mask and
//! reward, one call a batch.
//!
//! Tables and their slots live in the caller's memory (`pp_table[n]`, `pp_rl_slot[n]`).
//! The lineup is `seats` `pp_agent`s; the external ones are the caller's seats. On a
//! failure nothing changes: `bad_argument` with `err.position` saying what is at fault
//! (1: the agent at seat `err.row`, its `pp_agent_fault` in `err.card`; 2: the settings;
//! 3: table `err.row` or its slot; 4: the config).
const std = @import("std");
const table_zig = @import("../../arena/table.zig");
const deal = @import("../../arena/deal.zig");
const policy_zig = @import("../../arena/agents/policy.zig");
const registry = @import("../../arena/agents/registry.zig");
const seating_zig = @import("../../arena/agents/seating.zig");
const learner = @import("../../arena/agents/learner.zig");
const observation = @import("../../arena/agents/observation.zig");
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const Table = table_zig.Table;
const Config = deal.Config;
const Agent = policy_zig.Agent;
const Settings = learner.Settings;
const Slot = learner.Slot;
const Layout = observation.Layout;
const Seating = seating_zig.Seating;
const seats_max = table_zig.seats_max;
const no_seat = table_zig.no_seat;

const Fault = enum(i32) { agent = 1, settings = 2, table = 3, config = 4 };

fn report(err: ?*Error, row: i64, card: i32, fault: Fault) Status {
    return reports.report_hand_error(err, .at(row, .bad_argument, card, @backingInt(fault)));
}

const Checked = union(enum) { ok: [seats_max]Agent, bad: Status };

/// The config, the settings and the lineup (padded to `seats_max`), checked.
fn checked(config: *const Config, settings: *const Settings, agents: [*]const Agent, err: ?*Error) Checked {
    if (!config.valid()) return .{ .bad = report(err, -1, 0, .config) };
    if (!settings.valid(config.seats)) return .{ .bad = report(err, -1, 0, .settings) };
    var lineup: [seats_max]Agent = @splat(.{ .kind = registry.Kind.external, .tightness = 0, .aggression = 0, .bet = 1, .raise = 1, .temperature = 0 });
    for (agents[0..config.seats], 0..) |agent, seat| {
        const fault = registry.fault(agent);
        if (fault != .none) return .{ .bad = report(err, @intCast(seat), @backingInt(fault), .agent) };
        lineup[seat] = agent;
    }
    if (lineup[settings.seat].kind != registry.Kind.external) return .{ .bad = report(err, settings.seat, 0, .settings) };
    return .{ .ok = lineup };
}

/// Each table well formed at the config's seat count, its slot agreeing, and a table not
/// over waiting on an external seat.
fn check_tables(config: *const Config, seating: *const Seating, tables: []const Table, slots: []const Slot, err: ?*Error) Status {
    for (tables, slots, 0..) |*table, *slot, t| {
        var fine = table.seats == config.seats and table.well_formed() and slot.well_formed(table);
        if (fine and slot.over == 0) fine = table.actor != no_seat and seating.external(table);
        if (!fine) return report(err, @intCast(t), 0, .table);
    }
    return .ok;
}

/// The observations and masks of the learner seat, when asked for.
fn outputs(settings: Settings, tables: []const Table, slots: []const Slot, viewer: u8, obs: ?[*]f32, mask: ?[*]u8) void {
    if (tables.len == 0) return;
    const columns = observation.layout(tables[0].seats, settings.history).columns;
    const actions = settings.actions();
    for (tables, slots, 0..) |*table, *slot, t| {
        if (obs) |o| observation.encode(table, slot, viewer, settings.history, o[t * columns ..][0..columns]);
        if (mask) |m| learner.mask(table, settings, viewer, m[t * actions ..][0..actions]);
    }
}

pub const api = struct {
    /// The observation's layout for tables of `seats` seats and `history` actions.
    pub fn pp_rl_observation_layout(seats: u8, history: u8, out: ?*Layout) callconv(.c) Status {
        const o = out orelse return .null_pointer;
        if (seats < table_zig.seats_min or seats > seats_max or history > learner.history_max) return .bad_argument;
        o.* = observation.layout(seats, history);
        return .ok;
    }

    /// Deals each of `n` tables a hand and plays its native seats until an external seat
    /// must act: with `first` = 1 hand 0 of table i (numbered i) from the config alone,
    /// else the next hand of each table (abandoning one in progress). Writes the learner's
    /// observations (`obs[n][columns]`), masks (`mask[n][actions]`) and, in `skipped[n]`,
    /// its net chips in big blinds in hands dealt past without an external decision. Any
    /// output may be null.
    pub fn pp_rl_reset(
        config: ?*const Config,
        agents: ?[*]const Agent,
        settings: ?*const Settings,
        tables: ?[*]Table,
        slots: ?[*]Slot,
        n: u64,
        first: u8,
        obs: ?[*]f32,
        mask: ?[*]u8,
        skipped: ?[*]f32,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        const s = settings orelse return .null_pointer;
        const lineup = switch (checked(c, s, agents orelse return .null_pointer, err)) {
            .ok => |l| l,
            .bad => |status| return status,
        };
        if (n == 0) return .ok;
        if (n > @as(u64, std.math.maxInt(u32)) + 1) return report(err, -1, 0, .config);
        const t = (tables orelse return .null_pointer)[0..n];
        const slot = (slots orelse return .null_pointer)[0..n];
        var seating: Seating = .{ .lineup = &lineup };
        if (first == 0) {
            for (t, 0..) |*table, i| {
                if (table.seats != c.seats or !table.well_formed()) return report(err, @intCast(i), 0, .table);
            }
        }
        for (t, slot, 0..) |*table, *one, i| {
            one.* = std.mem.zeroes(Slot);
            if (first == 1) {
                learner.deal_to_decision(&seating, table, one, c, @intCast(i), 0, .first, s.seat);
            } else {
                table.street = table_zig.Street.over; // abandoned: the next hand follows it
                learner.deal_to_decision(&seating, table, one, c, table.table, table.hand +% 1, .next, s.seat);
            }
            if (skipped) |out| out[i] = chips_in_big_blinds(one.skipped, c.big_blind);
        }
        outputs(s.*, t, slot, s.seat, obs, mask);
        return .ok;
    }

    /// One answer at each of `n` tables: `actions[i]` an index of the settings' scheme (and
    /// `raise_to[i]` in big blinds in the continuous one; may be null in the discrete),
    /// for the external seat to act; ignored at a table whose hand ended at the last step,
    /// which deals its next hand instead. Every answer is checked first: on the first the
    /// rules refuse nothing changes and `illegal_action` names its table in `err.row`,
    /// why (a `pp_refusal`) in `err.card` and the index in `err.position`. Then the native
    /// seats play on; `reward[i]` is the learner's net chips in big blinds when the hand
    /// ended (`terminated[i]` = 1), else 0. Outputs as `pp_rl_reset`'s.
    pub fn pp_rl_step(
        config: ?*const Config,
        agents: ?[*]const Agent,
        settings: ?*const Settings,
        tables: ?[*]Table,
        slots: ?[*]Slot,
        n: u64,
        actions: ?[*]const u8,
        raise_to: ?[*]const f32,
        obs: ?[*]f32,
        mask: ?[*]u8,
        reward: ?[*]f32,
        terminated: ?[*]u8,
        skipped: ?[*]f32,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = config orelse return .null_pointer;
        const s = settings orelse return .null_pointer;
        const lineup = switch (checked(c, s, agents orelse return .null_pointer, err)) {
            .ok => |l| l,
            .bad => |status| return status,
        };
        if (n == 0) return .ok;
        const t = (tables orelse return .null_pointer)[0..n];
        const slot = (slots orelse return .null_pointer)[0..n];
        const a = (actions orelse return .null_pointer)[0..n];
        if (s.scheme == learner.Scheme.continuous and raise_to == null) return .null_pointer;
        var seating: Seating = .{ .lineup = &lineup };
        const status = check_tables(c, &seating, t, slot, err);
        if (status != .ok) return status;
        for (t, slot, a, 0..) |*table, *one, index, i| {
            if (one.over == 1) continue;
            const chosen = learner.answer(table, s.*, index, if (raise_to) |r| r[i] else 0);
            if (chosen.refusal != .none) {
                return reports.report_hand_error(err, .{ .row = i, .kind = .illegal_action, .card = @backingInt(chosen.refusal), .position = index });
            }
        }
        for (t, slot, a, 0..) |*table, *one, index, i| {
            const chosen = learner.answer(table, s.*, index, if (raise_to) |r| r[i] else 0);
            const ended = learner.step(&seating, table, one, c, s.seat, chosen.action);
            if (reward) |out| out[i] = if (ended) |chips| chips_in_big_blinds(chips, c.big_blind) else 0;
            if (terminated) |out| out[i] = @intFromBool(ended != null);
            if (skipped) |out| out[i] = chips_in_big_blinds(one.skipped, c.big_blind);
        }
        outputs(s.*, t, slot, s.seat, obs, mask);
        return .ok;
    }

    /// The observation and mask of `viewer` (a seat) at each of `n` tables, as
    /// `pp_rl_reset` writes the learner's. Either output may be null.
    pub fn pp_rl_observe(
        settings: ?*const Settings,
        tables: ?[*]const Table,
        slots: ?[*]const Slot,
        n: u64,
        viewer: u8,
        obs: ?[*]f32,
        mask: ?[*]u8,
    ) callconv(.c) Status {
        const s = settings orelse return .null_pointer;
        if (n == 0) return .ok;
        const t = (tables orelse return .null_pointer)[0..n];
        const slot = (slots orelse return .null_pointer)[0..n];
        for (t, slot) |*table, *one| {
            if (!table.well_formed() or table.seats != t[0].seats or !one.well_formed(table)) return .bad_argument;
            if (!s.valid(table.seats) or viewer >= table.seats) return .bad_argument;
        }
        outputs(s.*, t, slot, viewer, obs, mask);
        return .ok;
    }
};

fn chips_in_big_blinds(chips: i32, big_blind: u32) f32 {
    return @floatCast(@as(f64, @floatFromInt(chips)) / @as(f64, @floatFromInt(big_blind)));
}
