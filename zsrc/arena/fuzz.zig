//! Random play with legal and illegal actions mixed, over random configurations: every
//! refused action leaves the table byte for byte as it was, every legal one keeps the
//! chips and the table's invariants, and the legal mask agrees with `check`.
const std = @import("std");
const random = @import("../random.zig");
const table_zig = @import("table.zig");
const rules = @import("rules.zig");
const deal = @import("deal.zig");
const play = @import("play.zig");
const Table = table_zig.Table;
const Kind = rules.Kind;
const expect = std.testing.expect;

const Rng = struct {
    state: u64,
    fn next(rng: *Rng) u64 {
        rng.state +%= random.golden_gamma;
        return random.mix64(rng.state);
    }
    fn below(rng: *Rng, n: u32) u32 {
        return random.below(rng.next(), n);
    }
};

fn random_config(rng: *Rng) deal.Config {
    var config = std.mem.zeroes(deal.Config);
    config.seed = rng.next();
    config.seats = @intCast(2 + rng.below(9));
    config.small_blind = 1 + rng.below(3);
    config.big_blind = config.small_blind * (1 + rng.below(3));
    config.ante = if (rng.below(3) == 0) rng.below(3) else 0;
    config.bb_ante = @intFromBool(config.ante > 0 and rng.below(2) == 0);
    config.straddle = if (rng.below(4) == 0) 2 * config.big_blind + rng.below(3) else 0;
    config.carry = @intCast(rng.below(2));
    config.button = @intCast(rng.below(config.seats));
    const forced = config.ante + @max(config.big_blind, config.straddle);
    for (config.stacks[0..config.seats]) |*stack| stack.* = forced + rng.below(300);
    return config;
}

/// An action, legal or not: amounts near the legal range and anywhere.
fn random_action(rng: *Rng, options: rules.Legal) struct { kind: u8, amount: u32 } {
    const kind: u8 = @intCast(rng.below(Kind.count + 1));
    const amount = switch (rng.below(4)) {
        0 => rng.below(1000),
        1 => options.min_to -| 1 + rng.below(3),
        2 => options.max_to -| 1 + rng.below(3),
        else => options.min_to + rng.below(options.max_to - options.min_to + 1),
    };
    return .{ .kind = kind, .amount = amount };
}

/// One step as the C ABI takes it: checked first, applied only when legal; then the
/// table plays on to the next decision.
fn fuzz_step(rng: *Rng, table: *Table, config: *const deal.Config, winnings: []i64) !bool {
    const options = rules.legal(table);
    const action = random_action(rng, options);
    const before = table.*;
    const why = rules.check(table, action.kind, action.amount);
    const in_range = action.kind != Kind.raise or
        (action.amount >= options.min_to and action.amount <= options.max_to);
    try expect((why == .none) == (options.allows(action.kind) and in_range));
    if (why != .none) {
        try expect(std.mem.eql(u8, std.mem.asBytes(&before), std.mem.asBytes(table)));
        return false;
    }
    rules.apply(table, action.kind, action.amount, null);
    try expect(table.valid());
    _ = play.advance(table, config, winnings);
    try expect(table.valid() and table.actor != table_zig.no_seat);
    return true;
}

test "arena: fuzz: 10 million random steps, legal and illegal mixed" {
    var rng: Rng = .{ .state = 46 };
    var applied: u64 = 0;
    var total: u64 = 0;
    for (0..2_000) |_| {
        const config = random_config(&rng);
        var table: Table = undefined;
        deal.start_hand(&table, &config, rng.below(1 << 20), 0, .first);
        var winnings: [table_zig.seats_max]i64 = @splat(0);
        _ = play.advance(&table, &config, winnings[0..config.seats]);
        for (0..5_000) |_| {
            if (try fuzz_step(&rng, &table, &config, winnings[0..config.seats])) applied += 1;
            total += 1;
        }
        var net: i64 = 0;
        for (winnings) |w| net += w;
        try std.testing.expectEqual(@as(i64, 0), net);
    }
    try expect(total == 10_000_000 and applied > 1_000_000);
}
