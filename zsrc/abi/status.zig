//! What a call reports: the statuses every export returns, the error record it fills,
//! and the one translation from each layer's failure records into them.
const std = @import("std");
const HandError = @import("../cards/failure.zig").HandError;
const ParseError = @import("../cards/parse.zig").ParseError;

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
    if (k < k_min or k > k_max) return .{ .done = .bad_argument };
    if (n == 0) return .{ .done = .ok };
    if (cards) |c| return .{ .rows = c };
    return if (k == 0) .{ .rows = &no_cards } else .{ .done = .null_pointer };
}

/// Rows of 0 cards read nothing: any valid pointer serves when the caller passes none.
const no_cards = [1]u8{0};

/// A player's (or the board's: row -1, the dead cards': -2) bad card.
pub fn report_player(err: ?*Error, row: i64, card: u32, status: Status) Status {
    if (err) |out| out.* = .{ .row = @bitCast(row), .card = @intCast(card), .position = -1 };
    return status;
}

/// A failed batch (every kernel's `HandError`): where, and the status that names it.
pub fn report_hand_error(err: ?*Error, e: HandError) Status {
    if (err) |out| out.* = .{ .row = e.row, .card = e.card, .position = e.position };
    return switch (e.kind) {
        .card_out_of_range => .card_out_of_range,
        .duplicate_card => .duplicate_card,
        .empty_hand => .empty_hand,
        .too_many_cards => .too_many_cards,
        .inconsistent_key => .inconsistent_key,
        .index_out_of_range => .index_out_of_range,
        .not_in_deck => .card_not_in_deck,
    };
}

/// Card text that does not read.
pub fn report_parse_error(err: ?*Error, e: ParseError) Status {
    if (err) |out| out.* = .{ .row = e.row, .card = e.card, .position = @intCast(e.position) };
    return switch (e.kind) {
        .bad_value => .bad_value,
        .bad_suit => .bad_suit,
        .duplicate_card => .duplicate_card,
        .output_full => .output_full,
    };
}
