//! `random`: the arena's reference random player (random_player.zig), played exactly as
//! it is (its own three words a decision; it takes no parameters). Its policy, any cards:
//!   facing a bet: FOLD 1/4; of the other 3/4, RAISE p5 when raising is legal (to an
//!   amount uniform over min_to..max_to: `raise_uniform`), CALL the rest;
//!   nothing to call: RAISE p5 when legal, CHECK the rest;
//! where p5 = P(below(w, 5) == 0) = ceil(2^64 / 5) / 2^64 (0.2 + 1.1e-20: 0.2 as an f64).
//! below(w, 4) == 0 is exactly 1/4; the raise's amount is uniform to within 2^-64 a chip.
const policy_zig = @import("policy.zig");
const Kind = @import("../rules.zig").Kind;
const Spot = policy_zig.Spot;
const Policy = policy_zig.Policy;

/// P(below(w, 5) == 0): the words w < 2^64 / 5, i.e. floor((2^64 - 1) / 5) + 1 of them.
pub const raise_chance: f64 = @as(f64, @floatFromInt(@as(u64, (std.math.maxInt(u64)) / 5 + 1))) / 0x1.0p64;
const std = @import("std");

pub fn policy(spot: Spot) Policy {
    var out: Policy = .{};
    const rest: f64 = if (spot.faces_bet()) 0.75 else 1;
    if (spot.faces_bet()) out.prob[Kind.fold] = 0.25;
    const raised = if (spot.may_raise()) rest * raise_chance else 0;
    out.prob[Kind.raise] = raised;
    out.raise_uniform = raised > 0;
    out.prob[if (spot.faces_bet()) Kind.call else Kind.check] = rest - raised;
    return out;
}
