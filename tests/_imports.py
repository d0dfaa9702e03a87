"""Reading every import of the package with ``ast``: what tests/test_layers.py
judges (runtime, ``TYPE_CHECKING`` and function-level imports alike)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "wendy_llm"
LAZY_MARK = "# lazy:"


@dataclass(frozen=True)
class Import:
    """One import statement's target, as written in ``module``."""

    module: str  # the importing module, e.g. "wendy_llm.render.lints.checks"
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


def offenders(
    package: Path, allowed: Mapping[str, str], find: Callable[[str, str], list[str]]
) -> list[str]:
    """What ``find(source, "wendy_llm/<module>")`` names in each module of
    ``package`` that ``allowed`` does not exempt (the guard tests' walk: the
    output layer's, the one reader's)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        if where not in allowed:
            found += find(path.read_text(encoding="utf-8"), f"wendy_llm/{where}")
    return found
