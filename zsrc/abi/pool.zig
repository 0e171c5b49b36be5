//! Buffers kept between native calls. Fresh pages a call (mapped, faulted in, unmapped) cost
//! tens of µs — and the unmap stalls the other threads on a TLB shootdown — where the work of
//! a small call is a few µs. A pool keeps a few freed buffers for the next calls; they are
//! taken and given back by atomic swaps, not under a lock: a fork mid-call leaves the child a
//! buffer short, never a lock held by a thread it does not have.
const std = @import("std");
const assert = std.debug.assert;

/// Up to `slots` freed `T`s kept for reuse (more given back at once are unmapped). A buffer
/// from `take` holds whatever its last user left: the caller initializes it.
pub fn Pool(comptime T: type, comptime slots: usize) type {
    comptime assert(slots > 0);
    return struct {
        /// A kept buffer's address, or 0 for none.
        var kept: [slots]usize = @splat(0);

        pub fn take() ?*T {
            for (&kept) |*slot| {
                const address = @atomicRmw(usize, slot, .Xchg, 0, .acquire);
                if (address != 0) return @ptrFromInt(address);
            }
            return std.heap.page_allocator.create(T) catch null;
        }

        pub fn give(buffer: *T) void {
            const address = @intFromPtr(buffer);
            assert(address != 0);
            for (&kept) |*slot| {
                if (@cmpxchgStrong(usize, slot, 0, address, .release, .monotonic) == null) return;
            }
            std.heap.page_allocator.destroy(buffer);
        }
    };
}

test "Pool: gives back what it kept, and makes more past its slots" {
    const P = Pool([512]u64, 2);
    const a = P.take() orelse return error.OutOfMemory;
    const b = P.take() orelse return error.OutOfMemory;
    const c = P.take() orelse return error.OutOfMemory;
    try std.testing.expect(a != b and b != c and a != c);
    P.give(a);
    P.give(b);
    P.give(c); // past the slots: unmapped
    const d = P.take() orelse return error.OutOfMemory;
    const e = P.take() orelse return error.OutOfMemory;
    try std.testing.expect((d == a or d == b) and (e == a or e == b) and d != e);
    P.give(d);
    P.give(e);
}
