//! The reference random player: a fixed, documented policy that every engine can play the
//! same way (the benchmarks' pokerkit twin does, in Python), so speed and histories can be
//! compared hand for hand.
//!
//! At each decision, with words w0, w1, w2 of the counter-based mixer:
//!   hand_key = mix64(player_key(seed) + ((table << 32) | hand) * golden_gamma)
//!   w_j      = mix64(hand_key + (4 * decision + j) * golden_gamma)      (all mod 2^64)
//! where `decision` counts the actions taken in the hand before this one (from 0):
//!   1. if the seat faces a bet (to_call > 0) and below(w0, 4) == 0: FOLD;
//!   2. else if RAISE is legal and below(w1, 5) == 0: RAISE to
//!      min_to + below(w2, max_to - min_to + 1);
//!   3. else CHECK (nothing to call) or CALL.
//! `below(w, n)` is random.zig's multiply-high: (w * n) >> 64.
const std = @import("std");
const random = @import("../random.zig");
const table_zig = @import("table.zig");
const rules = @import("rules.zig");
const Table = table_zig.Table;
const assert = std.debug.assert;

pub const Action = struct { kind: u8, amount: u32 };

/// The random words of one decision.
pub fn words(key: u64, table_number: u32, hand: u32, decision: u16) [3]u64 {
    const hand_row = @as(u64, table_number) << 32 | hand;
    const hand_key = random.mix64(key +% hand_row *% random.golden_gamma);
    var out: [3]u64 = undefined;
    for (&out, 0..) |*word, j| {
        word.* = random.mix64(hand_key +% (4 * @as(u64, decision) + j) *% random.golden_gamma);
    }
    return out;
}

/// The random player's action for the seat to act.
pub fn choose(table: *const Table, key: u64) Action {
    assert(table.actor != table_zig.no_seat);
    const options = rules.legal(table);
    const w = words(key, table.table, table.hand, table.decision);
    const faces_bet = options.mask >> rules.Kind.call & 1 == 1;
    if (faces_bet and random.below(w[0], 4) == 0) return .{ .kind = rules.Kind.fold, .amount = 0 };
    if (options.allows(rules.Kind.raise) and random.below(w[1], 5) == 0) {
        const span = options.max_to - options.min_to + 1;
        return .{ .kind = rules.Kind.raise, .amount = options.min_to + random.below(w[2], span) };
    }
    return .{ .kind = if (faces_bet) rules.Kind.call else rules.Kind.check, .amount = 0 };
}
