"""The layout's rules, checked on the source: arrows point down (no import cycle), functions
stay short enough to read, and a constant the C header defines is not typed again in Python.

ARCHITECTURE.md says what each file owns; these tests keep the parts of it a machine can
check from drifting."""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZSRC = ROOT / "zsrc"
PACKAGE = ROOT / "pypoker"

ZIG_LINES_MAX = 70
PYTHON_LINES_MAX = 60
# Generators and test oracles run once, at build or test time, and read best whole.
ZIG_EXEMPT = {"rank/gen_tables.zig", "rank/oracle.zig", "rank/exhaustive.zig"}
# The only files at zsrc/'s top level: the roots of build.zig's compilations (a module
# reaches only files in its root's folder and below, so these stay above the concept
# folders). gen_tables and gen_header are roots too, but import no sibling file.
ZIG_ROOTS = {"libpypoker.zig", "kernel_object.zig", "tests.zig", "microbench.zig"}
ZIG_FOLDERS = {"cards", "rank", "equity", "omaha", "features", "arena", "reader", "abi"}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a list of nodes (first = last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def zig_imports() -> dict[str, set[str]]:
    graph = {}
    for path in ZSRC.rglob("*.zig"):
        name = path.relative_to(ZSRC).as_posix()
        targets = re.findall(r'@import\("([\w./]+\.zig)"\)', path.read_text())
        graph[name] = {(path.parent / t).resolve().relative_to(ZSRC).as_posix() for t in targets}
    return graph


def python_imports() -> dict[str, set[str]]:
    """Module → the pypoker modules it imports (relative or absolute, at any depth)."""
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if base else parent
                if base.startswith("pypoker"):
                    targets.add(base)
                    targets.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.startswith("pypoker"))
        graph[module] = targets
    modules = set(graph)
    # A package's own __init__ importing its submodules is not a cycle through them.
    return {m: {t for t in ts if t in modules and t != m} for m, ts in graph.items()}


def test_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_zig_imports_point_down():
    graph = zig_imports()
    assert "rank/eval.zig" in graph["abi/exports/ranking.zig"]
    assert find_cycle(graph) is None


def test_python_imports_point_down():
    graph = python_imports()
    assert "pypoker._native" in graph["pypoker.ranking"]
    # Submodules may import their package's siblings, never the package back.
    for module, targets in graph.items():
        parent = module.rpartition(".")[0]
        if parent and parent != "pypoker":
            assert parent not in targets, f"{module} imports its own package {parent}"
    assert find_cycle({m: ts - {"pypoker"} for m, ts in graph.items()}) is None


NAME = re.compile(r"[\w*]+(?:/[\w*]+)*(?:\.py|\.zig|/)(?=[\s,;]|$)")


def diagrams() -> list[list[str]]:
    """ARCHITECTURE.md's layer diagrams: per diagram, its lines of names, top first (a line
    without a name only draws the arrows; the C ABI rule ends the Python one)."""
    text = (ROOT / "ARCHITECTURE.md").read_text().split("## Layers")[1].split("### Inside")[0]
    layers = []
    for block in text.split("```")[1::2]:
        lines = []
        for line in block.splitlines():
            if line.startswith("─"):
                break
            if names := NAME.findall(line):
                lines.append(names)
        layers.append(lines)
    return layers


def folder_orders() -> dict[str, list[list[str]]]:
    """ARCHITECTURE.md's "Inside each folder": folder → its groups of file patterns, top first
    (`a → b, c`: groups [a], [b, c]; a line starting with `→` goes on with the one above)."""
    text = (ROOT / "ARCHITECTURE.md").read_text().split("### Inside each folder")[1]
    orders, folder = {}, None
    for line in text.split("```")[1].strip().splitlines():
        if not line.lstrip().startswith("→"):
            folder, line = line.split(None, 1)
            orders[folder] = []
        chain = line.split(";")[0].strip().removeprefix("→")
        orders[folder] += [[p.strip() for p in group.split(",")] for group in chain.split("→")]
    return orders


def layer_of(layers: list[list[str]], name: str) -> int | None:
    return next((i for i, names in enumerate(layers) if name in names), None)


def arrows_up(graph: dict[str, set[str]], place) -> list[str]:
    """Edges whose target is not strictly below their source; ``place(name)`` → a sortable
    level (None: unplaced, reported) and a key naming the unit the level belongs to."""
    wrong = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            (a, unit_a), (b, unit_b) = place(source), place(target)
            if unit_a == unit_b and a is not None:
                continue
            if a is None or b is None:
                wrong.append(f"{source if a is None else target} is in no diagram")
            elif b <= a:
                wrong.append(f"{source} → {target}")
    return sorted(set(wrong))


def test_python_imports_follow_the_layer_diagram():
    layers = diagrams()[0]
    graph = python_imports()

    def unit(module: str) -> str:
        parts = module.split(".")
        if len(parts) == 1:
            return "__init__.py"
        return f"{parts[1]}/" if f"{parts[0]}.{parts[1]}" in PACKAGES else f"{parts[1]}.py"

    def place(module: str):
        name = unit(module)
        return (-1 if name == "__init__.py" else layer_of(layers, name)), name

    PACKAGES.update(m for m in graph if any(o.startswith(m + ".") for o in graph))
    edges = {m: {t for t in ts if t != "pypoker"} for m, ts in graph.items()}
    assert not (wrong := arrows_up(edges, place)), wrong
    placed = {name for names in layers for name in names}
    assert {unit(m) for m in graph} - {"__init__.py"} == placed, "the diagram lists what is there"


PACKAGES: set[str] = set()


def test_zig_imports_follow_the_layer_diagrams():
    folders = diagrams()[1]
    orders = folder_orders()

    def place(name: str):
        folder = name.split("/")[0] + "/"
        level = layer_of(folders, folder)
        if "/" not in name:  # a root of the build: above everything
            return (-1, 0), name
        rest = name.split("/", 1)[1]
        groups = orders.get(folder, [])
        group = next((g for g, ps in enumerate(groups) if any(fnmatch(rest, p) for p in ps)), None)
        if level is None or group is None:
            return None, name
        return (level, group), folder

    graph = zig_imports()
    wrong = arrows_up(graph, place)
    # Within a folder: its files' order (a unit of its own, so the folder rule lets it be).
    for source, targets in graph.items():
        for target in targets:
            (a, unit_a), (b, unit_b) = place(source), place(target)
            if a is not None and b is not None and unit_a == unit_b and b <= a:
                wrong.append(f"{source} → {target}")
    assert not wrong, sorted(set(wrong))


def test_layer_checks_catch_a_wrong_arrow():
    layers = [["a.py"], ["b.py", "c.py"]]

    def place(name):
        return layer_of(layers, name), name

    assert arrows_up({"a.py": {"b.py"}}, place) == []
    assert arrows_up({"b.py": {"a.py"}}, place) == ["b.py → a.py"]
    assert arrows_up({"b.py": {"c.py"}}, place) == ["b.py → c.py"]
    assert arrows_up({"d.py": {"c.py"}}, place) == ["d.py is in no diagram"]


def test_zsrc_top_level_holds_only_the_build_roots():
    top = {path.name for path in ZSRC.glob("*.zig")}
    assert top == ZIG_ROOTS, f"move {sorted(top - ZIG_ROOTS)} into a concept folder"
    build = (ROOT / "build.zig").read_text()
    named = set(re.findall(r'b\.path\("zsrc/([\w/]+\.zig)"\)', build))
    assert ZIG_ROOTS <= named, "each root is a root_source_file in build.zig"
    folders = {path.name for path in ZSRC.iterdir() if path.is_dir()} - {"pyext"}
    assert folders <= ZIG_FOLDERS, f"a new concept folder goes into ARCHITECTURE.md: {folders}"


def test_every_zig_file_has_its_tests_run():
    """`zig build test` runs the tests of the files zsrc/tests.zig names (and what they
    import): a file reached by neither would have its tests silently skipped."""
    graph = zig_imports()
    reached, todo = set(), ["tests.zig"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(graph.get(name, ()))
    # Separate compilations: the generators, and the kernels (built per CPU level with an
    # option the test build lacks; the tests reach them through abi/dispatch.zig).
    standalone = {"rank/gen_tables.zig", "abi/gen_header.zig", "abi/kernels.zig"} | ZIG_ROOTS
    assert not any("\ntest " in (ZSRC / name).read_text() for name in standalone - {"tests.zig"})
    missing = set(graph) - reached - standalone
    assert not missing, f"name these in zsrc/tests.zig: {sorted(missing)}"


def zig_functions(path: Path):
    """(name, lines) of each function in a Zig file, type constructors (`… type {`) aside."""
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"(\s*)(?:pub\s+)?(?:export\s+)?(?:inline\s+)?fn\s+(\w+)\(", line)
        if not match:
            continue
        opening = next(j for j in range(i, len(lines)) if lines[j].rstrip().endswith(("{", ";")))
        if lines[opening].rstrip().endswith((") type {", ";")):
            continue
        indent = match.group(1) + "}"
        end = next(j for j in range(opening + 1, len(lines)) if lines[j].startswith(indent))
        yield match.group(2), end - i + 1


def test_zig_functions_are_short():
    long = [
        f"{path.relative_to(ROOT)}:{name} ({lines} lines)"
        for path in [*ZSRC.rglob("*.zig"), ROOT / "build.zig"]
        if path.relative_to(ROOT).as_posix().removeprefix("zsrc/") not in ZIG_EXEMPT
        for name, lines in zig_functions(path)
        if lines > ZIG_LINES_MAX
    ]
    assert not long, f"over {ZIG_LINES_MAX} lines: {long}"


def test_python_functions_are_short():
    long = [
        f"{path.relative_to(ROOT)}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in [*PACKAGE.rglob("*.py"), *(ROOT / "bench").glob("*.py")]
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > PYTHON_LINES_MAX
    ]
    assert not long, f"over {PYTHON_LINES_MAX} lines: {long}"


@pytest.fixture(scope="module")
def header_constants() -> dict[str, int]:
    from pypoker import _native

    header = (_native._LIB_DIR / "pypoker.h").read_text()
    return {name: int(value) for name, value in re.findall(r"#define PP_(\w+) (\d+)", header)}


def test_header_constants_are_not_typed_again_in_python(header_constants):
    """A value the header defines (above the small numbers prose uses) reaches Python as
    ``lib.PP_…``; a module-level constant holding the same literal would drift."""
    values = {value: name for name, value in header_constants.items() if value > 100}
    assert values, "the header defines no constant"
    typed = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                if node.value.value in values and type(node.value.value) is int:
                    name = values[node.value.value]
                    typed.append(f"{path.relative_to(ROOT)}:{node.lineno} (PP_{name})")
    assert not typed, f"use lib.PP_… instead: {typed}"


# Constants of the C ABI that are text, tuples or small numbers, which the value check above
# cannot tell from prose: the card letters (zsrc/cards/encoding.zig; Python reads them once,
# through `pp_card_letters`, in _native.py), the arena's street names (one tuple, in
# arena/_config.py, by the header's `PP_STREET_…` numbers) and the short deck's 36 cards
# (`PP_SHORT_DECK_CARDS`).
STREET_NAMES = {"preflop", "flop", "turn", "river"}
STREETS_HOME = "pypoker/arena/_config.py"


def shared_literals(sources: dict[str, str]) -> list[str]:
    """Places in ``sources`` (path → Python text) that spell one of those constants again."""
    found = []
    for path, text in sources.items():
        if "23456789TJQKA" in text.upper() or re.search(r"[\"']schd[\"']", text, re.I):
            found.append(f"{path}: the card letters (use _native.VALUES, SUITS)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Tuple | ast.List | ast.Set) and path != STREETS_HOME:
                names = {i.value for i in node.elts if isinstance(i, ast.Constant)}
                if STREET_NAMES <= names:
                    found.append(f"{path}:{node.lineno} street names (use arena._config.STREETS)")
            if isinstance(node, ast.Constant) and type(node.value) is int and node.value == 36:
                found.append(f"{path}:{node.lineno} 36 (use lib.PP_SHORT_DECK_CARDS)")
    return found


def test_shared_text_constants_are_read_once():
    python = {p.relative_to(ROOT).as_posix(): p.read_text() for p in PACKAGE.rglob("*.py")}
    assert shared_literals(python) == []
    from pypoker import _native
    from pypoker.arena import _config

    lib = _native.lib
    assert len(_native.VALUES) == lib.PP_VALUES and len(_native.SUITS) == lib.PP_SUITS
    assert len(_config.STREETS) == lib.PP_STREETS
    assert _config.STREETS[lib.PP_STREET_OVER] == "over"
    assert _config.STREETS[lib.PP_STREET_PREFLOP] == "preflop"


def test_shared_literal_check_catches_a_copy():
    found = shared_literals({
        "pypoker/a.py": 'VALUES = "23456789TJQKA"',
        "pypoker/b.py": 'S = ("preflop", "flop", "turn", "river")',
        "pypoker/c.py": "deck = 36 - used",
        STREETS_HOME: 'S = ("preflop", "flop", "turn", "river", "over")',
    })  # fmt: skip
    assert [f.split(":")[0] for f in found] == ["pypoker/a.py", "pypoker/b.py", "pypoker/c.py"]


def private_names_used_elsewhere(sources: dict[Path, str] | None = None) -> list[str]:
    """``module._name`` or ``from module import _name`` in pypoker/ (or ``sources``: path →
    text) where ``_name`` is a private name of another pypoker module (not a private module:
    ``from pypoker import _native`` is how a package-private module is reached)."""
    found = []
    if sources is None:
        sources = {path: path.read_text() for path in PACKAGE.rglob("*.py")}
    for path, text in sources.items():
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        aliases = {}  # a local name → the pypoker module it stands for
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if base else parent
                if not base.startswith("pypoker"):
                    continue
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if is_module(target):
                        aliases[alias.asname or alias.name] = target
                    elif is_private(alias.name):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("pypoker") and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and is_private(node.attr)
                and not is_module(f"{aliases[node.value.id]}.{node.attr}")
            ):
                found.append(
                    f"{path.relative_to(ROOT)}:{node.lineno} uses {node.value.id}.{node.attr}"
                )
    return found


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def is_module(dotted: str) -> bool:
    """A pypoker module or package, or a compiled extension beside them (``_fastcall``)."""
    path = ROOT.joinpath(*dotted.split("."))
    return (
        path.with_suffix(".py").exists()
        or path.is_dir()
        or any(path.parent.glob(path.name + ".*.so"))
        or dotted == "pypoker._fastcall"
    )


def test_no_private_name_is_used_outside_its_module():
    assert not private_names_used_elsewhere()


def test_private_name_check_catches_a_use():
    path = PACKAGE / "dealing.py"
    for line in ("from pypoker.cardset import _x", "from . import cardset\ncardset._x"):
        assert private_names_used_elsewhere({path: line}), line
    assert not private_names_used_elsewhere({path: "from . import _native\n_native.lib"})


# Private by convention elsewhere, public here: namedtuple's API, and the standard library's.
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_exit", "_getframe"}


def object_private_attributes_used_elsewhere(sources: dict[Path, str] | None = None) -> list[str]:
    """``thing._name`` in pypoker/ (or ``sources``) where ``thing`` is not ``self`` or
    ``cls`` and no class of the same module defines ``_name``: an object's private attribute
    read or written from outside the module that owns it (a public property says what the
    other module may use)."""
    found = []
    if sources is None:
        sources = {path: path.read_text() for path in PACKAGE.rglob("*.py")}
    for path, text in sources.items():
        tree = ast.parse(text)
        owned = set()  # the private attributes this module's classes define
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in ast.walk(node):
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        owned.add(item.name)
                    elif isinstance(item, ast.AnnAssign | ast.Assign):
                        targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                        owned.update(t.id for t in targets if isinstance(t, ast.Name))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in ("self", "cls") and isinstance(node.ctx, ast.Store):
                    owned.add(node.attr)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and is_private(node.attr)
                and node.attr not in owned | PUBLIC_UNDERSCORED
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and not is_module_reference(node, tree, path)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} uses .{node.attr}")
    return found


def is_module_reference(node: ast.Attribute, tree: ast.Module, path: Path) -> bool:
    """``_native.lib``-style: the attribute names a pypoker module (a private module is how a
    package-private one is reached; ``private_names_used_elsewhere`` checks its names)."""
    if not isinstance(node.value, ast.Name):
        return False
    for imported in ast.walk(tree):
        if isinstance(imported, ast.Import | ast.ImportFrom):
            for alias in imported.names:
                if (alias.asname or alias.name).split(".")[0] == node.value.id:
                    return True
    return False


def test_no_object_private_attribute_is_used_outside_its_module():
    assert not object_private_attributes_used_elsewhere()


def test_object_private_check_catches_a_use():
    path = PACKAGE / "dealing.py"
    assert object_private_attributes_used_elsewhere({path: "def f(arena):\n    arena._config"})
    assert object_private_attributes_used_elsewhere({path: "def f(r):\n    r._combos = []"})
    owner = "class A:\n    def __init__(self):\n        self._x = 1\n\ndef f(a):\n    a._x"
    assert not object_private_attributes_used_elsewhere({path: owner})


def test_one_progress_reporter():
    """Every long call reports through ``_progress.reporter``: no second progress class."""
    classes = [
        f"{path.relative_to(ROOT)}:{node.name}"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and "progress" in node.name.lower()
    ]
    assert classes == ["pypoker/_progress.py:Progress"]


def test_every_kernel_declaration_is_listed_once():
    """A file declaring kernels (``pub const kernels = struct``) is in ``kernel_table.sources``
    (its kernels are compiled per CPU level only then), and a listed file declares some."""
    table = (ZSRC / "abi/kernel_table.zig").read_text()
    listed = re.findall(
        r'@import\("\.\./([\w/]+\.zig)"\)', table.split("pub const sources")[1].split("};")[0]
    )
    declaring = sorted(
        p.relative_to(ZSRC).as_posix()
        for p in ZSRC.rglob("*.zig")
        if re.search(r"^pub const kernels = struct \{", p.read_text(), re.M)
    )
    assert len(listed) == len(set(listed))
    assert sorted(listed) == declaring


# One failure record, one translation each side of the ABI: cards/failure.zig's `HandError`
# (filled where a failure is found), abi/status.zig's `report_hand_error` (the only writer of
# a `pp_error`), and `_native.raise_failure` (the only words for a failure's status).
FAILURE_RECORDS = {("cards/failure.zig", "HandError"), ("abi/status.zig", "Error")}
TRANSLATOR = "abi/status.zig"
PYTHON_MAP = "pypoker/_native.py", {"raise_failure", "_hand_words", "_player_words", "_text_words"}
# Statuses only a failure record explains (the others name no row: pointers, memory, and the
# arena's own refusals, which its modules word).
ROW_STATUSES = {
    "CARD_OUT_OF_RANGE", "DUPLICATE_CARD", "EMPTY_HAND", "TOO_MANY_CARDS", "INCONSISTENT_KEY",
    "INDEX_OUT_OF_RANGE", "CARD_NOT_IN_DECK", "BAD_VALUE", "BAD_SUIT", "OUTPUT_FULL", "BAD_WEIGHT",
}  # fmt: skip


def struct_bodies(code: str):
    """(name, body) of each `const Name = [extern] struct { … }` in Zig code."""
    for match in re.finditer(r"const (\w+) = (?:extern |packed )?struct \{", code):
        depth, at = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(code[at], 0)
            at += 1
        yield match.group(1), code[match.end() : at - 1]


def failure_records(sources: dict[str, str]) -> list[str]:
    """Zig structs that record what failed (named …Error or …Failure, or a `kind` beside a
    `row` or `player`) other than the one record and the C ABI's copy of it."""
    found = []
    for path, code in sources.items():
        for name, body in struct_bodies(code):
            fields = set(re.findall(r"^\s*(\w+):", body, re.M))
            named = re.search(r"(Error|Failure)$", name)
            if (named or ("kind" in fields and fields & {"row", "player"})) and (
                path,
                name,
            ) not in FAILURE_RECORDS:
                found.append(f"{path}:{name}")
    return found


def failure_translators(sources: dict[str, str]) -> list[str]:
    """Zig outside abi/status.zig that writes a `pp_error` or maps a kind to a status."""
    return [
        path
        for path, code in sources.items()
        if path != TRANSLATOR
        and (
            re.search(r"\.\*\s*=\s*\.\{\s*\.row\s*=", code)
            or re.search(r"\.(\w+)\s*=>\s*\.\1\b", code)
        )
    ]


def python_status_words(sources: dict[str, str]) -> list[str]:
    """Python functions outside the one map that read a row-naming status."""
    path_of_map, map_functions = PYTHON_MAP
    found = []
    for path, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef) or (
                path == path_of_map and node.name in map_functions
            ):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Attribute) and inner.attr.removeprefix("PP_") in (
                    ROW_STATUSES
                ):
                    found.append(f"{path}:{node.name} ({inner.attr})")
    return found


def zig_sources() -> dict[str, str]:
    return {p.relative_to(ZSRC).as_posix(): zig_code(p) for p in ZSRC.rglob("*.zig")}


def test_one_failure_record_one_translator_one_map():
    assert failure_records(zig_sources()) == []
    assert failure_translators(zig_sources()) == []
    python = {p.relative_to(ROOT).as_posix(): p.read_text() for p in PACKAGE.rglob("*.py")}
    assert python_status_words(python) == []


def test_failure_checks_catch_a_second_record_translator_and_map():
    record = "pub const ParseError = struct { row: u64, kind: Kind, position: u32 };"
    spot = "pub const Failure = struct { kind: Kind, player: i64 = -1 };"
    assert failure_records({"cards/parse.zig": record, "equity/spot.zig": spot}) == [
        "cards/parse.zig:ParseError",
        "equity/spot.zig:Failure",
    ]
    writer = "if (err) |out| out.* = .{ .row = e.row, .card = -1, .position = -1 };"
    mapping = "return switch (e.kind) { .bad_value => .bad_value, .bad_suit => .bad_suit };"
    assert failure_translators({"abi/x.zig": writer, "abi/y.zig": mapping}) == [
        "abi/x.zig",
        "abi/y.zig",
    ]
    words = "def check(status):\n    if status == lib.PP_DUPLICATE_CARD:\n        raise E('x')\n"
    found = python_status_words({"pypoker/x.py": words})
    assert found == ["pypoker/x.py:check (PP_DUPLICATE_CARD)"]


# Assertions (TigerBeetle's style, /work/shared/STYLE.md): invariants stated at function
# boundaries. Density = `assert(` calls (`std.debug.assert` or its alias, comptime ones
# included) per named Zig function (`fn name(`, type constructors and test helpers alike),
# over every file of zsrc/, comments left out.
ASSERTIONS_PER_FUNCTION_MIN = 0.5
# Folders held to the minimum each, not only on average.
DENSE_FOLDERS = {"rank", "abi"}


def zig_code(path: Path) -> str:
    """The file's text without `//` comments (doc comments too)."""
    return re.sub(r"//[^\n]*", "", path.read_text())


def assertion_density(paths) -> tuple[int, int]:
    """(functions, assertions) over the Zig files `paths`."""
    functions = assertions = 0
    for path in paths:
        code = zig_code(path)
        functions += len(re.findall(r"\bfn\s+(?:\w+|@\"[^\"]*\")\s*\(", code))
        assertions += len(re.findall(r"\bassert\(", code))
    return functions, assertions


def test_assertion_density_counts_calls_and_functions(tmp_path):
    sample = tmp_path / "sample.zig"
    sample.write_text(
        "const assert = std.debug.assert;\n"
        "// fn commented(x) { assert(false); }\n"
        "pub inline fn first(x: u32) u32 {\n    assert(x > 0);\n    return x;\n}\n"
        "fn Second(comptime n: usize) type {\n    comptime assert(n > 1);\n"
        "    std.debug.assert(n < 9);\n    return [n]u8;\n}\n"
    )
    assert assertion_density([sample]) == (2, 3)


def test_zig_assertion_density():
    paths = sorted(ZSRC.rglob("*.zig"))
    functions, assertions = assertion_density(paths)
    by_folder = {
        folder: assertion_density(p for p in paths if p.relative_to(ZSRC).parts[0] == folder)
        for folder in sorted(ZIG_FOLDERS)
    }
    report = ", ".join(f"{name}/ {a}/{f}" for name, (f, a) in by_folder.items())
    assert assertions >= ASSERTIONS_PER_FUNCTION_MIN * functions, (
        f"{assertions} assertions for {functions} functions "
        f"({assertions / functions:.2f} a function, under {ASSERTIONS_PER_FUNCTION_MIN}): {report}"
    )
    # Folder by folder too where the boundaries are the library's own (the ranking kernels'
    # entries, the C ABI's exports): the average alone let them sit at 0.35 and 0.19.
    thin = [
        f"{name}/ {a / f:.2f}"
        for name, (f, a) in by_folder.items()
        if name in DENSE_FOLDERS and a < ASSERTIONS_PER_FUNCTION_MIN * f
    ]
    assert not thin, f"under {ASSERTIONS_PER_FUNCTION_MIN} assertions a function: {thin} ({report})"
