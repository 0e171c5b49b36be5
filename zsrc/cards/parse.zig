//! Card text → card ids, for many strings at once (Arrow's string layout: one byte buffer
//! and `n + 1` offsets).
//!
//! A card is a value (`2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`) then a suit (`s`, `c`, `h`,
//! `d`), both case-insensitive. Cards may be separated by white space or commas, or not at
//! all ("AhKd 7c", "ah,kd,7c" and "AhKd7c" are the same hand). No card may appear twice in
//! one string.
const std = @import("std");
const encoding = @import("encoding.zig");

const HandError = @import("failure.zig").HandError;

/// A value letter's value 0..12 (either case; `1` of "10" is not one), or null.
pub fn value_of(char: u8) ?u8 {
    const value = char_class[char];
    return if (value < encoding.value_count) value else null;
}

/// A suit letter's suit 0..3 (either case), or null.
pub fn suit_of(char: u8) ?u8 {
    const suit = suit_class[char];
    return if (suit < encoding.suit_count) suit else null;
}

/// The tables the hot parsers read (rank/columns.zig, rank/rows_avx2.zig): one byte → its class.
pub const separator: u8 = 0xFE;
pub const ten_first: u8 = 0xFD; // '1', the start of "10"

/// Per byte: a card value 0..12, `separator`, `ten_first`, or 0xFF for anything else.
pub const char_class: [256]u8 = classes: {
    var classes: [256]u8 = @splat(0xFF);
    for (encoding.value_letters, 0..) |letter, value| {
        classes[std.ascii.toUpper(letter)] = value;
        classes[std.ascii.toLower(letter)] = value;
    }
    for (" ,\t\n\r") |char| classes[char] = separator;
    classes['1'] = ten_first;
    break :classes classes;
};

/// Per byte: a suit 0..3, or 0xFF.
pub const suit_class: [256]u8 = classes: {
    var classes: [256]u8 = @splat(0xFF);
    for (encoding.suit_letters, 0..) |letter, suit| {
        classes[std.ascii.toUpper(letter)] = suit;
        classes[std.ascii.toLower(letter)] = suit;
    }
    break :classes classes;
};

/// What reading one card found: the card (and where its text starts), the end of the
/// string, or where text that is not a card starts (a value) or goes wrong (a suit).
pub const CardRead = union(enum) {
    card: struct { id: u8, start: u32 },
    end,
    bad_value: u32,
    bad_suit: u32,
};

/// Reads the card at `string[i.*]`, white space and commas before it skipped and "10" read
/// as a ten, advancing `i` past it: the one reading of card text every parser shares
/// (`parse_strings` here, the Arrow column kernels' general path in rank/columns.zig).
pub inline fn next_card(string: []const u8, i: *usize) CardRead {
    while (i.* < string.len and char_class[string[i.*]] == separator) i.* += 1;
    if (i.* == string.len) return .end;
    const start: u32 = @intCast(i.*);
    var value = char_class[string[i.*]];
    i.* += 1;
    if (value == ten_first) {
        if (i.* == string.len or string[i.*] != '0') return .{ .bad_value = start };
        i.* += 1;
        value = value_of('T').?;
    }
    if (value >= encoding.value_count) return .{ .bad_value = start };
    const suit = if (i.* < string.len) suit_class[string[i.*]] else 0xFF;
    if (suit >= encoding.suit_count) return .{ .bad_suit = @intCast(i.*) };
    i.* += 1;
    return .{ .card = .{ .id = suit * encoding.value_count + value, .start = start } };
}

/// Parses string `row` (bytes `text[offsets[row]..offsets[row + 1]]`) for every row, writing
/// card ids in order to `out_ids` and each string's card count to `out_counts`.
pub fn parse_strings(
    text: []const u8,
    offsets: []const i64,
    out_ids: []u8,
    out_counts: []u32,
) ?HandError {
    std.debug.assert(offsets.len == out_counts.len + 1);
    var written: usize = 0;
    for (out_counts, 0..) |*count, row| {
        const string = text[@intCast(offsets[row])..@intCast(offsets[row + 1])];
        var seen: u64 = 0;
        var i: usize = 0;
        count.* = 0;
        while (true) {
            const read = switch (next_card(string, &i)) {
                .card => |card| card,
                .end => break,
                .bad_value => |at| return .{ .row = row, .kind = .bad_value, .position = @intCast(at) },
                .bad_suit => |at| return .{ .row = row, .kind = .bad_suit, .position = @intCast(at) },
            };
            const card = read.id;
            const start = read.start;
            const bit = @as(u64, 1) << @intCast(card);
            if (seen & bit != 0) {
                return .{ .row = row, .kind = .duplicate_card, .position = @intCast(start), .card = card };
            }
            seen |= bit;
            if (written == out_ids.len) return .{ .row = row, .kind = .output_full, .position = @intCast(start) };
            out_ids[written] = card;
            written += 1;
            count.* += 1;
        }
    }
    return null;
}

test "parse_strings: forms, separators and errors" {
    const text = "AhKd 7c10s,2C";
    var ids: [8]u8 = undefined;
    var counts: [1]u32 = undefined;
    try std.testing.expectEqual(
        @as(?HandError, null),
        parse_strings(text, &.{ 0, text.len }, &ids, &counts),
    );
    try std.testing.expectEqual(@as(u32, 5), counts[0]);
    try std.testing.expectEqualSlices(u8, &.{ 38, 50, 18, 8, 13 }, ids[0..5]);

    const bad = [_]struct { text: []const u8, kind: HandError.Kind, position: i32 }{
        .{ .text = "Ax", .kind = .bad_suit, .position = 1 },
        .{ .text = "1h", .kind = .bad_value, .position = 0 },
        .{ .text = "AhAh", .kind = .duplicate_card, .position = 2 },
        .{ .text = "Kd A", .kind = .bad_suit, .position = 4 },
    };
    for (bad) |case| {
        const e = parse_strings(case.text, &.{ 0, @intCast(case.text.len) }, &ids, &counts).?;
        try std.testing.expectEqual(case.kind, e.kind);
        try std.testing.expectEqual(case.position, e.position);
    }
}
