"""Compose's file-naming keys come from the Compose specification's schema, and
remote resources are refused before Compose runs (issue 38, item 3)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from _check_helpers import COMPOSE, good_tree, with_files

from wendy_llm.codes.tools import COMPOSE_OUTSIDE, COMPOSE_REMOTE
from wendy_llm.errors import ValidatorToolError
from wendy_llm.validate.checks.compose import ComposeValidator
from wendy_llm.validate.tools.compose_spec import compose_schema, file_keys
from wendy_llm.validate.tools.programs import no_network_prefix

CANARY = "canary-9d2e7b-host-label"


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "host" / "labels"
    path.parent.mkdir()
    path.write_text(f"com.example.secret={CANARY}\n")
    return path


@pytest.fixture
def processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Every program the validator starts (Compose, git, anything), by its argv."""
    started: list[list[str]] = []
    real = subprocess.Popen

    def counting(args: list[str], *rest: object, **kwargs: object) -> subprocess.Popen[bytes]:
        started.append([str(a) for a in args])
        return real(args, *rest, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(subprocess, "Popen", counting)
    yield started


def with_service(service: str, top: str = "") -> dict[str, bytes]:
    text = COMPOSE.replace(
        "\nvolumes:\n", f"\n  extra:\n    image: busybox\n{service}\nvolumes:\n", 1
    )
    return with_files(good_tree(), **{"docker-compose.yml": top + text})


def test_the_schema_is_the_one_docker_compose_embeds() -> None:
    schema = compose_schema()
    assert schema["title"] == "Compose Specification"
    keys = file_keys()
    for key in (
        "services.*.label_file",
        "services.*.env_file",
        "services.*.extends.file",
        "services.*.build.context",
        "services.*.build.dockerfile",
        "services.*.build.additional_contexts",
        "services.*.build (a string)",
        "include[] (a string)",
        "include[].path",
        "include[].env_file",
        "include[].project_directory",
        "configs.*.file",
        "secrets.*.file",
    ):
        assert key in keys, key
    # Device paths and container-side paths keep their meaning: never judged.
    assert not [k for k in keys if "blkio" in k or "volumes" in k or "devices" in k]
    assert not [k for k in keys if k.endswith((".target", ".working_dir", ".create_host_path"))]


@pytest.mark.parametrize("where", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "canary"])
def test_label_file_on_the_host_fails_naming_the_key(
    canary: Path, processes: list[list[str]], where: str
) -> None:
    path = str(canary) if where == "canary" else where
    validator = ComposeValidator()
    findings = validator.validate(with_service(f"    label_file: {path}\n"))
    assert validator.runs == 0 and processes == []  # Compose never ran: nothing was read
    assert [(f.code, f.severity, f.subject) for f in findings] == [
        (COMPOSE_OUTSIDE.code, "error", "services.extra.label_file")
    ]
    assert "services.extra.label_file" in findings[0].message
    assert findings[0].line is not None
    assert CANARY not in repr(findings)


def test_a_label_file_in_a_list_and_a_pre_start_hook_are_judged_too(canary: Path) -> None:
    service = f"    label_file:\n      - labels.txt\n      - {canary}\n"
    findings = ComposeValidator().validate(with_service(service))
    assert [f.subject for f in findings] == ["services.extra.label_file[1]"]
    hook = f"    pre_start:\n      - command: [x]\n        env_file: {canary}\n"
    findings = ComposeValidator().validate(with_service(hook))
    assert [f.subject for f in findings] == ["services.extra.pre_start[0].env_file"]


def test_named_build_contexts_are_judged_in_both_forms(canary: Path) -> None:
    mapping = "    build:\n      context: .\n      additional_contexts:\n        host: /etc\n"
    listed = "    build:\n      context: .\n      additional_contexts: [host=/etc]\n"
    image = (
        "    build:\n      context: .\n      additional_contexts: {base: docker-image://alpine}\n"
    )
    assert [f.code for f in ComposeValidator().validate(with_service(mapping))] == ["CMP012"]
    assert [f.code for f in ComposeValidator().validate(with_service(listed))] == ["CMP012"]
    assert all(
        f.code != COMPOSE_OUTSIDE.code for f in ComposeValidator().validate(with_service(image))
    )


@pytest.mark.parametrize(
    ("top", "service", "subject"),
    [
        ("include:\n  - https://github.com/acme/app.git#main\n", "", "include[0]"),
        ("include:\n  - path: git@github.com:acme/app.git\n", "", "include[0].path"),
        ("", "    build: https://github.com/acme/app.git#main\n", "services.extra.build"),
        ("", "    build:\n      context: github.com/acme/app\n", "services.extra.build.context"),
        ("", "    extends:\n      file: https://example.com/x.yml\n      service: x\n",
         "services.extra.extends.file"),
    ],
)  # fmt: skip
def test_a_remote_resource_is_refused_and_nothing_reaches_the_network(
    processes: list[list[str]], top: str, service: str, subject: str
) -> None:
    validator = ComposeValidator()
    findings = validator.validate(with_service(service, top))
    assert validator.runs == 0
    assert processes == []  # no Compose, so no `git ls-remote` either
    assert [(f.code, f.subject) for f in findings] == [(COMPOSE_REMOTE.code, subject)]
    assert "remote resource" in findings[0].message and findings[0].line is not None


def test_a_label_file_inside_the_app_runs_compose(processes: list[list[str]]) -> None:
    tree = with_service("    label_file: ./labels.txt\n")
    tree["labels.txt"] = b"com.example.x=1\n"
    validator = ComposeValidator()
    findings = validator.validate(tree)
    assert validator.runs == 1 and processes, "Compose judged the app"
    assert [f for f in findings if f.severity == "error"] == []


def test_compose_runs_without_a_network_where_the_machine_allows(
    processes: list[list[str]],
) -> None:
    prefix = no_network_prefix()
    if not prefix:
        pytest.skip("this machine forbids unprivileged network namespaces (docs/security.md)")
    inside = subprocess.run([*prefix, "cat", "/proc/net/dev"], capture_output=True, text=True)
    interfaces = [line.split(":")[0].strip() for line in inside.stdout.splitlines()[2:]]
    assert interfaces == ["lo"]  # no route anywhere: only the namespace's own loopback
    processes.clear()
    validator = ComposeValidator()
    assert [f for f in validator.validate(good_tree()) if f.severity == "error"] == []
    composes = [argv for argv in processes if Path(argv[len(prefix)]).name == "docker-compose"]
    assert composes and all(argv[: len(prefix)] == list(prefix) for argv in composes)


def test_a_compose_without_the_schema_is_a_clear_error(tmp_path: Path) -> None:
    fake = tmp_path / "docker-compose"
    fake.write_bytes(b"\x7fELF no schema here")
    with pytest.raises(ValidatorToolError, match="no Compose specification schema found in it"):
        compose_schema(fake)
