"""A pull request's symbolic links cannot make the gate read or write the host (issue 38).

Each probe commits one entry of a templates repository as a symbolic link
to a host path outside it (a folder or a file holding a canary string): a
rules file, a stored baseline folder, a template folder, a language folder,
``templates/`` itself, ``golden/``, the suppressions file,
``wendy-llm.toml``, ``meta.json``, a fixture's ``golden.json``, and a
language folder linked to ``/dev``.  ``check`` then runs with every report
(text, ``--json``, JUnit, Markdown, SARIF): it fails (exit 1 with a finding,
or 2 with an error) naming the link, no output holds the canary, and
nothing under the host path changed.  ``golden --update`` through a linked
fixture folder writes nothing outside.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from _check_helpers import template_files, write_template

from wendy_llm.cli import main

CANARY = "canary-41c7d2-host-secret"

Probe = Callable[[Path, Path], None]


def host_files(host: Path) -> None:
    """The host's side: a secret file, a folder holding a template that quotes the
    canary everywhere, and an empty folder a write could land in."""
    host.mkdir()
    (host / "secret.txt").write_text(f"{CANARY}\nrules: [{CANARY}]\n")
    (host / "secret.json").write_text(f'{{"{CANARY}": ["{CANARY}"]}}\n')
    (host / "secret.toml").write_text(f'{CANARY} = "{CANARY}"\n')
    template = host / "lang" / "app"
    for rel, text in template_files().items():
        (template / rel).parent.mkdir(parents=True, exist_ok=True)
        (template / rel).write_text(text.replace("gemma4:e2b", CANARY))
    (host / "empty").mkdir()


def replace_with_link(path: Path, target: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target, target_is_directory=target.is_dir())


PROBES: dict[str, tuple[Probe, int, str]] = {
    # name: (how the repository is laid, exit status, what names the link)
    "rules file": (
        lambda repo, host: replace_with_link(
            repo / "golden" / "py" / "mini.rules.yaml", host / "secret.txt"
        ),
        1,
        "golden/py/mini.rules.yaml is a symbolic link to",
    ),
    "baseline folder": (
        lambda repo, host: replace_with_link(
            repo / "golden" / "baseline" / "py" / "mini", host / "lang" / "app"
        ),
        1,
        "baseline/py/mini is a symbolic link to",
    ),
    "template folder": (
        lambda repo, host: (repo / "templates" / "py" / "evil").symlink_to(host / "lang" / "app"),
        2,
        "templates/py/evil is a symbolic link to",
    ),
    "language folder": (
        lambda repo, host: (repo / "templates" / "evil").symlink_to(host / "lang"),
        2,
        "templates/evil is a symbolic link to",
    ),
    "templates/": (
        lambda repo, host: replace_with_link(repo / "templates", host / "lang"),
        2,
        "templates is a symbolic link to",
    ),
    "golden/": (
        lambda repo, host: replace_with_link(repo / "golden", host / "empty"),
        2,
        "golden is a symbolic link to",
    ),
    "suppressions file": (
        lambda repo, host: (repo / "wendy-llm-suppressions.json").symlink_to(host / "secret.json"),
        2,
        "wendy-llm-suppressions.json is a symbolic link to",
    ),
    "wendy-llm.toml": (
        lambda repo, host: (repo / "wendy-llm.toml").symlink_to(host / "secret.toml"),
        2,
        "wendy-llm.toml is a symbolic link to",
    ),
    "meta.json": (
        lambda repo, host: (repo / "templates" / "meta.json").symlink_to(host / "secret.json"),
        1,
        "meta.json is a symbolic link to",
    ),
    "golden.json": (
        lambda repo, host: replace_with_link(
            repo / "golden" / "py" / "mini" / "golden.json", host / "secret.json"
        ),
        1,
        "golden.json is a symbolic link to",
    ),
    "a language folder linked to /dev": (
        lambda repo, host: (repo / "templates" / "dev").symlink_to("/dev"),
        2,
        "templates/dev is a symbolic link to /dev",
    ),
}


@pytest.fixture
def laid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A repository with a template, its rules file, a baseline and its fixtures."""
    repo = tmp_path / "repo"
    _, golden = write_template(repo)
    (repo / ".git").mkdir()  # the repository's root (find_layout, rule 1)
    write_template(golden / "baseline", rules=None)  # the baseline: same files
    shutil.move(golden / "baseline" / "templates" / "py", golden / "baseline" / "py")
    shutil.rmtree(golden / "baseline" / "templates")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    monkeypatch.delenv("CI", raising=False)  # golden --update refuses to run in CI
    assert main(["golden", "--update"]) == 0
    assert (golden / "py" / "mini" / "golden.json").is_file()
    capsys.readouterr()
    host_files(tmp_path / "host")
    return repo


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.mark.parametrize("probe", list(PROBES))
def test_a_link_out_of_the_repository_is_never_followed(
    laid: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], probe: str
) -> None:
    lay, status, named = PROBES[probe]
    host = tmp_path / "host"
    before = snapshot(host)
    lay(laid, host)
    reports = tmp_path / "reports"
    written = [reports / name for name in ("check.xml", "check.md", "check.sarif")]
    argv = ["check", "--no-cache", "--junit", str(written[0]), "--markdown", str(written[1])]
    code = main([*argv, "--sarif", str(written[2])])
    said = capsys.readouterr()
    code_json = main(["check", "--no-cache", "--json"])
    said_json = capsys.readouterr()
    outputs = [said.out, said.err, said_json.out, said_json.err]
    outputs += [path.read_text() for path in written if path.exists()]
    assert (code, code_json) == (status, status), "\n".join(outputs)
    assert named in said.out + said.err, said.out + said.err
    assert "outside the repository" in said.out + said.err
    assert not [text for text in outputs if CANARY in text]
    assert snapshot(host) == before


def test_golden_update_writes_nothing_through_a_linked_fixture_folder(
    laid: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host = tmp_path / "host"
    replace_with_link(laid / "golden" / "py", host / "empty")
    assert main(["golden", "--update"]) == 2
    said = capsys.readouterr()
    assert "golden/py is a symbolic link to" in said.err or "py is a symbolic link" in said.err
    assert "no fixture is written" in said.err
    assert list((host / "empty").iterdir()) == []


@pytest.mark.parametrize("where", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "canary"])
def test_a_compose_label_file_on_the_host_is_refused_in_every_report(
    laid: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    monkeypatch.setenv("WENDY_PROBE_SECRET", CANARY)  # what /proc/self/environ would show
    path = str(tmp_path / "host" / "secret.txt") if where == "canary" else where
    compose = laid / "templates" / "py" / "mini" / "docker-compose.yml"
    text = compose.read_text().replace("  web:\n", f"  web:\n    label_file: {path}\n", 1)
    compose.write_text(text)
    reports = tmp_path / "reports"
    written = [reports / name for name in ("check.xml", "check.md", "check.sarif")]
    argv = ["check", "--no-cache", "--junit", str(written[0]), "--markdown", str(written[1])]
    code = main([*argv, "--sarif", str(written[2])])
    said = capsys.readouterr()
    assert main(["check", "--no-cache", "--json"]) == 1
    said_json = capsys.readouterr()
    outputs = [said.out, said.err, said_json.out, said_json.err]
    outputs += [file.read_text() for file in written]
    assert code == 1
    assert "services.web.label_file" in said.out and "CMP012" in said.out
    assert "root:x:0:0" not in "".join(outputs)  # /etc/passwd is not quoted
    assert not [text for text in outputs if CANARY in text]


def test_the_action_s_baseline_steps_refuse_a_linked_baseline_folder(
    laid: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The action lists the stored baselines, then diffs each: neither follows a link out."""
    host = tmp_path / "host"
    replace_with_link(laid / "golden" / "baseline" / "py" / "mini", host / "lang" / "app")
    assert main(["golden", "--list-baselines"]) == 2
    listed = capsys.readouterr()
    assert "baseline/py/mini is a symbolic link to" in listed.err and CANARY not in listed.out
    argv = ["diff", "--template", "py/mini", "--baseline", "golden/baseline/py/mini"]
    assert main(argv) == 2
    said = capsys.readouterr()
    assert "golden/baseline/py/mini is a symbolic link to" in said.err
    assert CANARY not in said.out + said.err
