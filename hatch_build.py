"""Hatchling build hook: compiles the Zig core and ships it inside the package.

It runs ``sys.executable -m ziglang build`` (the toolchain pinned in ``build-system.requires``,
never a ``zig`` found on PATH) and adds the shared library and its generated C header to the
wheel, which is tagged ``py3-none-<platform>``: the library is loaded with cffi in ABI mode,
so one wheel serves every Python 3 on a platform. A failed Zig build fails the install with
Zig's output.

Two kinds of build:

- **Native** (``PYPOKER_TARGET`` unset): for this machine. The library and header are also
  copied into ``pypoker/_lib/``, where an editable install finds them.
- **Cross** (``PYPOKER_TARGET`` one of ``TARGETS``): Zig compiles for that platform from
  any host, the wheel gets the platform's tag, and ``pypoker/_lib/`` is left alone (it holds
  this machine's library). ``tools/wheels.py build`` loops over every target.

Both also build the CPython extension behind ``pp.rank``'s one-hand and small-batch calls
(zsrc/pyext/fastcall.c), ``pypoker/_fastcall.abi3.so`` on Linux and macOS and
``pypoker/_fastcall.pyd`` on Windows, against the stable ABI of CPython 3.10 (so one build
serves every later CPython, and the wheel stays ``py3-none``) from this Python's headers. For
Windows, built from any host, build.zig puts a Windows pyconfig.h beside those headers and
links python3.dll, the stable ABI's DLL, through an import library it makes from
zsrc/pyext/python3.def. Where it is not built or not loadable (PyPy; free-threaded CPython; a
native build on a Python without headers, or with headers it does not compile against, which
warns; ``PYPOKER_FASTCALL=0``) those calls take the cffi paths, with the same results. A cross
build without the headers fails rather than ship a wheel without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import NamedTuple

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class Target(NamedTuple):
    """A platform pypoker ships a wheel for. (Not a dataclass: hatchling loads this file
    without registering it as a module, which dataclasses need.)"""

    zig: str  # the `-Dtarget` triple; Linux names glibc 2.17, the manylinux2014 floor
    tag: str  # the wheel's platform tag (several joined by "." when one binary serves them)
    library: str  # the shared library's file name on that OS
    binary: str  # its format and architecture, as tools/wheels.py reads them: "ELF x86_64"


# The library links no C library at all (no DT_NEEDED entry: the Zig core calls nothing
# outside itself), so one Linux binary serves glibc and musl systems alike.
TARGETS = {
    "linux-x86_64": Target(
        "x86_64-linux-gnu.2.17",
        "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
        "libpypoker.so",
        "ELF x86_64",
    ),
    "linux-aarch64": Target(
        "aarch64-linux-gnu.2.17",
        "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
        "libpypoker.so",
        "ELF aarch64",
    ),
    "macos-x86_64": Target(
        "x86_64-macos.11.0", "macosx_11_0_x86_64", "libpypoker.dylib", "MachO x86_64"
    ),  # fmt: skip
    "macos-arm64": Target(
        "aarch64-macos.11.0", "macosx_11_0_arm64", "libpypoker.dylib", "MachO arm64"
    ),  # fmt: skip
    "windows-x86_64": Target("x86_64-windows-gnu", "win_amd64", "pypoker.dll", "PE x86_64"),
    "windows-arm64": Target("aarch64-windows-gnu", "win_arm64", "pypoker.dll", "PE arm64"),
}

LIBRARY_NAMES = {"linux": "libpypoker.so", "darwin": "libpypoker.dylib", "win32": "pypoker.dll"}


def native_library_name() -> str:
    for prefix, name in LIBRARY_NAMES.items():
        if sys.platform.startswith(prefix):
            return name
    return "libpypoker.so"


def python_headers() -> str | None:
    """The directory of this Python's headers, if it is a CPython with them (and a GIL: the
    stable ABI has none without)."""
    if sys.implementation.name != "cpython" or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return None
    include = sysconfig.get_paths().get("include")
    return include if include and (Path(include) / "Python.h").is_file() else None


def fastcall_headers(target: Target | None) -> str | None:
    """The headers to build the fast-call extension with, or None: not built."""
    if os.environ.get("PYPOKER_FASTCALL", "1") == "0":
        return None
    headers = python_headers()
    if headers is None and target is not None:
        raise RuntimeError(
            "pypoker: a wheel carries the fast-call extension, built against this Python's "
            "headers, and none were found: install them (e.g. python3-dev), or set "
            "PYPOKER_FASTCALL=0 to build a wheel without it"
        )
    return headers


def fastcall_files(target: Target | None) -> tuple[str, str]:
    """The extension's path as Zig installs it under the prefix, and its file name in the
    package: a stable-ABI extension is ``.abi3.so`` on Linux and macOS alike; on Windows it is
    ``.pyd`` (Python/dynload_win.c: ``.cp3XY-win_amd64.pyd`` or plain ``.pyd``, no abi3 tag)."""
    library = target.library if target else native_library_name()
    if library.endswith(".dll"):
        return "bin/pypoker_fastcall.dll", "_fastcall.pyd"
    return f"lib/libpypoker_fastcall{'.dylib' if library.endswith('.dylib') else '.so'}", (
        "_fastcall.abi3.so"
    )


def zig_build(root: Path, prefix: Path, target: Target | None, headers: str | None) -> None:
    """Builds the library into ``prefix``: ``lib/`` holds it and the header, except a Windows
    DLL, which Zig installs in ``bin/``; with ``headers``, the fast-call extension too."""
    command = [
        sys.executable, "-m", "ziglang", "build",
        "-Doptimize=ReleaseFast",
        "--prefix", str(prefix),
        *([f"-Dtarget={target.zig}"] if target else []),
        *([f"-Dpython-include={headers}"] if headers else []),
        *os.environ.get("PYPOKER_ZIG_ARGS", "").split(),
    ]  # fmt: skip
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("pypoker: the Zig build failed:\n" + result.stdout + result.stderr)


class ZigBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        name = os.environ.get("PYPOKER_TARGET", "").strip()
        if name and name not in TARGETS:
            raise RuntimeError(f"PYPOKER_TARGET={name!r}: use one of {', '.join(TARGETS)}")
        target = TARGETS.get(name)
        prefix = root / "build" / f"zig-{name or 'native'}"
        shutil.rmtree(prefix, ignore_errors=True)
        self.app.display_info(f"pypoker: zig build for {target.zig if target else 'this machine'}")
        headers = fastcall_headers(target)
        try:
            zig_build(root, prefix, target, headers)
        except RuntimeError as error:
            if target is not None or headers is None:
                raise
            # This machine's own build: the extension only speeds one-hand calls up, so a
            # Python whose headers it cannot compile against still gets pypoker, without it.
            self.app.display_warning(f"pypoker: building without the fast-call extension:\n{error}")
            headers = None
            zig_build(root, prefix, target, headers)
        library = target.library if target else native_library_name()
        built = {
            library: next(
                p for p in (prefix / "lib" / library, prefix / "bin" / library) if p.exists()
            ),  # fmt: skip
            "pypoker.h": prefix / "lib" / "pypoker.h",
        }
        if target is None:
            package_lib = root / "pypoker" / "_lib"
            package_lib.mkdir(exist_ok=True)
            for file_name, path in built.items():
                shutil.copy2(path, package_lib / file_name)
                built[file_name] = package_lib / file_name
        for file_name, path in built.items():
            build_data["force_include"][str(path)] = f"pypoker/_lib/{file_name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = False
        build_data["tag"] = f"py3-none-{target.tag if target else native_platform_tag()}"
        add_fastcall(root, prefix, target, headers is not None, build_data)


def add_fastcall(root: Path, prefix: Path, target: Target | None, built: bool, build_data: dict):
    """Puts the extension in the wheel; a native build also copies it into the package, where
    an editable install imports it (and removes a stale one when none was built)."""
    built_path, file_name = fastcall_files(target)
    path = prefix / built_path
    if target is None:
        for stale in (root / "pypoker").glob("_fastcall.*"):
            stale.unlink()
        if built:
            path = Path(shutil.copy2(path, root / "pypoker" / file_name))
    if built:
        build_data["force_include"][str(path)] = f"pypoker/{file_name}"


def native_platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")
