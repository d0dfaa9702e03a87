"""The package's shape, enforced: layers, no import cycle, lazy imports
documented (the sizes: test_module_sizes.py).

Every ``import`` of every module under ``wendy_llm/`` is read with ``ast``
(runtime, ``TYPE_CHECKING`` and function-level imports alike). A module may
import its own layer and the layers below it (the order of :data:`LAYERS`,
drawn in the README's architecture section), never one above; the modules
import each other without a cycle; and an import inside a function is
allowed only under a ``# lazy: why`` comment (lazy loading keeps the
command line fast; it must never hide a cycle, which the cycle test sees
anyway).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from _imports import LAZY_MARK, PACKAGE_DIR, Import, all_imports, all_modules, imports_of

#: Lowest first: (layer, top-level names under ``wendy_llm`` in it).
#: ``""`` is the package itself (``wendy_llm/__init__.py``).
#: The lowest layer: modules every other layer may import.
BASE = (
    "errors", "arguments", "atomic", "bounded", "bounded_yaml", "escape", "options", "phases",
    "record", "revision", "safe_read",
)  # fmt: skip
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", BASE),
    ("engine", ("engine",)),
    ("docker", ("docker",)),
    ("render", ("render",)),
    ("wendycli", ("wendycli",)),
    # The finding codes (issue 27): every layer that reports findings names them.
    ("codes", ("codes",)),
    ("device", ("device",)),
    ("repo", ("repo",)),
    ("compare", ("compare",)),
    ("golden", ("golden",)),
    # validate/ is layered inside too (issue 18): what the checks report, the
    # parsed documents, the external tools, the rules language, the
    # Dockerfile checks, the stored comparisons, the checks, and last the
    # orchestration (every other module of validate/: run, pickrun, ...).
    ("validate: findings", ("validate.findings", "validate.schema")),
    ("validate: documents", ("validate.documents",)),
    ("validate: tools", ("validate.tools",)),
    ("validate: rules", ("validate.rules",)),
    ("validate: dockerfiles", ("validate.dockerfiles",)),
    ("validate: stored", ("validate.stored",)),
    ("validate: checks", ("validate.checks",)),
    ("validate", ("validate",)),
    ("reports", ("reports",)),
    ("history", ("history",)),
    ("entry points", ("cli", "pytest_plugin", "__main__", "")),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module``: the layer naming the longest
    prefix of its name (``wendy_llm.validate.rules.file`` -> ``validate.rules``)."""
    name = module.removeprefix("wendy_llm").removeprefix(".")
    best: tuple[int, int] | None = None  # (prefix length, layer index)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            matches = name == prefix or (prefix and name.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    if best is None:
        raise AssertionError(
            f"{module}: in no layer; add it to LAYERS in tests/test_layers.py "
            "and to the README's architecture section"
        )
    return best[1]


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
    file = PACKAGE_DIR / "render" / "lints" / "checks.py"
    up = Import("wendy_llm.render.lints.checks", "wendy_llm.validate.run", file, 7, False, False)
    down = Import("wendy_llm.validate.run", "wendy_llm.render.lints.checks", file, 8, False, False)
    assert layer_violations([up, down]) == [
        "wendy_llm/render/lints/checks.py:7: wendy_llm.render.lints.checks (render) imports "
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


TESTS_DIR = PACKAGE_DIR.parent / "tests"
BASE_MODULES = BASE
#: tests/<folder>/ for each layer of the package: its tests import that layer.
LAYER_TEST_FOLDERS = (
    "base",
    "engine",
    "docker",
    "render",
    "wendycli",
    "codes",
    "device",
    "repo",
    "compare",
    "golden",
    "validate",
    "reports",
    "history",
    "cli",
    "pytest_plugin",
)
#: Folders for what spans the layers.
SPANNING_TEST_FOLDERS = {
    "e2e": "the command line and the library end to end: adoption, the gate, the docs",
    "templates": "the bundled templates: their files, entrypoints, properties, mutants",
    "bench": "the benchmarks' and the fuzzer's own tests",
}


def folder_of_module(module: str) -> str:
    """The tests/ folder of a package module (``wendy_llm.render.files.tree`` -> ``render``)."""
    parts = module.split(".")[1:]
    if not parts or parts[0] in ("cli", "__main__"):  # pytest_plugin: a folder of its own
        return "cli"
    return "base" if parts[0] in BASE_MODULES else parts[0]


def public_names() -> dict[str, str]:
    """The public API's names and the modules that define them (``wendy_llm/__init__.py``)."""
    tree = ast.parse((PACKAGE_DIR / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def folders_imported(path: Path, names: dict[str, str], seen: set[Path] | None = None) -> set[str]:
    """The layers a test module imports: directly, or through a helper module
    of tests/ (``_device_helpers``) that imports them."""
    seen = seen if seen is not None else set()
    seen.add(path)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        for module in modules:
            if module == "wendy_llm" and isinstance(node, ast.ImportFrom):
                found |= {folder_of_module(names.get(a.name, module)) for a in node.names}
            elif module.split(".")[0] == "wendy_llm":
                found.add(folder_of_module(module))
            helper = TESTS_DIR / f"{module.split('.')[0]}.py"
            if module.startswith("_") and helper.is_file() and helper not in seen:
                found |= folders_imported(helper, names, seen)
    return found


def misplaced_tests(tests: Path, names: dict[str, str]) -> list[str]:
    found = []
    for path in sorted(tests.rglob("test_*.py")):
        folder = path.parent.relative_to(tests).as_posix()
        where = path.relative_to(tests.parent).as_posix()
        if folder == "." and path.name in ("test_layers.py", "test_module_sizes.py"):
            continue  # the package's shape as a whole
        if folder in SPANNING_TEST_FOLDERS or folder.startswith(("harness", "_realrepo")):
            continue
        if folder not in LAYER_TEST_FOLDERS:
            found.append(f"{where}: tests/{folder}/ mirrors no folder of wendy_llm/")
        elif folder not in folders_imported(path, names):
            found.append(
                f"{where}: imports nothing of the {folder} layer: move it beside what it tests"
            )
    return found


def test_every_test_module_lives_beside_what_it_tests() -> None:
    misplaced = misplaced_tests(TESTS_DIR, public_names())
    assert not misplaced, "\n".join(misplaced)


def test_a_misplaced_test_module_is_named(tmp_path: Path) -> None:
    (tmp_path / "tests" / "engine").mkdir(parents=True)
    (tmp_path / "tests" / "misc").mkdir()
    (tmp_path / "tests" / "engine" / "test_ok.py").write_text("from wendy_llm import Renderer\n")
    (tmp_path / "tests" / "engine" / "test_no.py").write_text("from wendy_llm.render import x\n")
    (tmp_path / "tests" / "misc" / "test_x.py").write_text("")
    for folder in ("cli", "pytest_plugin"):  # the plugin: a package of its own (issue 37)
        (tmp_path / "tests" / folder).mkdir()
        (tmp_path / "tests" / folder / "test_p.py").write_text("import wendy_llm.pytest_plugin\n")
    names = {"Renderer": "wendy_llm.engine.client"}
    assert misplaced_tests(tmp_path / "tests", names) == [
        "tests/cli/test_p.py: imports nothing of the cli layer: move it beside what it tests",
        "tests/engine/test_no.py: imports nothing of the engine layer: "
        "move it beside what it tests",
        "tests/misc/test_x.py: tests/misc/ mirrors no folder of wendy_llm/",
    ]
