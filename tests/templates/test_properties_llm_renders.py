"""Properties of the python/llm template's renders, over generated inputs.

1. Every pick but the DFlash sentinel renders the gated files
   (``docker-compose.yml``, ``wendy.json``) byte for byte as the stored
   baseline template does, for the same app id, port and model.
2. The DFlash render keeps no trace of Ollama and wires Open WebUI to vLLM.
3. Every render parses, carries the inputs exactly where expected, and has
   the key structure of a reference render: no input adds, removes or
   renames a key.

The other properties: invalid inputs (``test_properties_llm_refusals.py``),
the engine (``test_properties_engine.py``), determinism
(``test_properties_determinism.py``).

Strategies come from the template's own files (``tests/_strategies.py``);
example counts from ``tests/_hypothesis_profiles.py`` (500 examples per
property with ``CI`` set; no deadlines).  The properties of a module share
one ``Renderer`` (``tests/_property_helpers.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import yaml
from _hypothesis_profiles import property_settings
from _strategies import (
    Inputs,
    all_picks,
    baseline,
    gate_files,
    inputs,
    ollama_picks,
    sentinel_picks,
    template,
)
from hypothesis import given

from wendy_llm.engine.client import Renderer, RenderJob
from wendy_llm.errors import TemplateError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template

COMPOSE = "docker-compose.yml"
WENDY_JSON = "wendy.json"


def render_files(
    engine: Renderer, renders: Sequence[tuple[Template, Mapping[str, object]]], paths: Sequence[str]
) -> list[dict[str, bytes]]:
    """``paths`` of each (template, values) render, in one engine round trip."""
    jobs = [
        RenderJob(source.data, values, source.path)
        for of, values in renders
        for source in of.sources
        if source.path in paths
    ]
    results = engine.render_many(jobs)
    failed = [r for r in results if isinstance(r, TemplateError)]
    assert not failed, f"render failed: {failed[0]}"
    out: list[dict[str, bytes]] = [{} for _ in renders]
    index = 0
    for slot, (of, _) in enumerate(renders):
        for source in of.sources:
            if source.path in paths:
                out[slot][source.path] = bytes(results[index])  # type: ignore[arg-type]
                index += 1
    return out


def parse(files: Mapping[str, bytes]) -> tuple[dict[str, Any], dict[str, Any]]:
    compose = yaml.safe_load(files[COMPOSE])
    wendy = json.loads(files[WENDY_JSON])
    assert isinstance(compose, dict) and isinstance(wendy, dict)
    return compose, wendy


# --- 1. byte identity with the baseline ---------------------------------------------


@property_settings()
@given(case=inputs(ollama_picks()))
def test_ollama_picks_render_the_gated_files_exactly_as_the_baseline(
    renderer: Renderer, case: Inputs
) -> None:
    values = case.values(template())
    # The baseline predates some options: it takes them as `wendy init` would.
    base_values = case.values(baseline(), strict=False)
    assert values == base_values
    ours, theirs = render_files(
        renderer, [(template(), values), (baseline(), base_values)], gate_files()
    )
    for path in gate_files():
        assert ours[path] == theirs[path], f"{path} differs from the baseline's render"


# --- 2. the DFlash render -------------------------------------------------------------


def strings(node: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every key and string value of a parsed document, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, f"<key {key}>"), str(key)
            yield from strings(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from strings(item, (*path, f"[{index}]"))
    elif isinstance(node, str):
        yield path, node


def vllm_api_key() -> str:
    """The key the vLLM image defaults VLLM_API_KEY to (its Dockerfile)."""
    dockerfile = template().files["vllm/Dockerfile"].decode()
    (key,) = [
        part.split("=", 1)[1]
        for part in dockerfile.replace("\\\n", " ").split()
        if part.startswith("VLLM_API_KEY=")
    ]
    return key


@property_settings()
@given(case=inputs(sentinel_picks()))
def test_the_dflash_render_has_no_trace_of_ollama_and_wires_vllm(
    renderer: Renderer, case: Inputs
) -> None:
    (files,) = render_files(renderer, [(template(), case.values(template()))], gate_files())
    compose, wendy = parse(files)
    app = case.app_id
    services = compose["services"]
    assert "ollama" not in services and "vllm" in services
    assert set(compose["volumes"]) == {f"{app}-hf", f"{app}-openwebui"}
    vllm = services["vllm"]
    assert vllm["build"] == "./vllm"
    assert vllm["volumes"] == [f"{app}-hf:/models"]
    webui = services["open-webui"]
    assert webui["depends_on"] == ["vllm"]
    environment = webui["environment"]
    assert environment["ENABLE_OLLAMA_API"] == "False"
    assert environment["ENABLE_OPENAI_API"] == "True"
    assert environment["OPENAI_API_BASE_URL"] == "http://vllm:8000/v1"
    assert environment["OPENAI_API_KEY"] == vllm_api_key()
    assert "ollama" not in wendy["services"]
    assert {"type": "gpu"} in wendy["services"]["vllm"]["entitlements"]
    # No other reference to Ollama: its name, port, URL, build context,
    # volume or dependency. Strings starting with the app id (volume names
    # and mounts, appId) are checked with the id masked: an id may itself
    # contain "ollama".
    allowed = {("services", "open-webui", "environment", "<key ENABLE_OLLAMA_API>")}
    for document in (compose, wendy):
        for path, text in strings(document):
            masked = "<APP_ID>" + text[len(app) :] if text.startswith(app) else text
            if path in allowed:
                continue
            for trace in ("ollama", "11434", "-models"):
                assert trace not in masked.lower(), f"{'.'.join(path)} = {text!r} mentions {trace}"
    comments = [
        line for line in files[COMPOSE].decode().splitlines() if line.lstrip().startswith("#")
    ]
    assert not [c for c in comments if "ollama" in c.lower()]


# --- 3. inputs land exactly where expected -------------------------------------------

REFERENCE_PORT = 54321  # distinctive: it appears nowhere in a render but as PORT


def reference_documents(renderer: Renderer, answers: Mapping[str, str]) -> tuple[Any, Any]:
    values = template().values(CANONICAL_APP_ID, {**answers, "PORT": str(REFERENCE_PORT)})
    (files,) = render_files(renderer, [(template(), values)], gate_files())
    return parse(files)


def substitute(node: object, app_id: str, port: int) -> object:
    """The reference document with the canonical inputs replaced by these."""

    def text(value: str) -> str:
        # The port first: an app id may itself contain the reference port's digits.
        return value.replace(str(REFERENCE_PORT), str(port)).replace(CANONICAL_APP_ID, app_id)

    if isinstance(node, dict):
        return {text(str(k)): substitute(v, app_id, port) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(item, app_id, port) for item in node]
    if isinstance(node, str):
        return text(node)
    if type(node) is int and node == REFERENCE_PORT:
        return port
    return node


@property_settings()
@given(case=inputs(all_picks()))
def test_inputs_land_exactly_where_expected_and_nowhere_else(
    renderer: Renderer, case: Inputs
) -> None:
    (files,) = render_files(renderer, [(template(), case.values(template()))], gate_files())
    compose, wendy = parse(files)
    app, port = case.app_id, case.port.number
    assert wendy["appId"] == app
    assert type(wendy["readiness"]["tcpSocket"]["port"]) is int
    assert wendy["readiness"]["tcpSocket"]["port"] == port
    assert wendy["hooks"]["postStart"]["cli"].endswith(f"}}:{port}")
    webui = compose["services"]["open-webui"]
    assert webui["ports"] == [f"{port}:{port}"]
    assert webui["environment"]["PORT"] == str(port)
    volumes = compose["volumes"]
    assert volumes and all(name.startswith(f"{app}-") for name in volumes)
    for name, service in compose["services"].items():
        for mount in service.get("volumes", []):
            assert mount.rsplit(":", 1)[0] in volumes, f"{name} mounts an undeclared volume"
    # Against a reference render of the same pick: with the inputs swapped
    # in, the documents are equal, so no input added, removed or renamed a
    # key, or changed any other value.
    ref_compose, ref_wendy = reference_documents(renderer, case.pick.answers)
    assert compose == substitute(ref_compose, app, port)
    assert wendy == substitute(ref_wendy, app, port)
