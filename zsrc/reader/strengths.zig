//! Hand strength of all 1,326 combos on one board at once, exactly as the equity agent finds
//! it one combo at a time (arena/agents/strength.zig's `Board.hs`): HS = (opponent hands
//! beaten * 2 + ties) / (live * (live - 1)), opponents of two cards off the board and the
//! combo. The counts come from one sweep of the live combos in rank order: with L the live
//! combos ranked below r and L[x] those of them holding card x, a combo {x, y} of rank r
//! beats L - L[x] - L[y] hands (no hand below r holds both x and y: that is the combo
//! itself), and ties E - E[x] - E[y] + 1 (E the combos of rank r, the combo among them,
//! counted in E, E[x] and E[y]). The same integers, the same division: the same f64.
const std = @import("std");
const eval = @import("../rank/eval.zig");
const combos = @import("../cards/combos.zig");
const encoding = @import("../cards/encoding.zig");
const assert = std.debug.assert;

const hash_size = 4096;

comptime {
    // Open addressing stays short: at most a strength a combo, under a third full.
    assert(hash_size >= 3 * combos.count);
    assert(std.math.isPowerOfTwo(hash_size));
}

pub const Strengths = struct {
    /// The board these strengths are for; `unset` before any.
    board: u64 = unset,
    hs: [combos.count]f64 = undefined,
    /// The distinct HS values of the live combos (`unique_count` of them) and each live
    /// combo's among them: a policy of the HS alone is asked once per value (often a third
    /// of the combos: suits that do not meet the board give equal counts).
    unique: [combos.count]f64 = undefined,
    unique_count: u16 = 0,
    slot: [combos.count]u16 = undefined,

    const unset: u64 = std.math.maxInt(u64);

    /// HS of every combo on `board` (3 to 5 cards; a combo that meets it gets 0).
    pub fn rank(self: *Strengths, board: u64) void {
        if (self.board == board) return;
        assert(@popCount(board) >= 3);
        assert(@popCount(board) <= 5);
        var keys: [combos.count]u32 = undefined; // rank << 16 | combo, live combos only
        var live: u32 = 0;
        for (0..combos.count) |c| {
            const hand = combos.set(@intCast(c));
            self.hs[c] = 0;
            if (hand & board != 0) continue;
            keys[live] = @as(u32, eval.rank_set(board | hand)) << 16 | @as(u32, @intCast(c));
            live += 1;
        }
        // Every two cards off the board is a live combo.
        const left: u32 = encoding.card_count - @popCount(board);
        assert(live == left * (left - 1) / 2);
        sort_keys(keys[0..live]);
        self.sweep(keys[0..live], board);
        self.board = board;
        // At least one strength; at most one a combo.
        assert(self.unique_count >= 1);
        assert(self.unique_count <= live);
    }

    /// The slot of `halves` among the unique values, added when new (open addressing).
    fn slot_of(self: *Strengths, halves: u32, seen: *[hash_size]u32, seen_slot: *[hash_size]u16, hs: f64) u16 {
        var h = (halves *% 0x9E37_79B1) >> 20;
        while (true) : (h = (h + 1) % hash_size) {
            if (seen[h] == halves + 1) return seen_slot[h];
            if (seen[h] == 0) {
                // A slot a distinct strength: at most one a combo, the table never full.
                assert(self.unique_count < combos.count);
                assert(self.unique_count < hash_size);
                seen[h] = halves + 1;
                seen_slot[h] = self.unique_count;
                self.unique[self.unique_count] = hs;
                self.unique_count += 1;
                return seen_slot[h];
            }
        }
    }

    fn sweep(self: *Strengths, keys: []const u32, board: u64) void {
        assert(keys.len > 0);
        assert(keys.len <= combos.count);
        var below: u64 = 0;
        var below_card: [encoding.card_count]u32 = @splat(0);
        var equal_card: [encoding.card_count]u32 = @splat(0);
        const cards: u64 = encoding.card_count - 2 - @as(u64, @popCount(board));
        const hands: f64 = @floatFromInt(cards * (cards - 1));
        var seen: [hash_size]u32 = @splat(0); // halves + 1 (0: empty)
        var seen_slot: [hash_size]u16 = undefined;
        self.unique_count = 0;
        var start: usize = 0;
        while (start < keys.len) {
            var end = start;
            while (end < keys.len and keys[end] >> 16 == keys[start] >> 16) end += 1;
            for (keys[start..end]) |key| {
                const c = key & 0xFFFF;
                equal_card[combos.first[c]] += 1;
                equal_card[combos.second[c]] += 1;
            }
            const equal: u64 = end - start;
            for (keys[start..end]) |key| {
                const c = key & 0xFFFF;
                const x = combos.first[c];
                const y = combos.second[c];
                const beaten = below - below_card[x] - below_card[y];
                const tied = equal + 1 - equal_card[x] - equal_card[y];
                const halves: u32 = @intCast(2 * beaten + tied);
                self.hs[c] = @as(f64, @floatFromInt(halves)) / hands;
                self.slot[c] = self.slot_of(halves, &seen, &seen_slot, self.hs[c]);
            }
            for (keys[start..end]) |key| {
                const c = key & 0xFFFF;
                below_card[combos.first[c]] += 1;
                below_card[combos.second[c]] += 1;
                equal_card[combos.first[c]] = 0;
                equal_card[combos.second[c]] = 0;
            }
            below += equal;
            start = end;
        }
        // Every live combo swept once.
        assert(below == keys.len);
    }
};

/// Sorts by the rank (the high 16 bits): two counting passes of eight bits, stable.
fn sort_keys(keys: []u32) void {
    assert(keys.len <= combos.count);
    var buffer: [combos.count]u32 = undefined;
    var source = keys;
    var target = buffer[0..keys.len];
    inline for (.{ 16, 24 }) |shift| {
        var counts: [257]u32 = @splat(0);
        for (source) |key| counts[(key >> shift & 0xFF) + 1] += 1;
        for (1..257) |i| counts[i] += counts[i - 1];
        for (source) |key| {
            const bucket = key >> shift & 0xFF;
            target[counts[bucket]] = key;
            counts[bucket] += 1;
        }
        const swap = source;
        source = target;
        target = swap;
    }
    // Two passes: the sorted keys are back in `keys`.
    assert(source.ptr == keys.ptr);
}

test "reader strengths: every combo's HS equals the agents' own, bit for bit" {
    const agents_strength = @import("../arena/agents/strength.zig");
    var mine: Strengths = .{};
    var theirs: agents_strength.Board = .{};
    var state: u64 = 0x1234_5678;
    for (0..300) |trial| {
        var board: u64 = 0;
        const k = 3 + trial % 3;
        while (@popCount(board) < k) {
            state = state *% 6364136223846793005 +% 1442695040888963407;
            const range: u64 = if (trial % 4 == 0) 13 else 52;
            board |= @as(u64, 1) << @intCast((state >> 33) % range);
        }
        mine.rank(board);
        theirs.rank(board);
        for (0..combos.count) |c| {
            if (combos.set(@intCast(c)) & board != 0) continue;
            try std.testing.expectEqual(theirs.hs(@intCast(c)), mine.hs[c]);
            try std.testing.expectEqual(mine.hs[c], mine.unique[mine.slot[c]]);
        }
    }
}
