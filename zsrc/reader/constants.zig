//! The Range Reader's constants the Python layer reads from the generated header:
//! `PP_READER_ACTIONS_MAX`, `PP_READER_NONE`.
const examples = @import("examples.zig");

pub const header_constants = .{
    .{ "READER_ACTIONS_MAX", examples.actions_max },
    .{ "READER_NONE", examples.none },
};
