//! Enumeration of card subsets (seed 001).
//!
//! Every k-subset of a deck is a k-bit word over the deck's *slots* (0 = its lowest card):
//! Gosper's hack steps from one such word to the next larger one, and PDEP deposits the slot
//! word onto the deck's card bits. The state is one word, so enumeration resumes anywhere.
const std = @import("std");
const encoding = @import("encoding.zig");
const bits = @import("bits.zig");
const random = @import("random.zig");
const assert = std.debug.assert;
const enumerate = @This();

/// The next larger word with the same number of set bits (HAKMEM item 175).
pub inline fn gosper_next(combo: u64) u64 {
    assert(combo != 0);
    const smeared = combo | (combo - 1);
    const carried = smeared +% 1;
    return carried | (((~smeared & carried) - 1) >> @intCast(@ctz(combo) + 1));
}

/// Cards of `deck` at the slots set in `slots` (a software PDEP where BMI2 is absent).
pub inline fn deposit(slots: u64, deck: u64) u64 {
    if (comptime bits.has_pdep) return bits.pdep(slots, deck);
    var result: u64 = 0;
    var remaining = slots;
    while (remaining != 0) : (remaining &= remaining - 1) {
        result |= @as(u64, 1) << bits.nth_set_bit_portable(deck, @ctz(remaining));
    }
    return result;
}

/// Writes the next `out.len` (or fewer, at the end) k-subsets of `deck` after `state.*`,
/// which starts at `first_state(k)`; returns how many were written. `state.*` becomes
/// `done_state(deck)` once every subset has been written.
pub fn combinations(deck: u64, state: *u64, out: []u64) usize {
    const end = done_state(deck);
    var combo = state.*;
    assert(combo != 0);
    var written: usize = 0;
    while (written < out.len and combo < end) : (written += 1) {
        out[written] = deposit(combo, deck);
        combo = gosper_next(combo);
    }
    state.* = @min(combo, end);
    assert(written <= out.len);
    // Resumable: either `out` filled, or every subset walked.
    assert(written == out.len or state.* == end);
    return written;
}

pub fn first_state(k: u32) u64 {
    assert(k >= 1);
    assert(k < 64);
    return (@as(u64, 1) << @intCast(k)) - 1;
}

pub fn done_state(deck: u64) u64 {
    assert(@popCount(deck) < 64);
    return @as(u64, 1) << @intCast(@popCount(deck));
}

/// This file's kernel, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// `combinations` into `out[capacity]`.
pub const kernels = struct {
    pub fn combinations(deck: u64, state: *u64, out: [*]u64, capacity: u64) callconv(.c) u64 {
        return enumerate.combinations(deck, state, out[0..capacity]);
    }
};

test "gosper_next: walks 5-bit words of a 7-bit space in order" {
    var combo: u64 = 0b11111;
    var count: usize = 1;
    while (true) {
        const next = gosper_next(combo);
        if (next >= 1 << 7) break;
        try std.testing.expect(next > combo and @popCount(next) == 5);
        combo = next;
        count += 1;
    }
    try std.testing.expectEqual(@as(usize, 21), count);
}

test "combinations: every subset once, resumable, cards only from the deck" {
    const deck: u64 = encoding.full_deck & ~@as(u64, 0b1011 << 20);
    var state = first_state(3);
    var seen = std.AutoHashMap(u64, void).init(std.testing.allocator);
    defer seen.deinit();
    var buffer: [1000]u64 = undefined;
    while (true) {
        const written = combinations(deck, &state, &buffer);
        for (buffer[0..written]) |set| {
            try std.testing.expect(set & ~deck == 0 and @popCount(set) == 3);
            try std.testing.expect(!(try seen.getOrPut(set)).found_existing);
        }
        if (written < buffer.len) break;
    }
    try std.testing.expectEqual(@as(usize, 49 * 48 * 47 / 6), seen.count());
    // The portable deposit agrees with PDEP.
    var x: u64 = 99;
    for (0..1000) |_| {
        x = random.mix64(x);
        const slots = x & ((@as(u64, 1) << 49) - 1);
        var portable: u64 = 0;
        var remaining = slots;
        while (remaining != 0) : (remaining &= remaining - 1) {
            portable |= @as(u64, 1) << bits.nth_set_bit_portable(deck, @ctz(remaining));
        }
        try std.testing.expectEqual(portable, deposit(slots, deck));
    }
}
