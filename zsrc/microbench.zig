//! `zig build microbench`: where the time of one ranking goes, on 16M random 7-card hands
//! (accumulate only, look up only, both), single thread. A development tool, not a test.
const std = @import("std");
const eval = @import("eval.zig");
const deal = @import("deal.zig");
const tables = @import("tables");

const hands = 1 << 24;

fn now(io: std.Io) i96 {
    return std.Io.Timestamp.now(io, .awake).nanoseconds;
}

pub fn main(init: std.process.Init) !void {
    const gpa = init.gpa;
    const io = init.io;
    const cards = try gpa.alloc(u8, hands * 7);
    defer gpa.free(cards);
    deal.deal_rows(deal.seed_key(1), 0, 7, deal.full_deck, cards);
    const keys = try gpa.alloc(u32, hands);
    defer gpa.free(keys);
    const out = try gpa.alloc(u16, hands);
    defer gpa.free(out);
    @memset(out, 0);

    for (0..3) |_| {
        var started = now(io);
        var sum: u64 = 0;
        for (0..hands) |i| {
            var a: eval.Accumulator = .empty;
            inline for (0..7) |j| a.add(cards[i * 7 + j]);
            keys[i] = @truncate(a.key);
            sum +%= a.mask;
        }
        const accumulate = now(io) - started;

        started = now(io);
        for (keys, out) |k, *o| {
            const row = (k >> tables.row_shift) & (tables.row_count - 1);
            o.* = tables.lookup[(k +% tables.row_offsets[row]) & (tables.lookup_size - 1)];
        }
        const lookup = now(io) - started;

        started = now(io);
        for (0..hands) |i| {
            var a: eval.Accumulator = .empty;
            inline for (0..7) |j| a.add(cards[i * 7 + j]);
            out[i] = eval.rank_accumulator(a);
        }
        const both = now(io) - started;

        started = now(io);
        var invalid: u32 = 0;
        for (0..hands) |i| {
            var a: eval.Accumulator = .empty;
            inline for (0..7) |j| a.add(cards[i * 7 + j]);
            out[i] = eval.rank_accumulator(a);
            invalid |= a.card_total() ^ 7;
        }
        const checked = now(io) - started;
        sum +%= invalid;
        std.debug.print("accumulate {d:.3} ns, lookup {d:.3} ns, rank {d:.3}, rank + check {d:.3} ns/hand ({d})\n", .{
            @as(f64, @floatFromInt(accumulate)) / hands,
            @as(f64, @floatFromInt(lookup)) / hands,
            @as(f64, @floatFromInt(both)) / hands,
            @as(f64, @floatFromInt(checked)) / hands,
            sum +% out[hands - 1],
        });
    }
}
