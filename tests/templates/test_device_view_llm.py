"""The device view of the bundled python/llm, pinned: the DFlash pick and an Ollama pick.

The expected documents are committed in ``tests/data/device_views/``; a
difference fails with the diff and the refresh command (see
``harness.device_views``), never a silent rewrite.
"""

from __future__ import annotations

import difflib
import json

import pytest
from _cli_helpers import run_module, validate_report
from harness.device_views import PINNED, REFRESH, TEMPLATE, document, pinned_path

import wendy_llm
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import load_template
from wendy_llm.reports.json import dumps
from wendy_llm.validate.checks.device import build_view


@pytest.mark.parametrize("slug", PINNED)
def test_the_device_view_is_pinned(slug: str) -> None:
    expected = pinned_path(slug).read_text(encoding="utf-8")
    actual = document(slug)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "committed", "now", lineterm=""
        )
        pytest.fail(
            f"the device view of {slug} changed:\n"
            + "\n".join(list(diff)[:80])
            + f"\nIf intended, refresh and commit: {REFRESH}"
        )


def test_the_pinned_documents_follow_the_plan_schema() -> None:
    for slug in PINNED:
        validate_report(pinned_path(slug).read_text(encoding="utf-8"), "plan")


def test_what_the_pins_say_about_a_device() -> None:
    dflash = json.loads(pinned_path("laguna-s-2.1-dflash").read_text(encoding="utf-8"))["view"]
    vllm, webui = dflash["services"]
    assert (vllm["name"], webui["name"]) == ("vllm", "open-webui")
    # Only the dependency is ordered: open-webui is created after vllm.
    assert dflash["creation_order"] == "dependencies-first"
    assert (vllm["created_after"], webui["created_after"]) == ([], ["vllm"])
    assert vllm["restart"] == {
        "written": "unless-stopped",
        "policy": "unless-stopped",
        "device_default": False,
    }
    # No restart key: the device default, which the agent runs as unless-stopped.
    assert webui["restart"] == {"written": None, "policy": "unless-stopped", "device_default": True}
    assert all(e["type"] != "gpu" for s in dflash["services"] for e in s["entitlements"])
    assert vllm["environment"]["values"]["VLLM_API_KEY"] == "wendy-local-dflash"
    # Compose's environment does not reach a device; Open WebUI's image says
    # the same, so the device gets the pick's wiring to vLLM too.
    assert {d["outcome"] for d in webui["dropped_environment"]} == {"same"}
    image = webui["environment"]["values"]
    assert image["OPENAI_API_BASE_URL"] == "http://vllm:8000/v1"
    assert image["OPENAI_API_KEY"] == vllm["environment"]["values"]["VLLM_API_KEY"]
    assert "OLLAMA_BASE_URL" not in image
    ollama = json.loads(pinned_path("gemma4-e4b").read_text(encoding="utf-8"))["view"]
    model = ollama["services"][0]["dropped_environment"][0]
    assert (model["name"], model["compose"], model["image"], model["outcome"]) == (
        "OLLAMA_MODEL",
        "gemma4:e4b",
        "gemma4:e4b",
        "same",
    )
    # The JetPack release each device passes is kept in the Ollama image.
    jetpack = ollama["services"][0]["environment"]["by_device"]["WENDY_JETPACK_VERSION"]
    assert (jetpack["thor"], jetpack["orin"], jetpack["bare"]) == ("L4T 38.2.1", "6.1", "")


def test_the_plan_command_prints_the_pinned_document() -> None:
    run = run_module("plan", str(TEMPLATE), "--pick", "laguna-s-2.1-dflash", "--json")
    assert run.code == 0, run.err
    printed = json.loads(run.out)
    assert printed.pop("wendy_llm_version") == wendy_llm.__version__  # the gate, not the view
    assert dumps(printed) == pinned_path("laguna-s-2.1-dflash").read_text(encoding="utf-8")


def test_every_pick_of_the_bundled_template_deploys() -> None:
    template = load_template(TEMPLATE)
    for pick in template.picks():
        tree = template.render(CANONICAL_APP_ID, dict(pick.answers))
        view = build_view(tree, CANONICAL_APP_ID)
        assert view.errors == (), (pick.slug, view.errors)
        assert view.path == "compose"
