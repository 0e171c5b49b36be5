//! `zig build microbench`: where the time of one ranking goes, on 16M random 7-card hands,
//! single thread: the scalar path (accumulate only, look up only, both) and the AVX2 one
//! (the vector tally only, whole blocks, the same with the tables hot, and card text). A
//! development tool, not a test.
const std = @import("std");
const eval = @import("eval.zig");
const deal = @import("deal.zig");
const tables = @import("tables");
const rows_avx2 = @import("rows_avx2.zig");

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

        started = now(io);
        var row: usize = 0;
        var flagged: usize = 0;
        while (row + 8 < hands) : (row += 4) {
            const four = (rows_avx2.CardRows{ .cards = cards }).tally(row);
            keys[row..][0..4].* = @as(@Vector(4, u32), @truncate(four.fingerprints));
            invalid |= @intFromBool(four.bad);
            flagged += @popCount(@as(u4, @bitCast(four.flush)));
        }
        const vector_tally = now(io) - started;
        started = now(io);
        const vectored = rows_avx2.rank_seven_rows(cards, out);
        const vector_rank = now(io) - started;
        sum +%= invalid + vectored.rows;
        // The same with every row one of the first 64 (tables hot in L1): what memory costs.
        const hot = try gpa.alloc(u8, hands * 7);
        defer gpa.free(hot);
        for (0..hands) |i| @memcpy(hot[i * 7 ..][0..7], cards[(i % 64) * 7 ..][0..7]);
        started = now(io);
        _ = rows_avx2.rank_seven_rows(hot, out);
        const hot_rank = now(io) - started;
        const text = try gpa.alloc(u8, hands * 14);
        defer gpa.free(text);
        for (cards, 0..) |card, i| {
            text[2 * i] = "23456789TJQKA"[card % 13];
            text[2 * i + 1] = "schd"[card / 13];
        }
        started = now(io);
        var bad_blocks: usize = 0;
        var first: usize = 0;
        while (first + 128 < hands) : (first += 64) {
            bad_blocks += @intFromBool(rows_avx2.rank_block(rows_avx2.TextRows{ .text = text.ptr }, out, first));
        }
        const text_rank = now(io) - started;
        started = now(io);
        first = 0;
        var text_bad: u32 = 0;
        while (first + 8 < hands) : (first += 4) {
            const four = (rows_avx2.TextRows{ .text = text.ptr }).tally(first);
            keys[first..][0..4].* = @as(@Vector(4, u32), @truncate(four.fingerprints));
            text_bad |= @intFromBool(four.bad);
        }
        const text_tally = now(io) - started;
        std.debug.print("avx2 text: tally {d:.3} ns/hand ({d})\n", .{ @as(f64, @floatFromInt(text_tally)) / hands, text_bad });
        std.debug.print("avx2 text: rank {d:.3} ns/hand, {d} bad blocks\n", .{ @as(f64, @floatFromInt(text_rank)) / hands, bad_blocks });
        std.debug.print("avx2, 64 distinct rows: rank {d:.3} ns/hand\n", .{@as(f64, @floatFromInt(hot_rank)) / hands});
        std.debug.print("avx2: flushes {d}, tally {d:.3} ns, rank {d:.3} ns/hand\n", .{
            flagged,
            @as(f64, @floatFromInt(vector_tally)) / hands,
            @as(f64, @floatFromInt(vector_rank)) / hands,
        });
        std.debug.print("accumulate {d:.3} ns, lookup {d:.3} ns, rank {d:.3}, rank + check {d:.3} ns/hand ({d})\n", .{
            @as(f64, @floatFromInt(accumulate)) / hands,
            @as(f64, @floatFromInt(lookup)) / hands,
            @as(f64, @floatFromInt(both)) / hands,
            @as(f64, @floatFromInt(checked)) / hands,
            sum +% out[hands - 1],
        });
    }
}
