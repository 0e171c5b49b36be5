//! What went wrong with a call's input: the one failure record of the library. Every kernel
//! and every check fills one where the failure is found (on every CPU level and across the
//! kernel objects' C ABI, so it is an `extern struct`); abi/status.zig's `report_hand_error`
//! alone turns it into a `Status` and a `pp_error` for the caller, and Python's
//! `_native.raise_failure` alone into an exception.

/// The first bad row of a batch (a hand, a string, a player, a table), and why.
pub const HandError = extern struct {
    /// The row within the call; for a spot's players also `board_row` and `dead_row`, for an
    /// arena `config_row`.
    row: u64,
    kind: Kind,
    /// The offending card id (or set bit), or -1 when no single card is to blame; for a
    /// refused action or agent, the refusal or fault's number.
    card: i32 = -1,
    /// The offending card's position in its row (hole cards first, then the board's; a byte
    /// offset for text; a combo for a weight), or -1; for `too_many_cards`, the row's card
    /// count where it is known.
    position: i32 = -1,

    /// Every way input can fail. Each name is also a `Status` (abi/status.zig maps one to
    /// the other by name, so a kind without its status does not compile).
    pub const Kind = enum(u32) {
        card_out_of_range,
        duplicate_card,
        empty_hand,
        too_many_cards,
        inconsistent_key,
        /// A canonical index past its street's size (hand isomorphism).
        index_out_of_range,
        /// A card the game's deck lacks (a short deck's deuce to five).
        card_not_in_deck,
        /// Card text: a character that is not a value, or not a suit.
        bad_value,
        bad_suit,
        /// Card text: more cards than the output holds.
        output_full,
        /// A combo weight that is negative or not finite.
        bad_weight,
        /// An argument, a table or a config the rules cannot take.
        bad_argument,
        /// An action the rules refuse (`card` holds the refusal).
        illegal_action,
    };

    /// The rows of a spot's board and dead cards, and of an arena's config: before the first.
    pub const board_row: u64 = @bitCast(@as(i64, -1));
    pub const dead_row: u64 = @bitCast(@as(i64, -2));
    pub const config_row: u64 = board_row;

    /// A failure of `row` counted from -2 (the players' places, the tables' config).
    pub fn at(row: i64, kind: Kind, card: i32, position: i32) HandError {
        return .{ .row = @bitCast(row), .kind = kind, .card = card, .position = position };
    }
};

/// A kernel's C-ABI answer (abi/kernel_table.zig) to what its algorithm `found`: true when
/// nothing failed, else false with `*failure` filled for the export to report.
pub fn none(found: ?HandError, failure: *HandError) bool {
    failure.* = found orelse return true;
    return false;
}
