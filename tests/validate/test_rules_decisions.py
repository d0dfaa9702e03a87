"""The seed change's design decisions (``llm-template.md``; issue 20) hold by
meaning: undoing one fails ``check`` with a finding of the rule that names it,
and an equivalent or consistent change passes that rule.

Each case edits a temporary copy of ``templates/python/llm`` (and, where the
decision itself changes, its rules file) and runs ``check`` on one pick,
golden fixtures aside (they fail on any byte; the point is what the rules say).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from wendy_llm.validate.run import run_check

REPO = Path(__file__).resolve().parents[2]
LLM = "python/llm"
DFLASH = "laguna-s-2.1-dflash"
OLLAMA_PICK = "qwen2.5-3b"  # not the default: a default fixed in an image still fits it
RULES = f"{LLM}.rules.yaml"

Edit = tuple[str, str, str]  # (file under the work root, text, replacement)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("llm")
    shutil.copytree(REPO / "templates" / LLM, root / "templates" / LLM)
    (root / "golden" / "python").mkdir(parents=True)
    shutil.copy(REPO / "golden" / RULES, root / "golden" / RULES)
    shutil.copytree(REPO / "golden" / "baseline" / LLM, root / "golden" / "baseline" / LLM)
    return root


def template(file: str) -> str:
    return f"templates/{LLM}/{file}"


def errors(
    pristine: Path, tmp_path: Path, edits: Sequence[Edit], pick: str = DFLASH
) -> list[tuple[str, str]]:
    """(check, message) of every error ``check`` finds on ``pick`` after ``edits``."""
    work = tmp_path / "work"
    shutil.copytree(pristine, work)
    for file, old, new in edits:
        path = work / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    report = run_check(
        work / "templates", templates=[LLM], picks=[pick], golden_dir=work / "golden", golden=False
    )
    return [
        (r.check, f.message) for r in report.results for f in r.findings if f.severity == "error"
    ]


def by_rule(found: Sequence[tuple[str, str]], rule: str) -> list[str]:
    return [m for c, m in found if c == "topology" and m.startswith(f'rule "{rule}": ')]


VLLM_PORT_ONE_PLACE = (template("vllm/Dockerfile"), "API_PORT=8000", "API_PORT=8001")
VLLM_PORT_EVERYWHERE = (
    VLLM_PORT_ONE_PLACE,
    (
        template("docker-compose.yml"),
        'OPENAI_API_BASE_URL: "http://vllm:8000/v1"',
        'OPENAI_API_BASE_URL: "http://vllm:8001/v1"',
    ),
    (
        template("open-webui/Dockerfile"),
        "OPENAI_API_BASE_URL=http://vllm:8000/v1",
        "OPENAI_API_BASE_URL=http://vllm:8001/v1",
    ),
    (template("docker-compose.yml"), '      - "8000:8000"', '      - "8000:8001"'),
)


def test_the_unmutated_template_passes_every_decision(pristine: Path, tmp_path: Path) -> None:
    assert errors(pristine, tmp_path, []) == []


def test_vllm_listening_on_another_port_than_open_webui_calls_fails(
    pristine: Path, tmp_path: Path
) -> None:
    found = errors(pristine, tmp_path, [VLLM_PORT_ONE_PLACE])
    [message] = by_rule(found, "dflash-backend-url")
    assert "the port of compose.services.open-webui.environment.OPENAI_API_BASE_URL" in message
    assert "device.services.vllm.environment.values.API_PORT (vllm/Dockerfile:" in message
    assert '"8001"' in message and message.endswith("change them together)")


def test_the_port_changed_consistently_passes_the_url_rule(pristine: Path, tmp_path: Path) -> None:
    # vLLM's port, Open WebUI's URL (compose and image) and the published
    # container port, all 8001: no rule about them fails (the host side of the
    # mapping stays 8000, as the template publishes it).
    assert errors(pristine, tmp_path, VLLM_PORT_EVERYWHERE) == []


def test_gpu_memory_back_to_vllms_default_fails(pristine: Path, tmp_path: Path) -> None:
    edit = (
        template("vllm/Dockerfile"),
        "GPU_MEMORY_UTILIZATION=0.70",
        "GPU_MEMORY_UTILIZATION=0.9",
    )
    [message] = by_rule(errors(pristine, tmp_path, [edit]), "vllm-gpu-memory")
    assert '"0.9", which does not match' in message


def test_gpu_memory_spelled_0_7_passes(pristine: Path, tmp_path: Path) -> None:
    edit = (
        template("vllm/Dockerfile"),
        "GPU_MEMORY_UTILIZATION=0.70",
        "GPU_MEMORY_UTILIZATION=0.7",
    )
    found = errors(pristine, tmp_path, [edit])
    assert by_rule(found, "vllm-gpu-memory") == []


DRAFT = "DFLASH_DRAFT_MODEL=poolside/Laguna-S-2.1-DFlash"
TARGET = "VLLM_TARGET_MODEL=poolside/Laguna-S-2.1-NVFP4"


def test_another_models_drafter_fails(pristine: Path, tmp_path: Path) -> None:
    edit = (template("vllm/Dockerfile"), DRAFT, "DFLASH_DRAFT_MODEL=z-lab/Qwen3-8B-DFlash-b16")
    [message] = by_rule(errors(pristine, tmp_path, [edit]), "dflash-drafter")
    assert message.startswith(
        'rule "dflash-drafter": the values differ: the dflash-drafters entry of '
        'device.services.vllm.environment.values.VLLM_TARGET_MODEL = "poolside/Laguna-S-2.1-NVFP4"'
    )
    assert '"z-lab/Qwen3-8B-DFlash-b16"' in message


def test_a_new_target_brings_its_own_drafter(pristine: Path, tmp_path: Path) -> None:
    edits = [
        (template("vllm/Dockerfile"), TARGET, "VLLM_TARGET_MODEL=acme/Next-NVFP4"),
        (template("vllm/entrypoint.sh"), "poolside/Laguna-S-2.1-NVFP4}", "acme/Next-NVFP4}"),
    ]
    # Without its drafter the new target fails; with it declared it passes.
    [message] = by_rule(errors(pristine, tmp_path, edits), "dflash-drafter")
    assert '"acme/Next-NVFP4" has no entry in the table "dflash-drafters"' in message
    shutil.rmtree(tmp_path / "work")
    paired = (
        f"golden/{RULES}",
        "    poolside/Laguna-S-2.1-NVFP4: poolside/Laguna-S-2.1-DFlash\n",
        "    acme/Next-NVFP4: poolside/Laguna-S-2.1-DFlash\n",
    )
    assert by_rule(errors(pristine, tmp_path, [*edits, paired]), "dflash-drafter") == []


def test_open_webui_fixed_on_one_model_fails_other_picks(pristine: Path, tmp_path: Path) -> None:
    edit = (
        template("open-webui/Dockerfile"),
        'DEFAULT_MODELS="{{.OLLAMA_MODEL}}"',
        'DEFAULT_MODELS="gemma4:e2b"',
    )
    [message] = by_rule(errors(pristine, tmp_path, [edit], OLLAMA_PICK), "open-webui-default-model")
    assert '"gemma4:e2b"' in message and '"qwen2.5:3b"' in message


def test_open_webui_calling_ollama_on_another_port_fails(pristine: Path, tmp_path: Path) -> None:
    edit = (
        template("docker-compose.yml"),
        'OLLAMA_BASE_URL: "http://ollama:11434"',
        'OLLAMA_BASE_URL: "http://ollama:11435"',
    )
    found = errors(pristine, tmp_path, [edit], OLLAMA_PICK)
    [message] = by_rule(found, "ollama-backend-url")
    assert "the port of compose.services.open-webui.environment.OLLAMA_BASE_URL" in message
    assert "OLLAMA_HOST" in message
