//! Ranking rows in blocks of 64 from a vector row source (rows_avx2.zig, four rows a vector;
//! rows_avx512.zig, eight; rows.zig picks the widest this build's CPU level has).
//!
//! A row source (card ids, card sets, accumulators, card text) gives `lanes`, `tally(first)`
//! (the `Tallied` of rows `first .. first + lanes`) and `rank_row(row)` (the scalar path,
//! for the rows with a flush); it may ask for `tallies_per_pass` (default 1) to unroll the
//! tally loop, and say in `spare_rows` how many rows past a block its loads read. `rank_block` then runs three tight loops: the vector tally, the table
//! lookups (eval's, unmasked: see `rank_fingerprint_unmasked`), and the scalar path for the
//! rows with a flush (3% of random hands). Keeping the lookups apart from the tally lets the
//! CPU overlap one block's L2 misses with the next one's arithmetic.
const std = @import("std");
const eval = @import("eval.zig");

/// The calling convention the row sources declare LLVM's vector intrinsics with
/// (`extern fn @"llvm.x86…"`): SysV passes vectors in registers on every OS. Windows x64's C
/// convention would pass them by reference, which LLVM cannot select as an intrinsic, so the
/// Windows build would fail with the C default.
pub const intrinsic: std.builtin.CallingConvention = .{ .x86_64_sysv = .{} };

/// What a vector tally of `lanes` rows gives: each row's fingerprint (eval.zig), whether it
/// holds a flush, and whether any of the rows is bad.
pub fn Tallied(comptime lanes: u32) type {
    return struct { fingerprints: @Vector(lanes, u64), flush: @Vector(lanes, bool), bad: bool };
}

/// What a vector tally of `lanes` card sets gives: fingerprints (0 for a bad set, so its
/// lookup stays inside the tables), whether a suit holds five cards, the suit counts as
/// eval.zig's key counters (`c0 | c1 << 4 | c2 << 8 | c3 << 12`), and which sets are bad
/// (bits above 51, or not 1..7 cards).
pub fn SetTally(comptime lanes: u32) type {
    return struct {
        fingerprints: @Vector(lanes, u64),
        flush: @Vector(lanes, bool),
        counters: @Vector(lanes, u64),
        bad: @Vector(lanes, bool),
    };
}

/// Card sets (uint64, 1 to 7 cards each), by a kernel's `tally_sets` (`K` gives it, its
/// `lanes` and its `tallies_per_pass`).
pub fn SetSource(comptime K: type) type {
    return struct {
        sets: []const u64,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const tallied = K.tally_sets(rows.sets[first..][0..lanes].*);
            return .{ .fingerprints = tallied.fingerprints, .flush = tallied.flush, .bad = @reduce(.Or, tallied.bad) };
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_set(rows.sets[row]);
        }
    };
}

/// Accumulators (eval.zig's 16-byte `{key, mask}`), by the same kernel: each mask tallied as
/// a set, and the key held to what adding those cards makes (`eval.key_of_set`), so an
/// edited record is bad.
pub fn AccumulatorSource(comptime K: type) type {
    return struct {
        accumulators: []const eval.Accumulator,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        const Lanes = @Vector(lanes, u64);

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const words: *const [2 * lanes]u64 = @ptrCast(rows.accumulators[first..][0..lanes]);
            const low: Lanes = words[0..lanes].*;
            const high: Lanes = words[lanes..].*;
            const keys = @shuffle(u64, low, high, every_other(0));
            const masks = @shuffle(u64, low, high, every_other(1));
            const tallied = K.tally_sets(masks);
            const shift = eval.suit_counter_shift;
            const expected = tallied.fingerprints +
                ((tallied.counters + @as(Lanes, @splat(eval.Accumulator.empty.key >> shift))) << @splat(shift));
            return .{
                .fingerprints = tallied.fingerprints,
                .flush = tallied.flush,
                .bad = @reduce(.Or, tallied.bad | (keys != expected)),
            };
        }

        /// Words `first`, `first + 2`, … of two vectors of interleaved keys and masks.
        fn every_other(comptime first: u32) [lanes]i32 {
            var mask: [lanes]i32 = undefined;
            for (0..lanes) |i| {
                const word: i32 = @intCast((2 * i + first) % lanes);
                mask[i] = if (2 * i < lanes) word else ~word;
            }
            return mask;
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_accumulator(rows.accumulators[row]);
        }
    };
}

/// Rows a block: its fingerprints stay in L1 between the passes.
pub const block_rows = 64;

/// Ranks rows `first .. first + block_rows` of `rows` in three passes, each a tight loop:
/// the vector tally, the table lookups, then the scalar path for the few rows holding a
/// flush (a branch per row on a 3% event would mispredict more often than it is taken).
/// Returns whether any row is bad, with the block's ranks then meaningless.
pub inline fn rank_block(rows: anytype, out: []u16, first: usize) bool {
    const lanes = @TypeOf(rows).lanes;
    var fingerprints: [block_rows]u32 align(64) = undefined;
    var flushes: u64 = 0;
    var bad: u32 = 0;
    const per_pass = if (@hasDecl(@TypeOf(rows), "tallies_per_pass")) @TypeOf(rows).tallies_per_pass else 1;
    var pass: usize = 0;
    while (pass < block_rows) : (pass += per_pass * lanes) {
        inline for (0..per_pass) |tally| {
            const row = pass + tally * lanes;
            const tallied = rows.tally(first + row);
            fingerprints[row..][0..lanes].* = @as(@Vector(lanes, u32), @truncate(tallied.fingerprints));
            const flush_bits: @Int(.unsigned, lanes) = @bitCast(tallied.flush);
            flushes |= @as(u64, flush_bits) << @intCast(row);
            bad |= @intFromBool(tallied.bad);
        }
    }
    for (&fingerprints, out[first..][0..block_rows]) |fingerprint, *rank| {
        // At most seven multipliers, whatever the input (a tally sums nothing else).
        rank.* = eval.rank_fingerprint_unmasked(fingerprint);
    }
    if (bad != 0) return true;
    while (flushes != 0) : (flushes &= flushes - 1) {
        const flush_row = first + @ctz(flushes);
        out[flush_row] = rows.rank_row(flush_row);
    }
    return false;
}

comptime {
    std.debug.assert(block_rows == 64); // one u64 of flush bits
}

/// The rows of `rows` that whole blocks of `Rows` cover, leaving after them the rows its
/// vectors read past a block (`Rows.spare_rows`).
pub fn blocks_end(comptime Rows: type, rows: usize) usize {
    const spare = if (@hasDecl(Rows, "spare_rows")) Rows.spare_rows else 0;
    if (rows < spare) return 0;
    return (rows - spare) / block_rows * block_rows;
}

/// `rank_block` for every block of rows `0 .. end` (a multiple of `block_rows`); returns
/// whether any row was bad.
pub fn rank_blocks(rows: anytype, out: []u16, end: usize) bool {
    std.debug.assert(end % block_rows == 0);
    var bad: u32 = 0;
    var first: usize = 0;
    // Bitwise, not `or`: a short-circuit would put a branch in every block.
    while (first < end) : (first += block_rows) bad |= @intFromBool(rank_block(rows, out, first));
    return bad != 0;
}
