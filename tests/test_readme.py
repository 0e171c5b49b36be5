"""README's examples are tests: every ```python block runs (in order, in a fresh folder),
and a line ``expression  # value`` whose comment reads as a Python literal must evaluate to
that value (floats to the digits shown; ``[0.81946.., 0.18053..]`` compares each number
to the digits before the dots). Every ``$ pypoker ...`` command in a ```text block runs, and
its table rows (lines that start with a player number) print as shown."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks(language: str) -> list[str]:
    text = README.read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def expected_value(comment: str):
    """The literal a comment starts with, or None when it is prose. `..` after digits means
    "these digits, then more"."""
    head = comment.split(":")[0].split(" (")[0].strip()
    if head.startswith("array(") and head.endswith(")"):  # a NumPy repr
        return eval(head, {"array": np.array, "uint8": np.uint8, "uint16": np.uint16}), False  # noqa: S307
    truncated = re.sub(r"(\d\.\d+)\.\.", r"\1", head)
    try:
        value = ast.literal_eval(truncated)
    except (ValueError, SyntaxError):
        return None
    return value, head != truncated


def matches(actual, expected, truncated: bool) -> bool:
    if isinstance(expected, np.ndarray):
        return bool(np.array_equal(actual, expected)) and actual.dtype == expected.dtype
    if isinstance(expected, (list, tuple)):
        if isinstance(actual, np.ndarray):
            actual = actual.tolist()
        return len(actual) == len(expected) and all(  # noqa: B905
            matches(a, e, truncated) for a, e in zip(actual, expected, strict=True)
        )
    if isinstance(expected, float) and truncated:
        digits = len(repr(expected).split(".")[1])
        return (
            float(actual) // 10**-digits == expected // 10**-digits
            or abs(float(actual) - expected) < 10**-digits
        )
    if isinstance(expected, float):
        return float(actual) == pytest.approx(expected)
    return actual == expected


def run_block(block: str, namespace: dict) -> int:
    """Runs a block statement by statement; checks each expression whose line ends in a
    literal comment. Returns how many values it checked."""
    lines = block.splitlines()
    checked = 0
    for statement in ast.parse(block).body:
        line = lines[statement.end_lineno - 1]
        comment = line[statement.end_col_offset :].partition("# ")[2]
        found = expected_value(comment) if comment else None
        if isinstance(statement, ast.Expr) and found is not None:
            value = eval(compile(ast.Expression(statement.value), "README.md", "eval"), namespace)
            code = ast.get_source_segment(block, statement)
            assert matches(value, *found), f"README: {code} gave {value!r}, says {comment}"
            checked += 1
        else:
            exec(compile(ast.Module([statement], []), "README.md", "exec"), namespace)
    return checked


def test_python_examples_run_and_print_what_they_say(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    try:
        checked = sum(run_block(block, namespace) for block in blocks("python"))
    finally:
        if "ray" in namespace:  # README starts a local Ray; leave none running
            namespace["ray"].shutdown()
    assert checked >= 15


def test_cli_examples_print_what_they_show(capsys, tmp_path, monkeypatch):
    from pypoker.cli import main

    monkeypatch.chdir(tmp_path)
    shown = 0
    for block in blocks("text"):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ pypoker "):
            continue
        assert main(shlex.split(lines[0])[2:]) == 0
        printed = capsys.readouterr().out.splitlines()
        rows = [line for line in lines[1:] if re.match(r"\d+\s", line)]
        for row in rows:
            assert row in printed, f"README shows {row!r}; pypoker printed {printed}"
        shown += 1
    assert shown >= 1


# Commands of README's sh blocks that the suite does not run, and why.
NOT_RUN = {
    "pypoker bench": "runs every form, level and peer for minutes; bench/ figures come from it",
}


def test_shell_examples_run(tmp_path, monkeypatch, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    import pypoker as pp
    from pypoker.cli import main

    monkeypatch.chdir(tmp_path)
    hands = pa.table({"cards": pp.format_cards(pp.deal(10_000, 7, seed=1))})
    pq.write_table(hands, "hands.parquet")
    ran = 0
    for block in blocks("sh"):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if not command.startswith("pypoker ") or command in NOT_RUN:
                continue
            assert main(shlex.split(command)[1:]) == 0, command
            capsys.readouterr()
            ran += 1
    assert ran >= 6
