"""The DFlash invariant by meaning (issue 14 item 3): bad changes to the bundled
template fail ``check``'s rules with a message naming the pick, the file, the
service and the trait; an equivalent spelling passes.

Each case edits a temporary copy of ``templates/python/llm`` (its rules file
and stored baseline beside it) and runs ``check`` on the DFlash pick, golden
fixtures aside (they fail on any byte; the point is what the rules say).
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
COMPOSE = "docker-compose.yml"

Edit = tuple[str, str, str]  # (file in the template, text, replacement)
Failure = tuple[str, str, str | None, int | None, str]  # pick, check, file, line, message


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """templates/python/llm, golden/python/llm.rules.yaml and its stored baseline."""
    root = tmp_path_factory.mktemp("llm")
    shutil.copytree(REPO / "templates" / LLM, root / "templates" / LLM)
    (root / "golden" / "python").mkdir(parents=True)
    shutil.copy(REPO / "golden" / f"{LLM}.rules.yaml", root / "golden" / f"{LLM}.rules.yaml")
    shutil.copytree(REPO / "golden" / "baseline" / LLM, root / "golden" / "baseline" / LLM)
    return root


def check(pristine: Path, tmp_path: Path, edits: Sequence[Edit]) -> list[Failure]:
    work = tmp_path / "work"
    shutil.copytree(pristine, work)
    for file, old, new in edits:
        path = work / "templates" / LLM / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    report = run_check(
        work / "templates",
        templates=[LLM],
        picks=[DFLASH],
        golden_dir=work / "golden",
        golden=False,
    )
    return [
        (f.pick, f.check, f.file, f.line, f.message)
        for result in report.results
        for f in result.findings
        if f.severity == "error"
    ]


def test_the_unmutated_template_passes(pristine: Path, tmp_path: Path) -> None:
    assert check(pristine, tmp_path, []) == []


def test_an_ollama_service_kept_under_another_name_fails(pristine: Path, tmp_path: Path) -> None:
    renamed = (
        COMPOSE,
        "{{- if $dflash}}\n  vllm:\n",
        '{{- if $dflash}}\n  llm:\n    build: ./ollama\n    ports:\n      - "11434:11434"\n'
        "  vllm:\n",
    )
    [(pick, check_id, file, line, message)] = check(pristine, tmp_path, [renamed])
    assert (pick, check_id, file, line) == (DFLASH, "topology", COMPOSE, 6)
    assert message.startswith('rule "dflash-has-no-ollama": service "llm" is ollama (')
    for trait in (
        "its build ends on the image ollama/ollama:0.32.5 (ollama/Dockerfile)",
        "it publishes port 11434 (11434:11434)",
        "its image sets OLLAMA_HOST, OLLAMA_MODELS, OLLAMA_MODEL, OLLAMA_LOAD_TIMEOUT",
        "its build context holds ollama/Dockerfile, built on ollama/ollama:0.32.5",
    ):
        assert trait in message
    assert message.endswith("which must be absent (vLLM replaces the Ollama backend)")


def test_an_ollama_service_by_its_port_alone_fails(pristine: Path, tmp_path: Path) -> None:
    # Only the long syntax, only the target port: still Ollama's port.
    sidecar = (
        COMPOSE,
        "{{- if $dflash}}\n  vllm:\n",
        "{{- if $dflash}}\n  helper:\n    image: busybox\n    ports:\n"
        "      - target: 11434\n        published: 9999\n  vllm:\n",
    )
    failures = [f for f in check(pristine, tmp_path, [sidecar]) if f[1] == "topology"]
    assert [(f[2], f[3], f[4]) for f in failures] == [
        (
            COMPOSE,
            6,
            'rule "dflash-has-no-ollama": service "helper" is ollama (its container listens on '
            "port 11434 (9999:11434)), which must be absent (vLLM replaces the Ollama backend)",
        )
    ]


def test_the_ollama_volume_kept_under_another_key_fails(pristine: Path, tmp_path: Path) -> None:
    # A new key whose storage name is the Ollama volume's: the same data.
    edits = [
        (COMPOSE, '      - "{{.APP_ID}}-hf:/models"\n', '      - "weights:/models"\n'),
        (COMPOSE, "  {{.APP_ID}}-hf:\n", "  weights:\n    name: {{.APP_ID}}-models\n"),
    ]
    failures = check(pristine, tmp_path, edits)
    start = 'rule "dflash-has-no-ollama": volume "weights" is ollama-data (the baseline '
    [(pick, check_id, file, _, message)] = [f for f in failures if f[4].startswith(start)]
    assert (pick, check_id, file) == (DFLASH, "topology", COMPOSE)
    assert (
        "rendered with OLLAMA_MODEL=laguna-s-2.1-dflash has a volume named llm-app-models: "
        'service "ollama" mounts it at /models (its build ends on the image '
        "ollama/ollama:0.32.5 (ollama/Dockerfile)"
    ) in message
    assert message.endswith("(each backend has its own volume, so their data never collide)")


def test_the_ollama_volume_mounted_by_vllm_fails(pristine: Path, tmp_path: Path) -> None:
    edits = [
        (COMPOSE, '      - "{{.APP_ID}}-hf:/models"\n', '      - "{{.APP_ID}}-models:/models"\n'),
        (COMPOSE, "  {{.APP_ID}}-hf:\n", "  {{.APP_ID}}-models:\n"),
    ]
    messages = [f[4] for f in check(pristine, tmp_path, edits) if f[1] == "topology"]
    assert any(
        m.startswith('rule "dflash-has-no-ollama": volume "llm-app-models" is ollama-data (')
        for m in messages
    )
    assert (
        'rule "dflash-vllm-service": no volume matches name llm-app-hf and mounted_by vllm '
        "and target /models (one must)"
    ) in messages


@pytest.mark.parametrize(
    ("edit", "file", "odd"),
    [
        (
            (COMPOSE, 'OPENAI_API_KEY: "wendy-local-dflash"', 'OPENAI_API_KEY: "other-key"'),
            COMPOSE,
            "compose.services.open-webui.environment.OPENAI_API_KEY",
        ),
        (
            ("vllm/Dockerfile", "VLLM_API_KEY=wendy-local-dflash", "VLLM_API_KEY=other-key"),
            "vllm/Dockerfile",
            "device.services.vllm.environment.values.VLLM_API_KEY",
        ),
        (
            (
                "open-webui/Dockerfile",
                "OPENAI_API_KEY=wendy-local-dflash",
                "OPENAI_API_KEY=other-key",
            ),
            "open-webui/Dockerfile",
            "device.services.open-webui.environment.values.OPENAI_API_KEY",
        ),
        (
            (
                "vllm/entrypoint.sh",
                'api_key="${VLLM_API_KEY:-wendy-local-dflash}"',
                'api_key="${VLLM_API_KEY:-other-key}"',
            ),
            "vllm/entrypoint.sh",
            "",
        ),
    ],
    ids=["compose", "vllm-image", "open-webui-image", "entrypoint"],
)
def test_the_api_key_changed_in_one_file_only_fails(
    pristine: Path, tmp_path: Path, edit: Edit, file: str, odd: str
) -> None:
    found = check(pristine, tmp_path, [edit])
    [(pick, at, line, message)] = [(p, f, n, m) for p, c, f, n, m in found if c == "topology"]
    # The finding points at the odd value out, and lists every value with its place.
    assert (pick, at) == (DFLASH, file) and line is not None
    assert message.startswith('rule "dflash-api-key": the values differ: ')
    where = f"{odd} ({file}:{line})" if odd else f"{file}:{line}"
    assert f'{where} is "other-key"' in message
    assert message.count('"wendy-local-dflash"') == 3
    assert message.endswith("(change the key in every file together)")


def test_dflash_switched_off_in_the_entrypoint_fails(pristine: Path, tmp_path: Path) -> None:
    off = (
        "vllm/entrypoint.sh",
        '    args+=(--speculative-config\n      "{\\"method\\": \\"dflash\\", \\"model\\": '
        '\\"$draft\\", \\"num_speculative_tokens\\": $spec_tokens}"\n      --moe-backend triton)',
        "    args+=(--moe-backend triton)",
    )
    [(pick, check_id, file, line, message)] = check(pristine, tmp_path, [off])
    # Nothing matching: about the file as a whole, at its line 1, said so (issue 37).
    assert (pick, check_id, file, line) == (DFLASH, "topology", "vllm/entrypoint.sh", 1)
    assert message.startswith(
        'rule "dflash-speculative-decoding": vllm/entrypoint.sh has nothing matching '
        "/if \\(\\(use_dflash\\)\\); then"
    )
    assert message.endswith(
        "(vLLM is asked for DFlash speculative decoding when the drafter is there) "
        "(line 1: vllm/entrypoint.sh as a whole)"
    )


def test_dflash_disabled_by_the_image_fails(pristine: Path, tmp_path: Path) -> None:
    off = ("vllm/Dockerfile", "DFLASH_DISABLE=0", "DFLASH_DISABLE=1")
    [(pick, check_id, file, line, message)] = check(pristine, tmp_path, [off])
    text = (REPO / "templates" / LLM / "vllm" / "Dockerfile").read_text(encoding="utf-8")
    set_at = text[: text.index("DFLASH_DISABLE=0")].count("\n") + 1
    assert (pick, check_id, file, line) == (DFLASH, "topology", "vllm/Dockerfile", set_at)
    assert message == (
        'rule "dflash-speculative-decoding": device.services.vllm.environment.values.'
        'DFLASH_DISABLE is "1", expected "0" (the image leaves DFlash on)'
    )


def test_build_as_a_mapping_is_the_same_as_a_string(pristine: Path, tmp_path: Path) -> None:
    mapping = (
        COMPOSE,
        "  vllm:\n    build: ./vllm\n",
        "  vllm:\n    build:\n      context: ./vllm\n",
    )
    assert check(pristine, tmp_path, [mapping]) == []


def test_other_equivalent_spellings_pass(pristine: Path, tmp_path: Path) -> None:
    # A long-syntax port, the environment as a list, depends_on as a mapping:
    # the same project to Compose, so the same to the rules.
    environment = [
        ('      PORT: "{{.PORT}}"\n', '      - "PORT={{.PORT}}"\n'),
        ('      ENABLE_OLLAMA_API: "False"\n', "      - ENABLE_OLLAMA_API=False\n"),
        ('      ENABLE_OPENAI_API: "True"\n', "      - ENABLE_OPENAI_API=True\n"),
        (
            '      OPENAI_API_BASE_URL: "http://vllm:8000/v1"\n',
            "      - OPENAI_API_BASE_URL=http://vllm:8000/v1\n",
        ),
        (
            '      OPENAI_API_KEY: "wendy-local-dflash"\n',
            "      - OPENAI_API_KEY=wendy-local-dflash\n",
        ),
        ('      DEFAULT_MODELS: "laguna-s-2.1"\n', "      - DEFAULT_MODELS=laguna-s-2.1\n"),
        (
            '      OLLAMA_BASE_URL: "http://ollama:11434"\n',
            "      - OLLAMA_BASE_URL=http://ollama:11434\n",
        ),
    ]
    edits = [
        (
            COMPOSE,
            '    ports:\n      - "8000:8000"\n',
            "    ports:\n      - {target: 8000, published: 8000}\n",
        ),
        (
            COMPOSE,
            "    depends_on:\n{{- if $dflash}}\n      - vllm\n",
            "    depends_on:\n{{- if $dflash}}\n      vllm: {condition: service_started}\n",
        ),
        *[(COMPOSE, old, new) for old, new in environment],
    ]
    assert [f for f in check(pristine, tmp_path, edits) if f[1] == "topology"] == []
