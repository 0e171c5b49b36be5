"""Arrow columns, tables, streams and files, ranked in place: ``pp.arrow``.

A column of hands in, a column of ranks out, whatever produced it. Accepted columns:

- ``fixed_size_list<uint8>[k]`` (k = 0..7) and ``list`` / ``large_list<uint8>`` of card ids;
- ``uint64`` card sets (bit n = card n);
- ``string`` / ``large_string`` of card text (``"AhKd7c…"``, spaces optional); also
  ``string_view`` and dictionary-encoded strings, which are converted first (a copy).

Anything that exports the Arrow PyCapsule interface (``__arrow_c_array__`` or
``__arrow_c_stream__``: Polars, DuckDB, nanoarrow, …) is accepted too; Polars in gives
Polars out. The card buffers are read where they lie — never copied where Arrow's layout
allows — with offsets and slices honoured. Nulls in give nulls out; a ChunkedArray in gives a
ChunkedArray out. A bad row (a card that is not a card, a card twice, over 7 cards,
unreadable text) raises ``InvalidHandError``/``CardParseError`` naming the row, or with
``errors="null"`` becomes a null.

The package's files: ``_columns`` (layouts → kernels, nulls, bad rows), ``_tables`` (tables,
batches, streams), ``_files`` (Parquet / IPC / CSV files), ``_duckdb`` (query functions).
"""

from .._extras import require

require("pyarrow")  # before the modules below import it: the error names the extra
from ._columns import ERRORS, check_errors, rank  # noqa: E402
from ._duckdb import register_duckdb  # noqa: E402
from ._files import RankResult, rank_file  # noqa: E402
from ._fives import best_five  # noqa: E402
from ._tables import rank_table  # noqa: E402

__all__ = [
    "ERRORS",
    "RankResult",
    "best_five",
    "check_errors",
    "rank",
    "rank_file",
    "rank_table",
    "register_duckdb",
]
