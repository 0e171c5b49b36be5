//! Cards dealt from one deck in 64 lanes at once, a byte a lane (AVX-512 VBMI): the n-th
//! card still in each lane's deck, found without a select.
//!
//! Every lane starts from the same deck, whose cards in ascending order are one 64-byte
//! table (`vpermb` reads it). A lane's deck is that table less the places taken from it.
//! The n-th card left sits at place j = n + (places taken at or below j); a taken place t
//! is at or below j exactly when the places left below t, t less the taken ones below it,
//! are at most n. So each taken card is kept as that count, `left_below`, and a draw
//! compares n with every one of them independently (no chain through a sorted list): the
//! ones at most n add one to the place, the others have one place fewer below them once j
//! is out, and j joins them as n. Four byte operations per card taken serve all 64 lanes, where the broadword select on bit sets it replaced cost about 27 operations per
//! eight lanes, each of its cards waiting on the deck the one before left. The card is the one a
//! select on the lane's deck as a bit set gives: the same cards as every other level.
const std = @import("std");
const assert = std.debug.assert;
const builtin = @import("builtin");
const encoding = @import("encoding.zig");
const bits = @import("bits.zig");

/// Whether this compilation's CPU can deal this way (byte permutes: `bits.has_vbmi`).
pub const available = bits.has_vbmi;

/// Whether this compilation's CPU deals by place in 32 lanes instead (AVX2 without VBMI: the
/// avx2 level). Its byte shuffle (`vpshufb`) looks in 16 bytes, so a place is found by four
/// of them (`lookup32`); the rest of a draw is the same byte arithmetic on half the lanes.
/// On Zen 4 running the avx2 level, against the select on eight lanes' bit sets: known hands
/// +44% games/s, random vs random +43-52%, 0.72-0.84x the known-hands rate where it was
/// 0.61-0.70x (bench/NOTES.md, 2026-12-06).
pub const available32 = bits.has_avx2_only;

pub const lanes32 = 32;
pub const Bytes32 = @Vector(lanes32, u8);

pub const lanes = 64;
pub const Bytes = @Vector(lanes, u8);

const lookup = bits.lookup64;

/// A deck's cards in ascending order, as `vpermb` tables: built once for every game dealt
/// from that deck (48 steps of a scalar loop, a few instructions a game if built for each
/// 64 games).
pub const Table = struct {
    /// Byte p: the deck's p-th card, ascending.
    cards: Bytes,
    /// Byte c: where card c sits among `cards` (cards outside the deck: anything).
    places: Bytes,

    pub fn of(deck: u64) Table {
        std.debug.assert(deck & ~encoding.full_deck == 0);
        var cards: [lanes]u8 = @splat(0);
        var places: [lanes]u8 = @splat(0);
        var rest = deck;
        var p: u8 = 0;
        while (rest != 0) : (rest &= rest - 1) {
            const card: u8 = @ctz(rest);
            cards[p] = card;
            places[card] = p;
            p += 1;
        }
        assert(p == @popCount(deck));
        return .{ .cards = cards, .places = places };
    }
};

/// `Table` for `lookup32`: each 64-byte table as four 16-byte chunks, chunk k the XOR of
/// the table's bytes 16k.. with 16(k-1).. (so the XOR of chunks 0..k is bytes 16k..),
/// each repeated in both halves of a 32-byte vector (`vpshufb` looks within each half).
pub const Table32 = struct {
    cards: [4]Bytes32,
    places: [4]Bytes32,

    pub fn of(deck: u64) Table32 {
        const table: Table = .of(deck);
        return .{ .cards = chunks(table.cards), .places = chunks(table.places) };
    }

    pub fn chunks(bytes: Bytes) [4]Bytes32 {
        return bits.chunks32(bytes);
    }
};

pub const lookup32 = bits.lookup32;

test "lookup32: every index of a table, as the table's byte" {
    if (!available32) return error.SkipZigTest;
    const random = @import("random.zig");
    var x: u64 = 3;
    for (0..20) |_| {
        x = random.mix64(x);
        var table: [lanes]u8 = undefined;
        for (&table) |*t| {
            x = random.mix64(x);
            t.* = @truncate(x);
        }
        const chunks = Table32.chunks(table);
        for (0..2) |half| {
            var index: [lanes32]u8 = undefined;
            for (&index, 0..) |*i, l| i.* = @intCast(half * lanes32 + l);
            const got: [lanes32]u8 = lookup32(chunks, index);
            for (index, got) |i, g| try std.testing.expectEqual(table[i], g);
        }
    }
}

/// The low byte of each of 64 words (each below 256), as one vector: byte permutes of two
/// vectors (`vpermt2b`) in three rounds, seven in all, where a truncation of each vector of
/// eight words (`vpmovqb`, two operations each) and the inserts joining them took 23: a
/// card drawn costs that (in turn on Xeon: random vs random +3-10% games/s, known hands +2-7%).
pub inline fn low_bytes(words: @Vector(lanes, u64)) Bytes {
    const all: [lanes]u64 = words;
    var eighths: [8]Bytes = undefined;
    for (&eighths, 0..) |*eighth, k| eighth.* = @bitCast(@as(@Vector(8, u64), all[k * 8 ..][0..8].*));
    // Round 1: eighths 2p and 2p+1 give bytes 16p .. 16p+16; round 2 joins two of those into
    // 32 bytes; round 3, the halves.
    var quarters: [4]Bytes = undefined;
    inline for (&quarters, 0..) |*quarter, p| quarter.* = @shuffle(u8, eighths[2 * p], eighths[2 * p + 1], pair_mask(p));
    const low = @shuffle(u8, quarters[0], quarters[1], join_mask(0, 32));
    const high = @shuffle(u8, quarters[2], quarters[3], join_mask(32, 64));
    return @shuffle(u8, low, high, join_mask(0, 64));
}

/// Positions 16p .. 16p+16 take the low bytes of the 16 words of two vectors (`~i` picks
/// from the second); the other positions take anything.
fn pair_mask(comptime p: usize) @Vector(lanes, i32) {
    var mask: [lanes]i32 = @splat(0);
    for (0..16) |i| mask[16 * p + i] = if (i < 8) @intCast(8 * i) else ~@as(i32, @intCast(8 * (i - 8)));
    return mask;
}

/// Positions `from .. to`: the first half from the first vector, the second half from the
/// second, each in its place; the others anything.
fn join_mask(comptime from: usize, comptime to: usize) @Vector(lanes, i32) {
    var mask: [lanes]i32 = @splat(0);
    for (from..to) |j| mask[j] = if (j < (from + to) / 2) @intCast(j) else ~@as(i32, @intCast(j));
    return mask;
}

test "low_bytes: each word's low byte in its lane" {
    if (!available) return error.SkipZigTest;
    var words: [lanes]u64 = undefined;
    for (&words, 0..) |*w, l| w.* = (l * 37 + 11) % 256;
    const got: [lanes]u8 = low_bytes(words);
    for (words, got) |w, b| try std.testing.expectEqual(@as(u8, @intCast(w)), b);
}

/// Byte m of every lane's row, for each m: the rows transposed by byte permutes of two
/// vectors (`vpermt2b`), in rounds that each halve the bytes a vector holds of a row and
/// double its rows: two rounds of four permutes for 4-byte rows, where a shift and a
/// truncation a byte (`vpmovdb`, two operations on Golden Cove's one shuffle port) and
/// the inserts joining four of them took 44.
pub fn row_bytes(comptime Row: type, rows: @Vector(lanes, Row)) [@sizeOf(Row)]Bytes {
    @setEvalBranchQuota(100_000); // the masks, computed as the rounds unroll
    const width = @sizeOf(Row);
    comptime std.debug.assert(std.math.isPowerOfTwo(width) and width <= lanes);
    // A vector to vector cast, then each 64 bytes by a shuffle of one operand: registers
    // reinterpreted. (A cast to an array of bytes compiled to bit shifts a byte.)
    const all: @Vector(width * lanes, u8) = @bitCast(rows);
    var parts: [width]Bytes = undefined;
    inline for (&parts, 0..) |*part, v| {
        part.* = @shuffle(u8, all, undefined, std.simd.iota(i32, lanes) + @as(@Vector(lanes, i32), @splat(v * lanes)));
    }
    // Vector v holds rows `v * per .. (v + 1) * per` whole (per = lanes / width), bytes
    // in row order; after each round a vector holds twice the rows and half their bytes.
    comptime var bytes_held = width;
    inline while (bytes_held > 1) : (bytes_held /= 2) {
        var next: [width]Bytes = undefined;
        inline for (0..width / 2) |pair| {
            const group = comptime pair_groups(bytes_held, pair);
            inline for (0..2) |half| {
                next[group.out[half]] = @shuffle(u8, parts[group.in[0]], parts[group.in[1]], transpose_mask(bytes_held, half));
            }
        }
        parts = next;
    }
    return parts;
}

/// In the round where vectors hold `bytes_held` bytes of each of their rows, the two
/// vectors joined in `pair` (consecutive rows, the same bytes) and the two they make (the
/// same rows, the low and high half of those bytes), numbered so that once every vector
/// holds one byte, vector m holds byte m.
fn pair_groups(comptime bytes_held: usize, comptime pair: usize) struct { in: [2]usize, out: [2]usize } {
    // Vector number = byte group × row blocks + row block: a byte group is `bytes_held`
    // bytes of each row, and `bytes_held` vectors hold them for every row.
    const blocks = bytes_held; // row blocks in this round
    const group = pair / (blocks / 2);
    const block = pair % (blocks / 2);
    const in0 = group * blocks + 2 * block;
    const next_blocks = blocks / 2;
    return .{
        .in = .{ in0, in0 + 1 },
        .out = .{ (2 * group) * next_blocks + block, (2 * group + 1) * next_blocks + block },
    };
}

/// Positions of the joined vector: its rows are the first vector's then the second's,
/// each with half the bytes held (the low or high half).
fn transpose_mask(comptime bytes_held: usize, comptime half: usize) @Vector(lanes, i32) {
    @setEvalBranchQuota(8 * lanes);
    var mask: [lanes]i32 = undefined;
    const kept = bytes_held / 2;
    const rows_in = lanes / bytes_held; // rows each input vector holds
    for (0..lanes) |q| {
        const row = q / kept;
        const byte = half * kept + q % kept;
        const from_second = row >= rows_in;
        const at: i32 = @intCast((row % rows_in) * bytes_held + byte);
        mask[q] = if (from_second) ~at else at;
    }
    return mask;
}

/// `row_bytes` undone: the rows whose byte m is `parts[m]` in every lane, by the same
/// rounds of permutes run backwards (each doubles the bytes a vector holds of a row).
pub fn rows_of_bytes(comptime Row: type, parts_in: [@sizeOf(Row)]Bytes) @Vector(lanes, Row) {
    @setEvalBranchQuota(100_000); // the masks, computed as the rounds unroll
    const width = @sizeOf(Row);
    comptime std.debug.assert(std.math.isPowerOfTwo(width) and width <= lanes);
    var parts = parts_in;
    comptime var bytes_held = 2;
    inline while (bytes_held <= width) : (bytes_held *= 2) {
        var next: [width]Bytes = undefined;
        inline for (0..width / 2) |pair| {
            const group = comptime pair_groups(bytes_held, pair);
            inline for (0..2) |half| {
                next[group.in[half]] = @shuffle(u8, parts[group.out[0]], parts[group.out[1]], untranspose_mask(bytes_held, half));
            }
        }
        parts = next;
    }
    return @bitCast(concat(width, parts));
}

/// The vectors one after another, as one vector (a tree of two-operand shuffles that only
/// name registers).
fn concat(comptime count: usize, parts: [count]Bytes) @Vector(count * lanes, u8) {
    if (count == 1) return parts[0];
    const half = count / 2;
    const low = concat(half, parts[0..half].*);
    const high = concat(half, parts[half..].*);
    return @shuffle(u8, low, high, concat_mask(half * lanes));
}

/// The inverse of `transpose_mask`: vector `half` of a pair (its rows the first or second
/// half of the rows the two joined vectors hold, every byte of the group), from the
/// vectors holding the group's low and high bytes.
fn untranspose_mask(comptime bytes_held: usize, comptime half: usize) @Vector(lanes, i32) {
    @setEvalBranchQuota(8 * lanes);
    var mask: [lanes]i32 = undefined;
    const kept = bytes_held / 2;
    const rows_out = lanes / bytes_held; // rows each output vector holds
    for (0..lanes) |q| {
        const row = half * rows_out + q / bytes_held;
        const byte = q % bytes_held;
        const at: i32 = @intCast(row * kept + byte % kept);
        mask[q] = if (byte >= kept) ~at else at;
    }
    return mask;
}

/// Two vectors of `size` bytes joined: the first's, then the second's.
fn concat_mask(comptime size: usize) @Vector(2 * size, i32) {
    @setEvalBranchQuota(4 * size);
    var mask: [2 * size]i32 = undefined;
    for (0..2 * size) |j| mask[j] = if (j < size) @intCast(j) else ~@as(i32, @intCast(j - size));
    return mask;
}

test "row_bytes: byte m of every row, for 2-, 4- and 8-byte rows" {
    inline for (.{ u16, u32, u64 }) |Row| {
        var rows: [lanes]Row = undefined;
        for (&rows, 0..) |*row, l| {
            var word: Row = 0;
            for (0..@sizeOf(Row)) |m| word |= @as(Row, @intCast((l * 7 + m * 59 + 3) % 256)) << @intCast(8 * m);
            row.* = word;
        }
        const split = row_bytes(Row, rows);
        for (0..@sizeOf(Row)) |m| {
            const got: [lanes]u8 = split[m];
            for (rows, got) |row, b| try std.testing.expectEqual(@as(u8, @truncate(row >> @intCast(8 * m))), b);
        }
        const back: [lanes]Row = rows_of_bytes(Row, split);
        try std.testing.expectEqualSlices(Row, &rows, &back);
    }
}

/// 32 rows of 16 bytes as 16 vectors of 32 lanes: byte m of row l is lane l of vector m.
/// Rows l and l + 16 share a vector, one a 128-bit half; four rounds of byte unpacks within
/// the halves, each pairing the vectors that differ in one bit of their number (8, 4, 2,
/// 1), swap that bit with a bit of the byte's place: 64 unpacks for 32 rows.
pub inline fn transpose32(rows: *const [lanes32][16]u8) [16]Bytes32 {
    var v: [16]Bytes32 = undefined;
    inline for (0..16) |k| {
        const low: @Vector(16, u8) = rows[k];
        const high: @Vector(16, u8) = rows[k + 16];
        v[k] = @shuffle(u8, low, high, concat_halves);
    }
    inline for (.{ 8, 4, 2, 1 }) |bit| {
        var next: [16]Bytes32 = undefined;
        inline for (0..16) |k| {
            if (k & bit == 0) {
                next[k] = @shuffle(u8, v[k], v[k | bit], unpack_low);
                next[k | bit] = @shuffle(u8, v[k], v[k | bit], unpack_high);
            }
        }
        v = next;
    }
    return v;
}

const concat_halves: @Vector(32, i32) = mask: {
    var mask: [32]i32 = undefined;
    for (0..16) |j| {
        mask[j] = j;
        mask[16 + j] = ~@as(i32, j);
    }
    break :mask mask;
};

const unpack_low = unpack_mask(0);
const unpack_high = unpack_mask(8);

/// `vpunpcklbw` (from 0) or `vpunpckhbw` (from 8) of two vectors as a shuffle's mask:
/// within each 128-bit half, bytes `from ..` of the first and the second in turn.
fn unpack_mask(comptime from: usize) @Vector(32, i32) {
    var mask: [32]i32 = undefined;
    for (0..2) |half| for (0..8) |k| {
        const index: i32 = @intCast(16 * half + from + k);
        mask[16 * half + 2 * k] = index;
        mask[16 * half + 2 * k + 1] = ~index;
    };
    return mask;
}

/// Tests' deals: `count` cards of `deck` taken at random (the stream `x` moves on).
fn random_taken(x: *u64, deck: u64, count: usize) u64 {
    assert(count <= @popCount(deck));
    const random = @import("random.zig");
    var left = deck;
    var taken: u64 = 0;
    for (0..count) |_| {
        x.* = random.mix64(x.*);
        const card = bits.nth_set_bit(left, @intCast(x.* % @popCount(left)));
        taken |= @as(u64, 1) << card;
        left &= ~(@as(u64, 1) << card);
    }
    return taken;
}

test "transpose32: byte m of row l is lane l of vector m" {
    var rows: [lanes32][16]u8 = undefined;
    for (&rows, 0..) |*row, l| for (row, 0..) |*b, m| {
        b.* = @truncate(l * 7 + m * 3 + (l ^ m));
    };
    const out = transpose32(&rows);
    for (0..16) |m| {
        const got: [lanes32]u8 = out[m];
        for (0..lanes32) |l| try std.testing.expectEqual(rows[l][m], got[l]);
    }
}

test "DeckLanes: remove_rows32 takes out the cards remove_sets does" {
    if (!available32) return error.SkipZigTest;
    const random = @import("random.zig");
    var x: u64 = 91;
    for (0..50) |round| {
        x = random.mix64(x);
        const deck = encoding.full_deck & ~(x & random.mix64(x +% 1));
        const count = @min(round % 17, @popCount(deck));
        var sets: [lanes32]u64 = @splat(0);
        var rows: [lanes32][16]u8 = undefined;
        for (&sets, &rows) |*set, *row| {
            set.* = random_taken(&x, deck, count);
            row.* = @bitCast(places_word(u128, deck, set.*));
        }
        const Deck = DeckLanesOf(lanes32, encoding.card_count);
        var by_sets: Deck = .{ .table = .of(deck) };
        by_sets.remove_sets(sets, count);
        var by_rows: Deck = .{ .table = by_sets.table };
        by_rows.remove_rows32(&rows, count);
        try std.testing.expectEqual(by_sets.len, by_rows.len);
        for (by_sets.left_below[0..count], by_rows.left_below[0..count]) |a, b| {
            try std.testing.expectEqual(@as([lanes32]u8, a), @as([lanes32]u8, b));
        }
    }
}

/// The cards `taken` out of `deck` as `DeckLanes` keeps them, in one word: byte m is the
/// m-th lowest card's count of places left below it (deck cards below it, not taken). What
/// `remove_places` reads back, computed once per deal where deals are tabulated.
pub fn places_word(comptime Word: type, deck: u64, taken: u64) Word {
    assert(taken & ~deck == 0);
    assert(@popCount(taken) <= @sizeOf(Word));
    var places: Word = 0;
    var rest = taken;
    var shift: std.math.Log2Int(Word) = 0;
    while (rest != 0) : (rest &= rest - 1) {
        const below = (rest & (~rest +% 1)) - 1; // the cards below the lowest left
        places |= @as(Word, @popCount(deck & ~taken & below)) << shift;
        shift +%= 8;
    }
    return places;
}

/// A deck dealt in 64 lanes, at most `taken_max` cards out of each.
pub fn DeckLanes(comptime taken_max: usize) type {
    return DeckLanesOf(lanes, taken_max);
}

/// A deck dealt in `width` lanes: 64 (`available`, `vpermb`) or 32 (`available32`,
/// `lookup32`), at most `taken_max` cards out of each.
pub fn DeckLanesOf(comptime width: usize, comptime taken_max: usize) type {
    comptime assert(width == lanes or width == lanes32);
    return struct {
        const Self = @This();
        const Lanes = @Vector(width, u8);

        table: if (width == lanes) Table else Table32,
        /// For each card out of each lane's deck, the places left below it:
        /// `left_below[0..len]`.
        left_below: [taken_max]Lanes = undefined,
        len: usize = 0,
        /// Whether the deck is all 52 cards (no card out before the deal: random vs
        /// random), where place p holds card p and a draw's place is its card: no lookup.
        /// On 32 lanes only, where a lookup is ten operations (`lookup32`), not one (on 64
        /// lanes void: their deal as it was).
        whole: if (width == lanes32) bool else void = if (width == lanes32) false else {},

        /// Whether every card taken is reached at an index known at compile time (each
        /// draw's loop unrolled to `taken_max`, the counts past `len` skipped by a branch
        /// every draw takes alike): the counts can then live in registers, not in memory
        /// loaded and stored at every draw. For a heads-up deal (nine cards at most), and
        /// six players' 17 on the avx2 level's 32 lanes (AA vs 5 random +3% games/s on Zen
        /// 4 there; the avx512 level's 64 lanes 2% slower so: bench/NOTES.md, 2026-12-07).
        const unrolled = taken_max <= @as(usize, if (width == lanes32) 17 else 16);

        comptime {
            // A place is a byte, and no lane's deck outgrows the cards.
            assert(taken_max <= encoding.card_count);
            assert(encoding.card_count <= lanes);
        }

        /// Takes `count` cards out of each lane's deck before any draw: lane l's are the set
        /// bits of `sets[l]` (`count` of them in every lane, all in the deck).
        pub fn remove_sets(deck: *Self, sets: @Vector(width, u64), count: usize) void {
            assert(deck.len == 0);
            assert(count <= taken_max);
            std.debug.assert(@reduce(.And, @popCount(sets) == @as(@Vector(width, u7), @splat(@intCast(count)))));
            var rest = sets;
            inline for (0..taken_max) |m| {
                if (m < count) {
                    // Lowest card first: the m-th taken has m taken below it.
                    const card: Lanes = @intCast(@ctz(rest));
                    rest &= rest -% @as(@Vector(width, u64), @splat(1));
                    deck.left_below[m] = at(deck.table.places, card) -% @as(Lanes, @splat(@intCast(m)));
                }
            }
            deck.len = count;
            std.debug.assert(@reduce(.Or, rest) == 0);
        }

        /// `remove_sets` where each lane's cards come as their counts of places left below
        /// them, already: byte m of `rows[l]` for lane l's m-th lowest card, `count` of them
        /// a lane (`places_word`). A row's bytes split out by a shift and a truncation where
        /// finding the cards in the sets took a trailing-zero count a card and lane.
        pub fn remove_places(deck: *Self, comptime Row: type, rows: @Vector(lanes, Row), count: usize) void {
            comptime assert(width == lanes); // `row_bytes` transposes 64 lanes
            assert(deck.len == 0);
            assert(count <= @sizeOf(Row));
            assert(count <= taken_max);
            const split = row_bytes(Row, rows);
            inline for (0..@sizeOf(Row)) |m| {
                if (m < count) deck.left_below[m] = split[m];
            }
            deck.len = count;
        }

        /// `remove_places` on 32 lanes from rows of 16 bytes: byte m of `rows[l]` lane l's
        /// m-th lowest card's count of places left below it (`places_word`), `count` of them.
        /// A transpose of byte unpacks (`transpose32`) where `remove_sets` found each card by
        /// a trailing-zero count, which AVX2 has for no vector of words (a byte popcount of
        /// `vpshufb` and `vpsadbw` a card and four lanes), and looked up its place.
        pub fn remove_rows32(deck: *Self, rows: *const [lanes32][16]u8, count: usize) void {
            comptime assert(width == lanes32);
            assert(deck.len == 0);
            assert(count <= 16);
            assert(count <= taken_max);
            const split = transpose32(rows);
            inline for (0..@min(16, taken_max)) |m| {
                if (m < count) deck.left_below[m] = split[m];
            }
            deck.len = count;
        }

        /// Each lane's `n`-th card still in its deck, taken out; `n` below the cards left.
        pub inline fn take(deck: *Self, n: Lanes) Lanes {
            std.debug.assert(deck.len < taken_max);
            // A taken card's count is above n exactly when it less n, saturated, is not 0:
            // that, clamped to 1, is what it loses and what the place does not gain. Two
            // byte subtractions, a min and an add, none of them a compare into a mask (which
            // runs on one port of Golden Cove's two for 512-bit work) nor a mask turned back
            // into bytes. In assembly: LLVM folds the min of a saturated difference back
            // into a compare and a mask to bytes (random vs random 0.81 -> 0.82-0.83x the
            // known rate in turn on Xeon, medians of 9 pairs; the `@select` form of before
            // took six operations a card).
            var above: Lanes = @splat(0);
            if (unrolled) {
                inline for (0..taken_max) |k| {
                    if (k < deck.len) count_above(&deck.left_below[k], n, &above);
                }
                inline for (0..taken_max) |k| {
                    if (k == deck.len) deck.left_below[k] = n;
                }
            } else {
                for (deck.left_below[0..deck.len]) |*left| count_above(left, n, &above);
                deck.left_below[deck.len] = n;
            }
            const place = n +% @as(Lanes, @splat(@intCast(deck.len))) -% above;
            deck.len += 1;
            if (width == lanes32) {
                if (deck.whole) return place;
            }
            return at(deck.table.cards, place);
        }

        /// The table's byte at each lane's index.
        inline fn at(table: anytype, index: Lanes) Lanes {
            return if (width == lanes) lookup(table, index) else lookup32(table, index);
        }

        /// A taken card's count less one in the lanes where it is above n, and `above` one
        /// more there. On 32 lanes (AVX2) by a signed byte compare (counts and places are
        /// below 64) into a vector of -1 or 0, added to one and taken from the other: three
        /// operations a card where `lose_if_above` and its add take four (AVX2's compares
        /// write vectors, not the mask registers Golden Cove runs on one port).
        inline fn count_above(left: *Lanes, n: Lanes, above: *Lanes) void {
            if (width == lanes32) {
                const Signed = @Vector(width, i8);
                const is_above = @as(Signed, @bitCast(left.*)) > @as(Signed, @bitCast(n));
                const minus_one = @select(u8, is_above, @as(Lanes, @splat(0xff)), @as(Lanes, @splat(0)));
                left.* +%= minus_one;
                above.* -%= minus_one;
                return;
            }
            above.* +%= lose_if_above(left, n);
        }

        /// A taken card's count less one in the lanes where it is above n, and 1 there
        /// (0 elsewhere).
        inline fn lose_if_above(left: *Lanes, n: Lanes) Lanes {
            const one: Lanes = @splat(1);
            const is_above = asm ("vpsubusb %[n], %[left], %[d]\n\tvpminub %[one], %[d], %[d]"
                : [d] "=&v" (-> Lanes),
                : [left] "v" (left.*),
                  [n] "v" (n),
                  [one] "v" (one),
            );
            left.* -%= is_above;
            return is_above;
        }
    };
}

test "DeckLanes: remove_places takes out the cards remove_sets does" {
    if (!available) return error.SkipZigTest;
    const random = @import("random.zig");
    var x: u64 = 77;
    for (0..50) |round| {
        x = random.mix64(x);
        const deck = encoding.full_deck & ~(x & random.mix64(x +% 1));
        const count = round % 9;
        var sets: [lanes]u64 = @splat(0);
        var rows: [lanes]u64 = undefined;
        for (&sets, &rows) |*set, *row| {
            set.* = random_taken(&x, deck, count);
            row.* = places_word(u64, deck, set.*);
        }
        var by_sets: DeckLanes(encoding.card_count) = .{ .table = .of(deck) };
        by_sets.remove_sets(sets, count);
        var by_places: DeckLanes(encoding.card_count) = .{ .table = by_sets.table };
        by_places.remove_places(u64, rows, count);
        try std.testing.expectEqual(by_sets.len, by_places.len);
        for (by_sets.left_below[0..count], by_places.left_below[0..count]) |a, b| {
            try std.testing.expectEqual(@as([lanes]u8, a), @as([lanes]u8, b));
        }
    }
}

test "DeckLanes: each card is the n-th left, as a select on the lane's bit set gives" {
    if (available) try expect_select(lanes);
    if (available32) try expect_select(lanes32);
    if (!available and !available32) return error.SkipZigTest;
}

fn expect_select(comptime width: usize) !void {
    const random = @import("random.zig");
    var x: u64 = 2024;
    for (0..200) |round| {
        x = random.mix64(x);
        const deck = encoding.full_deck & ~(x & random.mix64(x +% 1) & random.mix64(x +% 2));
        var removed: [width]u64 = @splat(0);
        var left: [width]u64 = @splat(deck);
        // Up to six cards out of every lane first (as range players' are), then draws to
        // the end.
        const seeded: usize = round % 7;
        for (0..width) |l| {
            for (0..seeded) |_| {
                x = random.mix64(x);
                const card = bits.nth_set_bit(left[l], @intCast(x % @popCount(left[l])));
                removed[l] |= @as(u64, 1) << card;
                left[l] &= ~(@as(u64, 1) << card);
            }
        }
        var lanes_deck: DeckLanesOf(width, encoding.card_count) = .{ .table = .of(deck) };
        lanes_deck.remove_sets(removed, seeded);
        const size: usize = @popCount(deck) - seeded;
        for (0..size) |k| {
            var n: [width]u8 = undefined;
            for (&n) |*v| {
                x = random.mix64(x);
                // Every place, the last card left among them.
                v.* = @intCast(if (x & 7 == 0) size - k - 1 else x % (size - k));
            }
            const cards: [width]u8 = lanes_deck.take(n);
            for (0..width) |l| {
                const expected = bits.nth_set_bit(left[l], n[l]);
                try std.testing.expectEqual(@as(u8, expected), cards[l]);
                left[l] &= ~(@as(u64, 1) << expected);
            }
        }
    }
}
