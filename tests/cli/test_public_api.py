"""``import wendy_llm`` is cheap, and every public name still imports and type-checks.

The package loads its names on first use (PEP 562); type checkers read the
``TYPE_CHECKING`` imports. These tests hold the two lists together and
prove the laziness on a fresh interpreter.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import wendy_llm

INIT = Path(wendy_llm.__file__)


def _typing_imports() -> dict[str, str]:
    """Name -> module of the ``if TYPE_CHECKING:`` imports of ``wendy_llm/__init__.py``."""
    found: dict[str, str] = {}
    for node in ast.parse(INIT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign):  # __version__: str, made on first use
                    assert ast.unparse(stmt) == "__version__: str"
                    continue
                assert isinstance(stmt, ast.ImportFrom) and stmt.module
                for alias in stmt.names:
                    # `X as X`: an explicit re-export for mypy --strict.
                    assert alias.asname == alias.name, ast.unparse(stmt)
                    found[alias.name] = stmt.module
    return found


def test_import_wendy_llm_loads_no_submodule() -> None:
    code = (
        "import sys, wendy_llm; print(sorted(m for m in sys.modules if m.startswith('wendy_llm.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_lazy_table_is_what_type_checkers_see() -> None:
    assert _typing_imports() == wendy_llm._EXPORTS
    assert sorted(wendy_llm.__all__) == sorted(wendy_llm._EXPORTS)


@pytest.mark.parametrize("name", sorted(wendy_llm._EXPORTS))
def test_every_public_name_resolves_to_its_module(name: str) -> None:
    value = getattr(wendy_llm, name)
    module = sys.modules[wendy_llm._EXPORTS[name]]
    # A function is exported wrapped in its argument checks (wendy_llm.arguments).
    assert getattr(value, "__wrapped__", value) is getattr(module, name)
    assert name in dir(wendy_llm)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = wendy_llm.nope  # type: ignore[attr-defined]
    code = "from wendy_llm import nope"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    assert "cannot import name 'nope' from 'wendy_llm'" in result.stderr


def test_the_toolchain_runs_as_a_module_without_finding_itself_imported() -> None:
    """``python -m wendy_llm.engine.toolchain`` (``make install``) imports the
    packages above it first: they must not import it (runpy warns)."""
    result = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-m", "wendy_llm.engine.toolchain"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().rsplit("/", 1)[-1].startswith("wendy-helper-")


# --- the public surface (issue 31) ---------------------------------------------


def test_dir_shows_the_public_names_and_nothing_of_the_module_itself() -> None:
    code = "import wendy_llm; print([n for n in dir(wendy_llm) if not n.startswith('__')])"
    fresh = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert fresh.strip() == repr(wendy_llm.__all__)
    for name in wendy_llm.__all__:
        getattr(wendy_llm, name)  # loaded names land in the module's globals
    assert [n for n in dir(wendy_llm) if not n.startswith("__")] == wendy_llm.__all__
    assert "__version__" in dir(wendy_llm)


def test_the_version_is_the_stamped_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    from wendy_llm import revision

    assert wendy_llm.__version__ == revision.package_version()
    assert "+g" in wendy_llm.__version__ or "+" not in wendy_llm.__version__
    monkeypatch.setattr(revision, "_STAMP", revision._STAMP.with_name("NO-SUCH-STAMP"))
    assert wendy_llm._version() == "0+unknown"  # a source tree never built


# Every type a public signature names is exported: tests/cli/test_public_types.py.


def test_test_tooling_is_not_in_the_package() -> None:
    from wendy_llm import errors

    assert not hasattr(errors, "MutantError")
    assert {"ResultCache", "SuppressionsError", "UnknownVariableWarning"} <= set(wendy_llm.__all__)
