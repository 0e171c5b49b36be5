//! The arena's constants the Python layer reads from the generated header (capi.zig
//! appends them to `header_constants`): `PP_ARENA_SEATS_MAX`, `PP_ACTION_FOLD`, ...
const table = @import("table.zig");
const rules = @import("rules.zig");
const play = @import("play.zig");

pub const header_constants = .{
    .{ "ARENA_SEATS_MAX", table.seats_max },
    .{ "ARENA_SEATS_MIN", table.seats_min },
    .{ "ARENA_CHIPS_MAX", table.chips_max },
    .{ "ACTION_KINDS", rules.Kind.count },
    .{ "ACTION_FOLD", rules.Kind.fold },
    .{ "ACTION_CHECK", rules.Kind.check },
    .{ "ACTION_CALL", rules.Kind.call },
    .{ "ACTION_RAISE", rules.Kind.raise },
    .{ "ACTION_ALL_IN", rules.Kind.all_in },
    .{ "STREET_PREFLOP", table.Street.preflop },
    .{ "STREET_FLOP", table.Street.flop },
    .{ "STREET_TURN", table.Street.turn },
    .{ "STREET_RIVER", table.Street.river },
    .{ "STREET_OVER", table.Street.over },
    .{ "STREETS", table.Street.count },
    .{ "ARENA_POLL_HANDS", play.poll_hands },
};
