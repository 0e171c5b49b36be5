"""Hatchling build hook: compiles the Zig core and ships it inside the package.

It runs ``sys.executable -m ziglang build`` (the toolchain pinned in ``build-system.requires``,
never a ``zig`` found on PATH), copies the shared library and its generated C header into
``pypoker/_lib/`` (where an editable install finds them) and adds them to the wheel, which is
tagged ``py3-none-<platform>``: the library is loaded with cffi in ABI mode, so one wheel
serves every Python 3 on a platform. A failed Zig build fails the install with Zig's output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LIBRARY_NAMES = {"linux": "libpypoker.so", "darwin": "libpypoker.dylib", "win32": "pypoker.dll"}


def library_name() -> str:
    for prefix, name in LIBRARY_NAMES.items():
        if sys.platform.startswith(prefix):
            return name
    return "libpypoker.so"


def platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


class ZigBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        package_lib = root / "pypoker" / "_lib"
        package_lib.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="pypoker-zig-") as prefix:
            command = [
                sys.executable, "-m", "ziglang", "build",
                "-Doptimize=ReleaseFast",
                "--prefix", prefix,
                *os.environ.get("PYPOKER_ZIG_ARGS", "").split(),
            ]  # fmt: skip
            self.app.display_info("pypoker: " + " ".join(command))
            result = subprocess.run(command, cwd=root, capture_output=True, text=True)
            if result.returncode != 0:
                raise RuntimeError(
                    "pypoker: the Zig build failed:\n" + result.stdout + result.stderr
                )
            for name in (library_name(), "pypoker.h"):
                shutil.copy2(Path(prefix) / "lib" / name, package_lib / name)
        for name in (library_name(), "pypoker.h"):
            build_data["force_include"][str(package_lib / name)] = f"pypoker/_lib/{name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = False
        build_data["tag"] = f"py3-none-{platform_tag()}"
