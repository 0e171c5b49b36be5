"""Builds pypoker's wheels for every platform from one machine, and checks them.

    python tools/wheels.py build [--target NAME ...] [--outdir dist]   every wheel + the sdist
    python tools/wheels.py check dist/*.whl                            read each one's binary
    python tools/wheels.py ci                                          what .ci/run does

Zig cross-compiles the core for each target in ``hatch_build.TARGETS``; the wheels are tagged
``py3-none-<platform>`` (cffi's ABI mode, one wheel per platform for every Python 3; the
optional fast-call extension inside is built against CPython's stable ABI, and any Python that
cannot load it takes the cffi paths). ``check`` proves what can be proven without the platform
itself:

- the wheel: its name's tags equal ``WHEEL``'s, every file's hash and size equal ``RECORD``'s,
  and pip accepts it for each platform tag (``pip install --platform ... --target``);
- the library: its format and architecture (ELF / Mach-O / PE; x86-64 / arm64), its dynamic
  dependencies (none on Linux, so glibc 2.17 and musl both hold; libSystem on macOS, with
  minimum macOS 11.0; ntdll on Windows), and its exported functions, which must equal the
  functions the generated header declares;
- the fast-call extension (``pypoker/_fastcall.abi3.so``; ``pypoker/_fastcall.pyd`` on
  Windows), in every wheel: the same format and architecture, ``PyInit__fastcall`` its one
  export, and nothing imported but the C library's and CPython's stable-ABI symbols: on Linux
  and macOS no dependency beyond the library's; on Windows a DLL importing its Python symbols
  from python3.dll (the stable ABI's DLL) alone, and nothing else but from kernel32 and the
  Universal C Runtime (``api-ms-win-crt-*``, which CPython itself links);
- its size, against the 2 MB a wheel may take (a guard against an accident such as debug
  information or a table shipped twice, not a budget the kernels are cut to fit).

``ci`` builds this machine's Linux wheel, checks it, installs it into a fresh virtualenv
without the Zig toolchain, times ranking 16M hands there end to end, and runs the test suite
against the installed wheel with no compiler on hand (``CC=false``; the Zig suite and the
cross-compiles skip themselves without the toolchain).

Needs the ``wheels`` extra (build, hatchling, ziglang, lief).
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hatch_build import TARGETS, Target, fastcall_files  # noqa: E402

# The x86-64 library carries three kernel levels (baseline, avx2, avx512), each with exact
# and Monte Carlo equity specialised for 2..10 players: about 1.3 MB of the 2.3 MB of code,
# 1.33 MB of the Linux x86-64 wheel's 1.50 MB (zsrc/ at 2d29602; `nm -S --size-sort` on an
# unstripped build). The wheel outgrew the first 1.5 MB guard with the December speed round,
# and 2 MB on 2026-12-06 with the Range Reader's trained model (356 KB of float32 weights,
# which do not compress), the short-deck rank tables and the best five's layout table.
# At 785d2bd (2026-12-07) the stripped Linux library held 3.47 MB of code (1.38 MB deflated)
# and 3.52 MB of tables (0.46 MB deflated); of the code, Monte Carlo's deal blocks specialised
# for 2..10 players on three levels 734 KB, the range players' tries 387 KB, exact equity
# 623 KB. The win_amd64 wheel reached 2.59 MB (Linux 2.49 MB) with the six-player showdown
# and the range tries of issue #50, so the guard moved to 3 MB: it is here to catch a wheel
# that doubles (an unstripped build, a table stored twice), not a kernel's specialisation.
WHEEL_BYTES_MAX = 3_000_000
# Symbols the platform's linker or Zig's DLL start-up code export beside pypoker's own.
PLATFORM_EXPORTS = {
    "ELF": set(),
    "MachO": {"__mh_dylib_header", "___dso_handle"},
    "PE": {
        "DllMainCRTStartup",
        "_tls_used",
        "_tls_index",
        "_tls_start",
        "_tls_end",
        "__xl_a",
        "__xl_z",
    },  # fmt: skip
}
# What each format may link to: the OS's own base library, nothing else.
ALLOWED_LIBRARIES = {"ELF": set(), "MachO": {"/usr/lib/libSystem.B.dylib"}, "PE": {"ntdll.dll"}}


def build(names: list[str], outdir: Path) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    wheels = []
    for name in names:
        started = time.perf_counter()
        env = {**os.environ, "PYPOKER_TARGET": name}
        run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(outdir),
            str(ROOT), env=env)  # fmt: skip
        wheel = next(outdir.glob(f"pypoker-*-py3-none-{TARGETS[name].tag}.whl"))
        wheels.append(wheel)
        print(f"{name}: {wheel.name} {wheel.stat().st_size:,} bytes, "
              f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    return wheels


def run(*command: str, env: dict | None = None, cwd: Path | None = None) -> str:
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stdout}{result.stderr}")
    return result.stdout


# ---- checking a wheel -------------------------------------------------------------------


def target_of(wheel: Path) -> tuple[str, Target]:
    platform = wheel.name.removesuffix(".whl").split("-")[-1]
    for name, target in TARGETS.items():
        if target.tag == platform:
            return name, target
    raise SystemExit(f"{wheel.name}: platform tag {platform!r} is none of pypoker's targets")


def check_record(wheel: Path) -> list[str]:
    """The wheel's metadata against its file name and contents; returns the problems."""
    problems = []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
        record_name = f"{dist_info}/RECORD"
        rows = list(csv.reader(io.StringIO(archive.read(record_name).decode())))
        recorded = {row[0] for row in rows}
        for path, digest, size in rows:
            if path == record_name:
                continue
            data = archive.read(path)
            algorithm, _, expected = digest.partition("=")
            actual = base64.urlsafe_b64encode(hashlib.new(algorithm, data).digest())
            if actual.rstrip(b"=").decode() != expected or int(size) != len(data):
                problems.append(f"RECORD: {path} does not match its hash or size")
        if names - recorded:
            problems.append(f"RECORD lacks {sorted(names - recorded)}")
        metadata = archive.read(f"{dist_info}/WHEEL").decode()
    _, _, python, abi, platforms = wheel.name.removesuffix(".whl").split("-")
    named = {f"{python}-{abi}-{p}" for p in platforms.split(".")}
    tagged = set(re.findall(r"^Tag: (\S+)$", metadata, flags=re.MULTILINE))
    if named != tagged:
        problems.append(f"WHEEL's tags {sorted(tagged)} differ from the name's {sorted(named)}")
    if "Root-Is-Purelib: false" not in metadata:
        problems.append("WHEEL: Root-Is-Purelib must be false (the wheel holds a binary)")
    return problems


def check_pip_accepts(wheel: Path) -> list[str]:
    problems = []
    _, _, _, _, platforms = wheel.name.removesuffix(".whl").split("-")
    for platform in platforms.split("."):
        with tempfile.TemporaryDirectory() as target:
            result = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                 "--only-binary", ":all:", "--platform", platform, "--target", target,
                 str(wheel)],
                capture_output=True, text=True,
            )  # fmt: skip
            if result.returncode != 0:
                problems.append(f"pip refuses it for {platform}: {result.stderr.strip()}")
    return problems


def header_functions(header: str) -> set[str]:
    return set(re.findall(r"\b(pp_\w+)\(", header))


def read_binary(data: bytes):
    """A shared library as lief reads it: (binary, (format, architecture), its libraries,
    its exported functions, problems found on the way)."""
    import lief

    lief.logging.disable()  # it reports a Mach-O's absent optional sections on stderr
    binary = lief.parse(list(data))
    problems = []
    if isinstance(binary, lief.ELF.Binary):
        found = (
            "ELF",
            {"X86_64": "x86_64", "AARCH64": "aarch64"}.get(binary.header.machine_type.name),
        )
        libraries = set(binary.libraries)
        versions = {a.name for r in binary.symbols_version_requirement for a in r.auxiliary_symbols}
        too_new = [v for v in versions if v.startswith("GLIBC_") and glibc(v) > (2, 17)]
        if too_new:
            problems.append(f"needs glibc symbol versions newer than 2.17: {sorted(too_new)}")
        exported = {s.name for s in binary.exported_functions}
    elif isinstance(binary, lief.MachO.Binary):
        found = ("MachO", {"X86_64": "x86_64", "ARM64": "arm64"}.get(binary.header.cpu_type.name))
        libraries = {lib.name for lib in binary.libraries if lib.command.name != "ID_DYLIB"}
        minos = tuple(binary.build_version.minos) if binary.has_build_version else None
        if minos is None or minos > (11, 0, 0):
            problems.append(f"minimum macOS {minos}, not 11.0")
        exported = {s.name.removeprefix("_") if s.name.startswith(("_pp_", "_PyInit")) else s.name
                    for s in binary.exported_symbols}  # fmt: skip
    elif isinstance(binary, lief.PE.Binary):
        found = ("PE", {"AMD64": "x86_64", "ARM64": "arm64"}.get(binary.header.machine.name))
        libraries = {i.name.lower() for i in binary.imports}
        exported = {e.name for e in binary.get_export().entries}
    else:
        return binary, None, set(), set(), ["not a binary lief can read"]
    return binary, found, libraries, exported, problems


def check_library(data: bytes, header: str, target: Target) -> list[str]:
    """The shared library's format, architecture, dependencies and exports."""
    binary, found, libraries, exported, problems = read_binary(data)
    if found is None:
        return ["the library: " + problems[0]]
    if found != tuple(target.binary.split()):
        problems.append(f"a {found[0]} {found[1]} binary, not {target.binary}")
    if libraries - ALLOWED_LIBRARIES[found[0]]:
        problems.append(f"links to {sorted(libraries - ALLOWED_LIBRARIES[found[0]])}")
    declared = header_functions(header)
    if exported - PLATFORM_EXPORTS[found[0]] != declared:
        extra = sorted(exported - PLATFORM_EXPORTS[found[0]] - declared)
        missing = sorted(declared - exported)
        problems.append(f"exports differ from the header: extra {extra}, missing {missing}")
    return problems


def fastcall_path(target: Target) -> str:
    """The fast-call extension's path in the target's wheel."""
    return f"pypoker/{fastcall_files(target)[1]}"


def check_fastcall(data: bytes | None, target: Target) -> list[str]:
    """The fast-call extension: in every wheel, built for the wheel's platform, exporting its
    init function, needing nothing but CPython's stable ABI and the C library."""
    name = fastcall_path(target)
    if data is None:
        return [f"no {name}"]
    binary, found, libraries, exported, problems = read_binary(data)
    if found != tuple(target.binary.split()):
        return [f"{name}: a {found} binary, not {target.binary}"]
    if found[0] == "PE":
        return problems + check_windows_fastcall(binary, name, exported)
    if libraries - ALLOWED_LIBRARIES[found[0]]:
        problems.append(f"{name} links to {sorted(libraries - ALLOWED_LIBRARIES[found[0]])}")
    if exported - PLATFORM_EXPORTS[found[0]] != {"PyInit__fastcall"}:
        problems.append(f"{name} exports {sorted(exported)}")
    if found[0] == "ELF":  # every undefined dynamic symbol: lief's imported_symbols leaves out
        # the untyped ones, as every reference to CPython's is in an extension
        imported = {s.name for s in binary.dynamic_symbols if s.shndx == 0 and s.name}
    else:
        imported = {s.name.removeprefix("_") for s in binary.imported_symbols}
    foreign = sorted(n for n in imported if not n.startswith(("Py", "_Py")) and n not in C_LIBRARY)
    if foreign:
        problems.append(f"{name} imports {foreign}")
    return problems


# The stable ABI's DLL: it forwards to the running interpreter's pythonXY.dll. CPython refuses
# an extension importing another pythonXY.dll (Python/dynload_win.c), and it would tie the
# wheel to one Python version.
PYTHON_DLL = "python3.dll"


def check_windows_fastcall(binary, name: str, exported: set[str]) -> list[str]:
    """A Windows extension: a DLL exporting PyInit__fastcall alone, importing CPython's symbols
    from python3.dll and nothing else but from kernel32 and the Universal C Runtime (the
    MinGW-w64 start-up code's; python3XY.dll itself imports both)."""
    import lief

    problems = []
    if not binary.header.has_characteristic(lief.PE.Header.CHARACTERISTICS.DLL):
        problems.append(f"{name} is not a DLL")
    if exported != {"PyInit__fastcall"}:
        problems.append(f"{name} exports {sorted(exported)}")
    imports = {i.name.lower(): {e.name for e in i.entries} for i in binary.imports}
    other = sorted(n for n in imports if n not in (PYTHON_DLL, "kernel32.dll")
                   and not n.startswith("api-ms-win-crt-"))  # fmt: skip
    if other:
        problems.append(f"{name} links to {other}")
    if not imports.get(PYTHON_DLL):
        problems.append(f"{name} imports nothing from {PYTHON_DLL}")
    foreign = sorted(n for n in imports.get(PYTHON_DLL, ()) if not n.startswith(("Py", "_Py")))
    python_elsewhere = sorted(n for dll, names in imports.items() if dll != PYTHON_DLL
                              for n in names if n.startswith(("Py", "_Py")))  # fmt: skip
    if foreign or python_elsewhere:
        problems.append(f"{name} imports {foreign + python_elsewhere}")
    return problems


# What the extension may take from the C library (Zig's start-up code on macOS), and the weak
# references of the C start-up files on Linux (crtbegin's, left unbound).
C_LIBRARY = {"dyld_stub_binder", "memcpy", "memset", "__stack_chk_fail", "__stack_chk_guard",
             "__cxa_finalize", "__gmon_start__", "_ITM_deregisterTMCloneTable",
             "_ITM_registerTMCloneTable"}  # fmt: skip


def glibc(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.removeprefix("GLIBC_").split("."))


def check(wheel: Path, pip: bool = True) -> list[str]:
    _, target = target_of(wheel)
    problems = check_record(wheel)
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(f"pypoker/_lib/{target.library}")
        header = archive.read("pypoker/_lib/pypoker.h").decode()
        extension = fastcall_path(target)
        names = archive.namelist()
        fastcall = archive.read(extension) if extension in names else None
        misnamed = sorted(n for n in names if n.startswith("pypoker/_fastcall") and n != extension)
    problems += check_library(data, header, target)
    problems += check_fastcall(fastcall, target)
    if misnamed:
        problems.append(f"{misnamed} in a wheel whose extension is {extension}")
    if wheel.stat().st_size > WHEEL_BYTES_MAX:
        problems.append(f"{wheel.stat().st_size:,} bytes, over {WHEEL_BYTES_MAX:,}")
    if pip:
        problems += check_pip_accepts(wheel)
    return problems


def check_all(wheels: list[Path]) -> bool:
    ok = True
    for wheel in wheels:
        problems = check(wheel)
        print(f"{wheel.name}: {wheel.stat().st_size:,} bytes: "
              + ("ok" if not problems else "\n  " + "\n  ".join(problems)))  # fmt: skip
        ok &= not problems
    return ok


# ---- CI: this machine's wheel in a fresh environment ------------------------------------


def host_target() -> str:
    machine = os.uname().machine
    name = {"x86_64": "linux-x86_64", "aarch64": "linux-aarch64"}.get(machine)
    if not sys.platform.startswith("linux") or name is None:
        raise SystemExit("`ci` runs on Linux x86-64 or aarch64")
    return name


def test_requirements() -> list[str]:
    """The test extra, less the Zig toolchain: the wheel must work without it."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    wanted = []
    for requirement in extras["test"]:
        own = re.fullmatch(r"pypoker\[(\w+)\]", requirement)  # the test extra names others
        wanted += extras[own.group(1)] if own else [requirement]
    return [r for r in wanted if not r.startswith("ziglang")]


def ci() -> None:
    with tempfile.TemporaryDirectory(prefix="pypoker-wheel-") as scratch:
        scratch = Path(scratch)
        (wheel,) = build([host_target()], scratch / "dist")
        if not check_all([wheel]):
            raise SystemExit("the wheel failed its checks")
        started = time.perf_counter()
        env_dir = scratch / "venv"
        venv.create(env_dir, with_pip=True)
        python = str(env_dir / "bin" / "python")
        run(python, "-m", "pip", "install", "--quiet", str(wheel))
        rank = run(python, "-m", "pypoker", "rank", "--random", "16M", cwd=scratch)
        print(f"fresh venv + wheel install + ranking 16M hands: "
              f"{time.perf_counter() - started:.1f} s\n{rank.strip()}")  # fmt: skip
        run(python, "-m", "pip", "install", "--quiet", *test_requirements())
        where = run(python, "-c", "import pypoker, importlib.util as u; "
                    "print(pypoker.__file__, u.find_spec('ziglang'))", cwd=scratch)  # fmt: skip
        if str(env_dir) not in where or not where.strip().endswith("None"):
            raise SystemExit(f"the test environment is not the wheel's alone: {where}")
        print(f"testing the installed wheel: {where.split()[0]}", flush=True)
        # No compiler either: cffi's ABI mode loads the library without one, so any attempt
        # to compile fails loudly instead of quietly finding the machine's.
        no_compiler = {**os.environ, "CC": "false", "CXX": "false", "LDSHARED": "false"}
        result = subprocess.run(
            [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests")],
            cwd=scratch, env=no_compiler,
        )  # fmt: skip
        if result.returncode != 0:
            raise SystemExit("the test suite failed against the installed wheel")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build", help="build wheels (every target by default)")
    build_command.add_argument("--target", action="append", choices=sorted(TARGETS))
    build_command.add_argument("--outdir", type=Path, default=ROOT / "dist")
    check_command = commands.add_parser("check", help="check built wheels")
    check_command.add_argument("wheels", nargs="+", type=Path)
    commands.add_parser("ci", help="build, check, install and test this machine's wheel")
    args = parser.parse_args()
    if args.command == "build":
        started = time.perf_counter()
        wheels = build(args.target or list(TARGETS), args.outdir)
        run(sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
            str(args.outdir), str(ROOT))  # fmt: skip
        print(f"{len(wheels)} wheels and the sdist in {time.perf_counter() - started:.0f} s")
        raise SystemExit(0 if check_all(wheels) else 1)
    if args.command == "check":
        raise SystemExit(0 if check_all(args.wheels) else 1)
    ci()


if __name__ == "__main__":
    main()
