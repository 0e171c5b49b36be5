"""Every CLI command without each optional dependency: it runs, or it prints one line naming
the extra to install and exits 2 — never a traceback. The commands are read from the CLI's
own parser, so a new command fails here until it has a case."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pypoker._extras import EXTRAS
from pypoker.cli import _parser

# command → argv that exercises its optional dependencies (files under {tmp}).
CASES = {
    "rank": ["rank", "{tmp}/in.parquet", "-o", "{tmp}/out.parquet"],
    "deal": ["deal", "1K", "-p", "3", "-o", "{tmp}/deals.parquet"],
    "enumerate": ["enumerate", "3"],
    "bench": ["bench", "--hands", "4K", "--runs", "5", "--no-peers", "-o", "{tmp}/bench"],
    "equity": ["equity", "AhAd", "KcKd", "--grid", "{tmp}/grid.png"],
    "features": ["features", "river", "--count", "10", "-o", "{tmp}/river.parquet"],
    "arena": "arena --agents call,random --hands 1K --out {tmp}/a.pq --phh {tmp}/a.phhs".split(),
    "reader": ["reader", "generate", "--hands", "1K", "--out", "{tmp}/reader"],
}

CHILD = """
import sys
sys.modules.update({{name: None for name in {blocked!r}}})  # as if never installed
from pypoker.cli import main
sys.exit(main({argv!r}))
"""


def test_every_command_has_a_case():
    commands = _parser()._subparsers._group_actions[0].choices
    assert set(commands) == set(CASES)


def _run(argv: list[str], blocked: list[str]) -> subprocess.CompletedProcess:
    script = CHILD.format(blocked=blocked, argv=argv)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)


@pytest.mark.parametrize("module", sorted(EXTRAS))
@pytest.mark.parametrize("command", sorted(CASES))
def test_a_missing_extra_is_one_line_naming_it(command, module, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"cards": ["AhKd7c2s3s"]}), tmp_path / "in.parquet")
    argv = [part.format(tmp=tmp_path) for part in CASES[command]]
    done = _run(argv, [module])
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 2), done.stderr
    if done.returncode == 2:
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert f"needs {module}" in lines[0] and f"pypoker[{EXTRAS[module]}]" in lines[0]


def test_the_equity_help_says_how_the_default_is_chosen():
    help_text = _parser()._subparsers._group_actions[0].choices["equity"].format_help()
    assert "at most a second, else Monte Carlo" in " ".join(help_text.split())
