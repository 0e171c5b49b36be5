//! `zig build microbench`: where the time of one ranking goes, on 16M random 7-card hands,
//! single thread, for every row source this CPU runs (built for the host CPU):
//! - the scalar path: accumulate only, look up only, both;
//! - each vector row source (AVX2, AVX-512; ids and sets): its tally alone, whole blocks,
//!   and whole blocks with the tables hot (every row one of the first 64);
//! - showdowns of six players (the widest kernel), the same with the tables hot;
//! - what one random load costs by table size (the lookup tables are 512 KiB: the profile
//!   that bounds every form with a per-hand lookup).
//! A development tool, not a test.
const std = @import("std");
const eval = @import("rank/eval.zig");
const encoding = @import("cards/encoding.zig");
const deal = @import("cards/deal.zig");
const random = @import("cards/random.zig");
const tables = @import("tables");
const blocks = @import("rank/blocks.zig");
const rows_avx2 = @import("rank/rows_avx2.zig");
const rows_avx512 = @import("rank/rows_avx512.zig");
const showdown = @import("rank/showdown.zig");

const hands = 1 << 24;

fn now(io: std.Io) i96 {
    return std.Io.Timestamp.now(io, .awake).nanoseconds;
}

fn per_hand(started: i96, io: std.Io) f64 {
    return @as(f64, @floatFromInt(now(io) - started)) / hands;
}

pub fn main(init: std.process.Init) !void {
    const gpa = init.gpa;
    // Two spare rows: the vector sources read past their last row.
    const cards = try gpa.alloc(u8, (hands + 2) * 7);
    defer gpa.free(cards);
    deal.deal_rows(random.seed_key(1), 0, 7, encoding.full_deck, cards);
    const hot = try gpa.alloc(u8, (hands + 2) * 7);
    defer gpa.free(hot);
    for (0..hands + 2) |i| @memcpy(hot[i * 7 ..][0..7], cards[(i % 64) * 7 ..][0..7]);
    const sets = try gpa.alloc(u64, hands);
    defer gpa.free(sets);
    for (sets, 0..) |*set, i| {
        set.* = 0;
        for (cards[i * 7 ..][0..7]) |card| set.* |= @as(u64, 1) << @intCast(card);
    }
    const keys = try gpa.alloc(u32, hands);
    defer gpa.free(keys);
    const out = try gpa.alloc(u16, hands);
    defer gpa.free(out);
    @memset(out, 0);
    var d: Data = .{ .io = init.io, .cards = cards, .hot = hot, .sets = sets, .keys = keys, .out = out };
    for (0..3) |_| {
        time_scalar(&d);
        time_row_sources(&d);
        if (showdown.available) time_showdown(&d);
        time_loads(&d);
    }
    std.debug.print("({d})\n", .{d.sink +% out[hands - 1]});
}

/// The hands in each form, and a sink the timed loops feed so no work is optimised away.
const Data = struct {
    io: std.Io,
    cards: []u8,
    hot: []u8,
    sets: []u64,
    keys: []u32,
    out: []u16,
    sink: u64 = 0,
};

fn time_scalar(d: *Data) void {
    var started = now(d.io);
    for (0..hands) |i| {
        var a: encoding.Accumulator = .empty;
        inline for (0..7) |j| a.add(d.cards[i * 7 + j]);
        d.keys[i] = @truncate(a.key);
        d.sink +%= a.mask;
    }
    const accumulate = per_hand(started, d.io);
    started = now(d.io);
    for (d.keys, d.out) |k, *o| o.* = eval.rank_fingerprint_unmasked(k);
    const lookup = per_hand(started, d.io);
    started = now(d.io);
    for (0..hands) |i| d.out[i] = eval.rank_cards(d.cards[i * 7 ..][0..7]);
    const both = per_hand(started, d.io);
    std.debug.print("scalar: accumulate {d:.3}, look up {d:.3}, rank {d:.3} ns/hand\n", .{ accumulate, lookup, both });
}

fn time_row_sources(d: *Data) void {
    var started: i96 = undefined;
    inline for (.{ rows_avx2, rows_avx512 }, .{ "avx2", "avx512" }) |source, name| {
        if (source.available) {
            const Ids = source.CardRows(7);
            started = now(d.io);
            var row: usize = 0;
            var scalar_rows: usize = 0;
            while (row < hands) : (row += Ids.lanes) {
                const tallied = (Ids{ .cards = d.cards }).tally(row);
                d.keys[row..][0..Ids.lanes].* = @as(
                    @Vector(Ids.lanes, u32),
                    @truncate(tallied.fingerprints),
                );
                scalar_rows += @popCount(@as(@Int(.unsigned, Ids.lanes), @bitCast(tallied.flush)));
                d.sink +%= @intFromBool(tallied.bad);
            }
            const tally = per_hand(started, d.io);
            started = now(d.io);
            d.sink +%= @intFromBool(blocks.rank_blocks(Ids{ .cards = d.cards }, d.out, hands));
            const ranked = per_hand(started, d.io);
            started = now(d.io);
            d.sink +%= @intFromBool(blocks.rank_blocks(Ids{ .cards = d.hot }, d.out, hands));
            const hot_ranked = per_hand(started, d.io);
            started = now(d.io);
            d.sink +%= @intFromBool(
                blocks.rank_blocks(source.sources.SetRows{ .sets = d.sets }, d.out, hands),
            );
            const sets_ranked = per_hand(started, d.io);
            std.debug.print("{s}: ids tally {d:.3} ({d} rows to the scalar path), ids rank {d:.3}, hot tables {d:.3}; sets rank {d:.3} ns/hand\n", .{ name, tally, scalar_rows, ranked, hot_ranked, sets_ranked });
        }
    }
}

/// The 16M hands as showdowns of six players (boards of 5, 12 hole cards a row).
fn time_showdown(d: *Data) void {
    var started: i96 = undefined;
    const players = 6;
    const showdown_rows = hands / players;
    const boards = d.cards[0 .. showdown_rows * 5];
    const holes = d.cards[showdown_rows * 5 ..][0 .. showdown_rows * players * 2];
    for (0..showdown_rows) |row| {
        // Distinct cards a row: deal them again from one 17-card deal.
        var row_cards: [17]u8 = undefined;
        deal.deal_rows(random.seed_key(row), 0, 17, encoding.full_deck, &row_cards);
        @memcpy(boards[row * 5 ..][0..5], row_cards[0..5]);
        @memcpy(holes[row * 12 ..][0..12], row_cards[5..]);
    }
    const showdown_out = d.out[0 .. showdown_rows * players];
    started = now(d.io);
    const cold = showdown.rank_showdown(5, boards, holes, players, showdown_out);
    const cold_ns = @as(f64, @floatFromInt(now(d.io) - started)) / @as(
        f64,
        @floatFromInt(cold.rows * players),
    );
    // Hot: every row one of the first ten.
    for (10..showdown_rows) |row| {
        @memcpy(boards[row * 5 ..][0..5], boards[(row % 10) * 5 ..][0..5]);
        @memcpy(holes[row * 12 ..][0..12], holes[(row % 10) * 12 ..][0..12]);
    }
    started = now(d.io);
    const warm = showdown.rank_showdown(5, boards, holes, players, showdown_out);
    const hot_ns = @as(f64, @floatFromInt(now(d.io) - started)) / @as(
        f64,
        @floatFromInt(warm.rows * players),
    );
    std.debug.print("showdown, 6 players: {d:.3} ns a ranked hand, hot tables {d:.3} ({})\n", .{ cold_ns, hot_ns, cold.bad or warm.bad });
    deal.deal_rows(random.seed_key(1), 0, 7, encoding.full_deck, d.cards);
}

fn time_loads(d: *Data) void {
    var started: i96 = undefined;
    // One dependent-free random load a hand from the first 2^bits slots of the u16
    // lookup table: L1-resident up to 32 KiB, L2 beyond.
    std.debug.print("one random load from a table of", .{});
    inline for (.{ 13, 14, 15, 16, 17 }) |bits| {
        const Slot = @Int(.unsigned, bits);
        started = now(d.io);
        for (d.keys, d.out) |k, *o| o.* = tables.lookup[@as(Slot, @truncate(k *% 2654435761 >> 7))];
        std.debug.print(" {d} KiB: {d:.3}", .{ (2 << bits) >> 10, per_hand(started, d.io) });
    }
    started = now(d.io);
    for (d.keys, d.out) |k, *o| o.* = @truncate(k *% 2654435761 >> 7);
    std.debug.print("; no load: {d:.3} ns/hand\n", .{per_hand(started, d.io)});
}
