//! What a call reports: the statuses every export returns, the error record it fills,
//! and the one translation of the library's one failure record (cards/failure.zig's
//! `HandError`) into them.
const std = @import("std");
const HandError = @import("../cards/failure.zig").HandError;
const encoding = @import("../cards/encoding.zig");

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
    /// An arena action the rules refuse (`pp_error.card` holds the `pp_refusal`).
    illegal_action = 14,
    /// A card the game's deck lacks (a short deck's deuce to five): `pp_error.card` holds it.
    card_not_in_deck = 15,

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

/// What an export taking `n` rows of `k` card ids (`k_min..k_max`) does first: read
/// `.rows`, or return `.done` at once (`bad_argument` for a `k` out of range, `ok` for no
/// rows, `null_pointer` for no cards; rows of 0 cards need none).
pub const CardRows = union(enum) { rows: [*]const u8, done: Status };

pub fn card_rows(cards: ?[*]const u8, n: u64, k: u32, k_min: u32, k_max: u32) CardRows {
    std.debug.assert(k_min <= k_max and k_max <= encoding.card_count);
    if (k < k_min or k > k_max) return .{ .done = .bad_argument };
    if (n == 0) return .{ .done = .ok };
    if (cards) |c| return .{ .rows = c };
    return if (k == 0) .{ .rows = &no_cards } else .{ .done = .null_pointer };
}

/// A batch of `n` ranks a kernel wrote without failing: 0 is never a rank (the empty hand
/// has one), so the first and last rows hold real ones. Two reads, not a pass over the batch.
pub fn assert_ranked(out: [*]const u16, n: u64) void {
    std.debug.assert(n > 0);
    std.debug.assert(out[0] != 0 and out[n - 1] != 0);
}

/// Rows of 0 cards read nothing: any valid pointer serves when the caller passes none.
const no_cards = [1]u8{0};

/// The one translation of a failure: the record, where it was found, into the caller's
/// `pp_error` (row, card, position as found) and the status of the same name as its kind.
pub fn report_hand_error(err: ?*Error, e: HandError) Status {
    // A card is an id, a set bit or a refusal's number, never a byte past one; -1 is none.
    std.debug.assert(e.card >= -1 and e.position >= -1);
    if (err) |out| out.* = .{ .row = e.row, .card = e.card, .position = e.position };
    const status = status_of(e.kind);
    std.debug.assert(status != .ok);
    return status;
}

/// A failure kind's status: the one of the same name (a kind without one does not compile).
fn status_of(kind: HandError.Kind) Status {
    return switch (kind) {
        inline else => |k| @field(Status, @tagName(k)),
    };
}

test "report_hand_error: every kind its own status, the record copied as found" {
    var seen: [64]bool = @splat(false);
    for (std.enums.values(HandError.Kind)) |kind| {
        var err: Error = undefined;
        const status = report_hand_error(&err, HandError.at(-2, kind, 7, 3));
        try std.testing.expectEqualStrings(@tagName(kind), @tagName(status));
        const number: usize = @intCast(@backingInt(status));
        try std.testing.expect(!seen[number]); // no two kinds share a status
        seen[number] = true;
        try std.testing.expectEqual(HandError.dead_row, err.row);
        try std.testing.expectEqual(@as(i32, 7), err.card);
        try std.testing.expectEqual(@as(i32, 3), err.position);
    }
    try std.testing.expectEqual(Status.bad_suit, report_hand_error(null, .{ .row = 0, .kind = .bad_suit }));
}
