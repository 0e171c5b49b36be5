//! AVX-512 tallies of rows of cards, eight rows a vector: card ids (uint8 `(N, 5..7)`), card
//! sets (uint64), accumulators, and card text of seven cards. The avx512 kernel level
//! (x86-64-v4 + VBMI, BITALG, VPOPCNTDQ, VNNI, GFNI) has them; rank/blocks.zig ranks blocks of
//! rows from them and rank/showdown.zig builds showdown hands for `tally_ids`.
//!
//! What the wider registers buy over rank/rows_avx2.zig is not only twice the rows: `vpermb`
//! looks a byte up in a 64-entry table, so a card id indexes its multiplier's byte planes
//! and its suit bit directly, with no split into suit and value first, and `vpermi2b`
//! (128 entries) and `vpmultishiftqb` (eight unaligned bytes of a qword) let a card set be
//! tallied in registers too:
//! - ids: one 64-byte load holds eight rows; `vpermb` spreads them one to a qword, with a
//!   filler id past the deck (63) in each row's spare bytes, which every table maps to 0;
//!   the planes summed by `vpdpbusd`, the suits counted by a bit transpose, and a flush
//!   row keyed by its flush pattern so the lookups rank it too (`tally_ids`);
//! - sets: each suit's 13 bits are split into a low chunk (values 0..5, `vpermb`) and a high
//!   chunk (values 6..12, `vpermi2b`), whose multipliers' byte planes are summed per qword by
//!   `vpsadbw` (not yet moved to `vpdpbusd` as the ids' are: untimed on Intel); `vpopcntb`
//!   counts the suits;
//! - accumulators: the mask tallied as a set, the key held to what its cards make;
//! - text: each card's value and suit characters gathered by `vpermi2b`, decoded through
//!   128-entry tables.
//! A row of k ids is bad if an id exceeds 51 or one repeats (each card compared with those
//! 1 .. k/2 places on, round the row: every pair); a set if it has bits above 51 or more than 7
//! cards.
const std = @import("std");
const builtin = @import("builtin");
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");
const bits = @import("../cards/bits.zig");
const parse = @import("../cards/parse.zig");
const blocks = @import("blocks.zig");
const assert = std.debug.assert;
const intrinsic = bits.intrinsic;
const level = @This();

/// Whether this build's CPU level has these kernels (abi/kernels.zig's avx512 level does).
pub const available = builtin.cpu.arch == .x86_64 and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512bw) and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512vbmi) and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512bitalg) and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512vpopcntdq) and
    std.Target.x86.featureSetHas(builtin.cpu.features, .avx512vnni) and
    std.Target.x86.featureSetHas(builtin.cpu.features, .gfni);

pub const Bytes = @Vector(64, u8);
pub const Lanes = @Vector(8, u64);
const cards_per_row = 7;
const rows_per_vector = 8;
pub const Eight = blocks.Tallied(rows_per_vector);

/// rank/blocks.zig's tally loop, unrolled to two tallies a pass for every source here. Measured
/// in the x86-64-v4 build (one tuned for Zen 4 or 5 needs it less), ns/hand with one tally
/// a pass against two: ids 1.57 / 1.06, accumulators 1.72 / 1.20, card text 2.14 / 1.53;
/// sets 0.97 either way.
const two_tallies_a_pass = 2;

extern fn @"llvm.x86.avx512.vpermi2var.qi.512"(Bytes, Bytes, Bytes) callconv(intrinsic) Bytes;
extern fn @"llvm.x86.avx512.pmultishift.qb.512"(Bytes, Bytes) callconv(intrinsic) Bytes;
extern fn @"llvm.x86.avx512.psad.bw.512"(Bytes, Bytes) callconv(intrinsic) Lanes;
extern fn @"llvm.x86.avx512.psrlv.q.512"(Lanes, Lanes) callconv(intrinsic) Lanes;

const lookup64 = bits.lookup64;

/// `vpermi2b`: each byte of `index` picks `table[index & 127]` from two registers.
pub inline fn lookup128(table: [2]Bytes, index: Bytes) Bytes {
    return @"llvm.x86.avx512.vpermi2var.qi.512"(table[0], index, table[1]);
}

/// `vpsadbw` against zero: the sum of each qword's eight bytes.
inline fn lane_sums(bytes: Bytes) Lanes {
    return @"llvm.x86.avx512.psad.bw.512"(bytes, @splat(0));
}

/// Byte `plane` of each card id's rank multiplier; ids 52..63 (the filler) get 0.
fn id_plane(comptime plane: u5) Bytes {
    comptime assert(plane < 3); // multipliers below 2^24
    var bytes: [64]u8 = @splat(0);
    for (0..encoding.card_count) |card| {
        bytes[card] = @truncate(encoding.value_fingerprints[card % encoding.value_count] >> (8 * plane));
    }
    return bytes;
}

const id_planes = [3]Bytes{ id_plane(0), id_plane(1), id_plane(2) };

/// Each card id's suit as a bit (1 << suit); 0 for anything else.
const id_suit_bits: Bytes = bits: {
    var bytes: [64]u8 = @splat(0);
    for (0..encoding.card_count) |card| bytes[card] = @as(u8, 1) << @intCast(card / encoding.value_count);
    break :bits bytes;
};

/// Byte `half` of each card id's value as a bit (`1 << value`, the flush pattern's bit): the
/// low byte holds deuce .. nine, the high byte ten .. ace; 0 for anything else.
fn id_value_bits(comptime half: u1) Bytes {
    comptime assert(encoding.value_count <= 16); // two bytes of value bits
    var bytes: [64]u8 = @splat(0);
    for (0..encoding.card_count) |card| {
        bytes[card] = @truncate((@as(u16, 1) << @intCast(card % encoding.value_count)) >> (8 * @as(u4, half)));
    }
    return bytes;
}

const id_value_bits_low = id_value_bits(0);
const id_value_bits_high = id_value_bits(1);

/// The bytes of plane 2 a flush row's tally takes in place of its cards', so its key is
/// `eval.flush_key_base` + pattern: the base's share of plane 2 spread over a row's bytes
/// (the base is a multiple of 2^16: planes 1 and 0 hold the pattern alone).
const flush_key_plane: Bytes = plane: {
    const base = eval.flush_key_base;
    std.debug.assert(base % (1 << 16) == 0);
    var bytes: [64]u8 = @splat(0);
    for (0..rows_per_vector) |row| {
        var high = base >> 16;
        for (0..8) |j| {
            bytes[8 * row + j] = @intCast(@min(high, 255));
            high -= @min(high, 255);
        }
        std.debug.assert(high == 0);
    }
    break :plane bytes;
};

/// Byte j of each qword: bit 7 - j. As `vgf2p8affineqb`'s source against a row's bytes as
/// the matrix, it transposes the row: byte j of the result holds bit 7 - j of every byte
/// (card i's as bit 7 - i), so suit s's cards land in byte 7 - s. Bytes in that order are
/// what a second gather across the row (`flush_suits` in `tally_ids`) turns back into bit s.
const transpose_units: Bytes = units: {
    var bytes: [64]u8 = undefined;
    for (&bytes, 0..) |*b, j| b.* = @as(u8, 0x80) >> @intCast(j % 8);
    break :units bytes;
};

/// The filler byte after each row's seven cards: an id past the deck, which every table
/// maps to nothing and the validation skips.
pub const filler: u8 = 63;

pub const layout = blocks.QwordRows(64);

/// Where each row's cards sit in a qword of seven: card bytes 0..6, the filler byte 7.
pub const is_card = layout.card_places(cards_per_row);

/// Eight rows of `cards` (5..7) card ids, one to a qword, the other bytes the filler.
///
/// Chosen for Intel's two 512-bit ports as much as for Zen's four: on Ice Lake every
/// shuffle, `vpsadbw` and compare into a mask goes to port 5 alone, so the
/// planes are summed by `vpdpbusd` (port 0) and the suits counted by one lookup, a bit
/// transpose (`vgf2p8affineqb`) and `vpopcntb`, where two lookups and two `vpsadbw` did;
/// the validation's compares chain through their masks. 7-card ids in cache, Xeon Ice Lake,
/// one thread: 0.847 -> 0.684 ns a hand for this tally (not yet timed on Zen 5). On Golden
/// Cove both 512-bit ports are busy and every vector uop counts (no validation at all was
/// 15% of a hand): the flush keys below, the masked spread and the chained compares took
/// 7-card ids from 1.38 to 1.17 ns a hand (Sapphire Rapids class, in turn, 2026-12-03).
///
/// A row holding a flush gets the key of its flush pattern (`eval.flush_key_base` + the
/// flush suit's value bits) in place of its fingerprint, so the lookups rank it as any
/// other row and no row goes to the scalar path (`flush` is never set): the planes of its
/// cards are swapped for the value bits of the flush suit's (two more lookups, masked),
/// whose sum is the pattern (distinct bits: no carries).
pub inline fn tally_ids(comptime cards: u32, ids: Bytes) Eight {
    comptime std.debug.assert(cards >= 5 and cards <= cards_per_row);
    const zero: Bytes = @splat(0);
    // Byte 7 - s of each row: its cards of suit s as bits; five or more is a flush (at most
    // seven cards: 3 + count sets bit 3 from five on).
    const suit_bits = lookup64(id_suit_bits, ids);
    const suit_cards = @"llvm.x86.vgf2p8affineqb.512"(transpose_units, suit_bits, 0);
    const counts = @popCount(suit_cards) +% @as(Bytes, @splat(3));
    // Every byte of a row: bit s set where suit s holds five cards (bit 3 of count byte
    // 7 - s, gathered across the row by the row as a matrix: result bit i is bit 3 of byte
    // 7 - i).
    const flush_suits = @"llvm.x86.vgf2p8affineqb.512"(@splat(0x08), counts, 0);
    const in_flush_row = flush_suits != zero;
    const in_flush_suit = suit_bits & flush_suits != zero;
    // Each plane's bytes summed four to a dword, the sums shifted a plane up before the
    // next is added, then each row's two dwords added. A flush row's planes hold the flush
    // suit's value bits (high byte, low byte) and `flush_key_plane`, whose bytes sum to
    // `eval.flush_key_base`: the key comes out of the same sums, no add or select after.
    const value_high = lookup64_where(id_value_bits_high, ids, in_flush_suit);
    const value_low = lookup64_where(id_value_bits_low, ids, in_flush_suit);
    var planes: Dwords = dword_sums(@splat(0), @select(u8, in_flush_row, flush_key_plane, lookup64(id_planes[2], ids)));
    planes = dword_sums(planes << @splat(8), @select(u8, in_flush_row, value_high, lookup64(id_planes[1], ids)));
    planes = dword_sums(planes << @splat(8), @select(u8, in_flush_row, value_low, lookup64(id_planes[0], ids)));
    return .{
        .fingerprints = row_sums(planes),
        .flush = @splat(false),
        .bad = any_bad(cards, ids),
    };
}

/// `lookup64(table, index)` where `mask` is set, 0 elsewhere: one zero-masked `vpermb`.
/// Written out because LLVM makes a select of a lookup and zero a lookup and a blend.
inline fn lookup64_where(table: Bytes, index: Bytes, mask: @Vector(64, bool)) Bytes {
    return asm ("vpermb %[table], %[index], %[out] {%[mask]} {z}"
        : [out] "=v" (-> Bytes),
        : [table] "v" (table),
          [index] "v" (index),
          [mask] "^Yk" (@as(u64, @bitCast(mask))),
    );
}

/// `layout.any_bad` as one chain of masked compares: "fine so far" (an id within the deck)
/// and each rotation's "differs" compared under the mask of the last, with no mask ors
/// (LLVM turns the chain `layout.any_bad` writes into compares and `korq`s, three uops more
/// for eight rows). Rows of five need two rotations: the third compare repeats the second.
inline fn any_bad(comptime cards: u32, ids: Bytes) bool {
    const rotations = cards / 2;
    comptime std.debug.assert(rotations == 2 or rotations == 3);
    var rotated: [3]Bytes = undefined;
    inline for (0..3) |d| {
        rotated[d] = @shuffle(u8, ids, undefined, layout.rotation(cards, @as(u32, @min(d, rotations - 1)) + 1));
    }
    const fine = asm (
        \\vpcmpleub %[last], %[ids], %[fine]
        \\vpcmpneqb %[r1], %[ids], %[fine] {%[fine]}
        \\vpcmpneqb %[r2], %[ids], %[fine] {%[fine]}
        \\vpcmpneqb %[r3], %[ids], %[fine] {%[fine]}
        : [fine] "=&^Yk" (-> u64),
        : [ids] "v" (ids),
          [last] "v" (@as(Bytes, @splat(encoding.card_count - 1))),
          [r1] "v" (rotated[0]),
          [r2] "v" (rotated[1]),
          [r3] "v" (rotated[2]),
    );
    const places: u64 = comptime @bitCast(layout.card_places(cards));
    return fine & places != places;
}

const Dwords = @Vector(16, u32);

extern fn @"llvm.x86.avx512.vpdpbusd.512"(@Vector(16, i32), @Vector(16, i32), @Vector(16, i32)) callconv(intrinsic) @Vector(16, i32);
extern fn @"llvm.x86.vgf2p8affineqb.512"(Bytes, Bytes, u8) callconv(intrinsic) Bytes;

/// Each dword of `into` plus its four bytes of `bytes` (`vpdpbusd` by ones, VNNI).
inline fn dword_sums(into: Dwords, bytes: Bytes) Dwords {
    const ones: Bytes = @splat(1);
    return @bitCast(@"llvm.x86.avx512.vpdpbusd.512"(@bitCast(into), @bitCast(bytes), @bitCast(ones)));
}

/// Each qword's two dwords added (sums under 2^32).
inline fn row_sums(dwords: Dwords) Lanes {
    const words: Lanes = @bitCast(dwords);
    return (words & @as(Lanes, @splat(0xffff_ffff))) + (words >> @splat(32));
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
    pub const keys_flushes = true;
    pub const filler = level.filler;
    pub const tally_ids = level.tally_ids;

    /// Rows of `cards` ids loaded back to back, one to a qword with the filler after its
    /// cards: `vpermb` of the cards, the filler merged in by a mask (one uop; the two-source
    /// shuffle LLVM makes of a shuffle with a vector of fillers is a `vpermt2b`, three on
    /// Intel). Written out: LLVM folds a permute and a select back into that shuffle.
    pub inline fn spread(comptime cards: u32, raw: level.Bytes) level.Bytes {
        const index: level.Bytes = comptime index: {
            var bytes: [64]u8 = undefined;
            for (&bytes, blocks.QwordRows(64).spread_cards(cards)) |*b, i| b.* = @intCast(i);
            break :index bytes;
        };
        const places: u64 = comptime @bitCast(layout.card_places(cards));
        return asm ("vpermb %[raw], %[index], %[out] {%[places]}"
            : [out] "=v" (-> level.Bytes),
            : [raw] "v" (raw),
              [index] "v" (index),
              [places] "^Yk" (places),
              [fill] "0" (@as(level.Bytes, @splat(level.filler))),
        );
    }
};

/// Where a set's chunks start, per byte of a qword: bytes 0..3 the low chunk of suits 0..3
/// (bit 13 * suit), bytes 4..7 their high chunk (bit 13 * suit + 6). `vpmultishiftqb` takes
/// the eight bits from there; a `vpermb` index uses the low six (values 0..5), a `vpermi2b`
/// index the low seven (values 6..12).
const chunk_starts: Bytes = starts: {
    var bytes: [64]u8 = undefined;
    for (0..64) |j| {
        const suit = j % 4;
        bytes[j] = @intCast(encoding.value_count * suit + if (j % 8 < 4) 0 else low_chunk_values);
    }
    break :starts bytes;
};
const low_chunk_values = 6;
const is_low_chunk: @Vector(64, bool) = mask: {
    var mask: [64]bool = undefined;
    for (0..64) |j| mask[j] = j % 8 < 4;
    break :mask mask;
};
/// The bits of each chunk that are its own (a chunk's byte runs on into the next values).
const chunk_bits: Bytes = bits: {
    var bytes: [64]u8 = undefined;
    for (0..64) |j| bytes[j] = if (j % 8 < 4) (1 << low_chunk_values) - 1 else (1 << (encoding.value_count - low_chunk_values)) - 1;
    break :bits bytes;
};

/// Byte `plane` of the sum of the multipliers of the values a low chunk holds.
fn low_chunk_plane(comptime plane: u5) Bytes {
    comptime assert(plane < 3 and low_chunk_values == 6); // a `vpermb` index's six bits
    var bytes: [64]u8 = undefined;
    for (0..64) |pattern| bytes[pattern] = @truncate(chunk_sum(pattern, 0) >> (8 * plane));
    return bytes;
}

/// The same for a high chunk, in the two halves `vpermi2b` takes.
fn high_chunk_plane(comptime plane: u5) [2]Bytes {
    // A `vpermi2b` index's seven bits hold the high chunk's values.
    comptime assert(plane < 3 and encoding.value_count - low_chunk_values == 7);
    var halves: [2][64]u8 = undefined;
    for (0..128) |pattern| halves[pattern / 64][pattern % 64] = @truncate(
        chunk_sum(pattern, low_chunk_values) >> (8 * plane),
    );
    return .{ halves[0], halves[1] };
}

fn chunk_sum(pattern: usize, first_value: usize) u32 {
    @setEvalBranchQuota(100_000);
    assert(first_value < encoding.value_count and pattern < 1 << 7);
    var sum: u32 = 0;
    for (0..encoding.value_count - first_value) |bit| {
        if (pattern & (@as(usize, 1) << @intCast(bit)) != 0) sum += encoding.value_fingerprints[first_value + bit];
    }
    return sum;
}

comptime {
    // A chunk's sum fits three byte planes.
    var high_sum: u32 = 0;
    for (encoding.value_fingerprints[low_chunk_values..]) |multiplier| high_sum += multiplier;
    std.debug.assert(high_sum < 1 << 24);
}

const low_planes = [3]Bytes{ low_chunk_plane(0), low_chunk_plane(1), low_chunk_plane(2) };
const high_planes = [3][2]Bytes{ high_chunk_plane(0), high_chunk_plane(1), high_chunk_plane(2) };

/// Eight card sets at once: see the file's doc.
inline fn tally_eight_sets(sets: Lanes) blocks.SetTally(rows_per_vector) {
    const chunks = @"llvm.x86.avx512.pmultishift.qb.512"(chunk_starts, @bitCast(sets));
    var fingerprints: Lanes = @splat(0);
    inline for (0..3) |plane| {
        const sums = @select(
            u8,
            is_low_chunk,
            lookup64(low_planes[plane], chunks),
            lookup128(high_planes[plane], chunks),
        );
        fingerprints += lane_sums(sums) << @splat(8 * plane);
    }
    // Cards of each suit: its two chunks' bits counted, bytes s and s + 4 added.
    const chunk_counts: Lanes = @bitCast(@as(Bytes, @popCount(chunks & chunk_bits)));
    const too_many = @popCount(sets) > @as(Lanes, @splat(cards_per_row));
    const off_deck = sets & @as(Lanes, @splat(encoding.set_invalid_bits)) != @as(Lanes, @splat(0));
    const bad = too_many | off_deck;
    const suit_counts = chunk_counts + (chunk_counts >> @splat(32));
    // A byte reaching five sets its bit 3 after adding 3 (a valid set's count is at most 7:
    // no byte carries into the next): bit 8s + 3 for a flush of suit s.
    const flush_bits = (suit_counts + @as(Lanes, @splat(0x0303_0303))) & @as(Lanes, @splat(0x0808_0808));
    const flush = flush_bits != @as(Lanes, @splat(0));
    // The counts, bytes c0 c1 c2 c3, as the key's four 4-bit counters.
    const paired = suit_counts | (suit_counts >> @splat(4));
    const counters = (paired & @as(Lanes, @splat(0xFF))) | ((paired >> @splat(8)) & @as(Lanes, @splat(0xFF00)));
    const checked = @select(u64, bad, @as(Lanes, @splat(0)), fingerprints);
    return .{
        .fingerprints = checked,
        .keys = @select(u64, flush, flush_keys(sets, flush_bits, suit_shifts_by_flush_bit), checked),
        .flush = @splat(false),
        .counters = counters,
        .bad = bad,
    };
}

/// Indexed by the place of a flush's bit in the sets' flush bits (8s + 3), the shift that
/// brings suit s's 13 bits down (13s); 0 elsewhere.
const suit_shifts_by_flush_bit: Bytes = shifts: {
    var bytes: [64]u8 = @splat(0);
    for (0..encoding.suit_count) |suit| bytes[8 * suit + 3] = @intCast(encoding.value_count * suit);
    break :shifts bytes;
};

/// Each set's flush key, `eval.flush_key_base` + its flush suit's 13 bits, where its word of
/// `flush_bits` has the one bit of the flush suit; `shifts` maps that bit's place to the
/// suit's shift (a key for any other word stays inside the flush rows: bits masked to 13).
/// Ranking a flush by the lookups keeps every set off the scalar path, which cost a branch
/// mispredicted most blocks.
inline fn flush_keys(sets: Lanes, flush_bits: Lanes, comptime shifts: Bytes) Lanes {
    // The bit's place: the bits below it, with it cleared and those below it set.
    const place: Bytes = @bitCast(@as(Lanes, @popCount(flush_bits -% @as(Lanes, @splat(1)))));
    // A byte a word (bytes 1..7 read shift 0): each word's shift.
    const shift: Lanes = @bitCast(lookup64(shifts, place));
    const pattern = @"llvm.x86.avx512.psrlv.q.512"(sets, shift) & @as(Lanes, @splat(encoding.value_pattern_mask));
    return pattern + @as(Lanes, @splat(eval.flush_key_base));
}

/// Card text's decoder (blocks.TextSource), eight rows from two or three 64-byte loads. One
/// `vpermi2b` gathers each card's value character and another its suit character into the
/// card's byte of its row's qword (the spaced rows, 160 bytes, gather rows 0..3 and 4..7
/// from two overlapping windows); two more decode them through 128-entry tables into value
/// + 1 and 13 * suit + 1 (0 for anything else), whose sum less 2 is the card id.
fn Text(comptime stride: u32) type {
    return struct {
        const width = blocks.text_width(stride);
        /// 64-byte loads for eight rows, and the rows past a block the last reads into.
        const loads = (rows_per_vector * width + 63) / 64;
        pub const spare_rows = (64 * loads - rows_per_vector * width + width - 1) / width;

        /// Per card byte of the eight rows' qwords: where its value character sits in the
        /// 128-byte window the gather reads (the filler bytes point anywhere: replaced).
        fn char_index(comptime offset: u32, comptime half: ?u1) Bytes {
            @setEvalBranchQuota(10_000);
            var index: [64]u8 = @splat(0);
            for (0..64) |j| {
                const row = j / 8;
                const card = j % 8;
                if (card == cards_per_row) continue;
                // Spaced rows: rows 0..3 from bytes 0..127, rows 4..7 from bytes 64..191.
                const window_start: u32 = if (half) |h| (if (h == 0) 0 else 64) else 0;
                const at = row * width + stride * card + offset;
                if (half) |h| {
                    if ((row < 4) != (h == 0)) continue;
                }
                index[j] = @intCast(at - window_start);
            }
            return index;
        }

        /// Per byte of a window: the separators of the spaced rows, each wanting ' ' or ','.
        fn separator_index(comptime half: u1) Bytes {
            var index: [64]u8 = @splat(0);
            for (0..64) |j| {
                const row = j / 8;
                const gap = j % 8;
                if (gap >= cards_per_row - 1 or (row < 4) != (half == 0)) continue;
                index[j] = @intCast(
                    row * width + stride * gap + 2 - @as(u32, if (half == 0) 0 else 64),
                );
            }
            return index;
        }

        fn char_table(comptime code: fn (u8) u8) [2]Bytes {
            var halves: [2][64]u8 = undefined;
            for (0..128) |char| halves[char / 64][char % 64] = code(@intCast(char));
            return .{ halves[0], halves[1] };
        }

        const value_codes = char_table(struct {
            fn code(char: u8) u8 {
                return if (parse.value_of(char)) |value| value + 1 else 0;
            }
        }.code);
        const suit_codes = char_table(struct {
            fn code(char: u8) u8 {
                return if (parse.suit_of(char)) |suit| encoding.value_count * suit + 1 else 0;
            }
        }.code);

        const is_low_half: @Vector(64, bool) = mask: {
            var mask: [64]bool = undefined;
            for (0..64) |j| mask[j] = j / 8 < 4;
            break :mask mask;
        };
        const is_gap: @Vector(64, bool) = mask: {
            var mask: [64]bool = undefined;
            for (0..64) |j| mask[j] = j % 8 < cards_per_row - 1;
            break :mask mask;
        };

        /// Gathers, per card byte, the character `index` points at: from bytes 0..127 of the
        /// rows (compact), or rows 0..3 from bytes 0..127 and rows 4..7 from 64..191 (spaced).
        inline fn gather(chunks: [loads]Bytes, comptime index: [2]Bytes) Bytes {
            const low = lookup128(.{ chunks[0], chunks[1] }, index[0]);
            if (loads == 2) return low;
            return @select(u8, is_low_half, low, lookup128(.{ chunks[1], chunks[2] }, index[1]));
        }

        fn indices(comptime offset: u32) [2]Bytes {
            return if (loads == 2) .{ char_index(offset, null), undefined } else .{ char_index(offset, 0), char_index(offset, 1) };
        }

        const value_index = indices(0);
        const suit_index = indices(1);

        pub inline fn tally(text: [*]const u8, first: usize) Eight {
            var chunks: [loads]Bytes = undefined;
            inline for (&chunks, 0..) |*chunk, k| chunk.* = text[first * width + 64 * k ..][0..64].*;
            const value_chars = gather(chunks, value_index);
            const suit_chars = gather(chunks, suit_index);
            const values = lookup128(value_codes, value_chars);
            const suits = lookup128(suit_codes, suit_chars);
            // A card byte is bad if either character is past ASCII (the tables read seven
            // bits) or not a value or suit.
            const wide = (value_chars | suit_chars) >= @as(Bytes, @splat(0x80));
            const unknown = (values == @as(Bytes, @splat(0))) | (suits == @as(Bytes, @splat(0)));
            var wrong = (wide | unknown) & is_card;
            if (stride == 3) {
                const separators = gather(chunks, .{ separator_index(0), separator_index(1) });
                const allowed = (separators == @as(Bytes, @splat(' '))) | (separators == @as(Bytes, @splat(',')));
                wrong = wrong | (~allowed & is_gap);
            }
            const ids = @select(
                u8,
                is_card,
                values +% suits -% @as(Bytes, @splat(2)),
                @as(Bytes, @splat(filler)),
            );
            var eight = tally_ids(cards_per_row, ids);
            // Bitwise, not `or`: no branch.
            eight.bad = (@intFromBool(eight.bad) | @intFromBool(@reduce(.Or, wrong))) != 0;
            return eight;
        }
    };
}

/// This level's row sources of card sets, accumulators and text (rank/blocks.zig's
/// `LevelSources`), from its kernels: sets by `tally_eight_sets`, text by `Text`.
pub const sources = blocks.LevelSources(struct {
    pub const lanes = rows_per_vector;
    pub const tallies_per_pass = two_tallies_a_pass;
    pub const keys_flushes = true;
    pub const tally_sets = tally_eight_sets;
    pub const TextDecoder = Text;
});
