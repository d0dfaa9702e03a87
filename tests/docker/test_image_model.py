"""The image model: what each build stage holds, by instruction and line (issue 35)."""

from __future__ import annotations

import pytest

from wendy_llm.docker.context import BuildContext
from wendy_llm.docker.dockerignore import DockerIgnore
from wendy_llm.docker.image import walk
from wendy_llm.docker.image.bases import base_facts
from wendy_llm.docker.image.facts import ImageModel, StageImage
from wendy_llm.docker.image.walk import image_model
from wendy_llm.docker.model import Dockerfile


def model(text: str, files: dict[str, str] | None = None, ignore: str = "") -> ImageModel:
    tree = {f"ctx/{path}": data.encode() for path, data in (files or {}).items()}
    context = BuildContext(frozenset(tree), "ctx", DockerIgnore(ignore))
    return image_model(Dockerfile(text).build(), text, context, tuple(sorted(tree.items())))


def built(text: str, files: dict[str, str] | None = None, ignore: str = "") -> StageImage:
    stage = model(text, files, ignore).built
    assert stage is not None
    return stage


def test_copies_land_relative_to_the_workdir_with_their_line_and_mode() -> None:
    stage = built(
        "FROM debian:12\nWORKDIR /app\nCOPY run.sh .\nCOPY --chmod=755 bin/ ./bin/\n",
        {"run.sh": "", "bin/tool": "", "bin/.keep": ""},
        ignore="bin/.keep\n",
    )
    run = stage.entry("/app/run.sh")
    assert run is not None and (run.line, run.how, run.executable) == (3, "COPY", False)
    assert run.source == "ctx/run.sh"
    tool = stage.entry("/app/bin/tool")
    assert tool is not None and tool.executable is True
    assert stage.entry("/app/bin/.keep") is None  # .dockerignore applied
    assert stage.entry("/app") is not None and stage.workdir == "/app"


def test_run_writers_the_model_reads() -> None:
    stage = built(
        "FROM debian:12\n"
        "RUN mkdir -p /srv/data && cd /srv && touch ready && echo x > conf.txt\n"
        "RUN curl -fsSL -o /usr/local/bin/tool https://example.org/t"
        " && chmod +x /usr/local/bin/tool\n"
        "RUN wget -O /opt/model.bin https://example.org/m && ln -s /usr/local/bin/tool /usr/bin/t\n"
        "RUN install -m 0755 /srv/ready /usr/local/bin/ready && cp /srv/conf.txt /etc/"
        " && mv /etc/conf.txt /etc/app.txt\n"
    )
    for path, line in (
        ("/srv/data", 2),
        ("/srv/ready", 2),
        ("/srv/conf.txt", 2),
        ("/opt/model.bin", 4),
        ("/usr/bin/t", 4),
        ("/usr/local/bin/ready", 5),
        ("/etc/app.txt", 5),
    ):
        entry = stage.entry(path)
        assert entry is not None and entry.line == line, path
    assert stage.entry("/etc/conf.txt") is None  # moved away
    tool = stage.entry("/usr/local/bin/tool")
    assert tool is not None and tool.executable is True
    link = stage.followed("/usr/bin/t")
    assert link is not None and link.path == "/usr/local/bin/tool"
    ready = stage.entry("/usr/local/bin/ready")
    assert ready is not None and ready.executable is True


def test_a_venv_receives_the_packages_of_a_requirements_file_the_build_copied() -> None:
    stage = built(
        "FROM python:3.12-slim\nRUN python -m venv /opt/venv\nENV PATH=/opt/venv/bin:$PATH\n"
        "WORKDIR /app\nCOPY requirements.txt .\n"
        "RUN pip install -r requirements.txt && pip install --prefix /opt/tools black\n",
        {"requirements.txt": "uvicorn[standard]==0.30  # server\n-r more.txt\n", "more.txt": "x"},
    )
    assert [v.path for v in stage.venvs] == ["/opt/venv"]
    got = {(i.package, i.bin_dir, i.certain) for i in stage.installs}
    assert ("uvicorn", "/opt/venv/bin", True) in got
    assert ("black", "/opt/tools/bin", True) in got
    # more.txt was never copied into the image: its packages are unknown, and said so.
    assert ("*", "/opt/venv/bin", False) in got
    assert stage.path_dirs[0] == ("/opt/venv/bin", 3)


def test_other_installers_name_their_program_without_certainty() -> None:
    stage = built(
        "FROM node:22\nRUN npm install -g @scope/cli@1 && cargo install ripgrep && "
        "go install golang.org/x/tools/gopls/v2@latest\n"
    )
    programs = {(i.package, i.bin_dir, i.certain) for i in stage.installs}
    assert ("cli", "/usr/local/bin", False) in programs
    assert ("ripgrep", "/root/.cargo/bin", False) in programs
    assert ("gopls", "/root/go/bin", False) in programs


def test_copy_from_a_stage_keeps_entries_and_what_a_build_links() -> None:
    stage = built(
        "FROM swift:6.0 AS build\nWORKDIR /b\nCOPY . .\nRUN swift build -c release\n"
        "FROM debian:bookworm-slim\nCOPY --from=build /b/.build/release/App /App\n"
        "COPY --from=build /b/Package.swift /P\nCOPY --from=nginx:1 /etc/nginx /etc/nginx\n",
        {"Package.swift": ""},
    )
    app = stage.entry("/App")
    assert app is not None and app.needs == "swift-runtime" and app.line == 6
    package = stage.entry("/P")
    assert package is not None and package.source == "ctx/Package.swift" and package.needs is None
    box = stage.opaque_over("/etc/nginx/nginx.conf")
    assert box is not None and box.line == 8


@pytest.mark.parametrize(
    ("image", "family", "bash", "libc"),
    [
        ("debian:bookworm-slim", "debian", True, "glibc"),
        ("docker.io/library/alpine:3.20", "alpine", False, "musl"),
        ("python:3.12-alpine", "python-alpine", False, "musl"),
        ("swift:6.0-slim", "swift-slim", True, "glibc"),
        ("gcr.io/distroless/static-debian12", "distroless/static-debian12", False, None),
        ("scratch", "scratch", False, None),
    ],
)
def test_base_image_facts(image: str, family: str, bash: bool, libc: str | None) -> None:
    facts = base_facts(image)
    assert facts is not None and facts.source
    assert (facts.family, facts.bash, facts.libc) == (family, bash, libc)


def test_an_image_nobody_documents_is_unknown() -> None:
    assert base_facts("ghcr.io/open-webui/open-webui:main") is None
    assert built("FROM example.org/x:1\nCOPY a /a\n", {"a": ""}).base is None


def test_the_model_is_built_once_per_content(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = walk._walk

    def counting(*args: object, **kwargs: object) -> ImageModel:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(walk, "_walk", counting)
    text = "FROM debian:12\n# 0b6c1d9e-2f4a-4e5b-9a57-5b0f3c0f2c11\nCOPY a /a\n"
    first = model(text, {"a": "1"})
    assert model(text, {"a": "1"}) is first
    model(text, {"a": "2"})  # other contents: another model
    assert len(calls) == 2
