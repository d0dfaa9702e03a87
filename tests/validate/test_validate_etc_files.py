"""/etc/hosts and /etc/resolv.conf: written in a RUN step (build) or by an entry script (run).

Facts: ``shared/spec/wendy-run.md`` section 9, "Builds" (BuildKit binds both
files into every RUN step, which cannot write or replace them) and
"Network" (host networking binds /etc/resolv.conf read-only at run time;
/etc/hosts stays the image's own file).
"""

from __future__ import annotations

import pytest
from _check_helpers import SCRIPT, good_tree

from wendy_llm.validate.checks.device import build_view
from wendy_llm.validate.checks.runtime_files import runtime_etc_findings
from wendy_llm.validate.dockerfiles.check import validate_dockerfile, validate_dockerfiles


def run_findings(run: str) -> list[tuple[int | None, str]]:
    text = f"FROM debian:12\nRUN apt-get update\n{run}\n"
    tree = {"svc/Dockerfile": text.encode(), "svc/hosts": b"127.0.0.1 x\n"}
    return [(f.line, f.message) for f in validate_dockerfile("svc/Dockerfile", text, tree, "svc")]


@pytest.mark.parametrize(
    ("run", "path", "how"),
    [
        ('RUN echo "10.0.0.2 db" >> /etc/hosts', "/etc/hosts", "redirects output to"),
        ("RUN echo nameserver 1.1.1.1>/etc/resolv.conf", "/etc/resolv.conf", "redirects output to"),
        ("RUN echo 10.0.0.2 db | tee -a /etc/hosts >/dev/null", "/etc/hosts", "writes (tee)"),
        ("RUN sed -i 's/^127/#127/' /etc/hosts", "/etc/hosts", "edits in place (sed -i)"),
        ("RUN cp /tmp/hosts /etc/hosts", "/etc/hosts", "copies over (cp)"),
        ("RUN mv /tmp/resolv /etc/resolv.conf", "/etc/resolv.conf", "moves over (mv)"),
        ("RUN ln -sf /run/r.conf /etc/resolv.conf", "/etc/resolv.conf", "links over (ln)"),
        ("RUN sh -c 'echo 10.0.0.2 db >> /etc/hosts'", "/etc/hosts", "redirects output to"),
        ('RUN ["bash", "-c", "cat x > /etc/hosts"]', "/etc/hosts", "redirects output to"),
        ("RUN <<EOF\nset -e\necho x >> /etc/hosts\nEOF", "/etc/hosts", "redirects output to"),
    ],
)
def test_a_run_step_writing_a_bound_file_fails(run: str, path: str, how: str) -> None:
    (found,) = run_findings(run)
    assert found[0] == 3
    assert found[1].startswith(f"RUN {how} {path} (`")
    assert "BuildKit binds" in found[1] and "(docs/checks.md, build-time files)" in found[1]


@pytest.mark.parametrize(
    "run",
    [
        "RUN cat /etc/hosts > /tmp/hosts",
        "RUN grep db /etc/resolv.conf || true",
        "RUN echo x 2>&1 | tee /tmp/log",
        "RUN cp /etc/hosts /tmp/",
        "RUN sed -i s/a/b/ /etc/hostname",
    ],
)
def test_reading_or_writing_other_files_passes(run: str) -> None:
    assert run_findings(run) == []


def test_a_stage_the_build_does_not_run_is_not_judged() -> None:
    text = "FROM debian:12 AS unused\nRUN echo x >> /etc/hosts\nFROM debian:12\nRUN true\n"
    assert validate_dockerfile("svc/Dockerfile", text, {"svc/Dockerfile": b""}, "svc") == []


WRITES_RESOLV = SCRIPT.replace(
    "exec ollama", 'echo "nameserver 1.1.1.1" > /etc/resolv.conf\nexec ollama'
)
WRITES_HOSTS = SCRIPT.replace("exec ollama", 'echo "10.0.0.2 db" >> /etc/hosts\nexec ollama')


def runtime(tree: dict[str, bytes]) -> list[tuple[str | None, int | None, str]]:
    found = runtime_etc_findings(build_view(tree, "app"), tree)
    return [(f.file, f.line, f.message) for f in found]


def test_the_good_render_passes_at_run_time() -> None:
    assert runtime(good_tree()) == []
    assert validate_dockerfiles(good_tree()) == []


def test_an_entry_script_writing_resolv_conf_with_host_networking_fails() -> None:
    # open-webui publishes a port: a network entitlement, mode empty, is host networking.
    # It is copied as ./start.sh and run so: the COPY leads back to the script.
    tree = good_tree()
    tree["open-webui/entrypoint.sh"] = WRITES_RESOLV.encode()
    assert runtime(tree) == [
        (
            "open-webui/entrypoint.sh",
            5,
            "service open-webui runs with host networking, where the device binds "
            "/etc/resolv.conf read-only (docs/checks.md, run-time files): this entry script "
            "redirects output to it (`echo nameserver 1.1.1.1 > /etc/resolv.conf`) and fails there",
        )
    ]


def test_writing_etc_hosts_at_run_time_is_allowed() -> None:
    tree = good_tree()
    tree["open-webui/entrypoint.sh"] = WRITES_HOSTS.encode()
    assert runtime(tree) == []


def test_without_host_networking_resolv_conf_is_the_images_own() -> None:
    tree = good_tree()
    compose = tree["docker-compose.yml"].decode()
    # No ports anywhere: no network entitlement, a namespace of its own.
    compose = compose.replace('    ports:\n      - "8080:8080"\n', "").replace(
        '    ports:\n      - "11434:11434"\n', ""
    )
    tree["docker-compose.yml"] = compose.encode()
    tree["open-webui/entrypoint.sh"] = WRITES_RESOLV.encode()
    assert runtime(tree) == []
