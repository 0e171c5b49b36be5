//! The C ABI: every function libpypoker exports, and the only place that does.
//!
//! Rules every export follows:
//! - it returns a `Status` (or a plain value that cannot fail); it never aborts the process;
//! - it checks its pointers and lengths before touching memory, and card ids as it ranks;
//! - on failure it fills `*err` (row, card, position) when given one and writes no result
//!   that looks valid (rank outputs are zeroed: 0 is never a rank).
//!
//! `gen_header.zig` turns the declarations in `api` into the C header the Python layer
//! hands to cffi, so the two cannot drift; `abi_version` guards against a stale library.
const std = @import("std");
const eval = @import("eval.zig");
const batch = @import("batch.zig");
const parse = @import("parse.zig");
const deal = @import("deal.zig");
const enumerate = @import("enumerate.zig");
const kernel_abi = @import("kernel_abi.zig");
const equity = @import("equity.zig");
const spot_zig = @import("spot.zig");
const equity_count = @import("equity_count.zig");
const equity_sample = @import("equity_sample.zig");
const isomorphism = @import("isomorphism.zig");
const features = @import("features.zig");
const omaha = @import("omaha.zig");
const omaha_equity = @import("omaha_equity.zig");

pub const Tally = equity.Tally;
pub const Sums = spot_zig.Sums;
pub const HandFeatures = features.HandFeatures;
pub const Accumulator = eval.Accumulator;
const builtin = @import("builtin");

/// CPU levels with kernels in this library, each a superset of the one before. `avx2`
/// (AVX2 + BMI2, x86-64-v3) and `avx512` (x86-64-v4 + VBMI, BITALG, VPOPCNTDQ) exist on
/// x86-64 only; `baseline` runs on any CPU of the target architecture.
pub const CpuLevel = enum(u32) { baseline = 0, avx2 = 1, avx512 = 2 };

const is_x86_64 = builtin.cpu.arch == .x86_64;
const baseline_kernels = kernel_abi.resolve("pp_k_baseline_");
const avx2_kernels = if (is_x86_64) kernel_abi.resolve("pp_k_avx2_") else baseline_kernels;
const avx512_kernels = if (is_x86_64) kernel_abi.resolve("pp_k_avx512_") else baseline_kernels;

/// Baseline until the loader selects a level (the Python layer does so at import).
var active_level: std.atomic.Value(u32) = .init(@backingInt(CpuLevel.baseline));

fn kernels() *const kernel_abi.Kernels {
    return switch (active_level.load(.monotonic)) {
        @backingInt(CpuLevel.avx512) => &avx512_kernels,
        @backingInt(CpuLevel.avx2) => &avx2_kernels,
        else => &baseline_kernels,
    };
}

/// Whether this CPU (and its OS, which must save the AVX registers) runs the avx2 kernels.
fn cpu_has_avx2_level() bool {
    if (!is_x86_64) return false;
    const leaf1 = cpuid(1, 0);
    const osxsave = leaf1.ecx & (1 << 27) != 0;
    const avx = leaf1.ecx & (1 << 28) != 0;
    if (!osxsave or !avx) return false;
    if (xgetbv0() & 0b110 != 0b110) return false; // XMM and YMM state enabled by the OS
    const leaf7 = cpuid(7, 0);
    const avx2 = leaf7.ebx & (1 << 5) != 0;
    const bmi1 = leaf7.ebx & (1 << 3) != 0;
    const bmi2 = leaf7.ebx & (1 << 8) != 0;
    const leaf81 = cpuid(0x8000_0001, 0);
    const lzcnt = leaf81.ecx & (1 << 5) != 0;
    const fma = leaf1.ecx & (1 << 12) != 0;
    const movbe = leaf1.ecx & (1 << 22) != 0;
    return avx2 and bmi1 and bmi2 and lzcnt and fma and movbe;
}

/// Whether this CPU runs the avx512 kernels: the avx2 level, AVX-512 F, DQ, CD, BW, VL,
/// VBMI, BITALG and VPOPCNTDQ, and an OS that saves the mask and 512-bit registers.
fn cpu_has_avx512_level() bool {
    if (!is_x86_64 or !cpu_has_avx2_level()) return false;
    // XCR0: XMM, YMM, opmask, upper halves of ZMM0-15, ZMM16-31.
    if (xgetbv0() & 0b1110_0110 != 0b1110_0110) return false;
    const leaf7 = cpuid(7, 0);
    const ebx_wanted: u32 = (1 << 16) | (1 << 17) | (1 << 28) | (1 << 30) | (1 << 31); // F DQ CD BW VL
    const ecx_wanted: u32 = (1 << 1) | (1 << 12) | (1 << 14); // VBMI BITALG VPOPCNTDQ
    return leaf7.ebx & ebx_wanted == ebx_wanted and leaf7.ecx & ecx_wanted == ecx_wanted;
}

const CpuidResult = struct { eax: u32, ebx: u32, ecx: u32, edx: u32 };

fn cpuid(leaf: u32, subleaf: u32) CpuidResult {
    var eax: u32 = undefined;
    var ebx: u32 = undefined;
    var ecx: u32 = undefined;
    var edx: u32 = undefined;
    asm volatile ("cpuid"
        : [_] "={eax}" (eax),
          [_] "={ebx}" (ebx),
          [_] "={ecx}" (ecx),
          [_] "={edx}" (edx),
        : [_] "{eax}" (leaf),
          [_] "{ecx}" (subleaf),
    );
    return .{ .eax = eax, .ebx = ebx, .ecx = ecx, .edx = edx };
}

fn xgetbv0() u32 {
    return asm volatile ("xgetbv"
        : [_] "={eax}" (-> u32),
        : [_] "{ecx}" (@as(u32, 0)),
        : .{ .edx = true });
}

/// Constants the Python layer reads from the generated header, as `PP_<name>`: each is
/// defined here and only here.
pub const header_constants = .{
    .{ "POT_UNITS", equity.pot_units },
    .{ "PLAYERS_MAX", equity.players_max },
    .{ "COMBOS", combos_count },
    .{ "CATEGORY_SHIFT", eval.category_shift },
    .{ "HISTOGRAM_BINS_MAX", features.bins_max },
};

/// Bump on any change to a signature, struct or status below.
pub const abi_version: u32 = 16;

pub const Status = enum(c_int) {
    ok = 0,
    null_pointer = 1,
    bad_argument = 2,
    card_out_of_range = 3,
    duplicate_card = 4,
    empty_hand = 5,
    too_many_cards = 6,
    bad_value = 7,
    bad_suit = 8,
    output_full = 9,
    inconsistent_key = 10,
    out_of_memory = 11,
    bad_weight = 12,
    index_out_of_range = 13,

    pub const c_name = "pp_status";
};

/// Where and why a call failed. `row` is the hand (or string) index within the call.
pub const Error = extern struct {
    row: u64,
    /// The offending card id, or -1.
    card: i32,
    /// The offending card's position in its row (a byte offset for text), or -1.
    position: i32,

    pub const c_name = "pp_error";
};

comptime {
    std.debug.assert(@sizeOf(Error) == 16);
}

comptime {
    // This object owns the tables the kernel objects link to (linked.zig): each file that
    // holds some lists them, and naming the list here exports them.
    _ = eval.linked_tables;
    _ = @import("columns.zig").linked_tables;
    _ = isomorphism.linked_tables;
    _ = omaha.linked_tables;
}

fn report_player(err: ?*Error, row: i64, card: u32, status: Status) Status {
    if (err) |out| out.* = .{ .row = @bitCast(row), .card = @intCast(card), .position = -1 };
    return status;
}

fn report_hand_error(err: ?*Error, e: batch.HandError) Status {
    if (err) |out| out.* = .{ .row = e.row, .card = e.card, .position = e.position };
    return switch (e.kind) {
        .card_out_of_range => .card_out_of_range,
        .duplicate_card => .duplicate_card,
        .empty_hand => .empty_hand,
        .too_many_cards => .too_many_cards,
        .inconsistent_key => .inconsistent_key,
    };
}

fn report_isomorphism_error(err: ?*Error, f: kernel_abi.HandFailure) Status {
    if (err) |out| out.* = .{ .row = f.row, .card = f.card, .position = f.position };
    return switch (f.kind) {
        0 => .card_out_of_range,
        1 => .duplicate_card,
        else => .index_out_of_range,
    };
}

fn report_parse_error(err: ?*Error, e: parse.ParseError) Status {
    if (err) |out| out.* = .{ .row = e.row, .card = e.card, .position = @intCast(e.position) };
    return switch (e.kind) {
        .bad_value => .bad_value,
        .bad_suit => .bad_suit,
        .duplicate_card => .duplicate_card,
        .output_full => .output_full,
    };
}

/// The checks shared by the exports over Arrow offsets, then the kernel `field` names.
fn offsets_column(
    comptime field: enum { rank_lists_status, rank_strings_status },
    bytes: ?[*]const u8,
    offsets: ?*const anyopaque,
    offset_width: u32,
    n: u64,
    out: ?[*]u16,
    status: ?[*]u8,
) Status {
    if (offset_width != 4 and offset_width != 8) return .bad_argument;
    if (n == 0) return .ok;
    var none: [1]u8 = .{0}; // no bytes at all (every row empty): any valid pointer will do
    const kernel = @field(kernels().*, @tagName(field));
    kernel(bytes orelse &none, offsets orelse return .null_pointer, offset_width, n, out orelse
        return .null_pointer, status orelse return .null_pointer);
    return .ok;
}

/// The table of an equity call, checked: hole accumulators, the board's, the deck left.
const EquitySetup = struct {
    holes: [equity.players_max]eval.Accumulator,
    board: eval.Accumulator,
    deck: u64,
    missing: u32,
};

const EquitySetupResult = union(enum) { ok: EquitySetup, failed: Status };

fn equity_setup(hole_sets: ?[*]const u64, players: u32, board: u64, dead: u64, err: ?*Error) EquitySetupResult {
    if (players < 2 or players > equity.players_max) return .{ .failed = .bad_argument };
    const holes = hole_sets orelse return .{ .failed = .null_pointer };
    const board_cards = @popCount(board);
    if (board_cards != 0 and (board_cards < 3 or board_cards > equity.board_cards_max)) {
        return .{ .failed = .bad_argument };
    }
    var setup: EquitySetup = .{ .holes = undefined, .board = .empty, .deck = 0, .missing = 0 };
    var seen: u64 = 0;
    // Row -1 is the board, -2 the dead cards; players are rows 0..players-1.
    const groups = [2]struct { set: u64, row: i64 }{ .{ .set = board, .row = -1 }, .{ .set = dead, .row = -2 } };
    for (groups) |group| {
        if (group.set & eval.set_invalid_bits != 0) return fail_equity(err, group.row, @ctz(group.set & eval.set_invalid_bits), .card_out_of_range);
        if (seen & group.set != 0) return fail_equity(err, group.row, @ctz(seen & group.set), .duplicate_card);
        seen |= group.set;
    }
    for (holes[0..players], 0..) |set, player| {
        if (set & eval.set_invalid_bits != 0) return fail_equity(err, @intCast(player), @ctz(set & eval.set_invalid_bits), .card_out_of_range);
        if (@popCount(set) != 2) return fail_equity(err, @intCast(player), -1, if (set == 0) .empty_hand else .too_many_cards);
        if (seen & set != 0) return fail_equity(err, @intCast(player), @ctz(seen & set), .duplicate_card);
        seen |= set;
        var hole: eval.Accumulator = .empty;
        var cards = set;
        while (cards != 0) : (cards &= cards - 1) hole.add(@intCast(@ctz(cards)));
        setup.holes[player] = hole;
    }
    var cards = board;
    while (cards != 0) : (cards &= cards - 1) setup.board.add(@intCast(@ctz(cards)));
    setup.deck = deal.full_deck & ~seen;
    setup.missing = equity.board_cards_max - board_cards;
    if (@popCount(setup.deck) < setup.missing) return .{ .failed = .bad_argument };
    return .{ .ok = setup };
}

fn fail_equity(err: ?*Error, row: i64, card: i32, status: Status) EquitySetupResult {
    if (err) |out| out.* = .{ .row = @bitCast(row), .card = card, .position = -1 };
    return .{ .failed = status };
}

const combos = @import("combos.zig");
const combos_count = combos.count;

fn as_spot(pointer: anytype) *const spot_zig.Spot {
    return @ptrCast(@alignCast(pointer));
}

pub const api = struct {
    pub fn pp_abi_version() callconv(.c) u32 {
        return abi_version;
    }

    /// Ranks `n` hands of `k` (1..7) card ids each, row-major, into `out[n]`.
    pub fn pp_rank_cards(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (k < 1 or k > eval.hand_cards_max) return .bad_argument;
        if (n == 0) return .ok;
        const c = cards orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().rank_cards(c, n, k, o, &failure)) return .ok;
        return report_hand_error(err, failure.to());
    }

    /// Ranks `n` card sets (bit i = card i, 1..7 cards each) into `out[n]`.
    /// The rank of one hand of `k` (1..7) card ids, `cards[k]`; 0 when a card is not a card
    /// or repeats (the batch calls say which). One hand's fast path: no error record, no
    /// per-CPU dispatch (one hand is scalar work at every level).
    pub fn pp_rank_hand(cards: ?[*]const c_char, k: u32) callconv(.c) u16 {
        const c = cards orelse return 0;
        if (k < 1 or k > eval.hand_cards_max) return 0;
        var hand: Accumulator = .empty;
        for (c[0..k]) |char| {
            const id: u8 = @bitCast(char);
            if (id >= eval.card_count or hand.mask >> @intCast(id) & 1 != 0) return 0;
            hand.add(id);
        }
        return eval.rank_accumulator(hand);
    }

    /// The rank of one hand written as text, `text[length]` ("AhKd7c…", the forms
    /// `pp_parse_cards` reads); 0 when it does not read as 1..7 distinct cards.
    pub fn pp_rank_text(text: ?[*]const c_char, length: u64) callconv(.c) u16 {
        const t = text orelse return 0;
        var ids: [eval.hand_cards_max]u8 = undefined;
        var counts: [1]u32 = undefined;
        const offsets = [2]i64{ 0, @intCast(length) };
        const bytes: [*]const u8 = @ptrCast(t);
        if (parse.parse_strings(bytes[0..length], &offsets, &ids, &counts) != null) return 0;
        if (counts[0] == 0) return 0;
        return eval.rank_cards(ids[0..counts[0]]);
    }

    pub fn pp_rank_sets(sets: ?[*]const u64, n: u64, out: ?[*]u16, err: ?*Error) callconv(.c) Status {
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().rank_sets(s, n, o, &failure)) return .ok;
        return report_hand_error(err, failure.to());
    }

    /// Ranks `n` accumulators (16 bytes each: `key`, then `mask`; see eval.zig), each of
    /// 1..7 cards with the key its cards make, into `out[n]`.
    pub fn pp_rank_accumulators(accumulators: ?[*]const Accumulator, n: u64, out: ?[*]u16, err: ?*Error) callconv(.c) Status {
        if (n == 0) return .ok;
        const a = accumulators orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().rank_accumulators(a, n, o, &failure)) return .ok;
        return report_hand_error(err, failure.to());
    }

    /// The accumulators of `n` hands of `k` (1..7) card ids each, into `out[n]`.
    pub fn pp_accumulate_cards(cards: ?[*]const u8, n: u64, k: u32, out: ?[*]Accumulator, err: ?*Error) callconv(.c) Status {
        if (k < 1 or k > eval.hand_cards_max) return .bad_argument;
        if (n == 0) return .ok;
        const c = cards orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const e = batch.accumulate_card_rows(c[0 .. n * k], k, o[0..n]) orelse return .ok;
        return report_hand_error(err, e);
    }

    /// The accumulators of `n` card sets (1..7 cards each), into `out[n]`.
    pub fn pp_accumulate_sets(sets: ?[*]const u64, n: u64, out: ?[*]Accumulator, err: ?*Error) callconv(.c) Status {
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const e = batch.accumulate_sets(s[0..n], o[0..n]) orelse return .ok;
        return report_hand_error(err, e);
    }

    /// `out[i]` = `a[i]` and `b[i]` together: both consistent, no shared card, 7 cards at
    /// most (a shared card is reported as a duplicate, with its id).
    pub fn pp_merge_accumulators(a: ?[*]const Accumulator, b: ?[*]const Accumulator, n: u64, out: ?[*]Accumulator, err: ?*Error) callconv(.c) Status {
        if (n == 0) return .ok;
        const first = a orelse return .null_pointer;
        const second = b orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const e = batch.merge_accumulators(first[0..n], second[0..n], o[0..n]) orelse return .ok;
        return report_hand_error(err, e);
    }

    /// Parses `n` strings (bytes `text[offsets[i]..offsets[i+1]]`) into card ids, written in
    /// order to `out_ids[capacity]`, with each string's card count in `out_counts[n]`.
    pub fn pp_parse_cards(
        text: ?[*]const u8,
        offsets: ?[*]const i64,
        n: u64,
        out_ids: ?[*]u8,
        capacity: u64,
        out_counts: ?[*]u32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const o = offsets orelse return .null_pointer;
        const counts = out_counts orelse return .null_pointer;
        const text_length = o[n];
        var previous: i64 = 0;
        for (o[0 .. n + 1]) |offset| {
            if (offset < previous) return .bad_argument;
            previous = offset;
        }
        if (text_length > 0 and text == null) return .null_pointer;
        if (capacity > 0 and out_ids == null) return .null_pointer;
        const t: []const u8 = if (text) |p| p[0..@intCast(text_length)] else &.{};
        const ids: []u8 = if (out_ids) |p| p[0..capacity] else &.{};
        const e = parse.parse_strings(t, o[0 .. n + 1], ids, counts[0..n]) orelse return .ok;
        return report_parse_error(err, e);
    }

    /// Column kernels for Arrow layouts: every row gets a rank (0 when bad) and a status
    /// byte in `status[n]` (0 good, 1 bad: a card that is not a card, a card twice, or a
    /// hand not of 1..7 cards; for text, anything that does not read as cards). They never
    /// stop at a bad row: null rows hold arbitrary values, which the caller masks out.
    pub fn pp_rank_cards_status(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]u16,
        status: ?[*]u8,
    ) callconv(.c) Status {
        if (k < 1 or k > eval.hand_cards_max) return .bad_argument;
        if (n == 0) return .ok;
        kernels().rank_cards_status(cards orelse return .null_pointer, n, k, out orelse
            return .null_pointer, status orelse return .null_pointer);
        return .ok;
    }

    /// Lists of card ids: `offsets[n + 1]` (i32 when `offset_width` is 4, i64 when 8) into
    /// `values`, Arrow's list / large_list layout. Offsets must not decrease.
    pub fn pp_rank_lists_status(
        values: ?[*]const u8,
        offsets: ?*const anyopaque,
        offset_width: u32,
        n: u64,
        out: ?[*]u16,
        status: ?[*]u8,
    ) callconv(.c) Status {
        return offsets_column(.rank_lists_status, values, offsets, offset_width, n, out, status);
    }

    pub fn pp_rank_sets_status(sets: ?[*]const u64, n: u64, out: ?[*]u16, status: ?[*]u8) callconv(.c) Status {
        if (n == 0) return .ok;
        kernels().rank_sets_status(sets orelse return .null_pointer, n, out orelse
            return .null_pointer, status orelse return .null_pointer);
        return .ok;
    }

    /// Strings of card text: `offsets[n + 1]` (i32 or i64, as for lists) into `text`.
    pub fn pp_rank_strings_status(
        text: ?[*]const u8,
        offsets: ?*const anyopaque,
        offset_width: u32,
        n: u64,
        out: ?[*]u16,
        status: ?[*]u8,
    ) callconv(.c) Status {
        return offsets_column(.rank_strings_status, text, offsets, offset_width, n, out, status);
    }

    /// Exact equity of `players` (2..10) known hands (`hole_sets[i]`: two cards each) on
    /// `board` (0, 3, 4 or 5 cards) with `dead` cards out, over every completion of the
    /// board. The work is dealt round-robin into `parts` shares and this call does share
    /// `part` (threads take one each; one call with 0 and 1 does all): the sum over all
    /// parts, modulo 2^64, is the answer, though one part's tallies alone mean nothing.
    /// Adds to `tallies[players]` and `*games`. On a bad card, `err.row` is the player (-1
    /// board, -2 dead).
    pub fn pp_equity_exact(
        hole_sets: ?[*]const u64,
        players: u32,
        board: u64,
        dead: u64,
        part: u32,
        parts: u32,
        tallies: ?[*]Tally,
        games: ?*u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const setup = switch (equity_setup(hole_sets, players, board, dead, err)) {
            .ok => |s| s,
            .failed => |status| return status,
        };
        if (part >= parts) return .bad_argument;
        kernels().equity_exact(&setup.holes, players, &setup.board, setup.deck, setup.missing, part, parts, tallies orelse
            return .null_pointer, games orelse return .null_pointer);
        return .ok;
    }

    /// Each of `rows` deals' exact equity per player (pot share, 0..1) with the flop known
    /// (`flop_out`) and with the turn known (`turn_out`), both `rows * players` floats:
    /// `boards` holds each deal's five board cards (flop, turn, river), `holes` its
    /// `players` (2..10) pairs. A deal holding a card that is not a card, or one twice, fails
    /// the call (`err.row` names it) before anything is computed.
    pub fn pp_street_equities(
        boards: ?[*]const u8,
        holes: ?[*]const u8,
        players: u32,
        rows: u64,
        flop_out: ?[*]f32,
        turn_out: ?[*]f32,
        err: ?*Error,
    ) callconv(.c) Status {
        if (players < 2 or players > equity.players_max) return .bad_argument;
        if (rows == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const flop = flop_out orelse return .null_pointer;
        const turn = turn_out orelse return .null_pointer;
        const board_cards = equity.board_cards_max;
        if (batch.diagnose_showdown_rows(b[0 .. rows * board_cards], board_cards, h[0 .. rows * players * 2], players, rows)) |e| {
            return report_hand_error(err, e);
        }
        kernels().street_equities(b, h, players, rows, flop, turn);
        return .ok;
    }

    /// Prepares a spot for equity over ranges: `weights` holds `players` (2..10) rows of
    /// 1,326 combo weights (finite, ≥ 0; the combo order of `pp.COMBOS`), `random_players`
    /// bit p marks player p random (dealt from the deck by Monte Carlo), `board` holds 0, 3,
    /// 4 or 5 cards. A player holding one combo is a known hand: no board, dead or other
    /// known card may meet it (`duplicate_card`, `err.row` the player, -1 board, -2 dead).
    /// `empty_hand` names a player left with no combo. Free the spot with `pp_spot_free`.
    pub fn pp_spot_new(
        weights: ?[*]const f64,
        players: u32,
        random_players: u32,
        board: u64,
        dead: u64,
        spot: ?*?*anyopaque,
        err: ?*Error,
    ) callconv(.c) Status {
        const w = weights orelse return .null_pointer;
        const out = spot orelse return .null_pointer;
        if (players < 2 or players > spot_zig.players_max) return .bad_argument;
        const prepared = std.heap.page_allocator.create(spot_zig.Spot) catch return .out_of_memory;
        switch (spot_zig.prepare(prepared, w[0 .. players * @as(usize, combos_count)], players, random_players, board, dead)) {
            .ok => {
                spot_zig.prepare_joint(prepared, std.heap.page_allocator);
                out.* = prepared;
                return .ok;
            },
            .failed => |failure| {
                std.heap.page_allocator.destroy(prepared);
                if (err) |e| e.* = .{ .row = @bitCast(failure.player), .card = failure.card, .position = -1 };
                return switch (failure.kind) {
                    .bad_argument => .bad_argument,
                    .card_out_of_range => .card_out_of_range,
                    .duplicate_card => .duplicate_card,
                    .empty_hand => .empty_hand,
                    .bad_weight => .bad_weight,
                };
            },
        }
    }

    pub fn pp_spot_free(spot: ?*anyopaque) callconv(.c) void {
        const s: *spot_zig.Spot = @ptrCast(@alignCast(spot orelse return));
        spot_zig.release_joint(s, std.heap.page_allocator);
        std.heap.page_allocator.destroy(s);
    }

    /// The combos player `player` holds once cards out of play are removed (0: no player).
    pub fn pp_spot_support(spot: ?*const anyopaque, player: u32) callconv(.c) u32 {
        const s = as_spot(spot orelse return 0);
        return if (player < s.players) s.support_len[player] else 0;
    }

    /// Player `player`'s 1,326 combo weights after card removal, into `out[1326]`.
    pub fn pp_spot_weights(spot: ?*const anyopaque, player: u32, out: ?[*]f64) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        if (player >= s.players) return .bad_argument;
        @memcpy(o[0..combos_count], &s.weights[player]);
        return .ok;
    }

    /// How many runouts complete the board (1 on a river).
    pub fn pp_spot_runouts(spot: ?*const anyopaque) callconv(.c) u64 {
        return equity_count.runouts(as_spot(spot orelse return 0));
    }

    /// Monte Carlo over the spot: games `first_game .. first_game + games` of the stream
    /// `seed` (game g depends on seed and g only; fewer than 2^32 a call), added to `out` (`out_len` Sums, at least
    /// players × 1,327: per player, one per combo held, then one unused).
    pub fn pp_spot_sample(spot: ?*const anyopaque, seed: u64, first_game: u64, games: u64, out: ?[*]Sums, out_len: u64) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        if (out_len < s.players * spot_zig.slots or games >= 1 << 32) return .bad_argument;
        const counts = std.heap.page_allocator.alloc(equity_sample.Counts, s.players * spot_zig.slots) catch return .out_of_memory;
        defer std.heap.page_allocator.free(counts);
        kernels().equity_sample(s, deal.seed_key(seed), first_game, games, counts.ptr, o);
        return .ok;
    }

    /// Exact count over the spot (boards of 3 to 5 cards): `order` lists every player once,
    /// the counted player last; items `first_item .. first_item + items` of
    /// `pp_spot_runouts × pp_spot_support(order[0])` are added to `out` as in
    /// `pp_spot_sample`, the counted player's in its last slot.
    pub fn pp_spot_count(spot: ?*const anyopaque, order: ?[*]const u8, first_item: u64, items: u64, out: ?[*]Sums, out_len: u64) callconv(.c) Status {
        const s = as_spot(spot orelse return .null_pointer);
        const o = out orelse return .null_pointer;
        const ord = order orelse return .null_pointer;
        if (out_len < s.players * spot_zig.slots) return .bad_argument;
        var seen: u32 = 0;
        for (ord[0..s.players]) |p| {
            if (p >= s.players or seen >> @intCast(p) & 1 != 0) return .bad_argument;
            seen |= @as(u32, 1) << @intCast(p);
        }
        const total = equity_count.items(s, ord[0]);
        if (first_item > total or items > total - first_item) return .bad_argument;
        if (items == 0) return .ok;
        const scratch = std.heap.page_allocator.alloc(f64, equity_count.scratch_len) catch return .out_of_memory;
        defer std.heap.page_allocator.free(scratch);
        kernels().equity_count(s, ord, first_item, items, scratch.ptr, o);
        return .ok;
    }

    /// Ranks `n` showdowns: boards `[n][board_cards]` (0..5 cards), holes
    /// `[n][players][2]` (1..23 players) → `out[n][players]`.
    pub fn pp_rank_showdown(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        players: u32,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards > 5 or players < 1 or board_cards + 2 * players > eval.card_count) {
            return .bad_argument;
        }
        if (n == 0) return .ok;
        if (board_cards > 0 and boards == null) return .null_pointer;
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const b: [*]const u8 = boards orelse h; // not read when board_cards is 0
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().rank_showdown(b, board_cards, h, players, n, o, &failure)) return .ok;
        return report_hand_error(err, failure.to());
    }

    /// Omaha showdowns (zsrc/omaha.zig): `n` boards of `board_cards` (3..5) and `n` rows of
    /// `players` hands of `hole_cards` (4..6) → `n * players` ranks of the best hand of
    /// exactly two hole cards and three board cards. A card that is not a card, or is
    /// twice in a row, fails the call naming the row (`err`).
    pub fn pp_rank_omaha(
        boards: ?[*]const u8,
        board_cards: u32,
        holes: ?[*]const u8,
        hole_cards: u32,
        players: u32,
        n: u64,
        out: ?[*]u16,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards < omaha.board_cards_min or board_cards > omaha.board_cards_max or
            hole_cards < omaha.hole_cards_min or hole_cards > omaha.hole_cards_max or
            players < 1 or board_cards + hole_cards * players > eval.card_count)
        {
            return .bad_argument;
        }
        if (n == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().rank_omaha(b, board_cards, h, hole_cards, players, n, o, &failure)) return .ok;
        return report_hand_error(err, failure.to());
    }

    /// Omaha equity (zsrc/omaha_equity.zig): `players` (2..10) hands of `hole_cards` (4..6)
    /// card ids each, 255 for a card dealt each game; `board_cards` (0, 3, 4 or 5) known
    /// board cards; `dead` cards out of play. Exact (`exact`, every hole card known): adds
    /// the runouts numbered `part` modulo `parts` to `out` (`players` Sums) and `*games`.
    /// Monte Carlo: adds games `first_game .. first_game + games` of the stream `seed`.
    /// A card that is not a card or is dealt twice fails naming it (`err.row` the player,
    /// -1 the board, -2 the dead cards).
    pub fn pp_omaha_equity(
        holes: ?[*]const u8,
        hole_cards: u32,
        players: u32,
        board: ?[*]const u8,
        board_cards: u32,
        dead: u64,
        exact: bool,
        seed: u64,
        first: u64,
        count: u64,
        out: ?[*]Sums,
        games: ?*u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const h = holes orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        const g = games orelse return .null_pointer;
        if (hole_cards < omaha.hole_cards_min or hole_cards > omaha.hole_cards_max or
            players < 2 or players > omaha_equity.players_max or
            !(board_cards == 0 or (board_cards >= 3 and board_cards <= 5)))
        {
            return .bad_argument;
        }
        const b: []const u8 = if (board_cards == 0) &.{} else (board orelse return .null_pointer)[0..board_cards];
        const held = h[0 .. players * hole_cards];
        var used: u64 = 0;
        var unknown: u32 = 0;
        const places = [_]struct { cards: []const u8, row: i64, per: u32 }{
            .{ .cards = b, .row = -1, .per = 1 },
            .{ .cards = held, .row = 0, .per = hole_cards },
        };
        for (places) |place| for (place.cards, 0..) |card, i| {
            const row: i64 = if (place.row < 0) place.row else @intCast(i / place.per);
            if (card == omaha_equity.unknown and place.row >= 0) {
                unknown += 1;
                continue;
            }
            if (card >= eval.card_count) return report_player(err, row, card, .card_out_of_range);
            const bit = @as(u64, 1) << @intCast(card);
            if (used & bit != 0 or dead & bit != 0) return report_player(err, row, card, .duplicate_card);
            used |= bit;
        };
        if (dead & deal.full_deck != dead) return report_player(err, -2, @ctz(dead & ~deal.full_deck), .card_out_of_range);
        const deck = deal.full_deck & ~used & ~dead;
        if (@popCount(deck) < unknown + 5 - board_cards) return .bad_argument;
        if (exact and (unknown > 0 or count != 0 and first >= count)) return .bad_argument;
        const spot: omaha_equity.Spot = .{ .holes = held, .hole_cards = hole_cards, .players = players, .board = b, .deck = deck };
        if (exact) {
            // first: this part, count: the parts.
            g.* += kernels().omaha_exact(&spot, @intCast(first), @intCast(count), o);
        } else {
            kernels().omaha_sample(&spot, deal.seed_key(seed), first, count, o);
            g.* += count;
        }
        return .ok;
    }

    /// Writes up to `capacity` k-card subsets of `deck` (card sets, in Gosper order) after
    /// `*state`; `*state = 0` starts. Sets `*written`; fewer than `capacity` means done.
    pub fn pp_combinations(
        deck: u64,
        k: u32,
        state: ?*u64,
        out: ?[*]u64,
        capacity: u64,
        written: ?*u64,
    ) callconv(.c) Status {
        if (deck & eval.set_invalid_bits != 0) return .card_out_of_range;
        if (k < 1 or k > @popCount(deck)) return .bad_argument;
        const s = state orelse return .null_pointer;
        const w = written orelse return .null_pointer;
        if (capacity > 0 and out == null) return .null_pointer;
        if (s.* == 0) s.* = enumerate.first_state(k);
        if (@popCount(s.*) != k and s.* != enumerate.done_state(deck)) return .bad_argument;
        var none: [0]u64 = .{};
        w.* = kernels().combinations(deck, s, out orelse &none, capacity);
        return .ok;
    }

    /// Adds to `counts[16]` (index = category) the categories of every k-card hand (1..7)
    /// from `deck` whose lowest card is the deck's slot `first_slot + i * stride`.
    pub fn pp_category_counts(
        deck: u64,
        k: u32,
        first_slot: u32,
        stride: u32,
        counts: ?[*]u64,
    ) callconv(.c) Status {
        if (deck & eval.set_invalid_bits != 0) return .card_out_of_range;
        if (k < 1 or k > eval.hand_cards_max or k > @popCount(deck) or stride < 1) {
            return .bad_argument;
        }
        const c = counts orelse return .null_pointer;
        kernels().category_counts(deck, k, first_slot, stride, c[0..16]);
        return .ok;
    }

    /// Deals `n` rows of `k` distinct cards, none in `exclude`, into `out[n * k]`. Row `i` is
    /// row `first_row + i` of the stream named by `seed`, whatever the batch or thread.
    pub fn pp_deal(
        seed: u64,
        first_row: u64,
        n: u64,
        k: u32,
        exclude: u64,
        out: ?[*]u8,
    ) callconv(.c) Status {
        if (exclude & eval.set_invalid_bits != 0) return .card_out_of_range;
        const deck = deal.full_deck & ~exclude;
        if (k < 1 or k > @popCount(deck)) return .bad_argument;
        if (n == 0) return .ok;
        const o = out orelse return .null_pointer;
        kernels().deal(deal.seed_key(seed), first_row, k, deck, o, n);
        return .ok;
    }

    /// Every two-card combo against a weighted range on each of `n` boards (`boards[n][3..5]`):
    /// `weights[1326]` (or `[n][1326]` with `per_board`, finite, ≥ 0) is the range before card
    /// removal. Over every runout to the river when `to_river`, else on the board as it is.
    /// Writes `equity[n][1326]` and, where not null, `ehs2[n][1326]` (E[equity²] over
    /// runouts) and `histogram[n][1326][bins]` (each runout's weight in the bin of the combo's
    /// equity on it, as fractions). NaN where a combo meets the board or no opponent is left.
    /// A bad board names its row and card; a bad weight its row (-1: the shared range) in
    /// `row` and combo in `position`.
    pub fn pp_board_values(
        boards: ?[*]const u8,
        board_cards: u32,
        n: u64,
        weights: ?[*]const f64,
        per_board: u32,
        to_river: u32,
        bins: u32,
        equity_out: ?[*]f64,
        ehs2_out: ?[*]f64,
        histogram_out: ?[*]f64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards < 3 or board_cards > features.board_cards_max) return .bad_argument;
        if ((histogram_out != null) != (bins > 0) or bins > features.bins_max) return .bad_argument;
        if (n == 0) return .ok;
        const b = boards orelse return .null_pointer;
        const w = weights orelse return .null_pointer;
        const e = equity_out orelse return .null_pointer;
        if (batch.diagnose_showdown_rows(b[0 .. n * board_cards], board_cards, &.{}, 0, n)) |bad| {
            return report_hand_error(err, bad);
        }
        const weight_count = if (per_board != 0) n * combos_count else combos_count;
        for (w[0..weight_count], 0..) |x, i| {
            if (std.math.isFinite(x) and x >= 0) continue;
            const row: i64 = if (per_board != 0) @intCast(i / combos_count) else -1;
            if (err) |out| out.* = .{ .row = @bitCast(row), .card = -1, .position = @intCast(i % combos_count) };
            return .bad_weight;
        }
        const scratch = std.heap.page_allocator.create(features.Scratch) catch return .out_of_memory;
        defer std.heap.page_allocator.destroy(scratch);
        const cells = n * combos_count;
        var none: [0]f64 = .{};
        kernels().board_values(
            b,
            board_cards,
            n,
            w,
            per_board != 0,
            to_river != 0,
            bins,
            e,
            ehs2_out orelse &none,
            if (ehs2_out != null) cells else 0,
            histogram_out orelse &none,
            if (histogram_out != null) cells * bins else 0,
            scratch,
        );
        return .ok;
    }

    /// Features of `n` hands against a uniform random opponent: holes `[n][2]`, boards
    /// `[n][3..5]` → `out[n]` and, where not null, `histogram[n][bins]` (the share of runouts
    /// whose final equity falls in each of `bins` equal bins). Bad cards name row and card.
    pub fn pp_hand_features(
        holes: ?[*]const u8,
        boards: ?[*]const u8,
        board_cards: u32,
        n: u64,
        bins: u32,
        out: ?[*]HandFeatures,
        histogram_out: ?[*]f64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (board_cards < 3 or board_cards > features.board_cards_max) return .bad_argument;
        if ((histogram_out != null) != (bins > 0) or bins > features.bins_max) return .bad_argument;
        if (n == 0) return .ok;
        const h = holes orelse return .null_pointer;
        const b = boards orelse return .null_pointer;
        const o = out orelse return .null_pointer;
        if (batch.diagnose_showdown_rows(b[0 .. n * board_cards], board_cards, h[0 .. 2 * n], 1, n)) |bad| {
            return report_hand_error(err, bad);
        }
        var none: [0]f64 = .{};
        kernels().hand_features(h, b, board_cards, n, bins, o, histogram_out orelse &none);
        return .ok;
    }

    /// How many canonical hands (hand isomorphism, Waugh 2013) there are of `hole` hole
    /// cards (0 or 2) and `board` board cards (0, 3, 4, 5), the board one round or, with
    /// `per_street`, the flop, turn and river rounds of their own; 0 for no such layout.
    pub fn pp_hand_index_size(hole: u32, board: u32, per_street: u32) callconv(.c) u64 {
        return isomorphism.layout_size(hole, board, per_street != 0);
    }

    /// The canonical index of `n` hands: `holes[n][hole]`, `boards[n][board]` (a layout
    /// `pp_hand_index_size` knows) → `out[n]`. Card ids are checked: the error names the row,
    /// the card and its position (hole cards first).
    pub fn pp_hand_index(
        holes: ?[*]const u8,
        hole: u32,
        boards: ?[*]const u8,
        board: u32,
        per_street: u32,
        n: u64,
        out: ?[*]u64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (isomorphism.layout_size(hole, board, per_street != 0) == 0) return .bad_argument;
        if (n == 0) return .ok;
        const o = out orelse return .null_pointer;
        if ((hole > 0 and holes == null) or (board > 0 and boards == null)) return .null_pointer;
        const h: [*]const u8 = holes orelse boards.?;
        const b: [*]const u8 = boards orelse h;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().hand_index(hole, h, board, b, per_street != 0, n, o, &failure)) return .ok;
        return report_isomorphism_error(err, failure);
    }

    /// The canonical hand of each of `n` indices → `holes[n][hole]`, `boards[n][board]`.
    pub fn pp_hand_unindex(
        hole: u32,
        board: u32,
        per_street: u32,
        indices: ?[*]const u64,
        n: u64,
        holes: ?[*]u8,
        boards: ?[*]u8,
        err: ?*Error,
    ) callconv(.c) Status {
        if (isomorphism.layout_size(hole, board, per_street != 0) == 0) return .bad_argument;
        if (n == 0) return .ok;
        const i = indices orelse return .null_pointer;
        if ((hole > 0 and holes == null) or (board > 0 and boards == null)) return .null_pointer;
        const h: [*]u8 = holes orelse boards.?;
        const b: [*]u8 = boards orelse h;
        var failure: kernel_abi.HandFailure = undefined;
        if (kernels().hand_unindex(hole, board, per_street != 0, i, n, h, b, &failure)) return .ok;
        return report_isomorphism_error(err, failure);
    }

    /// Writes the cards of the 1,326 two-card combos, in the order ranges cross this ABI
    /// (lower card first, lexicographic), into `out[1326][2]`.
    pub fn pp_combos(out: ?[*]u8) callconv(.c) Status {
        const o = out orelse return .null_pointer;
        for (0..combos_count) |c| {
            o[2 * c] = combos.first[c];
            o[2 * c + 1] = combos.second[c];
        }
        return .ok;
    }

    /// The kernels in use: 0 = baseline, 1 = avx2 (AVX2 + BMI2), 2 = avx512.
    pub fn pp_cpu_level() callconv(.c) u32 {
        return active_level.load(.monotonic);
    }

    /// Bit i set when this CPU can run level i (bit 0, baseline, always).
    pub fn pp_cpu_supported() callconv(.c) u32 {
        return 1 | (@as(u32, @intFromBool(cpu_has_avx2_level())) << 1) |
            (@as(u32, @intFromBool(cpu_has_avx512_level())) << 2);
    }

    /// Switches every later call to the kernels of `level`; process-wide, so do it before
    /// ranking from other threads. Refuses a level this CPU cannot run.
    pub fn pp_select_cpu(level: u32) callconv(.c) Status {
        if (level > @backingInt(CpuLevel.avx512)) return .bad_argument;
        if (api.pp_cpu_supported() & (@as(u32, 1) << @intCast(level)) == 0) return .bad_argument;
        active_level.store(level, .monotonic);
        return .ok;
    }

    /// The payload a rank was made from (`category << 20` and five value nibbles, most
    /// significant first, value + 1, 0 = no card); 0 when no hand has that rank.
    pub fn pp_describe_payload(rank: u16) callconv(.c) u32 {
        return eval.describe_payload(rank);
    }
};

comptime {
    // Only the library exports (gen_header.zig imports this file for its declarations).
    if (@import("root") == @This()) for (@typeInfo(api).@"struct".decl_names) |name| {
        @export(&@field(api, name), .{ .name = name, .linkage = .strong });
    };
}

test "capi: statuses for bad arguments, never a crash" {
    var out: [1]u16 = undefined;
    var err: Error = undefined;
    try std.testing.expectEqual(Status.bad_argument, api.pp_rank_cards(null, 1, 8, &out, &err));
    try std.testing.expectEqual(Status.null_pointer, api.pp_rank_cards(null, 1, 5, &out, &err));
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards(null, 0, 5, null, null));
    const cards = [_]u8{ 1, 2, 3, 4, 60 };
    try std.testing.expectEqual(Status.card_out_of_range, api.pp_rank_cards(&cards, 1, 5, &out, &err));
    try std.testing.expectEqual(@as(i32, 60), err.card);
    try std.testing.expectEqual(@as(i32, 4), err.position);
    const offsets = [_]i64{ 0, 4, 2 };
    var counts: [2]u32 = undefined;
    try std.testing.expectEqual(Status.bad_argument, api.pp_parse_cards("AhKd", &offsets, 2, null, 0, &counts, &err));
}

test "capi: one hand's calls rank as the batch does and answer 0 for a bad hand" {
    const ids = [_]u8{ 12, 25, 38, 51, 11, 24, 0 };
    var out: [1]u16 = undefined;
    try std.testing.expectEqual(Status.ok, api.pp_rank_cards(&ids, 1, 7, &out, null));
    const chars: [*]const c_char = @ptrCast(&ids);
    try std.testing.expectEqual(out[0], api.pp_rank_hand(chars, 7));
    const text = "AsAcAhAdKsKc2s";
    try std.testing.expectEqual(out[0], api.pp_rank_text(@ptrCast(text), text.len));
    const repeated = [_]u8{ 3, 3 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&repeated), 2));
    const past = [_]u8{ 3, 52 };
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&past), 2));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_hand(@ptrCast(&ids), 0));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_text(@ptrCast(text), 0));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_text(@ptrCast("AhAh"), 4));
    try std.testing.expectEqual(@as(u16, 0), api.pp_rank_text(@ptrCast("AhKdQcJsTs9h8h7h"), 16));
}
