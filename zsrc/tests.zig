//! The root of `zig build test`: every file's tests, folder by folder (a file left out of
//! this list has its tests skipped, so each is named here), and the exhaustive check of the
//! evaluator (rank/exhaustive.zig).
comptime {
    _ = @import("cards/encoding.zig");
    _ = @import("cards/bits.zig");
    _ = @import("cards/random.zig");
    _ = @import("cards/parse.zig");
    _ = @import("cards/deal.zig");
    _ = @import("cards/deck_lanes.zig");
    _ = @import("cards/enumerate.zig");
    _ = @import("cards/combos.zig");
    _ = @import("cards/failure.zig");

    _ = @import("rank/eval.zig");
    _ = @import("rank/oracle.zig");
    _ = @import("rank/exhaustive.zig");
    _ = @import("rank/category_counts.zig");
    _ = @import("rank/linked_tables.zig");
    _ = @import("rank/gather.zig");
    _ = @import("rank/batch.zig");
    _ = @import("rank/blocks.zig");
    _ = @import("rank/row_sources.zig");
    _ = @import("rank/rows_avx2.zig");
    _ = @import("rank/rows_avx512.zig");
    _ = @import("rank/columns.zig");
    _ = @import("rank/showdown.zig");
    _ = @import("rank/shortdeck_exhaustive.zig");
    _ = @import("rank/best_five.zig");

    _ = @import("equity/known_exact.zig");
    _ = @import("equity/spot.zig");
    _ = @import("equity/board_sums.zig");
    _ = @import("equity/monte_carlo.zig");
    _ = @import("equity/range_exact.zig");

    _ = @import("omaha/rank.zig");
    _ = @import("omaha/boards.zig");
    _ = @import("omaha/rank_vector.zig");
    _ = @import("omaha/equity.zig");
    _ = @import("omaha/best_five.zig");
    _ = @import("omaha/low.zig");
    _ = @import("abi/exports/best_five.zig");
    _ = @import("abi/exports/columns.zig");

    _ = @import("features/strength.zig");
    _ = @import("features/isomorphism.zig");

    _ = @import("abi/exports.zig");
    _ = @import("abi/status.zig");
    _ = @import("abi/pool.zig");
    _ = @import("abi/dispatch.zig");
    _ = @import("abi/exports/arena.zig");

    _ = @import("arena/tests.zig"); // the rules' named cases and the fuzz
    _ = @import("arena/table.zig");
    _ = @import("arena/rules.zig");
    _ = @import("arena/pots.zig");
    _ = @import("arena/deal.zig");
    _ = @import("arena/random_player.zig");
    _ = @import("arena/play.zig");
    _ = @import("arena/fuzz.zig");
    _ = @import("arena/constants.zig");
    _ = @import("arena/agents/tests.zig");
    _ = @import("abi/exports/agents.zig");
    _ = @import("arena/agents/learner.zig");
    _ = @import("arena/agents/observation.zig");
    _ = @import("abi/exports/rl.zig");

    _ = @import("reader/replay.zig");
    _ = @import("reader/examples.zig");
    _ = @import("reader/constants.zig");
    _ = @import("reader/strengths.zig");
    _ = @import("reader/likelihood.zig");
    _ = @import("reader/posterior.zig");
    _ = @import("abi/exports/reader.zig");
}
