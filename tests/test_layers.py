"""The package's shape, enforced: layers, no import cycle, lazy imports
documented, no module too long.

Every ``import`` of every module under ``wendy_llm/`` is read with ``ast``
(runtime, ``TYPE_CHECKING`` and function-level imports alike). A module may
import its own layer and the layers below it (the order of :data:`LAYERS`,
drawn in the README's architecture section), never one above; the modules
import each other without a cycle; and an import inside a function is
allowed only under a ``# lazy: why`` comment (lazy loading keeps the
command line fast; it must never hide a cycle, which the cycle test sees
anyway).  No Python module of the package, its tests (test tooling
included) or the benchmarks is over :data:`MAX_MODULE_LINES` lines: one job
per module (issue 12).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "wendy_llm"

#: Lowest first: (layer, top-level names under ``wendy_llm`` in it).
#: ``""`` is the package itself (``wendy_llm/__init__.py``).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("errors", "atomic", "bounded", "bounded_yaml", "options", "phases", "record")),
    ("engine", ("engine",)),
    ("docker", ("docker",)),
    ("render", ("render",)),
    ("wendycli", ("wendycli",)),
    ("device", ("device",)),
    ("repo", ("repo",)),
    ("compare", ("compare",)),
    ("golden", ("golden",)),
    ("validate", ("validate",)),
    ("reports", ("reports",)),
    ("entry points", ("cli", "pytest_plugin", "__main__", "")),
)

LAZY_MARK = "# lazy:"


@dataclass(frozen=True)
class Import:
    """One import statement's target, as written in ``module``."""

    module: str  # the importing module, e.g. "wendy_llm.render.lint"
    target: str  # the imported module, e.g. "wendy_llm.render.template"
    file: Path
    line: int
    in_function: bool
    documented_lazy: bool

    def where(self) -> str:
        return f"{self.file.relative_to(PACKAGE_DIR.parent)}:{self.line}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_module(name: str, modules: dict[str, Path]) -> bool:
    return name in modules


def _targets(node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == "wendy_llm":
                yield alias.name
        return
    if node.level or not node.module or node.module.split(".")[0] != "wendy_llm":
        return
    for alias in node.names:
        # `from wendy_llm.engine import gofuncs` imports the submodule.
        submodule = f"{node.module}.{alias.name}"
        yield submodule if _is_module(submodule, modules) else node.module


def _lazy_documented(lines: list[str], node: ast.stmt, body: list[ast.stmt]) -> bool:
    """The import, or the run of imports it belongs to, carries ``# lazy:``:
    on one of its lines or on the comment lines right above the run."""
    index = body.index(node)
    first = index
    while first > 0 and isinstance(body[first - 1], ast.Import | ast.ImportFrom):
        first -= 1
    last = index
    while last + 1 < len(body) and isinstance(body[last + 1], ast.Import | ast.ImportFrom):
        last += 1
    start, end = body[first].lineno, body[last].end_lineno or body[last].lineno
    if any(LAZY_MARK in line for line in lines[start - 1 : end]):
        return True
    above = start - 2
    while above >= 0 and lines[above].strip().startswith("#"):
        if LAZY_MARK in lines[above]:
            return True
        above -= 1
    return False


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()

    def visit(body: list[ast.stmt], in_function: bool) -> Iterator[Import]:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                lazy = in_function and _lazy_documented(lines, node, body)
                targets = list(_targets(node, modules))
                if in_function and not targets:
                    targets = [""]  # a standard-library or third-party module
                for target in targets:
                    yield Import(module, target, path, node.lineno, in_function, lazy)
                continue
            nested = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    stmts = [c for c in children if isinstance(c, ast.stmt)]
                    handlers = [c for c in children if isinstance(c, ast.ExceptHandler)]
                    yield from visit(stmts, in_function or nested)
                    for handler in handlers:
                        yield from visit(handler.body, in_function or nested)
            if isinstance(node, ast.Match):
                for case in node.cases:
                    yield from visit(case.body, in_function)

    yield from visit(ast.parse(text, filename=str(path)).body, False)


def all_imports() -> list[Import]:
    modules = all_modules()
    return [imp for name, path in modules.items() for imp in imports_of(name, path, modules)]


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (``wendy_llm.x.y`` -> ``x``'s)."""
    top = module.split(".")[1] if "." in module else ""
    for index, (_, names) in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(
        f"{module}: wendy_llm.{top} is in no layer; add it to LAYERS in tests/test_layers.py "
        "and to the README's architecture section"
    )


def test_every_module_has_a_layer() -> None:
    for module in all_modules():
        layer_of(module)


def layer_violations(imports: list[Import]) -> list[str]:
    """Each import of a higher layer, named with where it is."""
    return [
        f"{imp.where()}: {imp.module} ({LAYERS[layer_of(imp.module)][0]}) imports "
        f"{imp.target} ({LAYERS[layer_of(imp.target)][0]}), a higher layer"
        for imp in imports
        if imp.target and layer_of(imp.target) > layer_of(imp.module)
    ]


def test_no_layer_imports_a_higher_one() -> None:
    wrong = layer_violations(all_imports())
    assert not wrong, "\n".join(wrong)


def test_an_import_of_a_higher_layer_is_named() -> None:
    file = PACKAGE_DIR / "render" / "lint.py"
    up = Import("wendy_llm.render.lint", "wendy_llm.validate.run", file, 7, False, False)
    down = Import("wendy_llm.validate.run", "wendy_llm.render.lint", file, 8, False, False)
    assert layer_violations([up, down]) == [
        "wendy_llm/render/lint.py:7: wendy_llm.render.lint (render) imports "
        "wendy_llm.validate.run (validate), a higher layer"
    ]


def find_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan),
    or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(edges.get(node, ())):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                cycles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return cycles


def test_find_cycles_finds_a_loop_and_nothing_else() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert find_cycles(edges) == [["a", "b", "c"], ["e"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    edges: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    for imp in all_imports():
        if imp.target and imp.target != imp.module:
            edges.setdefault(imp.module, set()).add(imp.target)
            where.setdefault((imp.module, imp.target), imp.where())
    described = []
    for cycle in find_cycles(edges):
        members = set(cycle)
        links = [
            f"  {where[(a, b)]}: {a} -> {b}"
            for a in cycle
            for b in sorted(edges.get(a, ()))
            if b in members
        ]
        described.append("cycle: " + ", ".join(cycle) + "\n" + "\n".join(links))
    assert not described, "\n".join(described)


def test_function_level_imports_are_documented_lazy_loading() -> None:
    hidden = [
        f"{imp.where()}: {imp.module} imports {imp.target or 'a module'} inside a function "
        f"without a `{LAZY_MARK} why` comment"
        for imp in all_imports()
        if imp.in_function and not imp.documented_lazy
    ]
    assert not hidden, "\n".join(hidden)


@pytest.mark.parametrize(
    ("source", "documented"),
    [
        ("def f():\n    import json\n", False),
        ("def f():\n    # lazy: only --json needs it\n    import json\n", True),
        ("def f():\n    import json  # lazy: only --json needs it\n", True),
        ("def f():\n    # lazy: both\n    import json\n    import csv\n", True),
        ("def f():\n    # lazy: one\n    import json\n    x = 1\n    import csv\n", False),
    ],
)
def test_the_lazy_mark_is_read_as_documented(tmp_path: Path, source: str, documented: bool) -> None:
    path = tmp_path / "m.py"
    path.write_text(source)
    found = list(imports_of("m", path, {}))
    assert found and all(imp.in_function for imp in found)
    assert all(imp.documented_lazy for imp in found) is documented


#: Spec files of the project's shared folder, which the repository does not hold.
OUTSIDE_SPECS = re.compile(
    r"wendy-init\.md|wendy-run\.md|llm-template\.md|architecture\.md|shared/spec|spec section"
)


def test_nothing_cites_a_spec_file_the_repository_does_not_hold() -> None:
    """The account of wendy init lives in docs/wendy-init-semantics.md; the
    package and the README cite that, never files outside the repository."""
    files = [
        *PACKAGE_DIR.rglob("*.py"),
        *PACKAGE_DIR.rglob("*.go"),
        PACKAGE_DIR.parent / "README.md",
    ]
    cited = [
        f"{path.relative_to(PACKAGE_DIR.parent)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE_SPECS.search(line)
    ]
    assert cited == []
    assert OUTSIDE_SPECS.search("(spec: wendy-run.md section 3)")


#: Issue 12's limit: no module over this many lines (a longer one does several jobs).
MAX_MODULE_LINES = 400
#: Where the limit holds: the package, the tests and their tooling, the benchmarks.
SIZED_DIRS = ("wendy_llm", "tests", "bench")


def oversized_modules(root: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """Each Python module under :data:`SIZED_DIRS` of ``root`` that is over
    ``limit`` lines, named with its length."""
    found = []
    for directory in SIZED_DIRS:
        assert (root / directory).is_dir(), f"{root / directory}: no such directory"
        for path in sorted((root / directory).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(
                    f"{path.relative_to(root)}: {lines} lines, over {limit}: "
                    "split it into modules of one job each"
                )
    return found


def test_no_module_is_over_the_line_limit() -> None:
    oversized = oversized_modules(PACKAGE_DIR.parent)
    assert not oversized, "\n".join(oversized)


def test_a_module_over_the_line_limit_is_named(tmp_path: Path) -> None:
    for directory in SIZED_DIRS:
        (tmp_path / directory).mkdir()
    (tmp_path / "tests" / "harness").mkdir()
    (tmp_path / "tests" / "harness" / "long.py").write_text("x = 1\n" * 401)
    (tmp_path / "bench" / "at_the_limit.py").write_text("x = 1\n" * 400)
    (tmp_path / "wendy_llm" / "notes.txt").write_text("x\n" * 1000)
    assert oversized_modules(tmp_path) == [
        "tests/harness/long.py: 401 lines, over 400: split it into modules of one job each"
    ]
