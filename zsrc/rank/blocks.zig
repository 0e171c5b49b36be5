//! Ranking rows in blocks of 64 from a vector row source (rank/rows_avx2.zig, four rows a vector;
//! rank/rows_avx512.zig, eight; rank/row_sources.zig picks the widest this build's CPU level has).
//!
//! A row source (card ids, card sets, accumulators, card text) gives `lanes`, `tally(first)`
//! (the `Tallied` of rows `first .. first + lanes`) and `rank_row(row)` (the scalar path,
//! for the rows with a flush); it may ask for `tallies_per_pass` (default 1) to unroll the
//! tally loop, say in `spare_rows` how many rows past a block its loads read, and say by
//! `keys_flushes` (default false) that it keys every flush and leaves none (`keyed`).
//! `rank_block` then runs three tight loops: the vector tally, the table lookups (eval's,
//! unmasked: see `rank_fingerprint_unmasked`), and the scalar path for the rows with a
//! flush (3% of random hands) that the source leaves to it (the AVX-512 card ids, card sets
//! and checked accumulators leave none: they key a flush by its pattern,
//! `eval.flush_key_base`). Keeping the lookups apart from the tally lets the CPU overlap
//! one block's L2 misses with the next one's arithmetic.
const std = @import("std");
const assert = std.debug.assert;
const eval = @import("eval.zig");
const encoding = @import("../cards/encoding.zig");

/// Whether row source or kernel `T` keys every flush by its pattern (`eval.flush_key_base`),
/// its tallies' `flush` always false: then the passes skip the flush bits and the scalar
/// path altogether.
pub fn keyed(comptime T: type) bool {
    return @hasDecl(T, "keys_flushes") and T.keys_flushes;
}

/// Rows laid one to a qword in vectors of `width` bytes (`width / 8` rows): the shuffle masks
/// and masks both vector levels build their card-id tallies from.
pub fn QwordRows(comptime width: u32) type {
    comptime assert(width >= 16 and width % 8 == 0); // whole qwords, two rows at least
    return struct {
        /// Byte j: row j / 8's card j % 8 of rows of `cards` back to back, or (j % 8 >=
        /// cards) -1, the shuffle's second operand: the level's filler byte.
        pub fn spread(comptime cards: u32) [width]i32 {
            comptime assert(cards >= 1 and cards <= 8); // a row fits its qword
            @setEvalBranchQuota(10_000);
            var mask: [width]i32 = undefined;
            for (0..width) |j| mask[j] = if (j % 8 < cards) (j / 8) * cards + j % 8 else -1;
            return mask;
        }

        /// `spread` with the filler's bytes reading card 0 (a mask puts the filler there).
        pub fn spread_cards(comptime cards: u32) [width]i32 {
            var mask = spread(cards);
            for (&mask) |*index| index.* = @max(index.*, 0);
            return mask;
        }

        /// The card `distance` places on, round a row of `cards` (the fillers meet themselves).
        pub fn rotation(comptime cards: u32, comptime distance: u32) [width]i32 {
            comptime assert(cards <= 8 and distance >= 1 and distance < cards);
            @setEvalBranchQuota(10_000);
            var mask: [width]i32 = undefined;
            for (0..width) |j| {
                mask[j] = if (j % 8 < cards) (j / 8) * 8 + (j % 8 + distance) % cards else j;
            }
            return mask;
        }

        /// Where a row's `cards` sit in its qword.
        pub fn card_places(comptime cards: u32) @Vector(width, bool) {
            comptime assert(cards >= 1 and cards <= 8); // a row fits its qword
            var mask: [width]bool = undefined;
            for (0..width) |j| mask[j] = j % 8 < cards;
            return mask;
        }

        /// Whether any row holds a card past the deck or a card twice: rotations by 1 ..
        /// cards / 2 meet every pair of a row. Written as one chain of "fine so far" (with
        /// AVX-512 each compare takes the last one's mask: no mask ors, port 0 free on
        /// Intel).
        pub inline fn any_bad(comptime cards: u32, ids: @Vector(width, u8)) bool {
            comptime assert(cards >= 2 and cards <= 8); // rotations need a pair to meet
            var fine = ids <= @as(@Vector(width, u8), @splat(encoding.card_count - 1));
            inline for (1..cards / 2 + 1) |distance| {
                fine = fine & (ids != @shuffle(u8, ids, undefined, rotation(cards, distance)));
            }
            return @reduce(.Or, ~fine & comptime card_places(cards));
        }
    };
}

/// Rows of `cards` (5..7) card ids (uint8 `(N, cards)`), by a level's `tally_ids` (`K` gives
/// it, its vector `Bytes`, `lanes`, `tallies_per_pass` and the `filler` byte its tally reads
/// past a row's cards).
pub fn CardSource(comptime K: type, comptime cards: u32) type {
    const width = @typeInfo(K.Bytes).vector.len;
    // One load holds a tally's rows: at most 7 cards each, at least 5 (the tallies' rule).
    comptime assert(cards >= 5 and cards <= encoding.hand_cards_max);
    comptime assert(K.lanes * cards <= width);
    return struct {
        cards: []const u8,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        pub const keys_flushes = keyed(K);
        /// Rows past a block its last load reads into (`blocks_end`).
        pub const spare_rows = (width - lanes * cards + cards - 1) / cards;
        comptime {
            // The last load of a block stays within the block and its spare rows.
            assert((lanes + spare_rows) * cards >= width);
            assert(block_rows % lanes == 0);
        }

        pub inline fn prefetch(rows: Rows, first: usize) void {
            prefetch_block(rows.cards, first, cards);
        }

        /// Rows `first .. first + lanes`, from one vector load at the first row.
        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const raw: K.Bytes = rows.cards[first * cards ..][0..width].*;
            if (@hasDecl(K, "spread")) return K.tally_ids(cards, K.spread(cards, raw));
            const spread = comptime QwordRows(width).spread(cards);
            return K.tally_ids(cards, @shuffle(u8, raw, @as(K.Bytes, @splat(K.filler)), spread));
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_cards(rows.cards[row * cards ..][0..cards]);
        }

        pub const cards_per_row = cards;

        /// `rank_row` under `game`'s rules (`GameSource`).
        pub inline fn rank_row_in(rows: Rows, comptime game: eval.Game, row: usize) u16 {
            return eval.rank_cards_in(game, rows.cards[row * cards ..][0..cards]);
        }

        /// Whether any of rows `first .. first + lanes` holds a card the short deck lacks (a
        /// deuce to five: id mod 13 below 4, the quotient by 13 as (id * 79) >> 10 for ids
        /// below 52; ids past the deck are the tally's to find).
        pub inline fn any_short_deck_missing(rows: Rows, first: usize) bool {
            const Ids = @Vector(lanes * cards, u16);
            const ids: Ids = @as(@Vector(lanes * cards, u8), rows.cards[first * cards ..][0 .. lanes * cards].*);
            const quotient = (ids * @as(Ids, @splat(79))) >> @splat(10);
            const value = ids -% quotient * @as(Ids, @splat(encoding.value_count));
            return @reduce(.Or, value < @as(Ids, @splat(4)));
        }
    };
}

/// The game whose rules row source or kernel `T` ranks by: its `game`, or Hold'em.
pub fn game_of(comptime T: type) eval.Game {
    return if (@hasDecl(T, "game")) T.game else .holdem;
}

/// The rows of `Inner` (a `CardSource` or a `SetSource`) ranked under `game_`'s rules: the
/// same tally, the game's lookup (rank/eval.zig's `Game`: the same slots), the game's scalar
/// path for flushes. A short deck's row holding a deuce to five is bad.
pub fn GameSource(comptime Inner: type, comptime game_: eval.Game) type {
    comptime std.debug.assert(game_ != .holdem);
    // Its tally and the scalar path both ask the inner source about the game.
    comptime assert(@hasDecl(Inner, "any_short_deck_missing") and @hasDecl(Inner, "rank_row_in"));
    return struct {
        inner: Inner,

        const Rows = @This();
        pub const game = game_;
        pub const lanes = Inner.lanes;
        pub const tallies_per_pass = if (@hasDecl(Inner, "tallies_per_pass")) Inner.tallies_per_pass else 1;
        pub const keys_flushes = keyed(Inner);
        pub const spare_rows = if (@hasDecl(Inner, "spare_rows")) Inner.spare_rows else 0;

        pub inline fn prefetch(rows: Rows, first: usize) void {
            if (@hasDecl(Inner, "prefetch")) rows.inner.prefetch(first);
        }

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            var tallied = rows.inner.tally(first);
            tallied.bad = tallied.bad or rows.inner.any_short_deck_missing(first);
            return tallied;
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return rows.inner.rank_row_in(game, row);
        }
    };
}

/// Rows of card text back to back, seven cards a row, all of one width: `stride` 2,
/// compact ("AhKd7c2s3sQhJd", 14 bytes), or 3, one separator, a space or a comma, between
/// cards ("Ah Kd 7c 2s 3s Qh Jd", 20 bytes); either case. A row that is anything else (other
/// separators, "10", fewer cards) is bad here, for the caller's general parser to judge.
/// Kernel `K`'s `TextDecoder(stride)` tallies them (`tally(text, first)`) and says how many
/// rows past a block its loads read (`spare_rows`).
pub fn TextSource(comptime K: type, comptime stride: u32) type {
    const Decoder = K.TextDecoder(stride);
    comptime assert(block_rows % K.lanes == 0);
    return struct {
        text: [*]const u8,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        pub const keys_flushes = keyed(K);
        pub const width = text_width(stride);
        pub const spare_rows = Decoder.spare_rows;

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            return Decoder.tally(rows.text, first);
        }

        pub fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_seven_text(stride, rows.text[row * width ..][0..width]);
        }
    };
}

/// Bytes of a row of seven cards' text, `stride` bytes a card but the last's two.
pub fn text_width(comptime stride: u32) u32 {
    comptime assert(stride == 2 or stride == 3);
    return stride * encoding.hand_cards_max - (stride - 2);
}

/// A CPU level's row sources from its kernel `K` (`lanes`, `tallies_per_pass`, `tally_sets`,
/// `TextDecoder`, and `keys_flushes` where it keys flushes): one definition of each source
/// for every level.
pub fn LevelSources(comptime K: type) type {
    // Four rows a vector (avx2) or eight (avx512), two tallies unrolled a pass: whole passes
    // a block.
    comptime assert(block_rows % (K.lanes * K.tallies_per_pass) == 0);
    return struct {
        pub const SetRows = SetSource(K);
        pub const AccumulatorRows = AccumulatorSource(K);
        pub const TextRows = TextSource(K, 2);
        pub const SpacedTextRows = TextSource(K, 3);
    };
}

/// What a vector tally of `lanes` rows gives: each row's key for the lookups (its
/// fingerprint, rank/eval.zig, or a flush's `eval.flush_key_base` + pattern where the source
/// finds the pattern itself), whether the row is left to the scalar path (a flush the
/// source does not key), and whether any of the rows is bad.
pub fn Tallied(comptime lanes: u32) type {
    comptime assert(lanes >= 1 and lanes <= block_rows); // a block's flush bits hold them
    return struct { fingerprints: @Vector(lanes, u64), flush: @Vector(lanes, bool), bad: bool };
}

/// What a vector tally of `lanes` card sets gives: fingerprints (0 for a bad set, so its
/// lookup stays inside the tables), the lookups' keys (the fingerprint, or a flush's
/// `eval.flush_key_base` + pattern where the kernel keys flushes), whether a set is left
/// to the scalar path (a flush the kernel does not key), the suit counts as rank/eval.zig's key
/// counters (`c0 | c1 << 4 | c2 << 8 | c3 << 12`), and which sets are bad (bits above 51,
/// or over 7 cards).
pub fn SetTally(comptime lanes: u32) type {
    comptime assert(lanes >= 1 and lanes <= block_rows);
    return struct {
        fingerprints: @Vector(lanes, u64),
        keys: @Vector(lanes, u64),
        flush: @Vector(lanes, bool),
        counters: @Vector(lanes, u64),
        bad: @Vector(lanes, bool),
    };
}

/// Card sets (uint64, 0 to 7 cards each), by a kernel's `tally_sets` (`K` gives it, its
/// `lanes` and its `tallies_per_pass`).
pub fn SetSource(comptime K: type) type {
    comptime assert(block_rows % K.lanes == 0);
    return struct {
        sets: []const u64,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        pub const keys_flushes = keyed(K);

        pub inline fn prefetch(rows: Rows, first: usize) void {
            prefetch_block(std.mem.sliceAsBytes(rows.sets), first, 8);
        }

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const tallied = K.tally_sets(rows.sets[first..][0..lanes].*);
            return .{ .fingerprints = tallied.keys, .flush = tallied.flush, .bad = @reduce(.Or, tallied.bad) };
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_set(rows.sets[row]);
        }

        /// `rank_row` under `game`'s rules (`GameSource`).
        pub inline fn rank_row_in(rows: Rows, comptime game: eval.Game, row: usize) u16 {
            return eval.rank_set_in(game, rows.sets[row]);
        }

        /// Whether any of sets `first .. first + lanes` holds a card the short deck lacks.
        pub inline fn any_short_deck_missing(rows: Rows, first: usize) bool {
            const sets: @Vector(lanes, u64) = rows.sets[first..][0..lanes].*;
            return @reduce(.Or, sets & @as(@Vector(lanes, u64), @splat(eval.short_deck_missing)) != @as(@Vector(lanes, u64), @splat(0)));
        }
    };
}

/// Accumulators (rank/eval.zig's 16-byte `{key, mask}`), by the same kernel: each mask tallied as
/// a set, and the key held to what adding those cards makes (`eval.key_of_set`), so an
/// edited record is bad.
pub fn AccumulatorSource(comptime K: type) type {
    // Its tally reads the records as words: key, then mask.
    comptime assert(@sizeOf(encoding.Accumulator) == 2 * @sizeOf(u64));
    comptime assert(block_rows % K.lanes == 0 and K.lanes % 2 == 0);
    return struct {
        accumulators: []const encoding.Accumulator,

        const Rows = @This();
        pub const lanes = K.lanes;
        pub const tallies_per_pass = K.tallies_per_pass;
        pub const keys_flushes = keyed(K);
        const Lanes = @Vector(lanes, u64);

        pub inline fn prefetch(rows: Rows, first: usize) void {
            prefetch_block(std.mem.sliceAsBytes(rows.accumulators), first, 16);
        }

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const words: *const [2 * lanes]u64 = @ptrCast(rows.accumulators[first..][0..lanes]);
            const low: Lanes = words[0..lanes].*;
            const high: Lanes = words[lanes..].*;
            const keys = @shuffle(u64, low, high, every_other(lanes, 0));
            const masks = @shuffle(u64, low, high, every_other(lanes, 1));
            const tallied = K.tally_sets(masks);
            const shift = encoding.suit_counter_shift;
            const expected = tallied.fingerprints +
                ((tallied.counters + @as(Lanes, @splat(encoding.Accumulator.empty.key >> shift))) << @splat(shift));
            return .{
                .fingerprints = tallied.keys,
                .flush = tallied.flush,
                .bad = @reduce(.Or, tallied.bad | (keys != expected)),
            };
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_accumulator(rows.accumulators[row]);
        }
    };
}

/// Accumulators taken at their word (`batch.rank_accumulators_trusted`): the key's
/// fingerprint and suit counters are used as they are and the mask is not tallied, so a
/// record whose key its cards do not make gets a meaningless rank, never a read outside the
/// tables (the fingerprint is masked to the table's rows; a flush's mask bits index 8 KB).
/// It loads its keys itself: a helper shared with `AccumulatorSource` returning keys and
/// masks cost the avx2 level half again (1.0 → 1.5 ns a hand, AMD Zen 5). Its flushes go to
/// the scalar path: keying them by their pattern, as the avx512 sets are, made this stream
/// 1.14x slower (the masks' shuffle and the key's four operations on every record; Sapphire
/// Rapids class, in turn, 2026-12-03).
pub fn TrustedAccumulatorSource(comptime lanes_: u32) type {
    comptime assert(@sizeOf(encoding.Accumulator) == 2 * @sizeOf(u64));
    comptime assert(block_rows % lanes_ == 0 and lanes_ % 2 == 0);
    return struct {
        accumulators: []const encoding.Accumulator,

        const Rows = @This();
        pub const lanes = lanes_;
        const Lanes = @Vector(lanes, u64);

        // Asked for though the stream is light: the hardware's prefetcher alone left it 10%
        // slower (`prefetch_bytes`).
        pub inline fn prefetch(rows: Rows, first: usize) void {
            prefetch_block(std.mem.sliceAsBytes(rows.accumulators), first, 16);
        }

        pub inline fn tally(rows: Rows, first: usize) Tallied(lanes) {
            const words: *const [2 * lanes]u64 = @ptrCast(rows.accumulators[first..][0..lanes]);
            const low: Lanes = words[0..lanes].*;
            const high: Lanes = words[lanes..].*;
            const keys = @shuffle(u64, low, high, every_other(lanes, 0));
            return .{
                .fingerprints = keys & @as(Lanes, @splat(eval.fingerprint_rows_mask)),
                .flush = keys & @as(Lanes, @splat(encoding.suit_counters_flush)) != @as(Lanes, @splat(0)),
                .bad = false,
            };
        }

        pub inline fn rank_row(rows: Rows, row: usize) u16 {
            return eval.rank_accumulator(rows.accumulators[row]);
        }
    };
}

/// The `@shuffle` mask of words `first`, `first + 2`, … of two vectors of `lanes` words of
/// interleaved keys and masks.
fn every_other(comptime lanes: u32, comptime first: u32) [lanes]i32 {
    comptime assert(first < 2 and lanes % 2 == 0); // keys at even words, masks at odd
    var mask: [lanes]i32 = undefined;
    for (0..lanes) |i| {
        const word: i32 = @intCast((2 * i + first) % lanes);
        mask[i] = if (2 * i < lanes) word else ~word;
    }
    return mask;
}

/// Rows a block: its fingerprints stay in L1 between the passes.
pub const block_rows = 64;

/// How far ahead of the block being ranked a row source asks for its rows (`prefetch_block`),
/// in bytes, whatever a row's size: 2 KB ahead suits every stream measured (7-card ids from
/// DRAM 1.07-1.17 -> 0.93-0.98 ns a hand on Zen 5; trusted accumulators 1.62 -> 1.44-1.48 on
/// a Sapphire Rapids class Xeon). Farther crowds out the lines in use (16 KB: 1.82). The runs,
/// and the variants tried and left out (L2-only, non-temporal, two distances), are in
/// bench/NOTES.md, "Prefetch distance".
pub const prefetch_bytes = 2048;

/// Asks for block `first .. first + block_rows` of rows of `row_bytes` each, `prefetch_bytes`
/// ahead of it (`prefetch_ahead`).
pub inline fn prefetch_block(bytes: []const u8, first: usize, comptime row_bytes: usize) void {
    prefetch_ahead(bytes, first * row_bytes + prefetch_bytes, block_rows * row_bytes);
}

/// Asks for `len` bytes of `bytes` from `start`, a cache line at a time; nothing once `start`
/// is past the end (the last blocks, and the equity sampler's small blocks of games, have
/// nothing ahead to ask for).
pub inline fn prefetch_ahead(bytes: []const u8, start: usize, comptime len: usize) void {
    if (start >= bytes.len) return;
    inline for (0..(len + 63) / 64) |line| @prefetch(bytes.ptr + start + 64 * line, .{});
}

/// What the first two passes over a block leave: which hands hold a flush (bit i, hand i)
/// and whether any hand is bad.
pub const Passes = struct { flushes: u64, bad: bool };

/// The first two passes over a block of `hands` (at most 64) hands, each a tight loop: the
/// vector tally, `groups` tallies of `lanes` hands (`per_pass` of them unrolled a turn), then
/// the table lookups into `out` (eval's, unmasked: see `rank_fingerprint_unmasked`). The
/// caller's third pass ranks the flushes by the scalar path, unless a hand is bad. `source`
/// gives `tally_group(g)`, the `Tallied` of hands `g * lanes ..`. Shared by every row source
/// (`rank_block`) and the showdowns (rank/showdown.zig).
pub inline fn tally_and_look_up(
    comptime lanes: u32,
    comptime per_pass: u32,
    comptime keys_flushes: bool,
    comptime groups: u32,
    comptime hands: u32,
    source: anytype,
    out: *[hands]u16,
) Passes {
    comptime std.debug.assert(hands <= 64 and groups * lanes >= hands and groups % per_pass == 0);
    var fingerprints: [groups * lanes]u32 align(64) = undefined;
    var flushes: u64 = 0;
    var bad: u32 = 0;
    var group: usize = 0;
    while (group < groups) : (group += per_pass) {
        inline for (0..per_pass) |turn| {
            const first = (group + turn) * lanes;
            const tallied = source.tally_group(group + turn);
            fingerprints[first..][0..lanes].* = @as(
                @Vector(lanes, u32),
                @truncate(tallied.fingerprints),
            );
            if (!keys_flushes) {
                const flush_bits: @Int(.unsigned, lanes) = @bitCast(tallied.flush);
                flushes |= @as(u64, in_register(flush_bits)) << @intCast(first);
            }
            bad |= @intFromBool(tallied.bad);
        }
    }
    for (fingerprints[0..hands], out) |fingerprint, *rank| {
        // At most seven multipliers, whatever the input (a tally sums nothing else).
        rank.* = eval.rank_fingerprint_unmasked_in(comptime game_of(@TypeOf(source)), fingerprint);
    }
    if (hands < 64) flushes &= (@as(u64, 1) << hands) - 1;
    assert(!keys_flushes or flushes == 0); // a source that keys its flushes leaves none
    return .{ .flushes = flushes, .bad = bad != 0 };
}

/// `value`, made in a general register where it stands. A tally's flush bits go into the
/// block's word this way as each is made: left to itself LLVM kept eight vectors of keys
/// alive across the lookups, to test them after and build the word by eight byte inserts, a
/// variable shift and a reduction (trusted accumulators 1.01 -> 0.94 ns a hand in cache,
/// 1.50 -> 1.43 from memory; Sapphire Rapids class, avx512, in turn). Sources that key their
/// flushes have no bits to make (`keyed`): the barrier would only keep a zero from folding
/// away (2-3% slower).
inline fn in_register(value: anytype) @TypeOf(value) {
    return asm (""
        : [out] "=r" (-> @TypeOf(value)),
        : [in] "0" (value),
    );
}

/// Ranks rows `first .. first + block_rows` of `rows` in three passes (`tally_and_look_up`,
/// then the scalar path for the few rows holding a flush: a branch per row on a 3% event
/// would mispredict more often than it is taken). Returns whether any row is bad, with the
/// block's ranks then meaningless.
pub inline fn rank_block(rows: anytype, out: []u16, first: usize) bool {
    assert(first % block_rows == 0 and first + block_rows <= out.len);
    const Rows = @TypeOf(rows);
    const lanes = Rows.lanes;
    const per_pass = if (@hasDecl(Rows, "tallies_per_pass")) Rows.tallies_per_pass else 1;
    const Groups = struct {
        rows: Rows,
        first: usize,
        pub const game = game_of(Rows);
        pub inline fn tally_group(groups: @This(), group: usize) Tallied(lanes) {
            return groups.rows.tally(groups.first + group * lanes);
        }
    };
    const groups = Groups{ .rows = rows, .first = first };
    if (@hasDecl(Rows, "prefetch")) rows.prefetch(first);
    const passes = tally_and_look_up(
        lanes,
        per_pass,
        keyed(Rows),
        block_rows / lanes,
        block_rows,
        groups,
        out[first..][0..block_rows],
    );
    if (passes.bad) return true;
    // A branch-free pass instead (every row's flush rank made and kept where its bit is set,
    // two or four rows a turn) made trusted accumulators slower: 0.947 -> 0.955-0.99 ns a hand
    // in cache (Sapphire Rapids class, in turn, 2026-12-04).
    var flushes = passes.flushes;
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
    const end = (rows - spare) / block_rows * block_rows;
    // Whole blocks, and room after them for the rows a last load reads past its block.
    assert(end % block_rows == 0 and end + spare <= rows);
    return end;
}

/// `rank_block` for every block of rows `0 .. end` (a multiple of `block_rows`); returns
/// whether any row was bad.
pub fn rank_blocks(rows: anytype, out: []u16, end: usize) bool {
    assert(end % block_rows == 0);
    assert(end <= out.len);
    var bad: u32 = 0;
    var first: usize = 0;
    // Bitwise, not `or`: a short-circuit would put a branch in every block.
    while (first < end) : (first += block_rows) bad |= @intFromBool(rank_block(rows, out, first));
    return bad != 0;
}
