"""No module reads a file of the repository but through the one reader (issue 38).

Every file-reading or directory-listing call of the package is read with
``ast``, as tests/cli/test_output_guard.py reads terminal writes: a
``read_bytes``/``read_text``/``open``/``iterdir``/``glob``/``rglob`` method
call, the builtin ``open()``, and ``os.open``/``os.fdopen``/``os.scandir``/
``os.walk``/``os.listdir``.  Only the modules of :data:`ALLOWED` may make
one, each for a reason said there; everything else reads through
:mod:`wendy_llm.safe_read`, which refuses links out of the repository,
special files and oversized files.
"""

from __future__ import annotations

import ast
from pathlib import Path

from _imports import PACKAGE_DIR, offenders

import wendy_llm.safe_read as reader

#: Module (path under wendy_llm/) -> why it may read or list files itself.
ALLOWED: dict[str, str] = {
    "safe_read.py": "the reader itself",
    "atomic.py": "the gate's own work directories and writes, by descriptor; it reads no content",
    "cli/output.py": "opens /dev/null in place of a closed stdout",
    "engine/process.py": "the helper's stderr, in a memfd of its own",
    "engine/toolchain.py": "the package's own Go source and the helper cache, not the repository",
    "engine/helper/sources.py": "the package's own Go source, for its digest",
    "engine/helper/shipped.py": "the helper binary and its identity shipped inside the package",
    "revision.py": "the package's own VERSION stamp",
    "cli/github/summary_cmd.py": "the gate's own reports directory (under RUNNER_TEMP), opened "
    "without following links, regular files only, each read bounded",
    "phases.py": "the test hook's FIFO and marker, in a directory a test names",
    "pytest_plugin/state.py": "globs for template.json to find a templates root; reads nothing",
    "render/files/tree.py": "writes a render to the user's output directory (atomically)",
    "render/manifest/schemawords.py": "the package's own JSON Schemas (package data)",
    "golden/layout.py": "lists fixture folders and files without following links; "
    "their content is read by safe_read",
    "repo/layout.py": "lists language and template folders; each link is judged by "
    "safe_read.resolve_inside before it is used",
    "repo/unseen.py": "lists folders at template depth (links leading out skipped); "
    "their files are read by safe_read",
    "validate/tools/cache.py": "the tool-result cache in the user's cache directory",
    "validate/tools/programs.py": "the tools' own temporary directories",
    "validate/tools/compose_spec.py": "the docker-compose binary, for the schema it embeds",
}

_METHODS = {"read_bytes", "read_text", "open", "iterdir", "glob", "rglob"}
_OS_CALLS = {"open", "fdopen", "scandir", "walk", "listdir"}


def reads_of(source: str, where: str) -> list[str]:
    """Each direct read or listing in ``source``: ``where:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func, what = node.func, None
        if isinstance(func, ast.Name) and func.id == "open":
            what = "open()"
        elif isinstance(func, ast.Attribute):
            is_os = isinstance(func.value, ast.Name) and func.value.id == "os"
            if is_os and func.attr in _OS_CALLS:
                what = f"os.{func.attr}()"
            elif not is_os and func.attr in _METHODS:
                what = f".{func.attr}()"
        if what is not None:
            found.append(f"{where}:{node.lineno}: {what}")
    return found


def unguarded_reads(package: Path, allowed: dict[str, str]) -> list[str]:
    return offenders(package, allowed, reads_of)


def test_no_module_reads_a_file_but_through_the_one_reader() -> None:
    unguarded = unguarded_reads(PACKAGE_DIR, ALLOWED)
    assert not unguarded, "read through wendy_llm.safe_read instead:\n" + "\n".join(unguarded)
    assert all((PACKAGE_DIR / where).is_file() for where in ALLOWED)
    assert (PACKAGE_DIR / "safe_read.py").samefile(reader.__file__)


def test_the_guard_names_each_kind_of_read(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "leaky.py").write_text(
        "import os\n"
        "from pathlib import Path\n"
        "from wendy_llm.safe_read import read_bytes\n\n"
        "def f(p: Path) -> None:\n"
        "    p.read_bytes()\n"
        "    open(p)\n"
        "    os.scandir(p)\n"
        "    list(p.rglob('*'))\n"
        "    read_bytes(p)\n"  # the reader: not a direct read
        "    os.path.join('a', 'b')\n"
    )
    (tmp_path / "allowed.py").write_text("def g(p):\n    return p.read_text()\n")
    assert unguarded_reads(tmp_path, {"allowed.py": "a reason"}) == [
        "wendy_llm/repo/leaky.py:6: .read_bytes()",
        "wendy_llm/repo/leaky.py:7: open()",
        "wendy_llm/repo/leaky.py:8: os.scandir()",
        "wendy_llm/repo/leaky.py:9: .rglob()",
    ]
