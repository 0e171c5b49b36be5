//! What is wrong with a row of cards: the one record every kernel fills when a batch fails,
//! on every CPU level and across the kernel objects' C ABI (so it is an `extern struct`).
//! abi/status.zig turns it into a `Status` and a `pp_error` for the caller.

/// The first bad row of a batch, and why.
pub const HandError = extern struct {
    row: u64,
    kind: Kind,
    /// The offending card id (or set bit), or -1 when no single card is to blame.
    card: i32 = -1,
    /// The offending card's position in its row (hole cards first, then the board's), or -1.
    position: i32 = -1,

    pub const Kind = enum(u32) {
        card_out_of_range,
        duplicate_card,
        empty_hand,
        too_many_cards,
        inconsistent_key,
        /// A canonical index past its street's size (hand isomorphism).
        index_out_of_range,
        /// A card the game's deck lacks (a short deck's deuce to five).
        not_in_deck,
    };
};

/// A kernel's C-ABI answer (abi/kernel_table.zig) to what its algorithm `found`: true when
/// nothing failed, else false with `*failure` filled for the export to report.
pub fn none(found: ?HandError, failure: *HandError) bool {
    failure.* = found orelse return true;
    return false;
}
