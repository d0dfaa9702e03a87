"""The python/llm template against its stored baseline: for every pick but the
DFlash sentinel the template must render docker-compose.yml and wendy.json
exactly as the baseline does (the generated-input version of that property
lives in the property suite), and the baseline renders the Ollama topology.
"""

from __future__ import annotations

import pytest
from _llm_template_helpers import (
    APP_ID,
    COMPANION_FILES,
    DEFAULT_MODEL,
    OLLAMA_VALUES,
    PORT_CASES,
    PORT_IDS,
    parse_json,
    parse_yaml,
    render,
)

from wendy_llm.render.template import Template

# --- byte identity with the baseline --------------------------------------------


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
@pytest.mark.parametrize("model", OLLAMA_VALUES)
def test_ollama_picks_render_byte_identical_to_the_baseline(
    template: Template,
    baseline: Template,
    model: str,
    extra: dict[str, str],
    port: int,
) -> None:
    new = render(template, model, extra)
    # The baseline never offered the Laguna values; like `wendy init --var`,
    # render it anyway (strict checking would refuse an unknown option).
    old = render(baseline, model, extra, strict=False)
    for name in COMPANION_FILES:
        assert new[name] == old[name], f"{name} differs from the baseline for {model}"
    # Guard against a vacuous match: the inputs really are in the output.
    assert f'OLLAMA_MODEL: "{model}"'.encode() in new["docker-compose.yml"]
    assert f'"port": {port}'.encode() in new["wendy.json"]


@pytest.mark.parametrize(("extra", "port"), PORT_CASES, ids=PORT_IDS)
def test_the_baseline_renders_the_ollama_topology(
    baseline: Template, extra: dict[str, str], port: int
) -> None:
    tree = render(baseline, DEFAULT_MODEL, extra)
    compose = parse_yaml(tree["docker-compose.yml"])
    assert "version" not in compose
    assert compose["services"] == {
        "ollama": {
            "build": "./ollama",
            "environment": {"OLLAMA_MODEL": DEFAULT_MODEL},
            "ports": ["11434:11434"],
            "volumes": [f"{APP_ID}-models:/models"],
        },
        "open-webui": {
            "build": "./open-webui",
            "ports": [f"{port}:{port}"],
            "environment": {"PORT": str(port), "OLLAMA_BASE_URL": "http://ollama:11434"},
            "volumes": [f"{APP_ID}-openwebui:/data"],
            "depends_on": ["ollama"],
        },
    }
    assert compose["volumes"] == {f"{APP_ID}-models": None, f"{APP_ID}-openwebui": None}
    assert parse_json(tree["wendy.json"]) == {
        "appId": APP_ID,
        "version": "0.1.0",
        "platform": "linux",
        "services": {
            "ollama": {"context": "./ollama", "entitlements": [{"type": "gpu"}]},
            "open-webui": {"context": "./open-webui"},
        },
        "readiness": {"tcpSocket": {"port": port}, "timeoutSeconds": 180},
        "hooks": {
            "postStart": {"cli": f"wendy utils open-browser http://${{WENDY_HOSTNAME}}:{port}"}
        },
    }
