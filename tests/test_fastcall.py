"""The fast-call extension (zsrc/pyext/fastcall.c) against the cffi paths it stands in for:
the same ranks for every one-hand form and small batch, and every one-hand Omaha form; for
anything it does not take (a bad hand, an odd ``out``, another dtype or layout) the general
path's answer: the same exception, the same message, ``out`` left zeroed. Each case runs with
the extension and with ``fastcall`` switched off in-process, as where it is not built."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pypoker as pp
from pypoker import _native, omaha, ranking

ROOT = Path(__file__).resolve().parent.parent
fast = _native.fastcall
needs_fastcall = pytest.mark.skipif(fast is None, reason="the extension is not built here")


def test_a_source_build_on_cpython_has_the_extension():
    """An install from this tree (the test command's editable one) must build it: a broken
    build would otherwise pass every test on the slower path."""
    if Path(pp.__file__).resolve().parent != ROOT / "pypoker":
        pytest.skip("an installed wheel: tools/wheels.py checks what it carries")
    sys.path.insert(0, str(ROOT))
    try:
        from hatch_build import fastcall_headers
    finally:
        sys.path.remove(str(ROOT))
    if fastcall_headers(None) is None:
        pytest.skip("not built here: no headers, or PYPOKER_FASTCALL=0")
    assert fast is not None, "pypoker/_fastcall was not built: see hatch_build.py"


@pytest.fixture
def without_fastcall(monkeypatch):
    """``pp.rank`` as it runs where the extension is not built."""
    monkeypatch.setattr(ranking, "fastcall", None)
    monkeypatch.setattr(ranking, "_one_hand_of_ids", ranking._ids_by_cffi)
    monkeypatch.setattr(ranking, "_one_hand_of_text", ranking._text_by_cffi)
    monkeypatch.setattr(omaha, "_rank_one", omaha._rank_one_by_cffi)


def _outcome(call):
    """What a call gives: its result, or its exception's type and message."""
    try:
        result = call()
    except Exception as error:  # noqa: BLE001 - any exception is compared, not handled
        return type(error), str(error)
    return result.tolist() if isinstance(result, np.ndarray) else result


def _both(call, request):
    with_extension = _outcome(call)
    request.getfixturevalue("without_fastcall")
    return with_extension, _outcome(call)


def _one_hand_cases():
    hand = [0, 14, 28, 42, 7, 20, 33]
    cases = [hand[:k] for k in range(8)]
    cases += [[1, 1, 2], [0, 52], [5, 300], [3] * 8, [-1, 2], [2**70, 1], [0, True, 2]]
    cases += [[np.uint8(3), 4], [1.0, 2], (0, 14, 28), ["Ah", "Kd"]]
    cases += [list(range(20)), list(range(8))]
    texts = ["AhKd7c2s3sQhJd", "", "Ah", "AhAh", "AhKx", "Ah" * 40, "A\u2660K\u2663", "\udc80"]
    texts += [" Ah ,  Kd , 7c ,  2s , 3s ,  Qh , Jd " * 2, "Ah Kd 7c" + " " * 70]
    arrays = [np.array(h, dtype=np.uint8) for h in cases[:8]]
    arrays += [
        np.array([0, 52], dtype=np.uint8),
        np.array([1, 1], dtype=np.uint8),
        np.arange(8, dtype=np.uint8),
        np.arange(14, dtype=np.uint8)[::2],  # not contiguous
        np.array([1, 2], dtype=np.int8),
        np.array([True, False]),
        np.array(5, dtype=np.uint8),  # 0-d
        np.array([], dtype=np.uint8),
        np.arange(7, dtype=np.uint8).reshape(1, 7),
        np.arange(6, dtype=np.uint8).reshape(1, 1, 6),
        np.arange(7, dtype=np.uint8).view(np.ndarray).view(type("Sub", (np.ndarray,), {})),
    ]
    return cases + texts + arrays


@pytest.mark.parametrize("hand", _one_hand_cases(), ids=repr)
def test_one_hand_forms_answer_as_the_cffi_path(hand, request):
    with_extension, without = _both(lambda: pp.rank(hand), request)
    assert with_extension == without


def _omaha_cases():
    ids = np.array([51, 38, 36, 49, 13, 14], dtype=np.uint8)
    board = np.array([0, 1, 2, 20, 30], dtype=np.uint8)
    cases = [("AhKhQdJd", "2c3c4c"), ("AhKhQdJdTs", "2c3c4c5s"), ("AhKhQdJdTs9s", "2c3c4c5s9d")]
    cases += [("AhKhQdJd", "2c3c"), ("AhAhQdJd", "2c3c4c"), ("AhKhQdJd", "Ah3c4c"), ("AhKx", "2c")]
    cases += [("Ah" * 40, "2c3c4c"), ("A\u2660KhQdJd", "2c3c4c"), ("\udc80", "2c3c4c")]
    cases += [(ids[:4], board[:3]), (ids, board), (ids[None, :5], board[None, :4])]
    cases += [(ids[:4], board[:2]), (ids[:3], board), (np.append(ids, 51)[1:], board)]
    cases += [(ids[:4].astype(np.int8), board), (ids[::2], board[:3]), ("AhKhQdJd", board)]
    cases += [(np.array([[1, 2, 3, 4]] * 2, dtype=np.uint8), board[:3]), (ids[:4], [0, 1, 2])]
    return cases


@pytest.mark.parametrize(("holes", "board"), _omaha_cases(), ids=repr)
def test_one_omaha_hand_answers_as_the_cffi_path(holes, board, request):
    with_extension, without = _both(lambda: pp.rank_omaha(holes, board), request)
    assert with_extension == without


def _outs(n):
    plain = np.zeros(n, dtype=np.uint16)
    read_only = np.zeros(n, dtype=np.uint16)
    read_only.flags.writeable = False
    return {
        "none": None,
        "plain": plain,
        "int16": np.zeros(n, dtype=np.int16),
        "big-endian": np.zeros(n, dtype=">u2"),
        "short": np.zeros(max(n - 1, 0), dtype=np.uint16),
        "2-D": np.zeros((n, 1), dtype=np.uint16),
        "strided": np.zeros(2 * n, dtype=np.uint16)[::2],
        "read-only": read_only,
        "list": [0] * n,
    }


ROWS_7 = _native.SMALL_BATCH_BYTES // 7  # the most 7-card rows a small batch holds


@pytest.mark.parametrize("n", [1, 2, 10, ROWS_7, ROWS_7 + 1])
@pytest.mark.parametrize("k", [0, 2, 5, 7])
@pytest.mark.parametrize("out_kind", list(_outs(1)))
def test_small_batches_answer_as_the_cffi_path(n, k, out_kind, request):
    hands = pp.deal(n, k, seed=n * 8 + k) if k else np.zeros((n, 0), dtype=np.uint8)

    def call():
        out = _outs(n)[out_kind]
        ranked = pp.rank(hands, out=out)
        assert out is None or ranked is out
        return ranked

    with_extension, without = _both(call, request)
    assert with_extension == without
    if out_kind in ("none", "plain"):
        assert with_extension == pp.rank(hands, threads=2).tolist()


@pytest.mark.parametrize("bad", ["card", "duplicate", "wide", "int8", "fortran", "overlap"])
def test_bad_small_batches_raise_and_zero_out_as_the_cffi_path(bad, request):
    hands = pp.deal(50, 7, seed=5)
    out = np.full(50, 7, dtype=np.uint16)
    if bad == "card":
        hands[31, 4] = 60
    elif bad == "duplicate":
        hands[12, 6] = hands[12, 0]
    elif bad == "wide":
        hands = np.zeros((50, 8), dtype=np.uint8)
    elif bad == "int8":
        hands = hands.astype(np.int8)
    elif bad == "fortran":
        hands = np.asfortranarray(hands)
    else:
        out = hands.reshape(-1).view(np.uint16)[:50]

    def call():
        result = _outcome(lambda: pp.rank(hands, out=out))
        return result, out.tolist() if bad != "overlap" else None

    with_extension, without = _both(call, request)
    assert with_extension == without
    if bad in ("card", "duplicate"):
        (kind, message), zeros = with_extension
        assert issubclass(kind, pp.InvalidHandError)
        assert f"row {31 if bad == 'card' else 12}" in message
        assert zeros == [0] * 50, "a failed call leaves no ranks behind"
    if bad == "fortran":
        assert with_extension[0] == pp.rank(np.ascontiguousarray(hands)).tolist()


@needs_fastcall
def test_the_extension_keeps_no_references():
    hands, out = pp.deal(10, 7, seed=1), np.empty(10, dtype=np.uint16)
    one, hand, text = hands[0].copy(), [0, 14, 28, 42, 7], "AhKd7c"
    before = [sys.getrefcount(x) for x in (hands, out, one, hand, text)]
    for _ in range(1000):
        pp.rank(hands, out=out)
        pp.rank(hands)
        pp.rank(one)
        pp.rank(hand)
        pp.rank(text)
        pp.rank(hands[:0])
        with pytest.raises(ValueError):
            pp.rank(hands, out=hands.reshape(-1).view(np.uint16)[:10])
    assert [sys.getrefcount(x) for x in (hands, out, one, hand, text)] == before


@needs_fastcall
def test_the_extension_refuses_what_it_is_not_given_to_read():
    """Its own answers to odd arguments: None (the general path) or 0, never a crash."""
    assert fast.rank_array(b"\x00\x01", None) is None
    assert fast.rank_array(np.zeros((2, 2), dtype=np.uint8)) is None  # one argument
    assert fast.rank_hand(b"\x00\x01") == 0
    assert fast.rank_hand(np.arange(5, dtype=np.uint8)) == 0  # arrays: rank_array's
    with pytest.raises(TypeError):
        fast.bind(1, 2, 3)
    assert fast.rank_omaha("AhKhQdJd") == 0  # one argument
    assert fast.rank_omaha(b"AhKhQdJd", b"2c3c4c") == 0
    assert fast.rank_array(np.zeros((ROWS_7 + 1, 7), dtype=np.uint8), None) is None
    assert fast.rank_array(np.zeros((ROWS_7, 7), dtype=np.uint8), None) is None  # bad hands
    assert len(fast.rank_array(pp.deal(ROWS_7, 7, seed=2), None)) == ROWS_7
