//! Hand isomorphism: a dense index of hands up to the relabelling of suits, the one of
//! Waugh (2013), "A Fast and Optimal Hand Isomorphism Algorithm", so that tables built with
//! his reference library and with pypoker share indices.
//!
//! A hand is dealt in rounds (hole cards, then the board as one round or street by street).
//! Per suit, the values dealt in each round form that suit's *configuration* (how many
//! cards each round put in the suit) and its *suit index*: round by round, the colex index
//! of the round's values among the values the suit has not used yet, in mixed radix with
//! round 0 least significant. Relabelling suits permutes the four (configuration, suit
//! index) pairs, so a hand's canonical form sorts them: configurations in decreasing order,
//! suits of equal configuration by increasing suit index. The index is then
//!     offset(configuration tuple) + Σ over groups of equal configuration, in that order,
//!       (product of the earlier groups' sizes) · multiset-colex(the group's suit indices)
//! where configuration tuples are numbered in increasing lexicographic order (the packed
//! configuration puts the first round in the highest nibble), a group of g suits each with
//! m possible suit indices has C(m + g − 1, g) multisets, and the multiset a0 ≤ a1 ≤ … is
//! numbered a0 + C(a1 + 1, 2) + C(a2 + 2, 3) + C(a3 + 3, 4).
//!
//! Every table here is computed at compile time from the round layout.
const std = @import("std");
const assert = std.debug.assert;
const encoding = @import("../cards/encoding.zig");
const bits = @import("../cards/bits.zig");
const linked = @import("../rank/linked_tables.zig");
const gathers = @import("../rank/gather.zig");

const values = encoding.value_count;
const suits = encoding.suit_count;
const value_mask: u64 = (1 << values) - 1;
/// Suit indices sit in the low 48 bits of a sort key (the largest, river per street, < 2^27).
const index_mask: u64 = (1 << 48) - 1;

comptime {
    // A suit's values are one 13-bit field of a card set, four of them in a word.
    assert(values * suits == encoding.card_count);
    assert(values * suits <= 64);
    // A configuration packs a 4-bit count a round; a sort key puts it above bit 48.
    assert(rounds_max * 4 <= @bitSizeOf(Config));
    assert(@bitSizeOf(Config) + 48 <= 64);
}

/// A suit's configuration: the count of each round, 4 bits a round, the first round highest.
const Config = u16;
pub const rounds_max = 4;

/// C(n, k) for n, k ≤ 13: how many ways a round can put k cards in a suit with n values left.
const binomial: [values + 1][values + 1]u32 = table: {
    var t: [values + 1][values + 1]u32 = @splat(@splat(0));
    for (0..values + 1) |n| {
        t[n][0] = 1;
        for (1..n + 1) |k| t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
    }
    break :table t;
};

/// Colex index of a set of values among all 13: Σ C(position of the i-th lowest, i).
const colex = linked.table("iso_colex", colex_values);
const colex_values: [1 << values]u16 = table: {
    @setEvalBranchQuota(200_000);
    var t: [1 << values]u16 = undefined;
    for (0..1 << values) |set| {
        var index: u32 = 0;
        var rest = set;
        var i: u32 = 1;
        while (rest != 0) : ({
            rest &= rest - 1;
            i += 1;
        }) index += binomial[@ctz(rest)][i];
        t[set] = index;
    }
    break :table t;
};

/// C(a + g − 1, g): multisets of g suit indices below a (g ≤ 4).
inline fn multisets(a: u64, g: usize) u64 {
    return switch (g) {
        1 => a,
        2 => a * (a + 1) / 2,
        3 => a * (a + 1) / 2 * (a + 2) / 3,
        4 => a * (a + 1) / 2 * (a + 2) / 3 * (a + 3) / 4,
        else => unreachable,
    };
}

/// The values of `set` renumbered among the values not in `used` (BMI2 PEXT where there is).
inline fn compress(set: u64, used: u64) u64 {
    if (used == 0) return set;
    if (comptime bits.has_pdep) return bits.pext(set, ~used & value_mask);
    var out: u64 = 0;
    var rest = set;
    while (rest != 0) : (rest &= rest - 1) {
        const v: u6 = @intCast(@ctz(rest));
        const below = used & ((@as(u64, 1) << v) - 1);
        out |= @as(u64, 1) << @intCast(v - @popCount(below));
    }
    return out;
}

fn widen(comptime T: type, comptime n: usize, comptime from: [n]T) [n]u32 {
    @setEvalBranchQuota(1_000_000);
    var t: [n]u32 = undefined;
    for (from, 0..) |x, i| t[i] = x;
    return t;
}

/// The values `shifted` names among the values not in `used` (the inverse of `compress`).
fn expand(shifted: u64, used: u64) u64 {
    assert(shifted >> @intCast(values - @popCount(used & value_mask)) == 0);
    var out: u64 = 0;
    var rest = shifted;
    while (rest != 0) : (rest &= rest - 1) {
        out |= @as(u64, 1) << bits.nth_set_bit_portable(~used & value_mask, @ctz(rest));
    }
    // Pair of `compress`: the same number of values, none of them used.
    assert(@popCount(out) == @popCount(shifted));
    assert(out & used == 0);
    return out;
}

/// The configurations of one round layout (per suit, its card count in each round, 4 bits a
/// round): how many suit indices each allows, and every tuple of four (one a suit, in
/// decreasing order) a hand can have, enumerated at compile time for `Indexer`'s tables.
fn Configurations(comptime layout: []const u8) type {
    assert(layout.len >= 1);
    assert(layout.len <= rounds_max);
    return struct {
        /// Every configuration tuple (four suits, decreasing), in increasing order.
        pub const configs: []const [suits]Config = enumerate();
        /// `offsets[i]`: the first index of configuration tuple i; the last is the size.
        pub const offsets: [configs.len + 1]u64 = offsets: {
            @setEvalBranchQuota(100_000);
            var t: [configs.len + 1]u64 = undefined;
            t[0] = 0;
            for (configs, 0..) |tuple, i| t[i + 1] = t[i] + tuple_size(tuple);
            break :offsets t;
        };
        pub const size: u64 = offsets[configs.len];

        pub fn places(
            comptime what: enum { multiplier, level },
        ) [configs.len][suits](if (what == .multiplier) u64 else u8) {
            @setEvalBranchQuota(1_000_000);
            var t: [configs.len][suits](if (what == .multiplier) u64 else u8) = undefined;
            for (configs, 0..) |tuple, number| {
                var multiplier: u64 = 1;
                var i: usize = 0;
                while (i < suits) {
                    var j = i + 1;
                    while (j < suits and tuple[j] == tuple[i]) j += 1;
                    for (i..j) |s| t[number][s] = if (what == .multiplier) multiplier else s - i + 1;
                    multiplier *= multisets(suit_size(tuple[i]), j - i);
                    i = j;
                }
                // The groups' sizes multiply to the tuple's.
                assert(multiplier == tuple_size(tuple));
            }
            return t;
        }

        pub fn count_in(config: Config, round: usize) u32 {
            assert(round < layout.len);
            return (config >> @intCast(4 * (layout.len - 1 - round))) & 0xf;
        }

        /// How many suit indices a suit of this configuration can have.
        pub fn suit_size(config: Config) u64 {
            var n: u64 = 1;
            var used: u32 = 0;
            for (0..layout.len) |round| {
                const k = count_in(config, round);
                assert(used + k <= values);
                n *= binomial[values - used][k];
                used += k;
            }
            assert(n >= 1);
            return n;
        }

        pub fn tuple_size(tuple: [suits]Config) u64 {
            var n: u64 = 1;
            var i: usize = 0;
            while (i < suits) {
                var j = i + 1;
                while (j < suits and tuple[j] == tuple[i]) j += 1;
                n *= multisets(suit_size(tuple[i]), @intCast(j - i));
                i = j;
            }
            assert(n >= 1);
            return n;
        }

        pub fn enumerate() []const [suits]Config {
            @setEvalBranchQuota(10_000_000);
            var found: [4096][suits]Config = undefined;
            var n: usize = 0;
            var tuple: [suits]Config = @splat(0);
            var used: [suits]u32 = @splat(0);
            enumerate_round(0, &tuple, &used, &found, &n);
            assert(n > 0);
            assert(n <= found.len);
            // Insertion sort: increasing lexicographic order of the tuples.
            for (1..n) |i| {
                const item = found[i];
                var j = i;
                while (j > 0 and less(item, found[j - 1])) : (j -= 1) found[j] = found[j - 1];
                found[j] = item;
            }
            for (1..n) |i| assert(less(found[i - 1], found[i])); // increasing, no repeats
            const out = found[0..n].*;
            return &out;
        }

        fn enumerate_round(
            round: usize,
            tuple: *[suits]Config,
            used: *[suits]u32,
            found: *[4096][suits]Config,
            n: *usize,
        ) void {
            assert(round <= layout.len);
            if (round == layout.len) {
                for (1..suits) |s| if (tuple[s] > tuple[s - 1]) return;
                found[n.*] = tuple.*;
                n.* += 1;
                return;
            }
            enumerate_suit(round, 0, layout[round], tuple, used, found, n);
        }

        fn enumerate_suit(
            round: usize,
            suit: usize,
            left: u32,
            tuple: *[suits]Config,
            used: *[suits]u32,
            found: *[4096][suits]Config,
            n: *usize,
        ) void {
            assert(suit < suits);
            assert(left <= layout[round]);
            if (suit == suits - 1) {
                if (used[suit] + left > values) return;
                return place(round, suit, left, 0, tuple, used, found, n);
            }
            const most: u32 = @min(left, values - used[suit]);
            for (0..most + 1) |k| place(
                round,
                suit,
                @intCast(k),
                left - @as(u32, @intCast(k)),
                tuple,
                used,
                found,
                n,
            );
        }

        fn place(
            round: usize,
            suit: usize,
            k: u32,
            left: u32,
            tuple: *[suits]Config,
            used: *[suits]u32,
            found: *[4096][suits]Config,
            n: *usize,
        ) void {
            assert(k <= layout[round]);
            assert(used[suit] + k <= values);
            const saved = tuple[suit];
            tuple[suit] = saved | @as(Config, k) << @intCast(4 * (layout.len - 1 - round));
            used[suit] += k;
            if (suit == suits - 1) enumerate_round(round + 1, tuple, used, found, n) else enumerate_suit(
                round,
                suit + 1,
                left,
                tuple,
                used,
                found,
                n,
            );
            used[suit] -= k;
            tuple[suit] = saved;
        }

        pub fn permutations() [24][suits]usize {
            var out: [24][suits]usize = undefined;
            var n: usize = 0;
            for (0..suits) |a| for (0..suits) |b| for (0..suits) |c| for (0..suits) |d| {
                const order = [suits]usize{ a, b, c, d };
                var seen: u32 = 0;
                for (order) |x| seen |= 1 << x;
                if (seen == 0xf) {
                    out[n] = order;
                    n += 1;
                }
            };
            assert(n == out.len); // 4! orders
            return out;
        }

        fn less(a: [suits]Config, b: [suits]Config) bool {
            for (0..suits) |s| if (a[s] != b[s]) return a[s] < b[s];
            return false;
        }
    };
}

/// The indexer of one round layout, e.g. `&.{ 2, 5 }` (hole cards, then the board as one
/// round) or `&.{ 2, 3, 1, 1 }` (hole cards, flop, turn, river).
pub fn Indexer(comptime layout: []const u8) type {
    assert(layout.len >= 1);
    assert(layout.len <= rounds_max);
    return struct {
        pub const shape = Configurations(layout);
        const count_in = shape.count_in;
        const suit_size = shape.suit_size;
        const tuple_size = shape.tuple_size;
        pub const rounds = layout;
        /// The layout in its tables' symbol names (rank/linked_tables.zig), e.g. "_2_3_1_1".
        const name = name: {
            var text: []const u8 = "";
            for (layout) |k| text = text ++ "_" ++ .{'0' + k};
            break :name text;
        };
        pub const cards: u32 = sum: {
            var n: u32 = 0;
            for (layout) |k| n += k;
            break :sum n;
        };

        pub const configs = shape.configs;
        pub const offsets = shape.offsets;
        pub const size = shape.size;

        comptime {
            // A round deals at most 15 cards to a suit (its 4-bit count), a hand at most 13.
            for (layout) |k| assert(k >= 1 and k < 16);
            assert(cards <= values);
            assert(configs.len > 0);
            // Tuple numbers are u16, with maxInt(u16) for no tuple.
            assert(configs.len < std.math.maxInt(u16));
            assert(size > 0);
            // Suit indices fit below the sort key's configuration (`index_mask`).
            assert(size <= index_mask);
        }

        /// A tuple's number from any order of its suits: `radix` of the four suits as dealt
        /// (the first three suits' counts, round by round; the fourth follows from them).
        const radix_count: u32 = count: {
            var n: u32 = 1;
            for (layout) |k| n *= (k + 1) * (k + 1) * (k + 1);
            break :count n;
        };
        /// One spare entry at the end: the vector path's 32-bit gather of the last one reads it.
        const tuple_number = linked.table("iso_tuple_number" ++ name, tuple_numbers);
        const tuple_numbers: [radix_count + 1]u16 = table: {
            @setEvalBranchQuota(10_000_000);
            var t: [radix_count + 1]u16 = @splat(std.math.maxInt(u16));
            const orders = shape.permutations();
            for (configs, 0..) |tuple, i| {
                for (orders) |order| {
                    var dealt: [suits]Config = undefined;
                    for (0..suits) |s| dealt[s] = tuple[order[s]];
                    t[radix(dealt)] = i;
                }
            }
            break :table t;
        };
        /// Radix weight of suit s's count in a round (0 for the fourth suit).
        const radix_weight: [layout.len][suits]u32 = table: {
            var t: [layout.len][suits]u32 = @splat(@splat(0));
            var multiplier: u32 = 1;
            for (layout, 0..) |k, round| {
                for (0..suits - 1) |s| {
                    t[round][s] = multiplier;
                    multiplier *= k + 1;
                }
            }
            break :table t;
        };

        /// Per tuple and sorted suit position: the product of the earlier groups' sizes, and
        /// the position's level in its group (1 for the first, 2 for the second, …).
        const place_multiplier: [configs.len][suits]u64 = shape.places(.multiplier);
        const place_level: [configs.len][suits]u8 = shape.places(.level);

        /// The vector path's tables (see `index_rows_vector`): 32-bit words for VPGATHERDD.
        pub const vector = struct {
            /// Small layouts read their tables by a hand's radix number (its configurations
            /// in any suit order), so every gather can start before the suits are sorted;
            /// large ones (per street) first read the tuple's number (16 bits) by it. 8,192
            /// slots of 32 bits are 32 KiB: an L1 data cache's worth on both vendors.
            pub const direct = radix_count <= 8192;
            const slots = if (direct) radix_count else configs.len;
            /// The tuple's first index, by slot.
            const offsets32 = linked.table("iso_offsets32" ++ name, by_slot());
            const weight: [layout.len][suits]u32 = table: {
                var t: [layout.len][suits]u32 = @splat(@splat(0));
                for (0..layout.len) |round| for (0..suits - 1) |s| {
                    t[round][s] = radix_weight[round][s];
                };
                break :table t;
            };

            /// The per-street layouts' first index by a dense slot computed from the cards
            /// (`dense_slot`): 10 hole suit pairs, 20 flop counts, 4 suits a single. One
            /// gather from it where the radix number took two (tuple number, then offset);
            /// 12.5 KiB at the river, so that it and `colex` (16 KiB) share an L1 data cache.
            const dense_offsets = linked.table("iso_dense" ++ name, dense_table());
            const dense_count = if (direct) 1 else 10 * 20 << (2 * (layout.len - 2));

            fn dense_table() [dense_count]u32 {
                @setEvalBranchQuota(100_000_000);
                var t: [dense_count]u32 = @splat(0);
                if (direct) return t;
                assert(layout.len >= 3 and layout[0] == 2 and layout[1] == 3);
                var filled: usize = 0;
                for (0..suits) |high| for (0..high + 1) |low| for (0..4) |c0| for (0..4 - c0) |c1| {
                    for (0..4 - c0 - c1) |c2| for (0..1 << (2 * (layout.len - 2))) |rest| {
                        const counts = [suits]u32{ c0, c1, c2, 3 - c0 - c1 - c2 };
                        var dealt: [suits]Config = undefined;
                        for (0..suits) |suit| {
                            const kh = @as(Config, @intFromBool(low == suit)) + @intFromBool(high == suit);
                            dealt[suit] = kh << 4 | @as(Config, @intCast(counts[suit]));
                        }
                        var singles_slot: u32 = 0;
                        for (2..layout.len) |round| {
                            const single = (rest >> @intCast(2 * (round - 2))) & 3;
                            singles_slot += @as(u32, single) * (200 << (2 * (round - 2)));
                            for (0..suits) |suit| dealt[suit] = dealt[suit] << 4 | @intFromBool(single == suit);
                        }
                        const hole = triangle[high] + low;
                        const flop = tetrahedron[c0 + c1 + c2] + triangle[c1 + c2] + c2;
                        const slot = hole + 10 * flop + singles_slot;
                        const tuple = tuple_numbers[radix(dealt)];
                        assert(tuple < configs.len);
                        assert(t[slot] == 0 and slot < dense_count);
                        t[slot] = @intCast(offsets[tuple]);
                        filled += 1;
                    };
                };
                // Every slot is one hand's suit pattern: the numbering is dense.
                assert(filled == dense_count);
                return t;
            }

            fn by_slot() [slots]u32 {
                @setEvalBranchQuota(10_000_000);
                // The vector path reads first indices in 32 bits.
                assert(offsets[configs.len - 1] <= std.math.maxInt(u32));
                var t: [slots]u32 = @splat(0);
                for (0..slots) |slot| {
                    const tuple = if (direct) tuple_numbers[slot] else slot;
                    if (tuple == std.math.maxInt(u16)) continue; // no hand has these counts
                    assert(tuple < configs.len);
                    t[slot] = @intCast(offsets[tuple]);
                }
                return t;
            }
        };

        inline fn radix(tuple: [suits]Config) u32 {
            var number: u32 = 0;
            var multiplier: u32 = 1;
            inline for (layout, 0..) |k, round| {
                inline for (0..suits - 1) |s| {
                    number += multiplier * count_in(tuple[s], round);
                    multiplier *= k + 1;
                }
            }
            assert(number < radix_count);
            return number;
        }

        /// The index of a hand given as one card set per round (valid, disjoint).
        pub inline fn index(round_sets: [layout.len]u64) u64 {
            // Per suit: sort key (configuration high, then the complement of the suit index
            // so that a decreasing sort puts equal configurations' indices increasing).
            // Valid, disjoint: the rounds' cards are all different and all cards.
            var all: u64 = 0;
            inline for (round_sets, layout) |set, k| {
                assert(@popCount(set) == k);
                all |= set;
            }
            assert(all & ~encoding.full_deck == 0);
            assert(@popCount(all) == cards);
            var keys: [suits]u64 = undefined;
            var number: u32 = 0;
            inline for (0..suits) |s| {
                var used: u64 = 0;
                var suit_index: u64 = 0;
                var multiplier: u64 = 1;
                var config: u64 = 0;
                inline for (0..layout.len) |round| {
                    const set = (round_sets[round] >> (values * s)) & value_mask;
                    const k: u32 = @popCount(set);
                    suit_index += multiplier * colex[@intCast(compress(set, used))];
                    if (round + 1 < layout.len) multiplier *= binomial[values - @popCount(used)][k];
                    used |= set;
                    config = config << 4 | k;
                    number += radix_weight[round][s] * k;
                }
                keys[s] = config << 48 | (index_mask - suit_index);
            }
            sort_decreasing(u64, &keys);
            const tuple = tuple_number[number];
            assert(tuple < configs.len);
            var result = offsets[tuple];
            inline for (0..suits) |s| {
                const a = index_mask - (keys[s] & index_mask);
                // Branch-free (a switch here became a mispredicted indirect jump). Levels 3
                // and 4 only occur with a ≤ 13, so their wrapped products are only ever
                // computed, never chosen, when a is large.
                const level = place_level[tuple][s];
                const m2 = a * (a + 1) / 2;
                const m3 = (m2 *% (a + 2)) / 3;
                const m4 = (m3 *% (a + 3)) / 4;
                var part = a;
                if (level >= 2) part = m2;
                if (level >= 3) part = m3;
                if (level >= 4) part = m4;
                result += place_multiplier[tuple][s] * part;
            }
            // Within the tuple's block of indices.
            assert(result >= offsets[tuple]);
            assert(result < offsets[tuple + 1]);
            return result;
        }

        /// The canonical hand of `index < size`: one card set per round, suits numbered in
        /// the order of the sort above (suit 0 holds the largest configuration).
        pub fn unindex(hand_index: u64) [layout.len]u64 {
            assert(hand_index < size);
            var lo: usize = 0;
            var hi: usize = configs.len;
            while (hi - lo > 1) {
                const mid = (lo + hi) / 2;
                if (offsets[mid] <= hand_index) lo = mid else hi = mid;
            }
            const tuple = configs[lo];
            assert(offsets[lo] <= hand_index);
            assert(hand_index < offsets[lo + 1]);
            var rest = hand_index - offsets[lo];
            var suit_indices: [suits]u64 = undefined;
            var i: usize = 0;
            while (i < suits) {
                var j = i + 1;
                while (j < suits and tuple[j] == tuple[i]) j += 1;
                const g: u32 = @intCast(j - i);
                const m = suit_size(tuple[i]);
                const group_size = multisets(m, g);
                var part = rest % group_size;
                rest /= group_size;
                // Largest first: a_{g-1} is the greatest a with C(a + g − 1, g) ≤ part.
                var s = j;
                while (s > i) {
                    s -= 1;
                    const level: u32 = @intCast(s - i + 1);
                    var a_lo: u64 = 0;
                    var a_hi: u64 = m;
                    while (a_hi - a_lo > 1) {
                        const mid = (a_lo + a_hi) / 2;
                        if (multisets(mid, level) <= part) a_lo = mid else a_hi = mid;
                    }
                    suit_indices[s] = a_lo;
                    part -= multisets(a_lo, level);
                }
                i = j;
            }
            // Every group took its digit of the mixed radix.
            assert(rest == 0);
            var out: [layout.len]u64 = @splat(0);
            for (0..suits) |s| {
                var used: u64 = 0;
                var left = suit_indices[s];
                for (0..layout.len) |round| {
                    const k = count_in(tuple[s], round);
                    const choices = binomial[values - @popCount(used)][k];
                    const shifted = colex_unrank(left % choices, k);
                    left /= choices;
                    const set = expand(shifted, used);
                    used |= set;
                    out[round] |= set << @intCast(values * s);
                }
            }
            // Pair of `index`'s precondition: each round its cards, all different.
            var all: u64 = 0;
            for (out, layout) |set, k| {
                assert(@popCount(set) == k);
                all |= set;
            }
            assert(@popCount(all) == cards);
            return out;
        }
    };
}

/// The k-set of values with colex index `index` (greedy over the combinatorial number system).
fn colex_unrank(index: u64, k: u32) u64 {
    assert(k <= values);
    assert(index < binomial[values][k]);
    var set: u64 = 0;
    var rest = index;
    var i = k;
    var v: u32 = values;
    while (i > 0) : (i -= 1) {
        v -= 1;
        while (binomial[v][i] > rest) v -= 1;
        rest -= binomial[v][i];
        set |= @as(u64, 1) << @intCast(v);
    }
    assert(rest == 0);
    assert(@popCount(set) == k);
    return set;
}

/// A sorting network for four keys, greatest first (scalars, or vectors lane by lane).
inline fn sort_decreasing(comptime K: type, keys: *[suits]K) void {
    const pairs = [_][2]usize{ .{ 0, 1 }, .{ 2, 3 }, .{ 0, 2 }, .{ 1, 3 }, .{ 1, 2 } };
    inline for (pairs) |p| {
        const a = keys[p[0]];
        const b = keys[p[1]];
        keys[p[0]] = @max(a, b);
        keys[p[1]] = @min(a, b);
    }
}

test "isomorphism: sizes match Waugh's" {
    try std.testing.expectEqual(@as(u64, 169), Indexer(&.{2}).size);
    try std.testing.expectEqual(@as(u64, 1_286_792), Indexer(&.{ 2, 3 }).size);
    try std.testing.expectEqual(@as(u64, 13_960_050), Indexer(&.{ 2, 4 }).size);
    try std.testing.expectEqual(@as(u64, 123_156_254), Indexer(&.{ 2, 5 }).size);
    try std.testing.expectEqual(@as(u64, 55_190_538), Indexer(&.{ 2, 3, 1 }).size);
    try std.testing.expectEqual(@as(u64, 2_428_287_420), Indexer(&.{ 2, 3, 1, 1 }).size);
    try std.testing.expectEqual(@as(u64, 1_755), Indexer(&.{3}).size);
}

/// The round layout pypoker indexes for `hole` hole cards (0 or 2) and `board` board cards
/// (0, 3, 4, 5): the board as one round, or with `per_street` the flop, turn and river as
/// rounds of their own (the same as one round up to the flop). Null when there is none.
pub fn layout_of(hole: u32, board: u32, per_street: bool) ?[]const u8 {
    inline for (layouts) |l| {
        if (l.hole == hole and l.board == board and l.per_street == per_street) {
            comptime var dealt = 0;
            inline for (l.rounds) |k| dealt += k;
            comptime assert(dealt == l.hole + l.board);
            return l.rounds;
        }
    }
    return null;
}

const LayoutEntry = struct { hole: u32, board: u32, per_street: bool, rounds: []const u8 };
const layouts = [_]LayoutEntry{
    .{ .hole = 2, .board = 0, .per_street = false, .rounds = &.{2} },
    .{ .hole = 2, .board = 3, .per_street = false, .rounds = &.{ 2, 3 } },
    .{ .hole = 2, .board = 4, .per_street = false, .rounds = &.{ 2, 4 } },
    .{ .hole = 2, .board = 5, .per_street = false, .rounds = &.{ 2, 5 } },
    .{ .hole = 2, .board = 0, .per_street = true, .rounds = &.{2} },
    .{ .hole = 2, .board = 3, .per_street = true, .rounds = &.{ 2, 3 } },
    .{ .hole = 2, .board = 4, .per_street = true, .rounds = &.{ 2, 3, 1 } },
    .{ .hole = 2, .board = 5, .per_street = true, .rounds = &.{ 2, 3, 1, 1 } },
    .{ .hole = 0, .board = 3, .per_street = false, .rounds = &.{3} },
    .{ .hole = 0, .board = 4, .per_street = false, .rounds = &.{4} },
    .{ .hole = 0, .board = 5, .per_street = false, .rounds = &.{5} },
    .{ .hole = 0, .board = 3, .per_street = true, .rounds = &.{3} },
    .{ .hole = 0, .board = 4, .per_street = true, .rounds = &.{ 3, 1 } },
    .{ .hole = 0, .board = 5, .per_street = true, .rounds = &.{ 3, 1, 1 } },
};

/// What the library's object exports for the kernel objects (see rank/linked_tables.zig): every layout's.
pub const linked_tables = tables: {
    var list: []const *const anyopaque = &.{ colex, suit_sizes_0, suit_sizes_1, suit_sizes_2 };
    for (layouts) |l| {
        const I = Indexer(l.rounds);
        list = list ++ .{ I.tuple_number, I.vector.offsets32, I.vector.dense_offsets };
    }
    break :tables list;
};

/// How many canonical hands the layout has; 0 when there is no such layout.
pub fn layout_size(hole: u32, board: u32, per_street: bool) u64 {
    inline for (layouts) |l| {
        if (l.hole == hole and l.board == board and l.per_street == per_street) return Indexer(l.rounds).size;
    }
    return 0;
}

const failures = @import("../cards/failure.zig");
const HandError = failures.HandError;

/// Indexes rows of `hole` hole cards (`holes[n][hole]`) and `board` board cards
/// (`boards[n][board]`) under the layout (which must exist: see `layout_of`).
pub fn index_rows(
    hole: u32,
    holes: []const u8,
    board: u32,
    boards: []const u8,
    per_street: bool,
    out: []u64,
) ?HandError {
    assert(holes.len == out.len * hole);
    assert(boards.len == out.len * board);
    inline for (layouts) |l| {
        if (l.hole == hole and l.board == board and l.per_street == per_street) {
            return index_rows_of(l, holes, boards, out);
        }
    }
    unreachable;
}

fn index_rows_of(
    comptime l: LayoutEntry,
    holes: []const u8,
    boards: []const u8,
    out: []u64,
) ?HandError {
    const I = Indexer(l.rounds);
    // Hole cards then one board round: the vector path takes the blocks of 8 it can.
    const vectored = comptime has_avx2 and l.hole == 2 and l.rounds.len >= 2;
    var first: usize = 0;
    if (vectored) first = index_rows_vector(l, holes, boards, out);
    assert(first <= out.len);
    for (out[first..], first..) |*o, row| {
        const cards = row_cards(l, holes, boards, row);
        // Bitwise checks, one branch a row: a card past 51, or fewer bits than cards.
        var sets: [l.rounds.len]u64 = @splat(0);
        var bad: u8 = 0;
        comptime var at = 0;
        inline for (l.rounds, 0..) |n, round| {
            inline for (0..n) |_| {
                bad |= @intFromBool(cards[at] >= encoding.card_count); // bitwise: no branch a card
                sets[round] |= @as(u64, 1) << @truncate(cards[at]);
                at += 1;
            }
        }
        var all: u64 = 0;
        for (sets) |set| all |= set;
        if ((bad | @intFromBool(@popCount(all) != l.hole + l.board)) != 0) return diagnose_row(
            cards[0..],
            row,
        );
        o.* = I.index(sets);
    }
    return null;
}

const has_avx2 = gathers.available;
const lanes = gathers.lanes;
const V = gathers.V;
const gather = gathers.gather;
const gather16 = gathers.gather16;

/// Layouts of hole cards, then the board as one round or as flop, turn (and river), eight
/// rows at a time with a row in each lane: the same index as `Indexer.index`. The hole's at
/// most two values per suit make `compress` of the next round shifts, a single card's
/// compressed value is its value less the used values below it, and tables are read by
/// gathers. Returns how many rows it indexed: a multiple of 8, stopping before a block
/// holding a bad row.
fn index_rows_vector(
    comptime l: LayoutEntry,
    holes: []const u8,
    boards: []const u8,
    out: []u64,
) usize {
    comptime std.debug.assert(l.rounds[1] + (l.rounds.len - 2) == l.board);
    comptime for (l.rounds[2..]) |n| std.debug.assert(n == 1);
    assert(holes.len >= out.len * l.hole);
    assert(boards.len >= out.len * l.board);
    var row: usize = 0;
    while (row + lanes <= out.len) : (row += lanes) {
        // The block's cards as two byte vectors, then one card position of every row each.
        const hole_bytes: @Vector(lanes * l.hole, u8) = holes[row * l.hole ..][0 .. lanes * l.hole].*;
        const board_bytes: @Vector(lanes * l.board, u8) = boards[row * l.board ..][0 .. lanes * l.board].*;
        var block = BlockCards(l).read(hole_bytes, board_bytes);
        var keys: [suits]V = undefined;
        var number: V = @splat(0);
        inline for (0..suits) |s| keys[s] = block.suit_key(s, &number);
        if (@reduce(.Or, block.bad) != 0) return row;
        const slot = if (Indexer(l.rounds).vector.direct) number else block.dense_slot();
        const result = combine_suits(l, &keys, slot);
        inline for (0..lanes) |j| out[row + j] = result[j];
    }
    assert(row % lanes == 0);
    assert(row <= out.len);
    return row;
}

/// One block's cards, a lane a row: the hole cards, the first board round's values per
/// suit, and each later round's single card with its place among its suit's unused values.
fn BlockCards(comptime l: LayoutEntry) type {
    const T = Indexer(l.rounds).vector;
    const first_board = l.rounds[1]; // the board's first round: all of it, or the flop
    const singles = l.rounds.len - 2; // then one card a round
    const one: V = @splat(1);
    const zero: V = @splat(0);
    const ones: V = @splat(0xFFFF_FFFF);
    return struct {
        hole0: Card,
        hole1: Card,
        /// What the hole's colex adds when both cards share a suit, beyond their values:
        /// C(high, 2) − high (wrapping), so that a suit's colex is a sum of masked terms.
        pair_extra: V,
        /// Per suit, the first board round's values (bits 0..12) and their count (from
        /// bit 16): one vector a suit, where two left more to spill.
        board: [suits]V,
        single: [singles]Card,
        places: [singles]V,
        /// Any lane not zero: a card past 51, or a card twice.
        bad: V,

        const Block = @This();

        inline fn read(
            hole_bytes: @Vector(lanes * l.hole, u8),
            board_bytes: @Vector(lanes * l.board, u8),
        ) Block {
            var bad: V = zero; // any lane not zero: a card past 51, or a card twice
            const hole0 = Card.of(@shuffle(u8, hole_bytes, undefined, positions(l.hole, 0)));
            const hole1 = Card.of(@shuffle(u8, hole_bytes, undefined, positions(l.hole, 1)));
            bad |= @select(u32, hole0.id == hole1.id, ones, zero);
            // The largest id of each row, checked once (ids past 51 take no shift out of
            // range: see `Card.of`).
            var top = @max(hole0.id, hole1.id);
            const high = @max(hole0.value, hole1.value);
            const pair_extra = (high *% (high -% one) >> one) -% high; // C(low, 1) + C(high, 2) − low − high
            // Per suit: the first board round's values (bits) and how many.
            var board: [suits]V = @splat(zero);
            var board_ids: [first_board]V = undefined;
            inline for (0..first_board) |c| {
                const card = Card.of(@shuffle(u8, board_bytes, undefined, positions(l.board, c)));
                board_ids[c] = card.id;
                top = @max(top, card.id);
                const counted = card.bit | @as(V, @splat(1 << 16)); // a repeat garbles only a bad row
                inline for (0..suits) |s| {
                    board[s] += counted & @select(u32, card.suit == @as(V, @splat(s)), ones, zero);
                }
            }
            // A card twice in the round: compared pair by pair (the colex table then needs
            // no size beside it, and half the L1 room).
            inline for (0..first_board) |c| inline for (0..c) |d| {
                bad |= @select(u32, board_ids[c] == board_ids[d], ones, zero);
            };
            var single: [singles]Card = undefined;
            inline for (0..singles) |j| {
                single[j] = Card.of(@shuffle(u8, board_bytes, undefined, positions(l.board, first_board + j)));
                top = @max(top, single[j].id);
                inline for (0..j) |i| bad |= @select(u32, single[i].id == single[j].id, ones, zero);
            }
            bad |= @select(u32, top >= @as(V, @splat(encoding.card_count)), ones, zero);
            // Each single card's value among the values its suit has not used before it: one
            // popcount a card (its suit's used values picked lane by lane).
            var places: [singles]V = undefined;
            inline for (0..singles) |j| {
                // The hole cards of the single's suit, then its suit's board round (a pick
                // of four), where a pick of the hole's values a suit took twice the work.
                const suit = single[j].suit;
                var used = (hole0.bit & @select(u32, hole0.suit == suit, ones, zero)) |
                    (hole1.bit & @select(u32, hole1.suit == suit, ones, zero));
                inline for (0..suits) |s| used |= board[s] & @select(u32, suit == @as(V, @splat(s)), ones, zero);
                inline for (0..j) |i| used |= single[i].bit & @select(
                    u32,
                    single[i].suit == single[j].suit,
                    ones,
                    zero,
                );
                bad |= used & single[j].bit;
                places[j] = single[j].value -% @as(V, @popCount(used & (single[j].bit -% one)));
            }
            return .{
                .hole0 = hole0,
                .hole1 = hole1,
                .pair_extra = pair_extra,
                .board = board,
                .single = single,
                .places = places,
                .bad = bad,
            };
        }

        /// The per-street layouts' slot (`dense_offsets`): the hole's suit pair, the flop's
        /// counts in the first three suits and each single's suit, in mixed radix (10, 20,
        /// 4, 4); pairs and counts numbered as `triangle` and `tetrahedron` say.
        inline fn dense_slot(block: *const Block) V {
            const low = @min(block.hole0.suit, block.hole1.suit);
            const high = @max(block.hole0.suit, block.hole1.suit);
            const numbers = comptime .{ widen8(triangle), widen8(tetrahedron) };
            const hole = permute(numbers[0], high) + low;
            const c2 = block.board[2] >> @splat(16);
            const c12 = (block.board[1] >> @splat(16)) + c2;
            const flop = permute(numbers[1], (block.board[0] >> @splat(16)) + c12) + permute(numbers[0], c12) + c2;
            var slot = hole + flop *% @as(V, @splat(10));
            inline for (0..singles) |j| slot += block.single[j].suit *% @as(V, @splat(200 << (2 * j)));
            return slot;
        }

        /// Suit `s`'s sort key (its configuration above its index within it, inverted so a
        /// decreasing sort orders suits canonically); adds the suit's part of the tuple
        /// number to `number`.
        inline fn suit_key(block: *Block, comptime s: u32, number: *V) V {
            const hole0 = block.hole0;
            const hole1 = block.hole1;
            const single = block.single;
            const places = block.places;
            const suit: V = @splat(s);
            const in0 = @select(u32, hole0.suit == suit, ones, zero);
            const in1 = @select(u32, hole1.suit == suit, ones, zero);
            const held = (hole0.bit & in0) | (hole1.bit & in1); // the hole's values in this suit
            const b = block.board[s] & @as(V, @splat(value_mask));
            block.bad |= b & held;
            const kh = zero -% (in0 +% in1); // each all ones (-1) where a hole card is in the suit
            const kb = block.board[s] >> @splat(16);
            // The hole's values in this suit, h1 < h2 (either may be absent), and their colex.
            const h1 = held & (zero -% held); // the lowest
            const h2 = held ^ h1;
            const colex_hole = (in0 & hole0.value) +% (in1 & hole1.value) +% (in0 & in1 & block.pair_extra);
            const below1 = h1 -% one; // all ones when absent
            const below2 = h2 -% one;
            const shifted = (b & below1) | ((b & ~below1 & below2) >> one) | ((b & ~below2) >> @splat(2));
            const choices = permute(comptime widen8(.{ 1, 13, 78, 0 }), kh); // C(13, kh)
            // Rounds after the first board round, innermost (last) first: index within the
            // round plus its choices times the rounds after it.
            var inner: V = zero;
            var config: V = kh << @splat(3) | kb; // lexicographic in (hole, board, singles…)
            if (T.direct) number.* += kh *% @as(V, @splat(T.weight[0][s])) + kb *% @as(V, @splat(T.weight[1][s]));
            var left = @as(V, @splat(values)) - kh - kb; // values this suit has not used
            var terms: [singles]V = undefined;
            var counts: [singles]V = undefined;
            var lefts: [singles]V = undefined;
            inline for (0..singles) |j| {
                const here = @select(u32, single[j].suit == suit, ones, zero);
                terms[j] = places[j] & here;
                counts[j] = here & one;
                lefts[j] = left;
                left -%= counts[j];
                config = config << one | counts[j];
                if (T.direct) number.* += counts[j] *% @as(V, @splat(T.weight[2 + j][s]));
            }
            comptime var j = singles;
            inline while (j > 0) {
                j -= 1;
                // C(left, 1) when this round put a card in the suit, else 1.
                const round_choices = @select(u32, counts[j] == one, lefts[j], one);
                inner = terms[j] + (if (j + 1 < singles) round_choices *% inner else zero);
            }
            const board_choices: V = if (singles > 0) board_round_choices(kh, kb) else zero;
            const colex_board = gather16(colex, shifted);
            const suit_index = colex_hole + choices *% (colex_board + board_choices *% inner);
            return config << @splat(24) | (@as(V, @splat(0xFFFFFF)) - suit_index);
        }
    };
}

/// The canonical index of each lane from its suits' keys: sorted, equal configurations are
/// neighbours, and each group of equal ones is numbered as a multiset.
inline fn combine_suits(comptime l: LayoutEntry, keys: *[suits]V, slot: V) V {
    const I = Indexer(l.rounds);
    const T = I.vector;
    const singles = l.rounds.len - 2;
    const one: V = @splat(1);
    const zero: V = @splat(0);
    sort_decreasing(V, keys);
    var result = gather(if (T.direct) T.offsets32 else T.dense_offsets, slot);
    // Sorted, equal configurations are neighbours: a suit's level in its group and the
    // product of the earlier groups' sizes follow from comparing them (cheaper than a
    // gather a suit on CPUs whose gathers are microcoded).
    // A suit's size is read from a small table by its packed configuration: a gather costs
    // less than the ~45 vector operations computing it took, and on AVX2 (16 vector
    // registers) the fewer values live, the fewer spills.
    const sizes = suit_sizes(singles);
    var multiplier: V = one;
    var previous_level: V = zero;
    var previous_config: V = zero;
    inline for (0..suits) |s| {
        const config = keys[s] >> @splat(24);
        var level: V = one;
        if (s > 0) {
            // Sorted: a suit whose configuration equals the one before is next in its group.
            const same = config == previous_config;
            level = @select(u32, same, previous_level + one, one);
            // A new group starts: multiply by the last group's C(m + g − 1, g).
            const previous_size = gather(sizes, previous_config);
            const group = multisets_lanes(previous_size, previous_level);
            multiplier = @select(u32, same, multiplier, multiplier *% group);
        }
        previous_level = level;
        previous_config = config;
        const a = @as(V, @splat(0xFFFFFF)) - (keys[s] & @as(V, @splat(0xFFFFFF)));
        result +%= multiplier *% multisets_lanes(a, level);
    }
    return result;
}

/// C(13 − kh, kb) lane by lane for kh ≤ 2 hole cards and kb ≤ 5 board cards in a suit: three
/// VPERMD reads of an 8-word table a hole count: 7 operations where computing it took 25.
inline fn board_round_choices(kh: V, kb: V) V {
    const tables = comptime table: {
        var t: [3]V = undefined;
        for (0..3) |h| {
            var row: [lanes]u32 = @splat(1);
            for (0..6) |k| row[k] = binomial[values - h][k];
            t[h] = row;
        }
        break :table t;
    };
    const one: V = @splat(1);
    var out = permute(tables[0], kb);
    out = @select(u32, kh == one, permute(tables[1], kb), out);
    out = @select(u32, kh == @as(V, @splat(2)), permute(tables[2], kb), out);
    return out;
}

/// C(n + 1, 2) and C(n + 2, 3) for n ≤ 3: the numbers of the dense slot's pairs a ≤ b
/// (C(b + 1, 2) + a) and flop counts with c0 + c1 + c2 ≤ 3 (C(c0 + c1 + c2 + 2, 3) +
/// C(c1 + c2 + 1, 2) + c2).
const triangle = [4]u32{ 0, 1, 3, 6 };
const tetrahedron = [4]u32{ 0, 1, 4, 10 };

fn widen8(comptime t: [4]u32) V {
    return t ++ @as([4]u32, @splat(0));
}

/// `table[index & 7]` lane by lane (VPERMD).
inline fn permute(table: V, index: V) V {
    return asm ("vpermd %[table], %[index], %[out]"
        : [out] "=x" (-> V),
        : [table] "x" (table),
          [index] "x" (index),
    );
}

/// How many suit indices a configuration allows (`Indexer.suit_size`), by the vector path's
/// packed configuration (hole count, board count, then a bit a single: `singles` one-card
/// rounds after the first board round); 0 for no configuration a hand has.
fn suit_sizes(comptime singles: usize) [*]const u32 {
    return switch (singles) {
        0 => suit_sizes_0,
        1 => suit_sizes_1,
        2 => suit_sizes_2,
        else => unreachable,
    };
}
// One declaration each: a table's symbol is exported once (rank/linked_tables.zig).
const suit_sizes_0 = linked.table("iso_suit_size_0", suit_size_table(0));
const suit_sizes_1 = linked.table("iso_suit_size_1", suit_size_table(1));
const suit_sizes_2 = linked.table("iso_suit_size_2", suit_size_table(2));

fn suit_size_table(comptime singles: usize) [1 << (5 + singles)]u32 {
    @setEvalBranchQuota(100_000);
    var t: [1 << (5 + singles)]u32 = @splat(0);
    for (0..t.len) |config| {
        const kh = config >> (3 + singles);
        const kb = (config >> singles) & 7;
        if (kh > 2 or kh + kb > values) continue;
        var size: u32 = binomial[values][kh] * binomial[values - kh][kb];
        var left: u32 = values - kh - kb;
        for (0..singles) |j| {
            if ((config >> (singles - 1 - j)) & 1 == 0) continue;
            size *= left;
            left -|= 1;
        }
        t[config] = size;
    }
    return t;
}

/// C(a + g − 1, g) lane by lane for g = 1..4 (g ≥ 3 only with a ≤ 13, where the wrapped
/// products of the others are never chosen; a ≤ 2^16 for g = 2).
inline fn multisets_lanes(a: V, g: V) V {
    const one: V = @splat(1);
    const m2 = a *% (a + one) >> one;
    const m3 = (m2 *% (a + @as(V, @splat(2))) *% @as(V, @splat(21846))) >> @splat(16);
    const m4 = (m3 *% (a + @as(V, @splat(3)))) >> @splat(2);
    var part = a;
    part = @select(u32, g >= @as(V, @splat(2)), m2, part);
    part = @select(u32, g >= @as(V, @splat(3)), m3, part);
    part = @select(u32, g >= @as(V, @splat(4)), m4, part);
    return part;
}

/// One card of each lane's row: id, suit, value and bit within the suit.
const Card = struct {
    id: V,
    suit: V,
    value: V,
    bit: V,

    comptime {
        // The multiply-shift divides every byte by 13 exactly.
        for (0..256) |id| assert((id * 5042) >> 16 == id / values);
    }

    inline fn of(bytes: @Vector(lanes, u8)) Card {
        const id: V = bytes;
        // id / 13 and id mod 13 for every byte (0..12 even past the deck, whose rows the
        // caller finds on the bytes): the bit's shift stays in range.
        const suit = (id *% @as(V, @splat(5042))) >> @splat(16);
        const value = id -% suit *% @as(V, @splat(values));
        return .{ .id = id, .suit = suit, .value = value, .bit = @as(V, @splat(1)) << @intCast(value) };
    }
};

/// Byte positions of card `c` of each of `lanes` rows of `k` cards.
fn positions(comptime k: usize, comptime c: usize) @Vector(lanes, i32) {
    comptime assert(c < k);
    var p: [lanes]i32 = undefined;
    for (0..lanes) |j| p[j] = @intCast(j * k + c);
    return p;
}

inline fn row_cards(
    comptime l: LayoutEntry,
    holes: []const u8,
    boards: []const u8,
    row: usize,
) [l.hole + l.board]u8 {
    assert(row * l.hole + l.hole <= holes.len);
    assert(row * l.board + l.board <= boards.len);
    var cards: [l.hole + l.board]u8 = undefined;
    inline for (0..l.hole) |i| cards[i] = holes[row * l.hole + i];
    inline for (0..l.board) |i| cards[l.hole + i] = boards[row * l.board + i];
    return cards;
}

fn diagnose_row(cards: []const u8, row: usize) HandError {
    assert(cards.len > 0);
    assert(cards.len <= encoding.card_count);
    var seen: u64 = 0;
    for (cards, 0..) |card, at| {
        const position: i32 = @intCast(at);
        if (card >= encoding.card_count) return .{ .row = row, .kind = .card_out_of_range, .card = card, .position = position };
        const bit = @as(u64, 1) << @intCast(card);
        if (seen & bit != 0) return .{ .row = row, .kind = .duplicate_card, .card = card, .position = position };
        seen |= bit;
    }
    unreachable; // The row was flagged.
}

/// The canonical hand of every index: `holes[n][hole]`, `boards[n][board]`, each round's
/// cards in increasing order.
pub fn unindex_rows(
    hole: u32,
    board: u32,
    per_street: bool,
    indices: []const u64,
    holes: []u8,
    boards: []u8,
) ?HandError {
    assert(holes.len == indices.len * hole);
    assert(boards.len == indices.len * board);
    inline for (layouts) |l| {
        if (l.hole == hole and l.board == board and l.per_street == per_street) {
            const I = Indexer(l.rounds);
            for (indices, 0..) |index, row| {
                if (index >= I.size) return .{ .row = row, .kind = .index_out_of_range };
                const sets = I.unindex(index);
                var cards: [l.hole + l.board]u8 = undefined;
                var at: usize = 0;
                for (sets) |set| {
                    var rest = set;
                    while (rest != 0) : (rest &= rest - 1) {
                        cards[at] = @intCast(@ctz(rest));
                        at += 1;
                    }
                }
                assert(at == l.hole + l.board);
                @memcpy(holes[row * l.hole ..][0..l.hole], cards[0..l.hole]);
                @memcpy(boards[row * l.board ..][0..l.board], cards[l.hole..]);
            }
            return null;
        }
    }
    unreachable;
}

/// This file's kernels, compiled once per CPU level (abi/kernel_table.zig lists this file):
/// the layout (hole cards, board cards, per street), then rows; on false `*failure` names the
/// first bad row.
pub const kernels = struct {
    pub fn hand_index(
        hole: u32,
        holes: [*]const u8,
        board: u32,
        boards: [*]const u8,
        per_street: bool,
        n: u64,
        out: [*]u64,
        failure: *HandError,
    ) callconv(.c) bool {
        const found = index_rows(hole, holes[0 .. n * hole], board, boards[0 .. n * board], per_street, out[0..n]);
        return failures.none(found, failure);
    }

    pub fn hand_unindex(
        hole: u32,
        board: u32,
        per_street: bool,
        indices: [*]const u64,
        n: u64,
        holes: [*]u8,
        boards: [*]u8,
        failure: *HandError,
    ) callconv(.c) bool {
        const found = unindex_rows(hole, board, per_street, indices[0..n], holes[0 .. n * hole], boards[0 .. n * board]);
        return failures.none(found, failure);
    }
};

test "isomorphism: round trips and relabelled suits share an index (flop, sampled)" {
    const I = Indexer(&.{ 2, 3 });
    var prng = std.Random.DefaultPrng.init(7);
    const rng = prng.random();
    for (0..20_000) |_| {
        const index = rng.uintLessThan(u64, I.size);
        const sets = I.unindex(index);
        try std.testing.expectEqual(index, I.index(sets));
        // Any suit permutation maps to the same index.
        var perm = [_]u6{ 0, 1, 2, 3 };
        rng.shuffle(u6, &perm);
        var moved: [2]u64 = @splat(0);
        for (sets, 0..) |set, r| {
            for (0..suits) |s| moved[r] |= ((set >> @intCast(values * s)) & value_mask) << @intCast(
                values * @as(u32, perm[s]),
            );
        }
        try std.testing.expectEqual(index, I.index(moved));
    }
}

test "isomorphism: the vector path's suit sizes and board choices" {
    if (!has_avx2) return error.SkipZigTest;
    const I = Indexer(&.{ 2, 3, 1, 1 });
    const sizes = suit_sizes(2);
    for (I.configs) |tuple| for (tuple) |config| {
        const c = I.shape.count_in;
        const packed_config = c(config, 0) << 5 | c(config, 1) << 2 | c(config, 2) << 1 | c(config, 3);
        try std.testing.expectEqual(I.shape.suit_size(config), sizes[packed_config]);
    };
    for (0..3) |kh| for (0..6) |kb| {
        const got = board_round_choices(@splat(@intCast(kh)), @splat(@intCast(kb)));
        try std.testing.expectEqual(@as(V, @splat(binomial[values - kh][kb])), got);
    };
}
