"""The package's size, enforced: no module too long, no folder too crowded.

No Python module of the package, its tests (test tooling included) or the
benchmarks is over :data:`MAX_MODULE_LINES` lines: one job per module
(issue 12); no folder of the package holds more than
:data:`MAX_FOLDER_MODULES` modules (issue 18).
"""

from __future__ import annotations

from pathlib import Path

from _imports import PACKAGE_DIR

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


#: About a dozen modules a folder (issue 18): past that, a concern has sub-concerns.
MAX_FOLDER_MODULES = 12


def crowded_folders(package: Path, limit: int = MAX_FOLDER_MODULES) -> list[str]:
    found = []
    for folder in sorted({path.parent for path in package.rglob("*.py")}):
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > limit:
            found.append(
                f"{folder.relative_to(package.parent)}: {len(modules)} modules, over {limit}: "
                "give its sub-concerns folders of their own"
            )
    return found


def test_no_folder_holds_more_than_a_dozen_modules() -> None:
    crowded = crowded_folders(PACKAGE_DIR)
    assert not crowded, "\n".join(crowded)


def test_a_crowded_folder_is_named(tmp_path: Path) -> None:
    for index in range(13):
        (tmp_path / "pkg" / "big").mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / "big" / f"m{index}.py").write_text("")
    (tmp_path / "pkg" / "big" / "__init__.py").write_text("")
    assert crowded_folders(tmp_path / "pkg") == [
        "pkg/big: 13 modules, over 12: give its sub-concerns folders of their own"
    ]


# --- the test tree mirrors the package (issue 18) ---------------------------------
