"""Hatchling build hook: compiles the Zig core and ships it inside the package.

It runs ``sys.executable -m ziglang build`` (the toolchain pinned in ``build-system.requires``,
never a ``zig`` found on PATH) and adds the shared library and its generated C header to the
wheel, which is tagged ``py3-none-<platform>``: the library is loaded with cffi in ABI mode,
so one wheel serves every Python 3 on a platform. A failed Zig build fails the install with
Zig's output.

Two kinds of build:

- **Native** (``PYPOKER_TARGET`` unset): for this machine. The library and header are also
  copied into ``pypoker/_lib/``, where an editable install finds them. Where this Python is
  CPython with its headers (not on Windows, whose extensions link an import library), Zig also
  builds ``pypoker/_fastcall<EXT_SUFFIX>``, the extension behind ``pp.rank``'s one-hand and
  small-batch calls (zsrc/pyext/fastcall.c); the wheel is then tagged for this Python
  (``cp311-cp311-<platform>``). Without it those calls take the cffi path, as fast as cffi
  allows, with the same results. ``PYPOKER_FASTCALL=0`` leaves it out.
- **Cross** (``PYPOKER_TARGET`` one of ``TARGETS``): Zig compiles for that platform from
  any host, the wheel gets the platform's tag, and ``pypoker/_lib/`` is left alone (it holds
  this machine's library). ``tools/wheels.py build`` loops over every target.
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


def python_headers() -> list[str] | None:
    """The directories of this Python's and NumPy's headers, where the fast-call extension
    can be built against them (a native build, CPython, not Windows); None elsewhere."""
    if os.environ.get("PYPOKER_FASTCALL", "1") == "0" or sys.implementation.name != "cpython":
        return None
    if sys.platform.startswith("win"):
        return None
    include = sysconfig.get_paths().get("include")
    if not include or not (Path(include) / "Python.h").is_file():
        return None
    try:
        import numpy
    except ImportError:
        return None
    return [include, numpy.get_include()]


FASTCALL_BUILT = "libpypoker_fastcall"  # Zig's name for the extension; Python's is below
FASTCALL_NAME = "_fastcall"


def zig_build(root: Path, prefix: Path, target: Target | None, headers: list[str] | None) -> None:
    """Builds the library into ``prefix``: ``lib/`` holds it and the header, except a Windows
    DLL, which Zig installs in ``bin/``; with ``headers``, the fast-call extension too."""
    command = [
        sys.executable, "-m", "ziglang", "build",
        "-Doptimize=ReleaseFast",
        "--prefix", str(prefix),
        *([f"-Dtarget={target.zig}"] if target else []),
        *([f"-Dpython-include={headers[0]}", f"-Dnumpy-include={headers[1]}"] if headers else []),
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
        headers = None if target else python_headers()
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
        if target is None:
            self.install_fastcall(root, prefix, headers, build_data)

    def install_fastcall(self, root: Path, prefix: Path, headers: list | None, build_data: dict):
        """Copies the extension into the package (an editable install imports it there) and
        tags the wheel for this Python; removes a stale one when none was built."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for stale in (root / "pypoker").glob(f"{FASTCALL_NAME}.*"):
            stale.unlink()
        if headers is None:
            return
        built = (
            prefix / "lib" / f"{FASTCALL_BUILT}{'.dylib' if sys.platform == 'darwin' else '.so'}"
        )
        installed = root / "pypoker" / f"{FASTCALL_NAME}{suffix}"
        shutil.copy2(built, installed)
        build_data["force_include"][str(installed)] = f"pypoker/{installed.name}"
        abi = f"cp{sysconfig.get_config_var('py_version_nodot')}"
        abi += "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
        build_data["tag"] = f"{abi.rstrip('t')}-{abi}-{native_platform_tag()}"


def native_platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")
