//! The arena's rules, one named test per rule, each with an outcome worked out by hand
//! (the numbers in the comments), and the regression tests for the bugs other engines have
//! shipped: short all-ins reopening betting, the min raise after one, heads-up order, side
//! pots with ties, odd chips. `zig build test -Dtest-filter=arena` runs them.
const std = @import("std");
const table_zig = @import("table.zig");
const rules = @import("rules.zig");
const deal = @import("deal.zig");
const play = @import("play.zig");
const encoding = @import("../cards/encoding.zig");
const Table = table_zig.Table;
const Kind = rules.Kind;
const Street = table_zig.Street;
const expectEqual = std.testing.expectEqual;
const expect = std.testing.expect;

comptime {
    _ = table_zig;
    _ = @import("random_player.zig");
    _ = @import("fuzz.zig");
}

fn config(stacks: []const u32, small_blind: u32, big_blind: u32) deal.Config {
    var result = std.mem.zeroes(deal.Config);
    result.seed = 7;
    result.seats = @intCast(stacks.len);
    @memcpy(result.stacks[0..stacks.len], stacks);
    result.small_blind = small_blind;
    result.big_blind = big_blind;
    return result;
}

fn started(settings: deal.Config) Table {
    var table: Table = undefined;
    deal.start_hand(&table, &settings, 0, 0, .first);
    return table;
}

fn act(table: *Table, kind: u8, amount: u32) !void {
    try expectEqual(rules.Refusal.none, rules.check(table, kind, amount));
    rules.apply(table, kind, amount, null);
    try expect(table.chips_conserved());
}

/// A refused action leaves every byte of the table as it was.
fn refused(table: *Table, kind: u8, amount: u32, why: rules.Refusal) !void {
    const before = table.*;
    try expectEqual(why, rules.check(table, kind, amount));
    try expect(std.mem.eql(u8, std.mem.asBytes(&before), std.mem.asBytes(table)));
}

/// "Ah" → card id (suit * 13 + value; suits s c h d).
fn card(text: *const [2]u8) u8 {
    const value: u8 = @intCast(std.mem.indexOfScalar(u8, encoding.value_letters, text[0]).?);
    const suit: u8 = @intCast(std.mem.indexOfScalar(u8, encoding.suit_letters, text[1]).?);
    return suit * 13 + value;
}

fn set_cards(table: *Table, holes: []const *const [4]u8, board: *const [10]u8) void {
    for (holes, 0..) |hole, seat| table.hole[seat] = .{ card(hole[0..2]), card(hole[2..4]) };
    for (0..5) |i| table.board[i] = card(board[2 * i ..][0..2]);
}

test "arena: heads-up: the button posts the small blind, acts first preflop and last after" {
    var table = started(config(&.{ 100, 100 }, 1, 2));
    try expectEqual(@as(u8, 0), table.button);
    try expectEqual([2]u32{ 1, 2 }, table.bet[0..2].*);
    try expectEqual(@as(u8, 0), table.actor);
    const options = rules.legal(&table);
    try expectEqual(@as(u32, 1), options.to_call);
    try expectEqual(@as(u32, 4), options.min_to); // 2 + max(0, big blind 2)
    try expectEqual(@as(u32, 100), options.max_to);
    try act(&table, Kind.call, 0);
    try expectEqual(@as(u8, 1), table.actor); // the big blind's option
    try refused(&table, Kind.fold, 0, .fold_without_bet);
    try act(&table, Kind.check, 0);
    try expectEqual(Street.flop, table.street);
    try expectEqual(@as(u8, 1), table.actor); // the big blind first after the flop
    try act(&table, Kind.check, 0);
    try expectEqual(@as(u8, 0), table.actor);
    try act(&table, Kind.check, 0);
    try expectEqual(Street.turn, table.street);
    try expectEqual(@as(u8, 1), table.actor);
}

test "arena: six-max order, straddle, and min raise over it" {
    var settings = config(&.{ 100, 100, 100, 100, 100, 100 }, 1, 2);
    settings.straddle = 4;
    settings.button = 0;
    var table = started(settings);
    // SB seat 1, BB seat 2, straddle seat 3; seat 4 opens.
    try expectEqual([6]u32{ 0, 1, 2, 4, 0, 0 }, table.bet[0..6].*);
    try expectEqual(@as(u8, 4), table.actor);
    const options = rules.legal(&table);
    try expectEqual(@as(u32, 4), options.to_call);
    try expectEqual(@as(u32, 6), options.min_to); // 4 + max(0, big blind 2), as pokerkit
    try refused(&table, Kind.raise, 5, .raise_below_min);
    try refused(&table, Kind.raise, 101, .raise_above_max);
    try refused(&table, Kind.check, 0, .check_facing_bet);
    try refused(&table, 5, 0, .unknown_kind);
    try act(&table, Kind.raise, 10); // increment 6: the next raise must add 6
    try expectEqual(@as(u32, 16), rules.legal(&table).min_to);
}

test "arena: a short all-in does not reopen betting for seats that acted" {
    // Button 0 acts first three-handed; SB seat 1, BB seat 2 with 15 chips.
    var table = started(config(&.{ 100, 100, 15 }, 1, 2));
    try expectEqual(@as(u8, 0), table.actor);
    try act(&table, Kind.raise, 10); // full: increment 8
    try act(&table, Kind.call, 0); // SB to 10
    try act(&table, Kind.all_in, 0); // BB all in to 15: increment 5 < 8, short
    try expectEqual(@as(u32, 15), table.current_bet);
    try expectEqual(@as(u8, 0), table.actor);
    const options = rules.legal(&table);
    try expectEqual(@as(u8, 0b00101), options.mask); // fold or call only
    try expectEqual(@as(u32, 5), options.to_call);
    try refused(&table, Kind.raise, 30, .raise_closed);
    try refused(&table, Kind.all_in, 0, .all_in_closed);
    try act(&table, Kind.call, 0);
    try expectEqual(@as(u8, 0b00101), rules.legal(&table).mask); // the SB too
    try act(&table, Kind.call, 0);
    try expectEqual(Street.flop, table.street);
    try expectEqual(@as(u8, 1), table.actor); // the all-in BB is skipped
    try expectEqual([3]u32{ 15, 15, 15 }, table.committed[0..3].*);
}

test "arena: the min raise after a short all-in is the last full raise" {
    var table = started(config(&.{ 200, 200, 17 }, 1, 2));
    try act(&table, Kind.call, 0); // button
    try act(&table, Kind.call, 0); // SB
    try act(&table, Kind.check, 0); // BB: flop, 6 in the pot, seat 2 has 15 left
    try expectEqual(@as(u8, 1), table.actor);
    try expectEqual(@as(u32, 2), rules.legal(&table).min_to); // min bet = big blind
    try act(&table, Kind.raise, 10); // seat 1 bets 10
    try act(&table, Kind.all_in, 0); // seat 2 all in to 15: short (5 < 10)
    const options = rules.legal(&table); // seat 0 has not acted: it may raise
    try expectEqual(@as(u8, 0), table.actor);
    try expectEqual(@as(u32, 25), options.min_to); // 15 + 10, not 15 + 5
    try refused(&table, Kind.raise, 24, .raise_below_min);
    try act(&table, Kind.raise, 25); // a full raise reopens betting for seat 1
    try expectEqual(@as(u8, 1), table.actor);
    try expectEqual(@as(u32, 35), rules.legal(&table).min_to);
}

test "arena: an uncalled bet goes back" {
    var table = started(config(&.{ 100, 40 }, 1, 2));
    set_cards(&table, &.{ "2c3d", "AhAd" }, "KsQs9h7c4d");
    try act(&table, Kind.all_in, 0); // button to 100
    try act(&table, Kind.call, 0); // BB calls all in for 40: 60 uncalled
    try expectEqual(Street.over, table.street);
    try expectEqual([2]u32{ 60, 80 }, table.stack[0..2].*); // aces win 2 x 40

    var folded = started(config(&.{ 100, 100 }, 1, 2));
    try act(&folded, Kind.raise, 50);
    try act(&folded, Kind.fold, 0);
    try expectEqual([2]u32{ 102, 98 }, folded.stack[0..2].*);
}

test "arena: side pots at every all-in level, a tie splitting the side pot" {
    var settings = config(&.{ 50, 100, 100, 100 }, 1, 2);
    settings.button = 3; // SB seat 0, BB seat 1, seat 2 opens
    var table = started(settings);
    set_cards(&table, &.{ "AhAd", "Kc3d", "Kd3c", "4c5d" }, "AsKsQd7c2h");
    try expectEqual(@as(u8, 2), table.actor);
    try act(&table, Kind.all_in, 0); // seat 2 to 100
    try act(&table, Kind.call, 0); // seat 3 all in
    try act(&table, Kind.all_in, 0); // seat 0 calls all in for 50
    try act(&table, Kind.call, 0); // seat 1
    try expectEqual(Street.over, table.street);
    // Main pot 4 x 50 = 200 to trip aces; side pot 3 x 50 = 150 split by the two kings.
    try expectEqual([4]u32{ 200, 75, 75, 0 }, table.stack[0..4].*);
}

test "arena: odd chips of a split pot go to the first winner left of the button" {
    var settings = config(&.{ 100, 100, 100, 100 }, 1, 2);
    settings.button = 0;
    var table = started(settings);
    set_cards(&table, &.{ "2c3c", "2d3d", "2h4c", "4d5c" }, "AsKsQsJsTs");
    try act(&table, Kind.call, 0); // seat 3
    try act(&table, Kind.call, 0); // seat 0
    try act(&table, Kind.call, 0); // SB seat 1
    try act(&table, Kind.check, 0); // BB seat 2: 8 in the pot
    try act(&table, Kind.raise, 2); // seat 1 bets 2
    try act(&table, Kind.call, 0); // seat 2
    try act(&table, Kind.call, 0); // seat 3
    try act(&table, Kind.fold, 0); // seat 0: the pot is 14
    for (0..6) |_| try act(&table, Kind.check, 0); // turn and river
    // The board plays for all three: 14 = 3 x 4 + 2, both odd chips to seat 1.
    try expectEqual([4]u32{ 98, 102, 100, 100 }, table.stack[0..4].*);
}

test "arena: the pots of hands that win nothing merge before the split, as pokerkit's do" {
    var settings = config(&.{ 100, 100, 12, 10 }, 1, 2);
    settings.ante = 1;
    settings.bb_ante = 1;
    var table = started(settings); // SB seat 1, BB seat 2 (and its ante), seat 3 opens
    set_cards(&table, &.{ "AsTh", "AcTd", "3c4c", "5d6d" }, "KsQsJd7c2h");
    try act(&table, Kind.all_in, 0); // seat 3 to 10
    try act(&table, Kind.raise, 30); // seat 0
    try act(&table, Kind.call, 0); // seat 1
    try act(&table, Kind.all_in, 0); // seat 2 calls all in for 11
    for (0..6) |_| try act(&table, Kind.check, 0);
    // Pots 1 + 4 x 10 = 41, 3 x 1 = 3, 2 x 19 = 38. Split one by one, seat 1 (first left
    // of the button) would take 42 and seat 0 40; but the two straights win every pot, so
    // all three have the same players and merge into one of 82: 41 each.
    try expectEqual([4]u32{ 111, 111, 0, 0 }, table.stack[0..4].*);
}

test "arena: antes are dead money, one per seat or the big blind's for the table" {
    var settings = config(&.{ 100, 100, 100 }, 1, 2);
    settings.ante = 1;
    var table = started(settings);
    try expectEqual(@as(u32, 3), table.antes);
    try expectEqual([3]u32{ 99, 98, 97 }, table.stack[0..3].*);
    try act(&table, Kind.fold, 0);
    try act(&table, Kind.fold, 0); // BB wins 3 antes + 1 + its 2 back
    try expectEqual([3]u32{ 99, 98, 103 }, table.stack[0..3].*);

    settings.bb_ante = 1;
    table = started(settings);
    try expectEqual(@as(u32, 1), table.antes);
    try expectEqual([3]u32{ 100, 99, 97 }, table.stack[0..3].*);
}

test "arena: a seat short of the ante wins from each other seat only the ante it matched" {
    var settings = config(&.{ 100, 100, 100 }, 1, 2);
    settings.ante = 3;
    settings.carry = 1;
    var table = started(settings);
    table.street = Street.over; // as if the first hand ended with these stacks
    table.stack = .{ 100, 2, 100, 0, 0, 0, 0, 0, 0, 0 };
    deal.start_hand(&table, &settings, 0, 1, .next);
    // Button seat 1 is all in on an ante of 2; SB seat 2, BB seat 0.
    try expectEqual(@as(u8, 1), table.button);
    try expectEqual(@as(u32, 8), table.antes);
    try expectEqual([3]u32{ 95, 0, 96 }, table.stack[0..3].*);
    set_cards(&table, &.{ "KsKh", "AsAh", "2c7d" }, "AdKd9c5h3s");
    try act(&table, Kind.call, 0); // seat 2
    for (0..7) |_| try act(&table, Kind.check, 0);
    // Seats 0 and 2 put in 5 each (ante 3, 2 called). Seat 1's aces take 2 from each seat
    // (6), seat 0's kings the 3 + 3 above. With every ante dead in the main pot, seat 1
    // would take all 8 antes.
    try expectEqual([3]u32{ 101, 6, 95 }, table.stack[0..3].*);
}

test "arena: a seat short of its blind is all in for what it has; the call is what was posted" {
    var settings = config(&.{ 100, 100, 100 }, 1, 2);
    settings.carry = 1;
    var table = started(settings);
    table.street = Street.over; // as if the first hand ended with these stacks
    table.stack = .{ 1, 150, 49, 0, 0, 0, 0, 0, 0, 0 };
    deal.start_hand(&table, &settings, 0, 1, .next);
    // Button 1, SB seat 2, BB seat 0 posts 1 and is all in.
    try expectEqual(@as(u8, 1), table.button);
    try expectEqual([3]u32{ 1, 0, 1 }, table.bet[0..3].*);
    try expectEqual(@as(u8, 1), table.actor);
    try expectEqual(@as(u32, 1), rules.legal(&table).to_call);
    try expectEqual(@as(u32, 3), rules.legal(&table).min_to);
}

test "arena: the button moves to the next seat with chips; busted seats sit out" {
    var settings = config(&.{ 100, 100, 100, 100 }, 1, 2);
    settings.carry = 1;
    var table = started(settings);
    table.street = Street.over;
    table.stack = .{ 100, 0, 150, 150, 0, 0, 0, 0, 0, 0 };
    deal.start_hand(&table, &settings, 0, 1, .next);
    try expectEqual(@as(u8, 2), table.button); // seat 1 has no chips
    try expectEqual(@as(u16, 0b1101), table.dealt);
    try expectEqual(@as(u32, 1), table.bet[3]);
    try expectEqual(@as(u32, 2), table.bet[0]);
    // Fewer than two seats with chips: everyone rebuys.
    table.street = Street.over;
    table.stack = .{ 400, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    table.start = table.stack;
    deal.start_hand(&table, &settings, 0, 2, .next);
    try expectEqual(@as(u16, 0b1111), table.dealt);
}

test "arena: a hand with no decision is played out" {
    var settings = config(&.{ 100, 100 }, 1, 2);
    settings.carry = 1;
    var table = started(settings);
    table.street = Street.over;
    table.stack = .{ 1, 199, 0, 0, 0, 0, 0, 0, 0, 0 };
    deal.start_hand(&table, &settings, 0, 1, .next);
    // Button seat 1 posts the small blind, seat 0 is all in on its big blind of 1: no one
    // can bet more, so the board comes out.
    try expectEqual(table_zig.no_seat, table.actor);
    var winnings = [2]i64{ 0, 0 };
    const finished = play.advance(&table, &settings, &winnings);
    try expect(finished >= 1);
    try expect(winnings[0] + winnings[1] == 0);
    try expect(table.actor != table_zig.no_seat);
}

test "arena: no raise when no one else could call more" {
    var table = started(config(&.{ 100, 30 }, 1, 2));
    try act(&table, Kind.call, 0);
    try act(&table, Kind.all_in, 0); // BB all in to 30
    const options = rules.legal(&table);
    try expectEqual(@as(u8, 0b00101), options.mask); // fold or call: raising is pointless
    try refused(&table, Kind.raise, 60, .raise_closed);
}

test "arena: cards are a pure function of (seed, table, hand)" {
    const settings = config(&.{ 100, 100, 100, 100, 100, 100 }, 1, 2);
    var a: Table = undefined;
    var b: Table = undefined;
    deal.start_hand(&a, &settings, 5, 9, .first);
    b = started(settings);
    deal.start_hand(&b, &settings, 5, 9, .first);
    try expect(std.mem.eql(u8, std.mem.asBytes(&a.hole), std.mem.asBytes(&b.hole)));
    try expect(std.mem.eql(u8, &a.board, &b.board));
    var seen: u64 = 0;
    for (a.hole[0..6]) |hole| for (hole) |c| {
        seen |= @as(u64, 1) << @intCast(c);
    };
    for (a.board) |c| seen |= @as(u64, 1) << @intCast(c);
    try expectEqual(@as(u32, 17), @popCount(seen));
}

test "arena: unknown hole cards replay until a showdown would need them" {
    var table = started(config(&.{ 100, 100, 100 }, 1, 2));
    table.hole[1] = .{ table_zig.no_card, table_zig.no_card };
    try act(&table, Kind.all_in, 0); // seat 0 to 100
    try act(&table, Kind.call, 0); // seat 1 calls all in
    try refused(&table, Kind.call, 0, .unknown_card_at_showdown);
    try refused(&table, Kind.fold, 0, .unknown_card_at_showdown); // still 0 against 1

    var folded = started(config(&.{ 100, 100, 100 }, 1, 2));
    folded.hole[1] = .{ table_zig.no_card, table_zig.no_card };
    try act(&folded, Kind.call, 0);
    try act(&folded, Kind.fold, 0); // seat 1's unknown cards leave the hand
    for (0..7) |_| try act(&folded, Kind.check, 0);
    try expectEqual(Street.over, folded.street);
    try expectEqual(@as(u32, 99), folded.stack[1]);
}
