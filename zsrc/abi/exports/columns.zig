//! Exports that rank Arrow columns in place: every row gets a rank (0 when bad) and a status
//! byte (0 good, 1 bad), and the call names the first bad row that is not null the way the
//! strict calls name theirs (`err`), so a caller raising on it words it from that record.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../../cards/encoding.zig");
const batch = @import("../../rank/batch.zig");
const parse = @import("../../cards/parse.zig");
const HandError = @import("../../cards/failure.zig").HandError;
const reports = @import("../status.zig");
const Status = reports.Status;
const Error = reports.Error;
const kernels = @import("../dispatch.zig").kernels;

/// No bytes at all (every row empty): any valid pointer will do.
const no_bytes = [1]u8{0};

/// A column as its kernel read it, for finding why a row it flagged is bad.
const Column = union(enum) {
    cards: struct { cards: [*]const u8, k: u32 },
    sets: [*]const u64,
    lists: Offsets,
    strings: Offsets,
};

/// Bytes and Arrow offsets (`width` 4: i32, 8: i64) into them.
const Offsets = struct {
    bytes: [*]const u8,
    offsets: *const anyopaque,
    width: u32,

    fn row(o: Offsets, i: usize) []const u8 {
        const start, const end = switch (o.width) {
            4 => .{ @as(i64, offsets_as(i32, o.offsets)[i]), @as(i64, offsets_as(i32, o.offsets)[i + 1]) },
            else => .{ offsets_as(i64, o.offsets)[i], offsets_as(i64, o.offsets)[i + 1] },
        };
        assert(end >= start);
        return o.bytes[@intCast(start)..@intCast(end)];
    }

    fn offsets_as(comptime Offset: type, offsets: *const anyopaque) [*]const Offset {
        return @ptrCast(@alignCast(offsets));
    }
};

/// The call's answer once the kernel has run: ok, or the first row flagged in `status` that
/// `valid` (Arrow's validity bitmap from bit `valid_offset`; null: no nulls) counts, reported.
fn answer(column: Column, status: []const u8, valid: ?[*]const u8, valid_offset: u64, err: ?*Error) Status {
    assert(status.len > 0); // the exports answer no rows before any kernel runs
    var from: usize = 0;
    while (std.mem.indexOfScalarPos(u8, status, from, 1)) |row| : (from = row + 1) {
        if (valid) |bitmap| {
            const bit = valid_offset + row;
            if (bitmap[bit / 8] >> @intCast(bit % 8) & 1 == 0) continue; // a null row
        }
        const failure = why(column, row);
        assert(failure.row == row);
        return reports.report_hand_error(err, failure);
    }
    return .ok;
}

/// Why the kernel flagged `row`: what the strict call on the same row finds.
fn why(column: Column, row: usize) HandError {
    const found = switch (column) {
        .cards => |c| batch.diagnose_card_row(c.cards[row * c.k ..][0..c.k], row),
        .sets => |sets| batch.diagnose_set(sets[row], row),
        .lists => |o| list_failure(o.row(row), row),
        .strings => |o| text_failure(o.row(row), row),
    };
    // A flagged row always has a reason; a kernel that flagged a good one is a bug.
    return found orelse .{ .row = row, .kind = .bad_argument };
}

fn list_failure(cards: []const u8, row: usize) ?HandError {
    assert(cards.len <= std.math.maxInt(i32));
    if (cards.len > encoding.hand_cards_max) return .{ .row = row, .kind = .too_many_cards, .position = @intCast(cards.len) };
    return batch.diagnose_card_row(cards, row);
}

fn text_failure(text: []const u8, row: usize) ?HandError {
    // Room for every distinct card: a longer hand repeats one, which the parser names.
    var ids: [encoding.card_count]u8 = undefined;
    var counts: [1]u32 = undefined;
    const offsets = [2]i64{ 0, @intCast(text.len) };
    if (parse.parse_strings(text, &offsets, &ids, &counts)) |failure| {
        assert(failure.row == 0); // one string, its own row 0
        var found = failure;
        found.row = row;
        return found;
    }
    if (counts[0] > encoding.hand_cards_max) return .{ .row = row, .kind = .too_many_cards, .position = @intCast(counts[0]) };
    return null;
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
    valid: ?[*]const u8,
    valid_offset: u64,
    err: ?*Error,
) Status {
    if (offset_width != 4 and offset_width != 8) return .bad_argument;
    if (n == 0) return .ok;
    const column: Offsets = .{ .bytes = bytes orelse &no_bytes, .offsets = offsets orelse return .null_pointer, .width = offset_width };
    const o = out orelse return .null_pointer;
    const s = status orelse return .null_pointer;
    const kernel = @field(kernels().*, @tagName(field));
    kernel(column.bytes, column.offsets, offset_width, n, o, s);
    const tagged: Column = if (field == .rank_lists_status) .{ .lists = column } else .{ .strings = column };
    return answer(tagged, s[0..n], valid, valid_offset, err);
}

pub const api = struct {
    /// Ranks `n` hands of `k` (0..7) card ids each (`cards` may be null when `k` is 0).
    /// Every column call writes a rank (0 when bad) and a status byte (0 good, 1 bad: a card
    /// that is not a card, a card twice, or a hand of over 7 cards; for text, anything that
    /// does not read as cards) for every row, never stopping at a bad one. Null rows hold
    /// arbitrary values: the caller masks them out, and passes Arrow's validity bitmap as
    /// `valid` (bit `valid_offset + i` for row i; null when no row is null) so that the status
    /// returned, with `err`, names the first bad row that is not null (`ok` when none is).
    pub fn pp_rank_cards_status(
        cards: ?[*]const u8,
        n: u64,
        k: u32,
        out: ?[*]u16,
        status: ?[*]u8,
        valid: ?[*]const u8,
        valid_offset: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        const c = switch (reports.card_rows(cards, n, k, 0, encoding.hand_cards_max)) {
            .rows => |rows| rows,
            .done => |done| return done,
        };
        const s = status orelse return .null_pointer;
        kernels().rank_cards_status(c, n, k, out orelse return .null_pointer, s);
        return answer(.{ .cards = .{ .cards = c, .k = k } }, s[0..n], valid, valid_offset, err);
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
        valid: ?[*]const u8,
        valid_offset: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        return offsets_column(.rank_lists_status, values, offsets, offset_width, n, out, status, valid, valid_offset, err);
    }

    /// Card sets (bit i = card i).
    pub fn pp_rank_sets_status(
        sets: ?[*]const u64,
        n: u64,
        out: ?[*]u16,
        status: ?[*]u8,
        valid: ?[*]const u8,
        valid_offset: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        if (n == 0) return .ok;
        const s = sets orelse return .null_pointer;
        const flags = status orelse return .null_pointer;
        kernels().rank_sets_status(s, n, out orelse return .null_pointer, flags);
        return answer(.{ .sets = s }, flags[0..n], valid, valid_offset, err);
    }

    /// Strings of card text: `offsets[n + 1]` (i32 or i64, as for lists) into `text`.
    pub fn pp_rank_strings_status(
        text: ?[*]const u8,
        offsets: ?*const anyopaque,
        offset_width: u32,
        n: u64,
        out: ?[*]u16,
        status: ?[*]u8,
        valid: ?[*]const u8,
        valid_offset: u64,
        err: ?*Error,
    ) callconv(.c) Status {
        return offsets_column(.rank_strings_status, text, offsets, offset_width, n, out, status, valid, valid_offset, err);
    }
};

test "column calls: the first bad row that is not null, named as the strict calls name it" {
    const cards = [_]u8{ 1, 2, 60, 3, 3, 4, 5, 5, 6 };
    var out: [3]u16 = undefined;
    var status: [3]u8 = undefined;
    var err: Error = undefined;
    try std.testing.expectEqual(Status.card_out_of_range, api.pp_rank_cards_status(&cards, 3, 3, &out, &status, null, 0, &err));
    try std.testing.expectEqual([3]u8{ 1, 1, 1 }, status);
    try std.testing.expectEqual(@as(u64, 0), err.row);
    try std.testing.expectEqual(@as(i32, 60), err.card);
    try std.testing.expectEqual(@as(i32, 2), err.position);
    // Row 0 null (bit 3 of the bitmap clear, from offset 3): row 1's repeated 3 instead.
    const valid = [_]u8{0b0011_0000};
    try std.testing.expectEqual(Status.duplicate_card, api.pp_rank_cards_status(&cards, 3, 3, &out, &status, &valid, 3, &err));
    try std.testing.expectEqual(@as(u64, 1), err.row);
    try std.testing.expectEqual(@as(i32, 3), err.card);
    const text = "AhKdAx2c3c4c5c6c7c8c9c";
    const offsets = [_]i32{ 0, 4, 6, 22 };
    try std.testing.expectEqual(Status.bad_suit, api.pp_rank_strings_status(text, &offsets, 4, 3, &out, &status, null, 0, &err));
    try std.testing.expectEqual(@as(u64, 1), err.row);
    try std.testing.expectEqual(@as(i32, 1), err.position);
    const no_bad_suit = [_]u8{0b101};
    try std.testing.expectEqual(Status.too_many_cards, api.pp_rank_strings_status(text, &offsets, 4, 3, &out, &status, &no_bad_suit, 0, &err));
    try std.testing.expectEqual(@as(u64, 2), err.row);
    try std.testing.expectEqual(@as(i32, 8), err.position); // the row's cards
    const sets = [_]u64{ 0x7F, 1 << 55 };
    try std.testing.expectEqual(Status.card_out_of_range, api.pp_rank_sets_status(&sets, 2, &out, &status, null, 0, &err));
    try std.testing.expectEqual(@as(i32, 55), err.card);
    try std.testing.expectEqual(Status.ok, api.pp_rank_sets_status(&sets, 1, &out, &status, null, 0, &err));
}
