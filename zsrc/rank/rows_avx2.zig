//! AVX2 tallies of rows of cards, four rows a vector: card ids (uint8 `(N, 5..7)`), card text
//! of seven cards, 14 or 20 bytes a row, card sets and accumulators. rank/showdown.zig builds
//! showdown hands for `tally_ids` too.
//!
//! The scalar path adds a 16-byte accumulator per card: seven dependent table loads a row.
//! Here four rows of ids sit one to a 64-bit lane of a vector, and every card is worked on
//! at once, without a table load (`tally_ids`):
//! - suit = (id > 12) + (id > 25) + (id > 38), value = id - 13 * suit;
//! - the fingerprint (Σ rank multiplier of each value) is three byte planes of the multiplier
//!   looked up by `vpshufb` (values fit its 16-entry tables) and summed per lane by
//!   `vpsadbw`;
//! - suit counts are two more `vpshufb` + `vpsadbw` into four 4-bit counters, the flush test
//!   of rank/eval.zig's accumulator;
//! - a row of k ids is bad if an id exceeds 51, or if one equals another: each card is
//!   compared with the card 1 .. k/2 places on, round the row (which meets every pair).
//! Card ids come from one 32-byte load of four rows (`CardRows`), each row's spare bytes 0
//! (deuces, taken back); card text is decoded in place and paired into ids first
//! (`sources.TextRows`, `sources.SpacedTextRows`). A card set's suits go to 16-bit fields whose nibbles
//! index `vpshufb` tables of their multipliers' sums, byte plane by byte plane (`tally_four_sets`).
//!
//! rank/blocks.zig ranks blocks of rows from these tallies. Measured on Zen 5 and rejected:
//! `vpgatherdd` for the lookups, a flush branch per four rows, pipelining one block's
//! lookups with the next one's tally.
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const bits = @import("../cards/bits.zig");
const parse = @import("../cards/parse.zig");
const blocks = @import("blocks.zig");
const intrinsic = bits.intrinsic;
const level = @This();

/// Whether this build's CPU level has these kernels (abi/kernels.zig's avx2 level does).
pub const available = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx2);

pub const Bytes = @Vector(32, u8);
const Lanes = @Vector(4, u64);
const cards_per_row = 7;
const rows_per_vector = 4;
const assert = std.debug.assert;

extern fn @"llvm.x86.avx2.pshuf.b"(Bytes, Bytes) callconv(intrinsic) Bytes;
extern fn @"llvm.x86.avx2.psad.bw"(Bytes, Bytes) callconv(intrinsic) Lanes;

/// `vpshufb`: each byte of `index` picks `table[index & 15]` within its 128-bit half, or 0
/// when the index's top bit is set.
pub inline fn lookup16(table: Bytes, index: Bytes) Bytes {
    return @"llvm.x86.avx2.pshuf.b"(table, index);
}

/// `vpsadbw` against zero: the sum of each lane's eight bytes.
inline fn lane_sums(bytes: Bytes) Lanes {
    return @"llvm.x86.avx2.psad.bw"(bytes, @splat(0));
}

/// A 16-entry table, repeated in both 128-bit halves as `vpshufb` wants it.
fn table16(entries: [16]u8) Bytes {
    var bytes: [32]u8 = undefined;
    for (0..32) |i| bytes[i] = entries[i % 16];
    return bytes;
}

/// Byte `plane` of each value's rank multiplier (values 13..15 are never looked up: 0).
fn multiplier_plane(comptime plane: u5) Bytes {
    comptime assert(plane < 3); // multipliers below 2^24
    var entries: [16]u8 = @splat(0);
    for (encoding.value_fingerprints, 0..) |multiplier, value| {
        entries[value] = @truncate(multiplier >> (8 * plane));
    }
    return table16(entries);
}

comptime {
    for (encoding.value_fingerprints) |multiplier| std.debug.assert(multiplier < 1 << 24);
}

const multiplier_planes = [3]Bytes{ multiplier_plane(0), multiplier_plane(1), multiplier_plane(2) };
/// 13 * suit: a suit's first card id.
const suit_offsets = table16(.{ 0, 13, 26, 39 } ++ @as([12]u8, @splat(0)));
/// Suit → its 4-bit counter's unit, for spades and clubs (`low_suits`) and hearts and
/// diamonds (`high_suits`): the two sums shift together into four counters.
const low_suits = table16(.{ 1, 16 } ++ @as([14]u8, @splat(0)));
const high_suits = table16(.{ 0, 0, 1, 16 } ++ @as([12]u8, @splat(0)));

const layout = blocks.QwordRows(32);

pub const Four = blocks.Tallied(rows_per_vector);

/// rank/blocks.zig's tally loop unrolled to two tallies a pass, for every source here. Measured,
/// ns/hand with one tally a pass against two: compact text 3.6 / 3.3, spaced 4.5 / 3.9,
/// accumulators 3.5 / 2.8, ids 1.85 / 1.83, sets 2.20 / 2.24.
const two_tallies_a_pass = 2;

/// Four rows of `cards` (5..7) card ids, one to a 64-bit lane (the lane's other bytes 0):
/// each row's fingerprint, whether it holds a flush, and whether any row is bad.
pub inline fn tally_ids(comptime cards: u32, ids: Bytes) Four {
    comptime std.debug.assert(cards >= 5 and cards <= cards_per_row);
    const fillers = 8 - cards;
    const signed: @Vector(32, i8) = @bitCast(ids);
    const one: Bytes = @splat(1);
    const zero: Bytes = @splat(0);
    const suit = @select(u8, signed > @as(@Vector(32, i8), @splat(12)), one, zero) +
        @select(u8, signed > @as(@Vector(32, i8), @splat(25)), one, zero) +
        @select(u8, signed > @as(@Vector(32, i8), @splat(38)), one, zero);
    const value = ids -% lookup16(suit_offsets, suit);

    // Each filler adds a deuce, taken back.
    const fingerprints = lane_sums(lookup16(multiplier_planes[0], value)) +
        (lane_sums(lookup16(multiplier_planes[1], value)) << @splat(8)) +
        (lane_sums(lookup16(multiplier_planes[2], value)) << @splat(16)) -
        @as(Lanes, @splat(fillers * encoding.value_fingerprints[0]));

    // Four 4-bit suit counters preloaded so bit 3 sets at five cards; each filler counts as
    // a spade, so the spade counter starts that much lower (3 - fillers >= 0).
    const counters = lane_sums(lookup16(low_suits, suit)) +
        (lane_sums(lookup16(high_suits, suit)) << @splat(8)) + @as(Lanes, @splat(0x3333 - fillers));

    return .{
        .fingerprints = fingerprints,
        .flush = counters & @as(Lanes, @splat(0x8888)) != @as(Lanes, @splat(0)),
        .bad = layout.any_bad(cards, ids),
    };
}

/// Rows of `cards` (5..7) card ids (uint8 `(N, cards)`).
pub fn CardRows(comptime cards: u32) type {
    comptime assert(cards >= 5 and cards <= cards_per_row); // as `tally_ids` takes them
    return blocks.CardSource(id_kernel, cards);
}

/// What `blocks.CardSource` reads of this level.
const id_kernel = struct {
    pub const Bytes = level.Bytes;
    pub const lanes = rows_per_vector;
    pub const tallies_per_pass = two_tallies_a_pass;
    pub const filler = 0;
    pub const tally_ids = level.tally_ids;
};

/// Each suit's 13 bits of four card sets to a 16-bit field (values 0..12 at bits 0..12).
inline fn spread_suits(sets: Lanes) Lanes {
    const field: Lanes = @splat(0x1FFF);
    return (sets & field) | ((sets << @splat(3)) & (field << @splat(16))) |
        ((sets << @splat(6)) & (field << @splat(32))) | ((sets << @splat(9)) & (field << @splat(48)));
}

/// Per nibble of a suit's field (values 0..3, 4..7, 8..11, and 12 alone), byte `plane` of
/// the sum of the multipliers of the values a pattern holds.
fn nibble_plane(comptime nibble: u32, comptime plane: u5) Bytes {
    comptime assert(nibble < 4 and plane < 3); // 13 values in four nibbles; sums below 2^24
    var entries: [16]u8 = undefined;
    for (0..16) |pattern| {
        var sum: u32 = 0;
        for (0..4) |bit| {
            const value = 4 * nibble + bit;
            if (pattern & (1 << bit) != 0 and value < encoding.value_count) sum += encoding.value_fingerprints[value];
        }
        entries[pattern] = @truncate(sum >> (8 * plane));
    }
    return table16(entries);
}

comptime {
    // A nibble's sum fits three byte planes.
    var sum: u32 = 0;
    for (encoding.value_fingerprints[8..12]) |multiplier| sum += multiplier;
    std.debug.assert(sum < 1 << 24 and encoding.value_fingerprints[12] < 1 << 24);
}

const nibble_planes = planes: {
    @setEvalBranchQuota(10_000);
    var planes: [4][3]Bytes = undefined;
    for (0..4) |nibble| {
        for (0..3) |plane| planes[nibble][plane] = nibble_plane(nibble, plane);
    }
    break :planes planes;
};
const nibble_popcounts = table16(.{ 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 });
/// The odd bytes of a vector: each field's high byte (values 8..12).
const is_high_byte: @Vector(32, bool) = mask: {
    var mask: [32]bool = undefined;
    for (0..32) |j| mask[j] = j % 2 == 1;
    break :mask mask;
};

/// Four card sets at once, with no table load: each suit's field split into nibbles, each
/// nibble's multipliers' sum looked up by `vpshufb` per byte plane (the nibble's place in
/// the field picks the table) and summed per set by `vpsadbw`; the nibbles' bits counted the
/// same way.
inline fn tally_four_sets(sets: Lanes) blocks.SetTally(rows_per_vector) {
    const fields: Bytes = @bitCast(spread_suits(sets));
    const low = fields & @as(Bytes, @splat(0x0F));
    const high = fields >> @splat(4);
    var fingerprints: Lanes = @splat(0);
    inline for (0..3) |plane| {
        // Low nibbles: values 0..3 in a field's low byte, 8..11 in its high byte; high
        // nibbles: 4..7 and 12.
        const low_sums = @select(
            u8,
            is_high_byte,
            lookup16(nibble_planes[2][plane], low),
            lookup16(nibble_planes[0][plane], low),
        );
        const high_sums = @select(
            u8,
            is_high_byte,
            lookup16(nibble_planes[3][plane], high),
            lookup16(nibble_planes[1][plane], high),
        );
        fingerprints += (lane_sums(low_sums) + lane_sums(high_sums)) << @splat(8 * plane);
    }
    const byte_counts = lookup16(nibble_popcounts, low) + lookup16(nibble_popcounts, high);
    const cards = lane_sums(byte_counts);
    const words: @Vector(16, u16) = @bitCast(byte_counts);
    const suit_counts: Lanes = @bitCast(
        (words + (words >> @splat(8))) & @as(@Vector(16, u16), @splat(0xFF)),
    );
    const bad = (cards > @as(Lanes, @splat(cards_per_row))) |
        (sets & @as(Lanes, @splat(encoding.set_invalid_bits)) != @as(Lanes, @splat(0)));
    // A 16-bit count reaching five sets its bit 4 after adding 11 (at most 13: no carry).
    const flush = (suit_counts + @as(Lanes, @splat(0x000B_000B_000B_000B))) & @as(Lanes, @splat(0x0010_0010_0010_0010)) != @as(
        Lanes,
        @splat(0),
    );
    // The counts, 16-bit fields c0 c1 c2 c3, as the key's four 4-bit counters.
    const counters = (suit_counts & @as(Lanes, @splat(0xF))) | ((suit_counts >> @splat(12)) & @as(Lanes, @splat(0xF0))) |
        ((suit_counts >> @splat(24)) & @as(Lanes, @splat(0xF00))) | ((suit_counts >> @splat(36)) & @as(Lanes, @splat(0xF000)));
    const checked = @select(u64, bad, @as(Lanes, @splat(0)), fingerprints);
    return .{ .fingerprints = checked, .keys = checked, .flush = flush, .counters = counters, .bad = bad };
}

/// Card text's decoder (blocks.TextSource), four rows at a time.
fn Text(comptime stride: u32) type {
    return struct {
        const width = blocks.text_width(stride);
        /// Rows past a block its last load reads into: two bytes of compact text.
        pub const spare_rows = 1;
        comptime {
            // A row's 16-byte loads (bytes 0..15; spaced, 4..19 too) end inside the spare row.
            assert(@max(16, width) <= (1 + spare_rows) * width and width <= 20);
        }

        /// A character's code: value + 1 (1..13) for a value, 0x20 | suit for a suit, 0 for
        /// anything else. Three `vpshufb` tables by low nibble, one per high nibble ('2'-'9';
        /// 'A' 'J' 'K' 'C' 'D' 'H'; 'Q' 'T' 'S'; the lower case letters share their upper
        /// case's table: their high nibble is two more).
        const digits = table16(.{ 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0 });
        const letters_a_to_o = table16(
            .{ 0, 13, 0, 0x21, 0x23, 0, 0, 0, 0x22, 0, 10, 12, 0, 0, 0, 0 },
        );
        const letters_p_to_z = table16(.{ 0, 11, 0, 0x20, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 });

        /// Rows `first .. first + 4`: each row's character pairs (`load`), the rows `first` and
        /// `first + 2` in the halves of one vector, `first + 1` and `first + 3` in the other. Each character is decoded in place; `vpmaddubsw` turns each (value, suit)
        /// pair of codes into `value + 1 + 13 * (0x20 + suit)`, and `vpackuswb` packs the two
        /// vectors' pairs to bytes with row j in lane j.
        pub inline fn tally(text: [*]const u8, first: usize) Four {
            const row_0 = load(text, first);
            const row_1 = load(text, first + 1);
            const row_2 = load(text, first + 2);
            const row_3 = load(text, first + 3);
            const front = decode(row_0.pairs, row_2.pairs);
            const back = decode(row_1.pairs, row_3.pairs);
            const separators_bad = @intFromBool(row_0.bad) | @intFromBool(row_1.bad) | @intFromBool(row_2.bad) | @intFromBool(
                row_3.bad,
            );
            const pairs_front = @"llvm.x86.avx2.pmadd.ub.sw"(front.codes, pair_weights);
            const pairs_back = @"llvm.x86.avx2.pmadd.ub.sw"(back.codes, pair_weights);
            const bias: Words = @splat(1 + 13 * 0x20);
            const ids = @"llvm.x86.avx2.packuswb"(pairs_front -% bias, pairs_back -% bias) &
                @as(Bytes, @bitCast(@as(Lanes, @splat(0x00FF_FFFF_FFFF_FFFF))));
            var four = tally_ids(cards_per_row, ids);
            // Bitwise, not `or`: no branch.
            four.bad = (@intFromBool(four.bad) | @intFromBool(front.bad) | @intFromBool(back.bad) | separators_bad) != 0;
            return four;
        }

        /// A row's seven (value, suit) character pairs in bytes 0..13 (bytes 14 and 15 are
        /// ignored), and whether its separators are all spaces or commas.
        inline fn load(text: [*]const u8, row: usize) struct { pairs: @Vector(16, u8), bad: bool } {
            const start = text + row * width;
            // Compact: the row itself (and two bytes past it).
            if (stride == 2) return .{ .pairs = start[0..16].*, .bad = false };
            // Spaced: bytes 0..15 hold cards 0..4, bytes 4..19 cards 5 and 6.
            const head: @Vector(16, u8) = start[0..16].*;
            const tail: @Vector(16, u8) = start[4..20].*;
            const pairs = @shuffle(
                u8,
                head,
                tail,
                [16]i32{ 0, 1, 3, 4, 6, 7, 9, 10, 12, 13, ~@as(i32, 11), ~@as(i32, 12), ~@as(i32, 14), ~@as(i32, 15), 0, 1 },
            );
            const separators = @shuffle(
                u8,
                head,
                tail,
                [8]i32{ 2, 5, 8, 11, 14, ~@as(i32, 13), 2, 2 },
            );
            const is_separator = (separators == @as(@Vector(8, u8), @splat(' '))) | (separators == @as(@Vector(8, u8), @splat(',')));
            return .{ .pairs = pairs, .bad = !@reduce(.And, is_separator) };
        }

        /// Two rows' characters → codes, and whether any is not what its place wants.
        inline fn decode(
            low_row: @Vector(16, u8),
            high_row: @Vector(16, u8),
        ) struct { codes: Bytes, bad: bool } {
            const chars = @shuffle(u8, low_row, high_row, concat_halves());
            const low = chars & @as(Bytes, @splat(0x0F));
            const high = chars >> @splat(4);
            const zero: Bytes = @splat(0);
            const case_folded = high | @as(Bytes, @splat(2));
            const code = @select(u8, high == @as(Bytes, @splat(3)), lookup16(digits, low), zero) |
                @select(u8, case_folded == @as(Bytes, @splat(6)), lookup16(letters_a_to_o, low), zero) |
                @select(
                    u8,
                    case_folded == @as(Bytes, @splat(7)),
                    lookup16(letters_p_to_z, low),
                    zero,
                );
            // A value place wants a code 1..13, a suit place 0x20..0x23: code - first <= span.
            const wrong = code -% place_firsts > place_spans;
            return .{ .codes = code, .bad = @reduce(.Or, wrong) };
        }

        const Words = @Vector(16, i16);
        extern fn @"llvm.x86.avx2.pmadd.ub.sw"(Bytes, Bytes) callconv(intrinsic) Words;
        extern fn @"llvm.x86.avx2.packuswb"(Words, Words) callconv(intrinsic) Bytes;
        /// (1, 13) a pair: value code + 13 * suit code.
        const pair_weights: Bytes = weights: {
            var bytes: [32]u8 = undefined;
            for (0..32) |j| bytes[j] = if (j % 2 == 0) 1 else 13;
            break :weights bytes;
        };

        fn concat_halves() [32]i32 {
            var mask: [32]i32 = undefined;
            for (0..32) |j| mask[j] = if (j < 16) @intCast(j) else -@as(i32, @intCast(j - 16)) - 1;
            return mask;
        }

        /// Per byte of a two-row vector: the first code its place takes, and how many more
        /// (bytes past the row's 14 take anything: span 255).
        const place_firsts: Bytes = places: {
            var bytes: [32]u8 = undefined;
            for (0..32) |j| bytes[j] = if (j % 2 == 0) 1 else 0x20;
            break :places bytes;
        };
        const place_spans: Bytes = places: {
            var bytes: [32]u8 = undefined;
            for (0..32) |j| bytes[j] = if (j % 16 >= width) 255 else if (j % 2 == 0) encoding.value_count - 1 else encoding.suit_count - 1;
            break :places bytes;
        };
    };
}

/// This level's row sources of card sets, accumulators and text (rank/blocks.zig's
/// `LevelSources`), from its kernels: sets by `tally_four_sets`, text by `Text`.
pub const sources = blocks.LevelSources(struct {
    pub const lanes = rows_per_vector;
    pub const tallies_per_pass = two_tallies_a_pass;
    pub const tally_sets = tally_four_sets;
    pub const TextDecoder = Text;
});
