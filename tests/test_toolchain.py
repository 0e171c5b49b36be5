"""The Zig side's own tests and both formatters, run as part of the Python suite.

`zig build test` compiles zsrc/tests.zig: unit tests of every Zig module, and the exhaustive
check of every hand of 1 to 7 cards (133,784,560 of seven) against the counting oracle.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from conftest import ROOT

# An installed wheel is tested without the Zig toolchain (tools/wheels.py ci): these skip.
needs_zig = pytest.mark.skipif(
    importlib.util.find_spec("ziglang") is None, reason="the Zig toolchain is not installed"
)


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


@needs_zig
def test_zig_build_test_passes():
    result = run(sys.executable, "-m", "ziglang", "build", "test", "--summary", "all")
    assert result.returncode == 0, result.stdout + result.stderr
    # A clean checkout runs every test; a warm cache may replay the last passing run.
    assert "test success" in result.stderr + result.stdout


@needs_zig
def test_zig_sources_are_formatted():
    result = run(sys.executable, "-m", "ziglang", "fmt", "--check", "build.zig", "zsrc")
    assert result.returncode == 0, "run `python -m ziglang fmt build.zig zsrc`:\n" + result.stdout


def test_ruff_lint_passes():
    result = run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean():
    result = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert result.returncode == 0, "run `ruff format .`:\n" + result.stdout + result.stderr


def test_header_declares_every_export():
    """The cffi declarations are generated from zsrc/abi/exports/: none missing or stale."""
    import re

    from pypoker import _native

    source = "".join(path.read_text() for path in (ROOT / "zsrc" / "abi" / "exports").glob("*.zig"))
    exported = set(re.findall(r"pub fn (pp_\w+)\(", source))
    header = (_native._LIB_DIR / "pypoker.h").read_text()
    declared = set(re.findall(r"\b(pp_\w+)\(", header))
    assert exported and exported == declared
    for name in exported:
        assert hasattr(_native.lib, name)
