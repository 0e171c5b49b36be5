"""The wheels: every target cross-compiles and its library (and fast-call extension) pass
tools/wheels.py's checks (format, architecture, dependencies, exports equal to the header),
and the checks themselves catch what they claim to catch.

Building every wheel takes minutes, so this builds each target's library (the wheel's one
binary) and leaves whole wheels to `tools/wheels.py ci`, which .ci/run runs.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

_spec = importlib.util.spec_from_file_location("wheels", ROOT / "tools" / "wheels.py")
wheels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wheels)

needs_zig = pytest.mark.skipif(
    importlib.util.find_spec("ziglang") is None, reason="the Zig toolchain is not installed"
)
pytest.importorskip("lief")


@needs_zig
@pytest.mark.parametrize("name", sorted(wheels.TARGETS))
def test_every_target_cross_compiles_to_a_library_that_passes_the_checks(name, tmp_path):
    from hatch_build import fastcall_files, fastcall_headers

    target = wheels.TARGETS[name]
    headers = fastcall_headers(target)  # raises where a wheel could not carry the extension
    result = subprocess.run(
        [sys.executable, "-m", "ziglang", "build", f"-Dtarget={target.zig}",
         "-Doptimize=ReleaseFast", "--prefix", str(tmp_path),
         *([f"-Dpython-include={headers}"] if headers else [])],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    (library,) = [p for d in ("lib", "bin") for p in (tmp_path / d).glob(target.library)]
    header = (tmp_path / "lib" / "pypoker.h").read_text()
    assert wheels.check_library(library.read_bytes(), header, target) == []
    extension = tmp_path / fastcall_files(target)[0]
    assert headers is not None and extension.is_file()
    assert wheels.check_fastcall(extension.read_bytes(), target) == []


def installed_library() -> tuple[bytes, str]:
    from pypoker import _native

    return _native._library_path().read_bytes(), (_native._LIB_DIR / "pypoker.h").read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this machine's ELF")
def test_the_check_catches_a_wrong_architecture_and_a_missing_export():
    data, header = installed_library()
    machine = {"x86_64": "linux-x86_64", "aarch64": "linux-aarch64"}[os.uname().machine]
    target = wheels.TARGETS[machine]
    assert wheels.check_library(data, header, target) == []
    other = "linux-aarch64" if machine == "linux-x86_64" else "linux-x86_64"
    (problem,) = wheels.check_library(data, header, wheels.TARGETS[other])
    assert "not ELF" in problem
    (problem,) = wheels.check_library(data, header + "int pp_not_there(void);\n", target)
    assert "missing ['pp_not_there']" in problem


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this machine's ELF")
def test_the_fastcall_check_catches_a_missing_misplaced_or_foreign_extension():
    from pypoker import _native

    if _native.fastcall is None:
        pytest.skip("the extension is not built here")
    data = Path(_native.fastcall.__file__).read_bytes()
    machine = {"x86_64": "linux-x86_64", "aarch64": "linux-aarch64"}[os.uname().machine]
    assert wheels.check_fastcall(data, wheels.TARGETS[machine]) == []
    assert wheels.check_fastcall(None, wheels.TARGETS[machine]) == ["no pypoker/_fastcall.abi3.so"]
    windows = wheels.TARGETS["windows-x86_64"]
    assert wheels.check_fastcall(None, windows) == ["no pypoker/_fastcall.pyd"]
    assert "not PE x86_64" in wheels.check_fastcall(data, windows)[0]
    other = "linux-aarch64" if machine == "linux-x86_64" else "linux-x86_64"
    assert "not ELF" in wheels.check_fastcall(data, wheels.TARGETS[other])[0]
    foreign = data.replace(b"PyList_Size\0", b"xyList_Size\0")  # a name outside CPython's
    problems = wheels.check_fastcall(foreign, wheels.TARGETS[machine])
    assert any("imports ['xyList_Size']" in p for p in problems), problems


def python3_def_names() -> set[str]:
    """The names zsrc/pyext/python3.def gives the import library of python3.dll."""
    lines = (ROOT / "zsrc" / "pyext" / "python3.def").read_text().splitlines()
    start = lines.index("EXPORTS") + 1
    return {line.split()[0] for line in lines[start:] if line.strip() and line[0] != ";"}


@pytest.fixture(scope="module")
def windows_build(tmp_path_factory) -> tuple[Path, Path]:
    """pypoker.dll and pypoker/_fastcall.pyd for Windows x86-64, cross-built here (the build
    the wheel's hook runs; Zig's cache makes it quick after the cross-compile test)."""
    if importlib.util.find_spec("ziglang") is None:
        pytest.skip("the Zig toolchain is not installed")
    from hatch_build import TARGETS, fastcall_files, python_headers

    headers = python_headers()
    if headers is None:
        pytest.skip("no CPython headers here")
    prefix = tmp_path_factory.mktemp("windows")
    result = subprocess.run(
        [sys.executable, "-m", "ziglang", "build", f"-Dtarget={TARGETS['windows-x86_64'].zig}",
         "-Doptimize=ReleaseFast", "--prefix", str(prefix), f"-Dpython-include={headers}"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return prefix / "bin" / "pypoker.dll", prefix / fastcall_files(TARGETS["windows-x86_64"])[0]


@pytest.fixture(scope="module")
def windows_fastcall(windows_build) -> bytes:
    return windows_build[1].read_bytes()


def test_the_windows_extension_imports_its_python_symbols_from_python3_dll(windows_fastcall):
    """The stable ABI's DLL, and from it exactly the names of python3.def (which keeps that
    list in step with fastcall.c: a name it lacks fails the link, one it has that fastcall.c
    no longer uses shows here)."""
    import lief

    binary = lief.parse(list(windows_fastcall))
    imports = {i.name.lower(): {e.name for e in i.entries} for i in binary.imports}
    assert imports["python3.dll"] == python3_def_names()
    assert {e.name for e in binary.get_export().entries} == {"PyInit__fastcall"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this machine's ELF")
def test_python3_def_names_what_the_extension_uses_on_linux_too():
    from pypoker import _native

    if _native.fastcall is None:
        pytest.skip("the extension is not built here")
    import lief

    binary = lief.parse(_native.fastcall.__file__)
    undefined = {s.name for s in binary.dynamic_symbols if s.shndx == 0}
    assert {n for n in undefined if n.startswith(("Py", "_Py"))} == python3_def_names()


def test_the_windows_check_catches_another_python_dll_a_second_export_and_a_missing_one(
    windows_fastcall,
):
    target = wheels.TARGETS["windows-x86_64"]
    assert wheels.check_fastcall(windows_fastcall, target) == []
    arm64 = wheels.TARGETS["windows-arm64"]
    assert "not PE arm64" in wheels.check_fastcall(windows_fastcall, arm64)[0]
    # The same DLL bound to one CPython's DLL instead of the stable ABI's (same length name).
    versioned = windows_fastcall.replace(b"python3.dll", b"python9.dll")
    problems = wheels.check_fastcall(versioned, target)
    assert any("links to ['python9.dll']" in p for p in problems), problems
    assert any("imports nothing from python3.dll" in p for p in problems), problems
    # Its init function under another name: exported, but not the one Python looks up.
    renamed = windows_fastcall.replace(b"PyInit__fastcall", b"PyInit__fastcalx")
    assert any("exports ['PyInit__fastcalx']" in p for p in wheels.check_fastcall(renamed, target))


def fake_wheel(path, files: dict[str, bytes], tags: list[str]) -> None:
    """A wheel written by hand: its files, WHEEL with `tags` and a correct RECORD."""
    dist_info = "pypoker-0.1.0.dist-info"
    metadata = b"Metadata-Version: 2.1\nName: pypoker\nVersion: 0.1.0\n"
    files = {**files, f"{dist_info}/METADATA": metadata, f"{dist_info}/WHEEL": (
        "Wheel-Version: 1.0\nRoot-Is-Purelib: false\n" + "".join(f"Tag: {t}\n" for t in tags)
    ).encode()}  # fmt: skip
    lines = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}")
    lines.append(f"{dist_info}/RECORD,,")
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr(f"{dist_info}/RECORD", "\n".join(lines) + "\n")


def test_record_and_tag_checks(tmp_path):
    tag = wheels.TARGETS["macos-arm64"].tag
    good = tmp_path / f"pypoker-0.1.0-py3-none-{tag}.whl"
    fake_wheel(good, {"pypoker/__init__.py": b"x = 1\n"}, [f"py3-none-{tag}"])
    assert wheels.check_record(good) == []
    assert wheels.check_pip_accepts(good) == []

    tampered = tmp_path / "tampered" / good.name
    tampered.parent.mkdir()
    fake_wheel(tampered, {"pypoker/__init__.py": b"x = 1\n"}, [f"py3-none-{tag}"])
    with zipfile.ZipFile(tampered, "a") as archive:
        archive.writestr("pypoker/extra.py", b"")
    assert any("RECORD lacks ['pypoker/extra.py']" in p for p in wheels.check_record(tampered))

    mistagged = tmp_path / "mistagged" / good.name
    mistagged.parent.mkdir()
    fake_wheel(mistagged, {"pypoker/__init__.py": b""}, ["py3-none-win_amd64"])
    assert any("differ from the name's" in p for p in wheels.check_record(mistagged))


def test_a_wheel_for_no_target_is_refused():
    with pytest.raises(SystemExit, match="none of pypoker's targets"):
        wheels.target_of(Path("pypoker-0.1.0-py3-none-linux_riscv64.whl"))


def wine() -> str | None:
    found = shutil.which("wine64") or shutil.which("wine")
    return found or ("/usr/lib/wine/wine64" if Path("/usr/lib/wine/wine64").is_file() else None)


def test_the_windows_extension_loads_binds_and_ranks_under_wine(windows_build, tmp_path):
    """Short of Windows and its CPython: Wine loads _fastcall.pyd beside a stand-in python3.dll
    (tests/windows/), so its imports resolve, PyInit__fastcall runs, bind takes pypoker.dll's
    exports by address (as _native.py does), and rank_hand ranks as pp.rank does here."""
    import numpy as np

    import pypoker as pp

    program = wine()
    if program is None:
        pytest.skip("Wine is not installed (apt-get install wine64)")
    sources = ROOT / "tests" / "windows"
    for source, output, shared in (("python3_stand_in.c", "python3.dll", ["-shared"]),
                                   ("load_fastcall.c", "load_fastcall.exe", [])):  # fmt: skip
        result = subprocess.run(
            [sys.executable, "-m", "ziglang", "cc", "-target", "x86_64-windows-gnu", "-std=c11",
             "-Wall", "-Wextra", "-Werror", "-O1", *shared, str(sources / source),
             "-o", str(tmp_path / output)],
            capture_output=True, text=True,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
    library, extension = windows_build
    shutil.copy(library, tmp_path / "pypoker.dll")
    shutil.copy(extension, tmp_path / "_fastcall.pyd")
    rng = np.random.default_rng(50)
    hands = [[int(c) for c in rng.choice(52, 7, replace=False)] for _ in range(50)]
    result = subprocess.run(
        [program, "load_fastcall.exe"], cwd=tmp_path, capture_output=True, text=True,
        input="".join(" ".join(map(str, hand)) + "\n" for hand in hands), timeout=600,
        env={**os.environ, "WINEPREFIX": str(tmp_path / "wine"), "WINEDEBUG": "-all"},
    )  # fmt: skip
    lines = result.stdout.split()
    assert lines[:3] == ["module", "_fastcall", "bound"], result.stdout + result.stderr
    assert [int(rank) for rank in lines[3:]] == [pp.rank(hand) for hand in hands]
