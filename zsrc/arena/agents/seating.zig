//! Who plays each seat of a native play loop (play.zig's hook), and where each finished
//! hand's net chips go (`Ledger`: one row of seats per hand, for match statistics).
const std = @import("std");
const assert = std.debug.assert;
const table_zig = @import("../table.zig");
const random_player = @import("../random_player.zig");
const policy_zig = @import("policy.zig");
const registry = @import("registry.zig");
const strength = @import("strength.zig");
const population_zig = @import("population.zig");
const Table = table_zig.Table;
const Agent = policy_zig.Agent;
const seats_max = table_zig.seats_max;

/// `net[(table - first_table) * hands + (hand - first_hand)][seats]`: each finished hand's
/// end - start per seat; hands outside the block are not written.
pub const Ledger = struct {
    net: [*]i32,
    tables: u32,
    hands: u32,
    first_table: u32,
    first_hand: u32,
    seats: u8,

    pub fn write(ledger: Ledger, table: *const Table) void {
        const t = table.table -% ledger.first_table;
        const h = table.hand -% ledger.first_hand;
        if (t >= ledger.tables or h >= ledger.hands) return;
        const row = ledger.net[(@as(usize, t) * ledger.hands + h) * ledger.seats ..][0..ledger.seats];
        for (row, table.stack[0..ledger.seats], table.start[0..ledger.seats]) |*out, end, start| {
            out.* = @intCast(@as(i64, end) - start);
        }
    }
};

pub const Seating = struct {
    /// One agent a seat; null: the reference random player at every seat.
    lineup: ?*const [seats_max]Agent = null,
    /// Styles dealt afresh to every seat of every hand (population.zig), in place of the
    /// lineup; `population_key` names the draws.
    population: ?*const population_zig.Population = null,
    population_key: u64 = 0,
    ledger: ?Ledger = null,
    /// Duplicate play: each hand's hole cards move `rotation` seats back once dealt (seat s
    /// holds what seat s + rotation was dealt), so the agents, which keep their seats, hold
    /// every seat's cards over the rotations while their positions and every decision's
    /// random word stay as they were.
    rotation: u8 = 0,
    /// The equity agent's board ranking, shared by the seats of the table being played.
    board: strength.Board = .{},

    pub fn choose(seating: *Seating, table: *const Table, key: u64) random_player.Action {
        assert(table.actor < table.seats);
        if (seating.population) |population| {
            const style = population.style(seating.population_key, table.table, table.hand, table.actor);
            return registry.choose(population.agents[style], table, key, &seating.board);
        }
        const lineup = seating.lineup orelse return random_player.choose(table, key);
        return registry.choose(lineup[table.actor], table, key, &seating.board);
    }

    /// Whether the seat to act is played by the caller (a Python agent).
    pub fn external(seating: *const Seating, table: *const Table) bool {
        const lineup = seating.lineup orelse return false;
        assert(table.actor < table.seats);
        return lineup[table.actor].kind == registry.Kind.external;
    }

    /// A hand was just dealt at `table` (before any decision, or showdown without one).
    pub fn dealt(seating: *const Seating, table: *Table) void {
        rotate(table, seating.rotation);
    }

    /// A hand just ended at `table` (its stacks final, the next not yet dealt).
    pub fn finished(seating: *const Seating, table: *const Table) void {
        if (seating.ledger) |ledger| ledger.write(table);
    }
};

/// Moves every seat's hole cards `rotation` seats back (seat s takes seat s + rotation's).
pub fn rotate(table: *Table, rotation: u8) void {
    assert(table.seats >= table_zig.seats_min);
    assert(table.seats <= seats_max);
    if (rotation % table.seats == 0) return;
    const dealt = table.hole;
    for (0..table.seats) |seat| table.hole[seat] = dealt[(seat + rotation) % table.seats];
}
