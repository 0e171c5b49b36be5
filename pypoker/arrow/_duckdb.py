"""pypoker's functions inside DuckDB queries, vectorised over Arrow."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from .._native import PokerError
from ._columns import rank
from ._tables import category_column, describe_column


def register_duckdb(connection, name: str = "poker_rank"):
    """Registers vectorised pypoker functions with a DuckDB connection, over Arrow:

    - ``poker_rank(VARCHAR)`` ranks card text;
    - ``poker_rank_ids(UTINYINT[])`` ranks lists of card ids;
    - ``poker_rank_set(UBIGINT)`` ranks card sets;
    - ``poker_category(USMALLINT)`` and ``poker_describe(USMALLINT)`` read ranks.

    so ``SELECT poker_rank(cards) FROM 'hands.parquet'`` works. Bad rows raise (the query
    fails naming the row); returns the connection.
    """
    import duckdb
    from duckdb import sqltypes as types

    def arrow_function(function_name, function, parameter, result):
        connection.create_function(
            function_name, function, [parameter], result, type="arrow", side_effects=False,
            null_handling="special",
        )  # fmt: skip

    def rank_arrow(column):
        try:
            return rank(column)
        except PokerError as error:
            # DuckDB hands over chunks, so a row number in one would mislead: name the value.
            value = column[error.row].as_py() if error.row is not None else None
            raise error.about(value) from None

    arrow_function(name, rank_arrow, types.VARCHAR, types.USMALLINT)
    arrow_function(f"{name}_ids", rank_arrow, duckdb.list_type(types.UTINYINT), types.USMALLINT)
    arrow_function(f"{name}_set", rank_arrow, types.UBIGINT, types.USMALLINT)
    arrow_function("poker_category", category_column, types.USMALLINT, types.UTINYINT)
    arrow_function(
        "poker_describe",
        lambda ranks: pc.cast(describe_column(ranks), pa.string()),
        types.USMALLINT,
        types.VARCHAR,
    )
    return connection
