"""The device view off the compose path, pinned: a table of small projects.

Each case is one fact of the Wendy CLI (``wendy-run.md`` sections 1, 2, 4,
5 and 6, named in the case) and the device view ``plan --json`` prints for
it, projected onto the fields that fact decides (:func:`projection`): the
deploy path, each app in creation order with its image, Dockerfile, argv,
restart policy, dependencies and entitlements, the Wendy build args, what
runs after the start, and the findings with their file and line.  The
expected values are derived from the facts, never from a run.
"""

from __future__ import annotations

from typing import Any

import pytest
from _cli_helpers import validate_report
from _device_path_cases import CASES as PATH_CASES
from _device_path_cases import DEVICES, Case, projection, value_at, wendy
from _device_path_cases_cli import CLI_CASES

from wendy_llm.device import DeviceView, profiles
from wendy_llm.reports.json import dumps, plan_json
from wendy_llm.reports.plan import format_plan
from wendy_llm.validate.checks.device import build_view

CASES = {**PATH_CASES, **CLI_CASES}


def view_of(case: Case) -> DeviceView:
    return build_view(dict(case.tree), "Demo.App", devices=profiles(DEVICES))


def plan_document(view: DeviceView) -> dict[str, Any]:
    document = plan_json(
        view, template="t", pick=None, app_id="Demo.App", answers={}, devices=profiles(DEVICES)
    )
    return validate_report(dumps(document), "plan")


@pytest.mark.parametrize("name", CASES)
def test_the_device_view_follows_the_facts(name: str) -> None:
    case = CASES[name]
    view = view_of(case)
    document = plan_document(view)["view"]
    assert projection(document) == {
        "deploy": case.deploy,
        "path": case.path,
        "services": case.services,
        "readiness": case.readiness,
        "post_start": case.post_start,
    }, case.fact
    found = [(f.severity, f.message, f.file, f.line) for f in view.findings]
    assert len(found) == len(case.findings), (case.fact, found)
    for (severity, text, file, line), got in zip(case.findings, found, strict=True):
        assert (severity, file, line) == (got[0], got[2], got[3]), (case.fact, got)
        assert text in got[1], (case.fact, got)
    for path, want in case.at.items():
        assert value_at(document, path) == want, (case.fact, path)
    for text in case.not_modelled:
        assert any(text in entry for entry in view.not_modelled), (case.fact, view.not_modelled)
    # plan says the path, and why there is none.
    assert view.deploy_reason
    if case.deploy is None:
        assert view.services == ()


def test_off_the_compose_path_the_build_args_follow_the_device_type() -> None:
    """s4/s6: WENDY_PLATFORM nvidia-jetson on an Orin, generic on a Thor; WENDY_DEBUG
    only when debugging (never in a plain wendy run); base-${WENDY_PLATFORM} resolves."""
    dockerfile = (
        b"ARG WENDY_PLATFORM=generic\n"
        b"FROM ubuntu:24.04 AS base-generic\n"
        b"FROM nvcr.io/nvidia/l4t-base:r36.2.0 AS base-nvidia-jetson\n"
        b"FROM base-${WENDY_PLATFORM}\n"
        b"ARG WENDY_PLATFORM\nENV PLATFORM=${WENDY_PLATFORM}\n"
    )
    tree = {"gpu/Dockerfile": dockerfile, "wendy.json": wendy(services={"gpu": {"context": "gpu"}})}
    view = build_view(tree, "Demo.App", devices=profiles(DEVICES))
    (app,) = view.services
    assert app.build is not None
    args = {a.name: a for a in app.build.args}
    assert "WENDY_DEBUG" not in args
    assert dict(args["WENDY_PLATFORM"].by_device) == {"thor": "generic", "orin": "nvidia-jetson"}
    assert dict(args["WENDY_JETPACK_VERSION"].by_device) == {"thor": "L4T 38.2.1", "orin": "6.1"}
    assert app.build.base_images == ("ubuntu:24.04", "nvcr.io/nvidia/l4t-base:r36.2.0")
    platform = app.environment.by_device["PLATFORM"]
    assert dict(platform) == {"thor": "generic", "orin": "nvidia-jetson"}
    assert view.findings == ()


def test_plan_says_the_path_what_runs_after_the_start_and_why_there_is_none() -> None:
    devices = profiles(DEVICES)

    def plan_text(name: str) -> str:
        view = view_of(CASES[name])
        return format_plan(view, template="t", pick=None, app_id="Demo.App", devices=devices)

    single = plan_text("single-container-docker")
    assert "path: single-container (project type docker (Dockerfile), wendy.json" in single
    assert "wendy.json:8: waits up to 90 s for a TCP connect to the device's port 8080" in single
    assert "then runs hooks.postStart: openURL http://${WENDY_HOSTNAME}:8080" in single
    assert "restart  unless-stopped (the device default)" in single
    # s5: the single-container path always passes WENDY_DEBUG (false on a plain run).
    assert "WENDY_DEBUG=false" in single
    multi = plan_text("multi-service-creation-order")
    assert "path: multi-service (wendy.json services (web, api, db), no compose file" in multi
    assert [line.split(" -> ")[0] for line in multi.splitlines() if " -> app " in line] == [
        "1. db",
        "2. web",
        "3. api",
    ]
    # s4: the multi-service path passes WENDY_DEBUG only when debugging.
    assert "WENDY_DEBUG" not in multi
    python = plan_text("single-container-python-generated-dockerfile")
    assert "built from the Dockerfile wendy run generates (context ." in python
    assert '| CMD ["python", "app.py"]' in python
    # s9 (issue 35): a wendy.json network entitlement's ports, as sent, never published.
    ports = plan_text("decode-port-65535-is-accepted")
    assert "entitle  network ports=65535:80 (sent, never published" in ports
    assert '{"host": 65535, "container": 80}: never published' in ports
    swift = plan_text("single-container-swift")
    assert "localhost:5000/helloserver:latest, built from the swift container plugin" in swift
    assert "none: the swift container plugin gets no Wendy build args" in swift
    xcode = plan_text("xcode-is-not-single-container")
    assert (
        "path: none (project type xcode (App.xcodeproj): an Xcode project goes to the macOS"
        in xcode
    )
    none = plan_text("unknown-project-fails")
    assert "path: none (project type unknown and no wendy.json services: unable to" in none
