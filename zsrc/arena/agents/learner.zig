//! Seats played by the caller one decision at a time: the RL environments'
//! (pypoker/arena/gym.py, pettingzoo.py) loop over many tables, where the native agents of
//! the other seats play inside the library between the caller's decisions.
//!
//! Each table has a `Slot` beside its `Table`: the hand's last actions (the public history
//! the observation shows), the board cards shown, and whether the hand ended at the last
//! step. One step at a table, with the external seat to act answering:
//! - the answer (an action index of the scheme) is mapped to an engine action and applied;
//! - the native seats play until an external seat must act or the hand is over;
//! - at the end of a hand the step reports the learner seat's net chips (its reward) and
//!   the table stays over (`slot.over`) until the next step, which deals the next hand and
//!   plays to an external seat's decision (Gymnasium's next-step autoreset); hands that end
//!   without such a decision (a walk to the learner's big blind) are dealt past, and the
//!   learner's net chips in them go to `slot.skipped`.
//!
//! Schemes (`Settings.scheme`), the answer's action indices:
//! - discrete: 0 fold, 1 check or call, 2 raise half the pot, 3 the pot, 4 twice the pot,
//!   5 all in. A raise of x pots is to `current_bet + x * (pot + owed)` (`pot`: every chip
//!   in the middle; `owed`: what the seat must call first), floored to a chip and brought
//!   into the legal range `min_to..max_to`;
//! - continuous: 0 fold, 1 check or call, 2 raise to `raise_to` big blinds (rounded to a chip,
//!   brought into `min_to..max_to`; NaN is `min_to`).
//! An index is legal (its `mask` bit) when the engine's kind is: fold facing a bet, check or
//! call always, a raise while raising is open, all in when the engine allows it. An answer
//! the rules refuse is an error, or with `Settings.nearest` plays as the nearest legal
//! action: check for a fold with nothing to call, check or call for a closed raise.
const std = @import("std");
const table_zig = @import("../table.zig");
const rules = @import("../rules.zig");
const deal = @import("../deal.zig");
const play = @import("../play.zig");
const seating_zig = @import("seating.zig");
const Table = table_zig.Table;
const Config = deal.Config;
const Seating = seating_zig.Seating;
const ActionRecord = play.ActionRecord;
const Action = @import("../random_player.zig").Action;
const Kind = rules.Kind;
const no_seat = table_zig.no_seat;
const assert = std.debug.assert;

/// The most recent actions of a hand a slot keeps (the observation shows up to this many).
pub const history_max = 32;

pub const Scheme = struct {
    pub const discrete: u8 = 0;
    pub const continuous: u8 = 1;
};

/// Action indices of each scheme.
pub const discrete_actions = 6;
pub const continuous_actions = 3;

/// The discrete raises (indices 2, 3, 4) as fractions of the pot: numerator, denominator.
const pot_fractions = [3][2]u32{ .{ 1, 2 }, .{ 1, 1 }, .{ 2, 1 } };

pub const Settings = extern struct {
    /// The learner's seat: the observations are its view, the rewards its net chips.
    seat: u8,
    scheme: u8,
    /// 1: an answer the rules refuse plays as the nearest legal action instead.
    nearest: u8,
    /// Actions of the hand the observation shows, most recent first (<= history_max).
    history: u8,

    pub const c_name = "pp_rl_settings";

    pub fn valid(settings: Settings, seats: u8) bool {
        return settings.seat < seats and settings.scheme <= Scheme.continuous and
            settings.nearest <= 1 and settings.history <= history_max;
    }

    pub fn actions(settings: Settings) u8 {
        return if (settings.scheme == Scheme.discrete) discrete_actions else continuous_actions;
    }
};

/// What a table's environment keeps beside its `Table`.
pub const Slot = extern struct {
    /// The hand's actions, action i at `actions[i % history_max]` (the last history_max).
    actions: [history_max]ActionRecord,
    /// Actions taken in the hand.
    count: u32,
    /// The learner's net chips in hands dealt past without an external decision during
    /// the last call.
    skipped: i32,
    /// Board cards shown: as the street says, or all five after a showdown.
    shown: u8,
    /// 1: the hand ended at the last step; the next step deals the next one.
    over: u8,
    pad: [6]u8 = @splat(0),

    pub const c_name = "pp_rl_slot";

    pub fn well_formed(slot: *const Slot, table: *const Table) bool {
        if (slot.over > 1 or slot.shown > 5) return false;
        return (slot.over == 1) == (table.street == table_zig.Street.over);
    }
};

comptime {
    assert(@sizeOf(Slot) == history_max * @sizeOf(ActionRecord) + 16);
    // `Settings.history` is a u8 and the ring index a power of two.
    assert(history_max <= 255 and std.math.isPowerOfTwo(history_max));
}

/// An answer as the rules take it, and why they refuse it (`.none`: they do not).
pub const Answer = struct { action: Action, refusal: rules.Refusal };

/// The engine action of the answer `index` (with `raise_to_bb` in the continuous scheme)
/// for the seat to act; with `settings.nearest` a refused one is replaced (unknown
/// indices stay refused).
pub fn answer(table: *const Table, settings: Settings, index: u8, raise_to_bb: f32) Answer {
    if (table.actor == no_seat) return .{ .action = .{ .kind = Kind.fold, .amount = 0 }, .refusal = .no_actor };
    const options = rules.legal(table);
    const action = if (settings.scheme == Scheme.discrete)
        discrete(table, options, index)
    else
        continuous(table, options, index, raise_to_bb);
    const refusal = rules.check(table, action.kind, action.amount);
    if (refusal == .none or settings.nearest == 0 or refusal == .unknown_kind) {
        return .{ .action = action, .refusal = refusal };
    }
    const nearest = check_or_call(options);
    if (std.debug.runtime_safety) assert(rules.check(table, nearest.kind, 0) == .none);
    return .{ .action = nearest, .refusal = .none };
}

fn check_or_call(options: rules.Legal) Action {
    return .{ .kind = if (options.allows(Kind.check)) Kind.check else Kind.call, .amount = 0 };
}

fn discrete(table: *const Table, options: rules.Legal, index: u8) Action {
    return switch (index) {
        0 => .{ .kind = Kind.fold, .amount = 0 },
        1 => check_or_call(options),
        2, 3, 4 => .{ .kind = Kind.raise, .amount = pot_raise(table, options, pot_fractions[index - 2]) },
        5 => .{ .kind = Kind.all_in, .amount = 0 },
        else => .{ .kind = Kind.count, .amount = 0 },
    };
}

fn continuous(table: *const Table, options: rules.Legal, index: u8, raise_to_bb: f32) Action {
    return switch (index) {
        0 => .{ .kind = Kind.fold, .amount = 0 },
        1 => check_or_call(options),
        2 => .{ .kind = Kind.raise, .amount = raise_in_range(options, chips_of(raise_to_bb, table.big_blind)) },
        else => .{ .kind = Kind.count, .amount = 0 },
    };
}

/// `x` big blinds in chips, rounded; NaN and negatives are 0, the huge u32's top.
fn chips_of(x: f32, big_blind: u32) u64 {
    const chips = @round(@as(f64, x) * @as(f64, @floatFromInt(big_blind)));
    if (!(chips > 0)) return 0;
    return if (chips >= 0x1p32) std.math.maxInt(u32) else @intFromFloat(chips);
}

fn raise_in_range(options: rules.Legal, target: u64) u32 {
    if (!options.allows(Kind.raise)) return 0; // refused as a closed raise
    return @intCast(std.math.clamp(target, options.min_to, options.max_to));
}

/// A raise of `fraction` pots: to current_bet + fraction * (pot + owed).
fn pot_raise(table: *const Table, options: rules.Legal, fraction: [2]u32) u32 {
    var pot: u64 = table.antes;
    for (table.committed) |chips| pot += chips;
    const owed = table.current_bet - table.bet[table.actor];
    const target = table.current_bet + (pot + owed) * fraction[0] / fraction[1];
    return raise_in_range(options, target);
}

/// The action mask of the scheme for `viewer`: all zeros unless it is to act.
pub fn mask(table: *const Table, settings: Settings, viewer: u8, out: []u8) void {
    assert(out.len == settings.actions());
    @memset(out, 0);
    if (table.actor != viewer) return;
    const options = rules.legal(table);
    out[0] = @intFromBool(options.allows(Kind.fold));
    out[1] = 1;
    const raising = @intFromBool(options.allows(Kind.raise));
    if (settings.scheme == Scheme.continuous) {
        out[2] = raising;
        return;
    }
    out[2..5].* = @splat(raising);
    out[5] = @intFromBool(options.allows(Kind.all_in));
}

/// Applies a legal action, recording it in the slot's history.
pub fn apply(table: *Table, slot: *Slot, action: Action) void {
    assert(table.actor != no_seat);
    slot.actions[slot.count % history_max] = play.action_record(table, action);
    slot.count +%= 1;
    slot.shown = table_zig.board_shown[table.street];
    rules.apply(table, action.kind, action.amount, null);
    if (table.street == table_zig.Street.over and table_zig.several(table.in_hand)) slot.shown = 5;
}

/// Plays the native seats until an external seat must act or the hand is over.
fn play_natives(seating: *Seating, table: *Table, slot: *Slot, key: u64) void {
    while (table.actor != no_seat and !seating.external(table)) {
        apply(table, slot, seating.choose(table, key));
    }
    assert(table.actor != no_seat or table.street == table_zig.Street.over);
}

/// Hands a deal may pass over: without carried stacks and with every stack above the
/// forced bets, a seat not posting the big blind or straddle always decides, so the
/// learner waits at most a round of the button (the Python layer checks the stacks).
const hands_passed_max = table_zig.seats_max + 2;

/// Deals hand `hand` (`start`: `.first` from the config, `.next` after the table's last)
/// and plays the native seats until an external seat must act, dealing on past hands that
/// end before one does (the learner's net chips in them add to `slot.skipped`).
pub fn deal_to_decision(seating: *Seating, table: *Table, slot: *Slot, config: *const Config, table_number: u32, hand: u32, start: deal.Start, learner: u8) void {
    var number = hand;
    var how = start;
    for (0..hands_passed_max) |_| {
        deal.start_hand(table, config, table_number, number, how);
        seating.dealt(table);
        slot.count = 0;
        slot.shown = 0;
        slot.over = 0;
        if (table.actor == no_seat) {
            const paid = rules.end_round(table, null);
            assert(paid);
            slot.shown = 5;
        }
        play_natives(seating, table, slot, deal.player_key(config.seed));
        if (table.actor != no_seat) return;
        slot.skipped +%= net(table, learner);
        number +%= 1;
        how = .next;
    }
    // Unreachable with the stacks the Python layer allows; a table left over is dealt on
    // by the next step.
    slot.over = 1;
}

pub fn net(table: *const Table, seat: u8) i32 {
    return @intCast(@as(i64, table.stack[seat]) - table.start[seat]);
}

/// One step at a table whose answer `action` was checked (ignored when the hand was over:
/// then the next hand is dealt). Returns the learner's net chips when the hand ended.
pub fn step(seating: *Seating, table: *Table, slot: *Slot, config: *const Config, learner: u8, action: Action) ?i32 {
    slot.skipped = 0;
    if (slot.over == 1) {
        deal_to_decision(seating, table, slot, config, table.table, table.hand +% 1, .next, learner);
        return null;
    }
    apply(table, slot, action);
    play_natives(seating, table, slot, deal.player_key(config.seed));
    if (table.actor != no_seat) return null;
    slot.over = 1;
    return net(table, learner);
}

const testing = std.testing;

fn test_config(seats: u8) Config {
    var config = std.mem.zeroes(Config);
    config.seed = 3;
    config.seats = seats;
    config.stacks = @splat(200);
    config.small_blind = 1;
    config.big_blind = 2;
    return config;
}

fn test_lineup(learner: u8) [table_zig.seats_max]policy_zig.Agent {
    const registry = @import("registry.zig");
    var lineup: [table_zig.seats_max]policy_zig.Agent = @splat(.{ .kind = registry.Kind.random, .tightness = 0.5, .aggression = 0.5, .bet = 0.75, .raise = 1, .temperature = 0 });
    lineup[learner].kind = registry.Kind.external;
    return lineup;
}

const policy_zig = @import("policy.zig");

test "learner: every index the mask allows is one the rules take, and no other" {
    for ([_]u8{ Scheme.discrete, Scheme.continuous }) |scheme| {
        const config = test_config(3);
        const lineup = test_lineup(1);
        var seating: Seating = .{ .lineup = &lineup };
        const settings: Settings = .{ .seat = 1, .scheme = scheme, .nearest = 0, .history = 8 };
        var table: Table = undefined;
        var slot = std.mem.zeroes(Slot);
        deal_to_decision(&seating, &table, &slot, &config, 0, 0, .first, 1);
        var word: u64 = 1;
        for (0..3000) |_| {
            if (slot.over == 0) {
                var allowed: [discrete_actions]u8 = undefined;
                mask(&table, settings, 1, allowed[0..settings.actions()]);
                var choices: [discrete_actions]u8 = undefined;
                var count: usize = 0;
                for (0..settings.actions()) |index| {
                    const taken = answer(&table, settings, @intCast(index), 7.5).refusal == .none;
                    try testing.expectEqual(allowed[index] == 1, taken);
                    if (taken) {
                        choices[count] = @intCast(index);
                        count += 1;
                    }
                }
                try testing.expect(count > 0);
                word = word *% 6364136223846793005 +% 1442695040888963407;
                const index = choices[(word >> 33) % count];
                _ = step(&seating, &table, &slot, &config, 1, answer(&table, settings, index, 7.5).action);
            } else {
                try testing.expect(step(&seating, &table, &slot, &config, 1, undefined) == null);
            }
            try testing.expect(table.chips_conserved());
            try testing.expect(slot.over == 1 or table.actor == 1);
        }
    }
}

test "learner: a hand's reward is the learner's net, and the next step deals on" {
    const config = test_config(2);
    const lineup = test_lineup(0);
    var seating: Seating = .{ .lineup = &lineup };
    const settings: Settings = .{ .seat = 0, .scheme = Scheme.discrete, .nearest = 0, .history = 4 };
    var table: Table = undefined;
    var slot = std.mem.zeroes(Slot);
    deal_to_decision(&seating, &table, &slot, &config, 5, 0, .first, 0);
    try testing.expectEqual(@as(u32, 5), table.table);
    // All in at once: the hand ends before the learner decides again (the random player
    // folds or calls), and the reward is the chips won or lost.
    const reward = step(&seating, &table, &slot, &config, 0, answer(&table, settings, 5, 0).action);
    try testing.expect(reward != null);
    try testing.expectEqual(@as(i64, table.stack[0]) - 200, reward.?);
    try testing.expectEqual(@as(u8, 1), slot.over);
    const hand = table.hand;
    try testing.expect(step(&seating, &table, &slot, &config, 0, undefined) == null);
    try testing.expectEqual(hand + 1 + @as(u32, @intCast(@intFromBool(slot.skipped != 0))), table.hand);
    try testing.expectEqual(@as(u8, 0), table.actor);
}

test "learner: nearest turns a refused answer into check or call" {
    const config = test_config(2);
    const lineup = test_lineup(0);
    var seating: Seating = .{ .lineup = &lineup };
    var table: Table = undefined;
    var slot = std.mem.zeroes(Slot);
    deal_to_decision(&seating, &table, &slot, &config, 0, 0, .first, 0);
    // Heads-up the button (seat 0) posts the small blind and acts first: folding is legal.
    // A check is not: the nearest legal answer to a fold with nothing to call is a check.
    table.bet[1] = table.bet[0];
    table.committed[1] = table.committed[0];
    table.stack[1] = 199;
    table.start[1] = 200;
    table.current_bet = 1;
    const strict: Settings = .{ .seat = 0, .scheme = Scheme.discrete, .nearest = 0, .history = 0 };
    try testing.expectEqual(rules.Refusal.fold_without_bet, answer(&table, strict, 0, 0).refusal);
    var lenient = strict;
    lenient.nearest = 1;
    const nearest = answer(&table, lenient, 0, 0);
    try testing.expectEqual(rules.Refusal.none, nearest.refusal);
    try testing.expectEqual(Kind.check, nearest.action.kind);
    try testing.expectEqual(rules.Refusal.unknown_kind, answer(&table, lenient, 6, 0).refusal);
}

test "learner: discrete raises are fractions of the pot after calling" {
    const config = test_config(6);
    const lineup = test_lineup(3);
    var seating: Seating = .{ .lineup = &lineup };
    var table: Table = undefined;
    var slot = std.mem.zeroes(Slot);
    // Seat 3 is first to act on the first hand (button 0, blinds 1 and 2): it owes 2 into
    // a pot of 3, so a pot raise is to 2 + (3 + 2) = 7, half pot to 2 + 2 = 4, twice to 12.
    deal_to_decision(&seating, &table, &slot, &config, 0, 0, .first, 3);
    try testing.expectEqual(@as(u8, 3), table.actor);
    const settings: Settings = .{ .seat = 3, .scheme = Scheme.discrete, .nearest = 0, .history = 0 };
    try testing.expectEqual(@as(u32, 4), answer(&table, settings, 2, 0).action.amount);
    try testing.expectEqual(@as(u32, 7), answer(&table, settings, 3, 0).action.amount);
    try testing.expectEqual(@as(u32, 12), answer(&table, settings, 4, 0).action.amount);
    var by_amount = settings;
    by_amount.scheme = Scheme.continuous;
    try testing.expectEqual(@as(u32, 9), answer(&table, by_amount, 2, 4.5).action.amount);
    try testing.expectEqual(@as(u32, 4), answer(&table, by_amount, 2, 0.1).action.amount);
    try testing.expectEqual(@as(u32, 200), answer(&table, by_amount, 2, 1e9).action.amount);
    try testing.expectEqual(@as(u32, 4), answer(&table, by_amount, 2, std.math.nan(f32)).action.amount);
}
