//! The counting evaluator: slow and plainly right, for tests only (never shipped).
//!
//! It shares no code with the table generator: it works on cards (suits included) rather than
//! on value histograms, groups values by (count, value) and walks the rules from the top.
//! Its score is the payload format of rank/gen_tables.zig, so the two compare as integers:
//! `category << 20` and five nibbles of value + 1, most significant first, 0 = no card.
const std = @import("std");
const assert = std.debug.assert;
/// Deuce .. ace: the oracle counts them itself, as it counts everything.
const value_count = 13;

/// How many hands of 5, 6 and 7 cards fall in each category (index = category, 0 unused):
/// the published counts every exhaustive test checks against.
pub const category_counts = struct {
    pub const five = [10]u64{ 0, 1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40 };
    pub const six = [10]u64{ 0, 6_612_900, 9_730_740, 2_532_816, 732_160, 361_620, 205_792, 165_984, 14_664, 1_844 };
    pub const seven = [10]u64{ 0, 23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584 };
};

const Group = struct { count: u8, value: u8 };

fn score(category: u32, values: []const u8) u32 {
    assert(category >= 1 and category <= 9 and values.len <= 5); // high card .. straight flush
    var result = category << 20;
    for (values[0..@min(values.len, 5)], 0..) |v, i| {
        result |= @as(u32, v + 1) << @intCast(16 - 4 * i);
    }
    return result;
}

/// Top value of the best straight among the value bits, wheel included; null if none.
fn straight(values: u16) ?u8 {
    assert(values >> value_count == 0);
    var top: u8 = 12;
    while (top >= 4) : (top -= 1) {
        const run: u16 = @as(u16, 0x1F) << @intCast(top - 4);
        if (values & run == run) return top;
    }
    const wheel: u16 = 0b1_0000_0000_1111; // A 2 3 4 5
    if (values & wheel == wheel) return 3;
    return null;
}

/// Values present in `bits`, highest first, at most `limit`.
fn top_values(bits: u16, limit: usize, buffer: *[13]u8) []u8 {
    assert(bits >> value_count == 0 and limit >= 1 and limit <= 5); // a hand's five at most
    var n: usize = 0;
    var v: i32 = 12;
    while (v >= 0 and n < limit) : (v -= 1) {
        if (bits & (@as(u16, 1) << @intCast(v)) != 0) {
            buffer[n] = @intCast(v);
            n += 1;
        }
    }
    return buffer[0..n];
}

pub fn evaluate(cards: []const u8) u32 {
    std.debug.assert(cards.len <= 7);
    var value_counts: [13]u8 = @splat(0);
    var suit_values: [4]u16 = @splat(0);
    var all_values: u16 = 0;
    for (cards) |card| {
        value_counts[card % 13] += 1;
        suit_values[card / 13] |= @as(u16, 1) << @intCast(card % 13);
        all_values |= @as(u16, 1) << @intCast(card % 13);
    }
    var buffer: [13]u8 = undefined;

    var flush_values: ?u16 = null;
    for (suit_values) |values| {
        if (@popCount(values) >= 5) flush_values = values;
    }
    if (flush_values) |values| {
        if (straight(values)) |top| return score(9, &.{top});
    }

    // Groups sorted by count, then value, both descending.
    var groups: [13]Group = undefined;
    var group_count: usize = 0;
    var v: i32 = 12;
    while (v >= 0) : (v -= 1) {
        const count = value_counts[@intCast(v)];
        if (count > 0) {
            groups[group_count] = .{ .count = count, .value = @intCast(v) };
            group_count += 1;
        }
    }
    std.sort.insertion(Group, groups[0..group_count], {}, struct {
        fn before(_: void, a: Group, b: Group) bool {
            if (a.count != b.count) return a.count > b.count;
            return a.value > b.value;
        }
    }.before);
    const first: Group = if (group_count > 0) groups[0] else .{ .count = 0, .value = 0 };
    const second: Group = if (group_count > 1) groups[1] else .{ .count = 0, .value = 0 };

    if (first.count == 4) {
        const rest = all_values & ~(@as(u16, 1) << @intCast(first.value));
        var kickers: [13]u8 = undefined;
        return score(8, prepend(first.value, top_values(rest, 1, &kickers), &buffer));
    }
    if (first.count == 3 and second.count >= 2) return score(7, &.{ first.value, second.value });
    if (flush_values) |values| return score(6, top_values(values, 5, &buffer));
    if (straight(all_values)) |top| return score(5, &.{top});
    if (first.count == 3) {
        const rest = all_values & ~(@as(u16, 1) << @intCast(first.value));
        var kickers: [13]u8 = undefined;
        const k = top_values(rest, 2, &kickers);
        return score(4, prepend(first.value, k, &buffer));
    }
    if (first.count == 2 and second.count == 2) {
        const rest = all_values & ~(@as(u16, 1) << @intCast(first.value)) &
            ~(@as(u16, 1) << @intCast(second.value));
        var kickers: [13]u8 = undefined;
        const k = top_values(rest, 1, &kickers);
        var pair_values: [13]u8 = undefined;
        pair_values[0] = first.value;
        pair_values[1] = second.value;
        for (k, 0..) |kv, i| pair_values[2 + i] = kv;
        return score(3, pair_values[0 .. 2 + k.len]);
    }
    if (first.count == 2) {
        const rest = all_values & ~(@as(u16, 1) << @intCast(first.value));
        var kickers: [13]u8 = undefined;
        const k = top_values(rest, 3, &kickers);
        return score(2, prepend(first.value, k, &buffer));
    }
    return score(1, top_values(all_values, 5, &buffer));
}

fn prepend(head: u8, tail: []const u8, buffer: *[13]u8) []const u8 {
    assert(tail.len < 5 and head < value_count); // with the head, five values at most
    buffer[0] = head;
    for (tail, 0..) |t, i| buffer[1 + i] = t;
    return buffer[0 .. 1 + tail.len];
}

test "oracle: a few hands by hand" {
    // Full house, aces full of kings, from two trips.
    const s = evaluate(&.{ 12, 25, 38, 11, 24, 37, 0 });
    try std.testing.expectEqual(@as(u32, 7 << 20 | 13 << 16 | 12 << 12), s);
    // Wheel.
    try std.testing.expectEqual(@as(u32, 5 << 20 | 4 << 16), evaluate(&.{ 12, 13, 27, 41, 3 }));
}
