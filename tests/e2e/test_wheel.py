"""The installed wheel holds the library and CLI, everything they read, and no test tooling.

The wheel is built offline from a copy of the sources (``pip wheel --no-deps
--no-build-isolation`` with the environment's setuptools, as ``make
install`` provides them), so a stale ``build/`` directory cannot leak into
it and the work tree is left untouched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "wendy_llm"

#: Test tooling: what must never ship (issue 12 moved it under tests/).
TOOLING = ("harness", "scriptstub", "scripttest", "behaviours", "mutants", "mutation", "tests")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "tools/wendy_backend.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(PACKAGE, source / "wendy_llm", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "--wheel-dir",
            str(work / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = (work / "dist").glob("wendy_llm-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_files(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_holds_no_test_tooling(wheel_files: list[str]) -> None:
    shipped = [
        name
        for name in wheel_files
        if any(part.removesuffix(".py") in TOOLING for part in PurePosixPath(name).parts)
        or name.endswith("_test.go")
    ]
    assert shipped == []
    assert {PurePosixPath(n).parts[0] for n in wheel_files} == {
        "wendy_llm",
        next(PurePosixPath(n).parts[0] for n in wheel_files if ".dist-info/" in n),
    }


def test_the_wheel_holds_every_module_and_what_they_read(wheel_files: list[str]) -> None:
    files = set(wheel_files)
    modules = {p.relative_to(REPO).as_posix() for p in PACKAGE.rglob("*.py")}
    assert modules - files == set()
    needed = {"wendy_llm/py.typed", "wendy_llm/engine/gohelper/go.mod"}
    needed |= {
        p.relative_to(REPO).as_posix()
        for p in (PACKAGE / "engine" / "gohelper").glob("*.go")
        if not p.name.endswith("_test.go")
    }
    needed |= {p.relative_to(REPO).as_posix() for p in (PACKAGE / "schemas").glob("*.json")}
    assert len(needed) > 10  # the helper's sources and the schemas were found at all
    assert needed - files == set()


def test_the_wheel_installs_the_command_and_the_pytest_plugin(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))
        entry_points = archive.read(name).decode()
    assert "wendy-llm = wendy_llm.__main__:run" in entry_points
    assert "wendy_llm = wendy_llm.pytest_plugin" in entry_points


def test_the_tooling_check_sees_tooling() -> None:
    """The filter above is not vacuous: it names what the repository's tests hold."""
    harness = [p.relative_to(REPO).as_posix() for p in (REPO / "tests" / "harness").rglob("*.py")]
    assert harness and all(
        any(part.removesuffix(".py") in TOOLING for part in PurePosixPath(name).parts)
        for name in harness
    )


#: A user's script, typed, using the documented API (docs/library.md).
USER_SCRIPT = """\
from pathlib import Path

import wendy_llm
from wendy_llm import RenderedTree, Template, TemplateError, WendyLlmError


def render_all(path: Path, out: Path) -> list[str]:
    template: Template = wendy_llm.load_template(path)
    written: list[str] = []
    for pick in template.picks():
        try:
            tree: RenderedTree = template.render("my-app", {**pick.answers, "PORT": 3000})
        except TemplateError as exc:
            message: str = str(exc)
            line: int | None = exc.line
            raise SystemExit(f"{message} (line {line}, file {exc.file})") from exc
        except WendyLlmError as exc:
            raise SystemExit(f"{exc.template}: {exc.variable}: {exc}") from exc
        written.append(str(tree.write(out / pick.slug, overwrite=True)))
    for warning in template.lint():
        written.append(f"{warning.file}:{warning.line}: {warning.code}")
    version: str = wendy_llm.__version__
    return [version, *written]
"""


def test_a_users_script_type_checks_strictly_against_the_installed_wheel(
    wheel: Path, tmp_path: Path
) -> None:
    """``py.typed`` in a wheel install is what mypy reads (an editable install's
    import hook it cannot follow: docs/library.md says how to install for typing)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            purelib,
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    mypy = [sys.executable, "-m", "mypy", "--strict", "--python-executable", str(python)]
    mypy += ["--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(script)]
    checked = subprocess.run(mypy, capture_output=True, text=True, cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (0, ""), checked.stdout + checked.stderr
    # Not vacuous: the same script with a wrong type fails against the wheel.
    script.write_text(USER_SCRIPT.replace("line: int | None", "line: str"), encoding="utf-8")
    broken = subprocess.run(mypy, capture_output=True, text=True, cwd=tmp_path)
    assert broken.returncode == 1 and "user.py" in broken.stdout, broken.stdout
