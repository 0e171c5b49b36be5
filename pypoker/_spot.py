"""A prepared equity spot, held by the native library (zsrc/equity/spot.zig): every player's weights
over the 1,326 two-card combos after card removal, read by the Monte Carlo sampler and the
exact counter from any number of threads.

Runs add up ``Sums`` per player and combo (see ``SUM_FIELDS``) into float64 arrays of shape
``(players, SLOTS, len(SUM_FIELDS))``; the last slot of a player holds what a run does not
split by combo (the counted player of an exact count).
"""

from __future__ import annotations

import numpy as np

from ._native import ArgumentError, check_call, check_players, ffi, lib, new_error


def _combos() -> np.ndarray:
    cards = np.zeros((lib.PP_COMBOS, 2), dtype=np.uint8)
    check_call(lib.pp_combos(ffi.from_buffer("uint8_t[]", cards, require_writable=True)))
    cards.flags.writeable = False
    return cards


COMBOS = _combos()
"""The 1,326 two-card combos, ``(1326, 2)`` uint8 card ids, lower card first: the order of
every per-combo array (weights, ``hand_vs_range``-style tables, ``by_combo``)."""

_INDEX = np.full((lib.PP_CARDS, lib.PP_CARDS), -1, dtype=np.int64)
_INDEX[COMBOS[:, 0], COMBOS[:, 1]] = np.arange(lib.PP_COMBOS)
_INDEX[COMBOS[:, 1], COMBOS[:, 0]] = np.arange(lib.PP_COMBOS)

SLOTS = lib.PP_COMBOS + 1
SUM_FIELDS = tuple(name for name, _ in ffi.typeof("pp_sums").fields)  # spot.zig's Sums
GAMES, WINS, TIES, SHARES, W2, W2_SHARES, W2_SHARES2 = range(len(SUM_FIELDS))
POT_UNITS = lib.PP_POT_UNITS
PLAYERS_MIN = lib.PP_PLAYERS_MIN  # a showdown needs two
PLAYERS_MAX = lib.PP_PLAYERS_MAX


def check_player_count(count: int) -> None:
    """Equity's rule on the number of players, Hold'em or Omaha: a clear ValueError."""
    if not PLAYERS_MIN <= count <= PLAYERS_MAX:
        raise ArgumentError(f"equity takes {PLAYERS_MIN} to {PLAYERS_MAX} players, got {count}")


def combo_index(cards: np.ndarray) -> np.ndarray:
    """Combo numbers of ``(n, 2)`` card pairs (either order)."""
    cards = np.asarray(cards)
    return _INDEX[cards[:, 0], cards[:, 1]]


class Spot:
    """``weights`` (players, 1326) float64, ``random`` the players dealt at random, ``board``
    and ``dead`` card sets. Bad cards raise naming the player (or board) and the card."""

    def __init__(self, weights: np.ndarray, random: list[bool], board: int, dead: int):
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        self.players = len(weights)
        mask = sum(1 << p for p, is_random in enumerate(random) if is_random)
        handle = ffi.new("void **")
        err = new_error()
        status = lib.pp_spot_new(
            ffi.from_buffer("double[]", weights), self.players, mask, board, dead, handle, err
        )
        check_players(status, err)
        self._handle = ffi.gc(handle[0], lib.pp_spot_free)
        self.supports = [lib.pp_spot_support(self._handle, p) for p in range(self.players)]
        self.runouts = int(lib.pp_spot_runouts(self._handle))
        self.board_cards = bin(board).count("1")
        self.random = list(random)

    def weights(self, player: int) -> np.ndarray:
        """The player's 1,326 combo weights after card removal."""
        out = np.zeros(lib.PP_COMBOS)
        check_call(lib.pp_spot_weights(self._handle, player, ffi.from_buffer("double[]", out)))
        return out

    def new_sums(self) -> np.ndarray:
        return np.zeros((self.players, SLOTS, len(SUM_FIELDS)))

    def _sums_pointer(self, sums: np.ndarray):
        assert sums.shape == (self.players, SLOTS, len(SUM_FIELDS)) and sums.flags.c_contiguous
        return ffi.cast("pp_sums *", ffi.from_buffer("double[]", sums, require_writable=True))

    def prepare_sampling(self) -> None:
        """Tabulates the range players' deals for ``sample`` (a table only Monte Carlo reads:
        exact counts skip building it). Once, before any thread samples."""
        check_call(lib.pp_spot_prepare_sampling(self._handle))

    def sample(self, seed: int, first_game: int, games: int, sums: np.ndarray) -> None:
        """Monte Carlo games ``first_game .. first_game + games`` of ``seed``, added to sums."""
        status = lib.pp_spot_sample(
            self._handle, seed, first_game, games, self._sums_pointer(sums), sums.shape[0] * SLOTS
        )
        check_call(status)

    def count_items(self, first_player: int) -> int:
        return self.runouts * self.supports[first_player]

    def count(self, order: bytes, first_item: int, items: int, sums: np.ndarray) -> None:
        """Exact count, items ``first_item .. first_item + items``; ``order`` lists the
        enumerated players, the counted one last."""
        status = lib.pp_spot_count(
            self._handle, order, first_item, items, self._sums_pointer(sums),
            sums.shape[0] * SLOTS,
        )  # fmt: skip
        check_call(status)
