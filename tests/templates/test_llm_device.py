"""The python/llm template on a WendyOS device (issue 14 item 7).

At the Wendy CLI revision of the spec a device gets neither compose
``environment``, nor ``healthcheck``, nor ``wendy.json``: a container gets
its image's ``ENV`` only.  So what a pick configures must be in its images:
every pick's device view says the app runs the picked model and talks to a
backend that is there, and the README lists exactly the device warnings
that remain.  Mutated copies of the template show the ``device`` check
failing, naming pick, file and service, where an image says otherwise.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from _cli_helpers import REPO, run_module
from harness.device_views import view_of, warned_items

from wendy_llm.device import DeviceView
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template

SENTINEL = "laguna-s-2.1-dflash"
DFLASH_WIRING = {
    "ENABLE_OLLAMA_API": "False",
    "ENABLE_OPENAI_API": "True",
    "OPENAI_API_BASE_URL": "http://vllm:8000/v1",
    "OPENAI_API_KEY": "wendy-local-dflash",
    "DEFAULT_MODELS": "laguna-s-2.1",
}
#: Open WebUI's settings on every pick (llm-template.md's device facts).
WEBUI_DEVICE_FACTS = {
    "OPENBLAS_CORETYPE": "ARMV8",
    "ENABLE_PERSISTENT_CONFIG": "False",
    "WEBUI_AUTH": "False",
}
README_SECTION = "What `wendy-llm plan` reports as ignored on a device"
README_ITEM = re.compile(r"^- `([^`]+)`(?: `([^`]+)`)?:", re.MULTILINE)


@pytest.fixture(scope="module")
def views(template: Template) -> dict[str, DeviceView]:
    return {pick.slug: view_of(template, pick.slug) for pick in template.picks()}


def env_of(view: DeviceView, service: str) -> dict[str, str]:
    found = view.service(service)
    assert found is not None, f"no service {service}"
    assert found.environment.known
    return dict(found.environment.values)


# --- every pick, as a device gets it ---------------------------------------------


def test_every_pick_runs_its_model_against_a_backend_that_is_there(
    template: Template, views: dict[str, DeviceView]
) -> None:
    for pick in template.picks():
        view, model = views[pick.slug], pick.answers["OLLAMA_MODEL"]
        assert view.errors == (), (pick.slug, view.errors)
        webui = env_of(view, "open-webui")
        assert {k: webui[k] for k in WEBUI_DEVICE_FACTS} == WEBUI_DEVICE_FACTS, pick.slug
        if model == SENTINEL:
            assert view.service("ollama") is None
            assert {k: webui[k] for k in DFLASH_WIRING} == DFLASH_WIRING
            assert "OLLAMA_BASE_URL" not in webui
            assert env_of(view, "vllm")["VLLM_API_KEY"] == webui["OPENAI_API_KEY"]
            assert env_of(view, "vllm")["SERVED_MODEL_NAME"] == webui["DEFAULT_MODELS"]
        else:
            assert env_of(view, "ollama")["OLLAMA_MODEL"] == model, pick.slug
            assert webui["OLLAMA_BASE_URL"] == "http://ollama:11434"
            assert (webui["ENABLE_OLLAMA_API"], webui["ENABLE_OPENAI_API"]) == ("True", "False")
            assert webui["DEFAULT_MODELS"] == model
            assert "OPENAI_API_BASE_URL" not in webui
        # Whatever compose says, the image says the same: nothing is lost.
        for service in view.services:
            outcomes = {d.name: d.outcome for d in service.dropped_environment}
            assert set(outcomes.values()) <= {"same"}, (pick.slug, service.name, outcomes)


def test_the_dflash_pick_never_hands_the_sentinel_to_ollama(template: Template) -> None:
    # The DFlash pick does not build ollama/, but it is in its render: the
    # model there is the same one served by Ollama, never the sentinel.
    tree = template.render(CANONICAL_APP_ID, {"OLLAMA_MODEL": SENTINEL})
    assert b"laguna-s-2.1-dflash" not in tree["ollama/Dockerfile"]
    assert b'OLLAMA_MODEL="laguna-s-2.1:q4_K_M"' in tree["ollama/Dockerfile"]


def test_the_ollama_image_passes_each_device_its_jetpack_release(
    views: dict[str, DeviceView],
) -> None:
    ollama = views["gemma4-e2b"].service("ollama")
    assert ollama is not None
    jetpack = ollama.environment.by_device["WENDY_JETPACK_VERSION"]
    assert dict(jetpack) == {
        "thor": "L4T 38.2.1",
        "orin": "6.1",
        "spark": "",
        "pi5": "",
        "x86": "",
        "bare": "",
    }
    # No Wendy-looking build arg that the CLI never passes.
    assert not [f for f in views["gemma4-e2b"].findings if "does not pass it" in f.message]


# --- the README's list of what a device ignores -----------------------------------


#: A runtime warning (its message holds the key) -> what the README says of it.
RUNTIME_WARNINGS_README = {
    "/dev/shm is 64 MiB on a device": "64 MiB `/dev/shm`, which nothing in `wendy.json`",
}


def readme_items(readme: str) -> set[tuple[str, str]]:
    """(file, what) of each bullet in the README's device list (what = file for the file)."""
    start = readme.index(README_SECTION)
    end = readme.index("\n## ", start)
    return {(m[1], m[2] or m[1]) for m in README_ITEM.finditer(readme[start:end])}


def test_the_readme_lists_exactly_the_device_warnings_of_each_pick(
    template: Template, views: dict[str, DeviceView]
) -> None:
    # Refresh the list with: PYTHONPATH=tests .venv/bin/python -m harness.device_views --readme
    for pick in template.picks():
        items, others = warned_items(views[pick.slug])
        readme = template.render(CANONICAL_APP_ID, dict(pick.answers))["README.md"].decode()
        # Warnings about the container itself (wendy-run.md section 9), not ignored
        # items: each must be one the README explains after its list.
        unexplained = [
            m
            for m in others
            if not any(k in m and v in readme for k, v in RUNTIME_WARNINGS_README.items())
        ]
        assert unexplained == [], f"{pick.slug}: device warnings the README cannot list: {others}"
        expected = {(i.file or "", i.what) for i in items}
        assert readme_items(readme) == expected, pick.slug
        assert len(items) == len(expected)


def test_the_readme_documents_the_jetpack_settings(template: Template) -> None:
    readme = template.render(CANONICAL_APP_ID, {})["README.md"].decode()
    assert "| `JETSON_JETPACK` | 6 on JetPack 6, else unset |" in readme
    assert "`WENDY_JETPACK_VERSION`" in readme
    assert "WENDY_JETPACK_MAJOR" not in readme


def test_readme_items_parse_files_and_keys() -> None:
    text = (
        f"{README_SECTION}:\n\n- `wendy.json`: x\n- `docker-compose.yml` `services.a.b`: y\n"
        "- not an item\n\n## Next\n- `other.json`: z\n"
    )
    assert readme_items(text) == {
        ("wendy.json", "wendy.json"),
        ("docker-compose.yml", "services.a.b"),
    }


# --- mutated copies: the device check fails where an image says otherwise ----------


def mutated_repo(tmp_path: Path, file: str, search: str, replace: str) -> Path:
    """A copy of the templates and golden directories with one edit to python/llm."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "golden", root / "golden")
    path = root / "templates" / "python" / "llm" / file
    text = path.read_text(encoding="utf-8")
    assert text.count(search) == 1, search
    path.write_text(text.replace(search, replace), encoding="utf-8")
    return root


def device_results(root: Path, pick: str) -> tuple[int, str, str, list[dict[str, Any]]]:
    """``check`` of one pick: exit status, the text report, the device check's status
    and findings.  (The mutated render also differs from its golden fixture.)"""
    args = ("check", str(root / "templates"), "--template", "python/llm", "--pick", pick)
    text = run_module(*args)
    report = run_module(*args, "--json")
    assert report.code == text.code, report.err
    results = json.loads(report.out)["results"]
    (device,) = [r for r in results if r["check"] == "device"]
    return text.code, text.out, device["status"], device["findings"]


def test_dflash_with_open_webuis_image_pointing_at_ollama_fails(tmp_path: Path) -> None:
    # Only compose says vLLM; the image Open WebUI runs on a device keeps the
    # Ollama wiring of the other picks.
    root = mutated_repo(
        tmp_path,
        "open-webui/Dockerfile",
        f'{{{{- if eq .OLLAMA_MODEL "{SENTINEL}"}}}}',
        '{{- if eq .OLLAMA_MODEL "no-such-pick"}}',
    )
    code, out, status, findings = device_results(root, SENTINEL)
    assert (code, status) == (1, "fail")
    errors = [f for f in findings if f["severity"] == "error"]
    backend = [f for f in errors if f["file"] == "open-webui/Dockerfile"]
    assert len(backend) == 1
    assert (
        "ENV OLLAMA_BASE_URL=http://ollama:11434 (the image of service open-webui)"
        in (backend[0]["message"])
    )
    assert "talks to a backend that is not there" in backend[0]["message"]
    contradicted = {
        f["message"].split(" is ")[0] for f in errors if f["file"] == "docker-compose.yml"
    }
    assert contradicted == {
        "services.open-webui.environment.ENABLE_OLLAMA_API",
        "services.open-webui.environment.ENABLE_OPENAI_API",
        "services.open-webui.environment.DEFAULT_MODELS",
    }
    # The report names template, pick, check, file and line, and the service.
    line = backend[0]["line"]
    assert (
        f"python/llm {SENTINEL} [device] open-webui/Dockerfile:{line}: DEV027 ENV OLLAMA_BASE_URL"
        in out
    )


def test_an_ollama_pick_whose_image_pulls_another_model_fails(tmp_path: Path) -> None:
    root = mutated_repo(
        tmp_path,
        "ollama/Dockerfile",
        "{{else}}{{.OLLAMA_MODEL}}{{end}}",
        "{{else}}gemma4:e2b{{end}}",
    )
    code, out, status, findings = device_results(root, "gemma4-e4b")
    assert (code, status) == (1, "fail")
    (error,) = [f for f in findings if f["severity"] == "error"]
    assert (error["file"], error["line"]) == ("docker-compose.yml", 8)
    assert error["message"].startswith(
        'services.ollama.environment.OLLAMA_MODEL is "gemma4:e4b", but the image '
        "(ollama/Dockerfile:"
    )
    assert 'on a device the container runs with "gemma4:e2b"' in error["message"]
    assert "python/llm gemma4-e4b [device] docker-compose.yml:8: DEV026 services.ollama" in out
    # The pick whose model the image happens to pull is right on a device.
    code, _, status, _ = device_results(root, "gemma4-e2b")
    assert (code, status) == (0, "warn")


def test_a_setting_only_compose_has_is_a_warning(tmp_path: Path) -> None:
    # Open WebUI's image without its DFlash wiring: the device view cannot see
    # Open WebUI's own defaults, so it warns (fail on what it proves only).
    root = mutated_repo(
        tmp_path,
        "open-webui/Dockerfile",
        "    OPENAI_API_BASE_URL=http://vllm:8000/v1 \\\n",
        "",
    )
    _, _, status, findings = device_results(root, SENTINEL)
    assert status == "warn"
    (warning,) = [f for f in findings if "services.open-webui.environment" in f["message"]]
    assert warning["severity"] == "warning"
    assert "its Dockerfile does not set OPENAI_API_BASE_URL" in warning["message"]
