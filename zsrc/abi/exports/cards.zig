//! Exports over the deck: combinations in Gosper order, category counts of every hand,
//! dealing rows from the counter-based stream, and the 1,326 combos' order.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../../cards/encoding.zig");
const random = @import("../../cards/random.zig");
const enumerate = @import("../../cards/enumerate.zig");
const combos = @import("../../cards/combos.zig");
const reports = @import("../status.zig");
const Status = reports.Status;
const kernels = @import("../dispatch.zig").kernels;

pub const api = struct {
    /// The letters of card text: `PP_VALUES` value letters (deuce … ace), then `PP_SUITS`
    /// suit letters (suit 0..3), so Python names cards as the parser reads them. Static.
    pub fn pp_card_letters() callconv(.c) [*]const u8 {
        comptime assert(encoding.card_letters.len == encoding.value_count + encoding.suit_count);
        return encoding.card_letters;
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
        if (deck & encoding.set_invalid_bits != 0) return .card_out_of_range;
        if (k < 1 or k > @popCount(deck)) return .bad_argument;
        const s = state orelse return .null_pointer;
        const w = written orelse return .null_pointer;
        if (capacity > 0 and out == null) return .null_pointer;
        if (s.* == 0) s.* = enumerate.first_state(k);
        if (@popCount(s.*) != k and s.* != enumerate.done_state(deck)) return .bad_argument;
        var none: [0]u64 = .{};
        w.* = kernels().combinations(deck, s, out orelse &none, capacity);
        // Resumable: the state where the next call starts, or past the last subset.
        assert(w.* <= capacity);
        assert(w.* == capacity or s.* == enumerate.done_state(deck));
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
        if (deck & encoding.set_invalid_bits != 0) return .card_out_of_range;
        if (k < 1 or k > encoding.hand_cards_max or k > @popCount(deck) or stride < 1) {
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
        if (exclude & encoding.set_invalid_bits != 0) return .card_out_of_range;
        const deck = encoding.full_deck & ~exclude;
        assert(deck & exclude == 0 and deck & encoding.set_invalid_bits == 0);
        if (k < 1 or k > @popCount(deck)) return .bad_argument;
        if (n == 0) return .ok;
        const o = out orelse return .null_pointer;
        kernels().deal(random.seed_key(seed), first_row, k, deck, o, n);
        return .ok;
    }

    /// Writes the cards of the 1,326 two-card combos, in the order ranges cross this ABI
    /// (lower card first, lexicographic), into `out[1326][2]`.
    pub fn pp_combos(out: ?[*]u8) callconv(.c) Status {
        const o = out orelse return .null_pointer;
        for (0..combos.count) |c| {
            assert(combos.first[c] < combos.second[c]); // lower card first
            o[2 * c] = combos.first[c];
            o[2 * c + 1] = combos.second[c];
        }
        return .ok;
    }
};
