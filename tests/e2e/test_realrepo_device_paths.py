"""Issue 19 at the root of the realistic repository: the device view of every template.

Every template of ``tests/_realrepo`` (compose, ``wendy.json`` services,
single-container, swift, Wendy Lite) gets a ``plan`` that names its deploy
path and every app ``wendy run`` creates, as the facts say (wendy-run.md
sections 1, 3-5), and no device error but the services of
:data:`NO_NETWORK` (section 9): each is a template ``wendy run`` deploys.
The multi-service templates' lost top-level settings are warned about at
their ``wendy.json`` line; the ``base-${WENDY_PLATFORM}``
Dockerfiles build the stage of each device's platform.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
import yaml
from _cli_helpers import run_module
from _realrepo import RepoFixture, build_repository
from _realrepo import spec as shapes

from wendy_llm.device import DeviceView
from wendy_llm.device.model import DEVICE_DEFAULT_RESTART
from wendy_llm.render.template import load_template
from wendy_llm.validate.checks.device import build_view

APP_ID = "my-app"
#: Services with no network entitlement that talk to another service (each is alone in a
#: network namespace of its own on a device, wendy-run.md section 9). The fixture's
#: templates gave none to mqtt-stack's simulator, sensor-hub's store and collector and
#: vision-pipeline's camera and detector until issue 32's check found it; now none.
NO_NETWORK: dict[str, set[str]] = {}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> RepoFixture:
    return build_repository(tmp_path_factory.mktemp("device-paths") / "repo", git=False)


@pytest.fixture(scope="module")
def views(repo: RepoFixture) -> dict[str, tuple[Mapping[str, bytes], DeviceView]]:
    out: dict[str, tuple[Mapping[str, bytes], DeviceView]] = {}
    for template_id in repo.template_ids:
        template = load_template(repo.template_dir(template_id))
        tree = template.render(APP_ID, dict(repo.sample_values.get(template_id, {})))
        out[template_id] = (tree, build_view(tree, APP_ID))
    return out


def expected_apps(tree: Mapping[str, bytes], shape: frozenset[str]) -> tuple[str, set[str]]:
    """The deploy path and the apps the facts give for a render."""
    config = json.loads(tree["wendy.json"])
    if shapes.COMPOSE in shape:
        services = yaml.safe_load(tree["docker-compose.yml"])["services"]
        return "compose", {f"{APP_ID}-{name}" for name in services}
    if config.get("platform") == "wendy-lite":
        return "none", set()
    if config.get("platform") == "darwin" and not config.get("services"):
        return "none", set()  # a Mac app: the macOS path, no WendyOS deploy (issue 35)
    if config.get("services"):
        return "multi-service", {f"{config['appId']}-{name}" for name in config["services"]}
    return "single-container", {config["appId"]}


def test_plan_names_the_path_and_every_app_of_every_template(
    repo: RepoFixture, views: Mapping[str, tuple[Mapping[str, bytes], DeviceView]]
) -> None:
    assert repo.with_shape(shapes.MULTI_SERVICE), "the repository has multi-service templates"
    for template_id, (tree, view) in views.items():
        deploy, apps = expected_apps(tree, repo.spec(template_id).shapes)
        assert (view.deploy or "none", {s.app for s in view.services}) == (deploy, apps), (
            template_id
        )
        assert view.deploy_reason, template_id
        failing = {
            f.message.split(" ")[1]
            for f in view.errors
            if "has no network entitlement" in f.message
        }
        assert failing == NO_NETWORK.get(template_id, set()), template_id
        assert len(view.errors) == len(failing), (template_id, view.errors)


def test_at_least_three_templates_deploy_through_wendy_json_services(
    repo: RepoFixture, views: Mapping[str, tuple[Mapping[str, bytes], DeviceView]]
) -> None:
    multi = [
        t
        for t in repo.with_shape(shapes.MULTI_SERVICE)
        if shapes.COMPOSE not in repo.spec(t).shapes
    ]
    assert len(multi) >= 3
    gpu = [
        t
        for t in multi
        for s in views[t][1].services
        if any(e.type == "gpu" for e in s.entitlements)
    ]
    assert gpu, "one multi-service template gives a service the gpu entitlement"
    for template_id in multi:
        view = views[template_id][1]
        assert view.deploy == "multi-service"
        for service in view.services:
            assert service.image == f"localhost:5000/{APP_ID}-{service.name}:latest"
            assert service.restart == DEVICE_DEFAULT_RESTART


def test_the_lost_top_level_settings_are_reported_at_their_line(
    repo: RepoFixture, views: Mapping[str, tuple[Mapping[str, bytes], DeviceView]]
) -> None:
    lost = repo.with_shape(shapes.LOST_SETTINGS)
    assert lost
    for template_id in lost:
        tree, view = views[template_id]
        lines = tree["wendy.json"].decode().splitlines()
        warned = {f.line: f.message for f in view.findings if f.file == "wendy.json"}
        for key in ('"readiness"', '"hooks"', '"entitlements"'):
            line = next(n for n, text in enumerate(lines, 1) if text.startswith(f"  {key}"))
            where = line if key != '"entitlements"' else line + 1  # its first entry
            assert where in warned and "lost on a device" in warned[where], (template_id, key)


def test_base_platform_stages_follow_the_device(
    repo: RepoFixture, views: Mapping[str, tuple[Mapping[str, bytes], DeviceView]]
) -> None:
    templates = repo.with_shape(shapes.BASE_PLATFORM)
    assert templates
    for template_id in templates:
        view = views[template_id][1]
        tree = views[template_id][0]
        (build,) = [
            s.build
            for s in view.services
            if s.build is not None and b"base-${WENDY_PLATFORM}" in tree[s.build.dockerfile]
        ]
        # One base image per platform: the Jetson stage's and the generic one's.
        assert len(build.base_images) == 2, template_id
        platform = {a.name: a for a in build.args}["WENDY_PLATFORM"]
        assert platform.by_device["orin"] == "nvidia-jetson"
        assert platform.by_device["thor"] == "generic"
        assert {f.message.split(" ")[1] for f in view.errors} == NO_NETWORK.get(
            template_id, set()
        ), template_id


def test_the_plan_command_names_each_app_of_a_multi_service_template(repo: RepoFixture) -> None:
    (template_id, *_) = repo.with_shape(shapes.LOST_SETTINGS)
    where = str(repo.template_dir(template_id))
    run = run_module("plan", where, "--device", "orin", "--app-id", APP_ID)
    assert run.code == 0, run.err
    assert "path: multi-service (wendy.json services (" in run.out
    assert "path: none" not in run.out
    config = json.loads(
        load_template(repo.template_dir(template_id)).render(APP_ID, {})["wendy.json"]
    )
    for name in config["services"]:
        assert f"{name} -> app {APP_ID}-{name}" in run.out
