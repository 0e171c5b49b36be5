//! The agents' tests: every policy is a distribution over legal kinds that never reads
//! another seat's cards, the draw follows it, `random` is the reference player exactly,
//! and native play with any lineup keeps the rules' invariants.
//! `zig build test -Dtest-filter=agents` runs them.
const std = @import("std");
const table_zig = @import("../table.zig");
const rules = @import("../rules.zig");
const deal = @import("../deal.zig");
const play = @import("../play.zig");
const random_player = @import("../random_player.zig");
const combos = @import("../../cards/combos.zig");
const policy_zig = @import("policy.zig");
const registry = @import("registry.zig");
const strength = @import("strength.zig");
const seating_zig = @import("seating.zig");
const mixed = @import("mixed.zig");
const Table = table_zig.Table;
const Agent = policy_zig.Agent;
const Kind = rules.Kind;
const expect = std.testing.expect;
const expectEqual = std.testing.expectEqual;

comptime {
    _ = strength;
    _ = @import("population.zig");
}

fn agent(kind: u8, temperature: f32) Agent {
    return .{ .kind = kind, .tightness = 0.4, .aggression = 0.5, .bet = 0.75, .raise = 1.0, .temperature = temperature };
}

/// A lineup of six seats (the rest folders, unused).
fn six(first: [6]Agent) [10]Agent {
    var lineup: [10]Agent = @splat(agent(registry.Kind.fold, 0));
    lineup[0..6].* = first;
    return lineup;
}

fn six_max(seed: u64) deal.Config {
    var config = std.mem.zeroes(deal.Config);
    config.seed = seed;
    config.seats = 6;
    config.stacks[0..6].* = @splat(200);
    config.small_blind = 1;
    config.big_blind = 2;
    return config;
}

/// Every agent kind at every temperature tried.
const kinds = [_]u8{ registry.Kind.fold, registry.Kind.call, registry.Kind.raise, registry.Kind.random, registry.Kind.chart, registry.Kind.equity };
const temperatures = [_]f32{ 0, 0.05, 1 };

/// Checks the policy of every agent for every combo at the table's decision.
fn check_policies(table: *const Table, board: *strength.Board) !void {
    const spot = policy_zig.spot_of(table);
    for (kinds) |kind| for (temperatures) |t| {
        const a = agent(kind, t);
        for (0..combos.count) |c| {
            const combo: u16 = @intCast(c);
            if (combos.set(combo) & spot.board != 0) continue;
            const p = registry.policy(a, spot, combo, board);
            try expect(@abs(p.total() - 1) < 1e-12);
            for (p.prob, 0..) |prob, k| {
                try expect(prob >= 0);
                if (prob > 0) try expect(spot.legal.allows(@intCast(k)));
            }
            if (p.prob[Kind.raise] > 0 and !p.raise_uniform) {
                try expect(p.raise_to >= spot.legal.min_to and p.raise_to <= spot.legal.max_to);
                try expectEqual(rules.Refusal.none, rules.check(table, Kind.raise, p.raise_to));
            }
        }
    };
}

test "agents: policies are distributions over legal kinds in states of real play" {
    var config = six_max(11);
    var table: Table = undefined;
    deal.start_hand(&table, &config, 0, 0, .first);
    var board: strength.Board = .{};
    const lineup = six(.{ agent(5, 0), agent(4, 0), agent(1, 0), agent(3, 0), agent(2, 0.5), agent(5, 0.1) });
    var seating: seating_zig.Seating = .{ .lineup = &lineup };
    var winnings: [6]i64 = @splat(0);
    const key = deal.player_key(config.seed);
    var decisions: u32 = 0;
    while (decisions < 60) : (decisions += 1) {
        try check_policies(&table, &board);
        const action = seating.choose(&table, key);
        try expectEqual(rules.Refusal.none, rules.check(&table, action.kind, action.amount));
        rules.apply(&table, action.kind, action.amount, null);
        _ = play.advance(&table, &config, &winnings);
    }
}

test "agents: the decision word is the reference player's first word" {
    for (0..50) |i| {
        const n: u32 = @intCast(i);
        const w = random_player.words(12345, n * 7, n * 3 + 1, @intCast(i));
        try expectEqual(w[0], policy_zig.decision_word(12345, n * 7, n * 3 + 1, @intCast(i)));
    }
}

test "agents: the inverse CDF draws each kind where its share of [0, 1) lies" {
    var p: policy_zig.Policy = .{ .raise_to = 9 };
    p.prob[Kind.fold] = 0.25;
    p.prob[Kind.call] = 0.5;
    p.prob[Kind.raise] = 0.25;
    const at = struct {
        fn word(u: f64) u64 {
            return @as(u64, @intFromFloat(u * 0x1.0p53)) << 11;
        }
    };
    try expectEqual(Kind.fold, policy_zig.sample(p, at.word(0)).kind);
    try expectEqual(Kind.fold, policy_zig.sample(p, at.word(0.2499999)).kind);
    try expectEqual(Kind.call, policy_zig.sample(p, at.word(0.25)).kind);
    try expectEqual(Kind.raise, policy_zig.sample(p, at.word(0.75)).kind);
    const top = policy_zig.sample(p, std.math.maxInt(u64));
    try expectEqual(Kind.raise, top.kind);
    try expectEqual(@as(u32, 9), top.amount);
}

test "agents: the draws follow the policy (20,000 decisions of one spot)" {
    var config = six_max(5);
    var table: Table = undefined;
    deal.start_hand(&table, &config, 0, 0, .first);
    var board: strength.Board = .{};
    const key = deal.player_key(config.seed);
    for ([_]u8{ registry.Kind.chart, registry.Kind.equity, registry.Kind.call }) |kind| {
        const a = agent(kind, 0.3);
        const p = registry.policy(a, policy_zig.spot_of(&table), policy_zig.own_combo(&table), &board);
        var counts: [Kind.count]f64 = @splat(0);
        const n = 20_000;
        for (0..n) |d| {
            var copy = table;
            copy.decision = @intCast(d);
            counts[registry.choose(a, &copy, key, &board).kind] += 1;
        }
        for (counts, p.prob) |count, prob| {
            // Five standard errors of a share of n draws.
            try expect(@abs(count / n - prob) <= 5 * @sqrt(prob * (1 - prob) / n) + 1e-9);
        }
    }
}

test "agents: random is the reference player, and no policy reads another seat's cards" {
    var config = six_max(9);
    var table: Table = undefined;
    var board: strength.Board = .{};
    const key = deal.player_key(config.seed);
    var winnings: [6]i64 = @splat(0);
    deal.start_hand(&table, &config, 3, 0, .first);
    for (0..200) |_| {
        const mine = registry.choose(agent(registry.Kind.random, 0), &table, key, &board);
        const reference = random_player.choose(&table, key);
        try expectEqual(reference.kind, mine.kind);
        try expectEqual(reference.amount, mine.amount);
        // Other seats' cards swapped for cards of no one: the same policies.
        var blind = table;
        for (0..6) |seat| {
            if (seat != blind.actor) blind.hole[seat] = .{ table_zig.no_card, table_zig.no_card };
        }
        for (kinds) |kind| {
            const a = agent(kind, 0.2);
            const combo = policy_zig.own_combo(&table);
            const seen = registry.policy(a, policy_zig.spot_of(&table), combo, &board);
            const unseen = registry.policy(a, policy_zig.spot_of(&blind), combo, &board);
            try expectEqual(seen.prob, unseen.prob);
            try expectEqual(seen.raise_to, unseen.raise_to);
        }
        rules.apply(&table, reference.kind, reference.amount, null);
        _ = play.advance(&table, &config, &winnings);
    }
}

test "agents: native play with a lineup conserves chips and its ledger sums to zero" {
    var config = six_max(21);
    const lineup = six(.{ agent(5, 0), agent(4, 0), agent(1, 0), agent(3, 0), agent(2, 0), agent(5, 0.2) });
    var tables: [3]Table = undefined;
    for (&tables, 0..) |*table, t| deal.start_hand(table, &config, @intCast(t), 0, .first);
    var left = [_]u32{ 300, 300, 300 };
    var net: [3 * 300 * 6]i32 = @splat(99);
    var seating: seating_zig.Seating = .{ .lineup = &lineup, .ledger = .{ .net = &net, .tables = 3, .hands = 300, .first_table = 0, .first_hand = 0, .seats = 6 } };
    try expectEqual(play.Outcome.done, play.play_seated(&seating, &tables, &config, &left, null, null, null));
    for (0..3 * 300) |h| {
        var sum: i64 = 0;
        for (net[h * 6 ..][0..6]) |chips| sum += chips;
        try expectEqual(@as(i64, 0), sum);
    }
    for (tables) |table| try expectEqual(@as(u32, 300), table.hand);
}

test "agents: the mixed loop stops at external seats and goes on with their answers" {
    var config = six_max(4);
    var lineup: [10]Agent = @splat(agent(registry.Kind.equity, 0));
    lineup[2].kind = registry.Kind.external;
    var tables: [4]Table = undefined;
    for (&tables, 0..) |*table, t| deal.start_hand(table, &config, @intCast(t), 0, .first);
    var left = [_]u32{ 50, 50, 50, 50 };
    var waiting: [4]u8 = @splat(0);
    var kinds_answer: [4]u8 = @splat(0);
    var amounts: [4]i64 = @splat(0);
    var seating: seating_zig.Seating = .{ .lineup = &lineup };
    var rounds: u32 = 0;
    var finished: u64 = 0;
    while (true) : (rounds += 1) {
        finished += mixed.run(&seating, &tables, &config, &left, &waiting, &kinds_answer, &amounts, null);
        var any = false;
        for (tables, waiting, &kinds_answer) |table, w, *answer| {
            if (w == 0) continue;
            any = true;
            try expectEqual(@as(u8, 2), table.actor);
            const options = rules.legal(&table);
            answer.* = if (options.allows(Kind.call)) Kind.call else Kind.check;
        }
        try expectEqual(mixed.Refused{}, mixed.check_answers(&tables, &waiting, &kinds_answer, &amounts));
        if (!any) break;
    }
    try expectEqual(@as(u64, 200), finished);
    try expect(rounds > 50);
    for (left) |l| try expectEqual(@as(u32, 0), l);
}
