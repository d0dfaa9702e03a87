"""Issue 14's meaning classes (item 6) as test cases: for each catalogue
mutant of them, the pick whose ``wendy-llm check`` it fails and the failure
lines a reviewer must see (the check, the file, and the words naming the
service, volume, key or rule at fault)."""

from __future__ import annotations

from dataclasses import dataclass

DFLASH = "laguna-s-2.1-dflash"
OLLAMA = "gemma4-e2b"
COMPOSE = "docker-compose.yml"
VARIANT = "variant app-id=my.app-2 PORT=9080: "


@dataclass(frozen=True)
class Line:
    """A failure line ``check`` must print: its check, its file, and words it must hold."""

    check: str
    file: str
    words: tuple[str, ...]


def line(check: str, file: str, *words: str) -> Line:
    return Line(check, file, words)


@dataclass(frozen=True)
class Case:
    pick: str
    lines: tuple[Line, ...]


_SERVICE_LLM_IS_OLLAMA = 'rule "dflash-has-no-ollama": service "llm" is ollama ('
_API_KEY = 'rule "dflash-api-key": the values differ: '
_SENTINEL_PULLED = (
    f'is "{DFLASH}", a sentinel of OLLAMA_MODEL, not an Ollama tag: '
    "the sentinel must never reach an Ollama pull"
)

#: Mutant -> the pick whose `check` it fails, and lines the output must hold.
MEANING_CASES: dict[str, Case] = {
    # 1. a backend service renamed: topology, by identity.
    "ollama-service-renamed": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                _SERVICE_LLM_IS_OLLAMA,
                "its build ends on the image ollama/ollama:",
                "it publishes port 11434 (11434:11434)",
                "which must be absent (vLLM replaces the Ollama backend)",
            ),
        ),
    ),
    # 2. the backend's volume under another key: the baseline-relative volume rule.
    "ollama-volume-under-another-key": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                'rule "dflash-has-no-ollama": volume "weights" is ollama-data (the baseline ',
                f"rendered with OLLAMA_MODEL={DFLASH} has a volume named llm-app-models: "
                'service "ollama" mounts it at /models',
                "(each backend has its own volume, so their data never collide)",
            ),
        ),
    ),
    # 3. hard-coded app ids: the variant input (app id my.app-2) sees them.
    "hard-coded-app-id": Case(
        OLLAMA,
        (
            line(
                "compose",
                COMPOSE,
                VARIANT,
                'service "open-webui" refers to undefined volume llm-app-openwebui',
            ),
            line(
                "baseline",
                COMPOSE,
                f"pick {OLLAMA}, {VARIANT}docker-compose.yml differs from the stored baseline",
            ),
        ),
    ),
    "hard-coded-app-id-volume": Case(
        OLLAMA,
        (
            line(
                "topology",
                "golden/python/llm.rules.yaml",
                VARIANT,
                'rule "open-webui-and-app": no volume matches name my.app-2-openwebui and '
                "mounted_by open-webui and target /data (one must)",
            ),
            line("baseline", COMPOSE, "differs from the stored baseline"),
        ),
    ),
    "hard-coded-app-id-in-wendy-json": Case(
        OLLAMA,
        (
            line(
                "topology",
                "wendy.json",
                VARIANT,
                'rule "open-webui-and-app": wendy.appId is "llm-app", expected "my.app-2"',
            ),
            line("baseline", "wendy.json", "wendy.json differs from the stored baseline"),
        ),
    ),
    # 4. hard-coded ports: the variant input (PORT 9080) sees them.
    "hard-coded-port": Case(
        OLLAMA,
        (
            line(
                "topology",
                COMPOSE,
                VARIANT,
                'rule "open-webui-and-app": compose.services.@open-webui.ports[*].published '
                '(@open-webui: "open-webui") does not contain "9080" (it has "8080")',
            ),
            line("baseline", COMPOSE, "differs from the stored baseline"),
        ),
    ),
    "hard-coded-port-in-image": Case(
        OLLAMA,
        (
            line(
                "topology",
                "open-webui/Dockerfile",
                VARIANT,
                'rule "open-webui-and-app": the values differ: '
                "compose.services.open-webui.environment.PORT",
                'is "9080"; device.services.open-webui.environment.values.PORT',
                'is "8080" (the image listens where compose publishes)',
            ),
            line(
                "device",
                COMPOSE,
                VARIANT,
                'services.open-webui.environment.PORT is "9080", but the image '
                "(open-webui/Dockerfile:",
                'sets PORT="8080"',
            ),
        ),
    ),
    # 5. a new pick leaking a blank line: held to the baseline rendered with its answers.
    "new-pick-leaks-blank-line": Case(
        "phi4-14b",
        (
            line(
                "baseline",
                COMPOSE,
                "template python/llm, pick phi4-14b: docker-compose.yml differs from the stored "
                "baseline golden/baseline/python/llm",
            ),
        ),
    ),
    # 6. the API key changed in one file: a relation across files.
    "api-key-changed-in-compose": Case(
        DFLASH,
        (
            line(
                "topology",
                COMPOSE,
                _API_KEY,
                "compose.services.open-webui.environment.OPENAI_API_KEY (docker-compose.yml:",
                'is "wendy-local-vllm"; device.services.vllm.environment.values.VLLM_API_KEY '
                "(vllm/Dockerfile:",
                "(change the key in every file together)",
            ),
            line(
                "device",
                COMPOSE,
                'services.open-webui.environment.OPENAI_API_KEY is "wendy-local-vllm", but the '
                "image (open-webui/Dockerfile:",
            ),
        ),
    ),
    "api-key-changed-in-vllm-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/Dockerfile",
                _API_KEY,
                "device.services.vllm.environment.values.VLLM_API_KEY (vllm/Dockerfile:",
                'is "wendy-local-vllm"',
            ),
        ),
    ),
    "api-key-changed-in-webui-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "open-webui/Dockerfile",
                _API_KEY,
                "device.services.open-webui.environment.values.OPENAI_API_KEY "
                "(open-webui/Dockerfile:",
                'is "wendy-local-vllm"',
            ),
            line(
                "device",
                COMPOSE,
                "services.open-webui.environment.OPENAI_API_KEY",
                'sets OPENAI_API_KEY="wendy-local-vllm"',
            ),
        ),
    ),
    # 7. DFlash switched off: text assertions on the entrypoint, the image's switch.
    "dflash-off-in-entrypoint": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/entrypoint.sh",
                'rule "dflash-speculative-decoding": vllm/entrypoint.sh has nothing matching',
                "(vLLM is asked for DFlash speculative decoding when the drafter is there)",
            ),
        ),
    ),
    "dflash-disabled-by-image": Case(
        DFLASH,
        (
            line(
                "topology",
                "vllm/Dockerfile",
                'rule "dflash-speculative-decoding": device.services.vllm.environment.values.'
                'DFLASH_DISABLE is "1", expected "0" (the image leaves DFlash on)',
            ),
        ),
    ),
    # 8. long-syntax ports: `wendy run` cannot load the file.
    "long-syntax-ports": Case(
        DFLASH,
        (
            line(
                "device",
                COMPOSE,
                "services.vllm.ports[0] is a mapping (the long syntax), but the Wendy CLI reads "
                "ports as strings: wendy run fails to load docker-compose.yml at all",
            ),
        ),
    ),
    # 9. the sentinel reaching an Ollama pull.
    "sentinel-in-ollama-image": Case(
        DFLASH,
        (
            line(
                "picker",
                "ollama/Dockerfile",
                f"dockerfiles.ollama/Dockerfile.environment.values.OLLAMA_MODEL {_SENTINEL_PULLED}",
            ),
        ),
    ),
    "sentinel-in-compose-env": Case(
        DFLASH,
        (
            line(
                "picker",
                COMPOSE,
                f"compose.services.vllm.environment.OLLAMA_MODEL {_SENTINEL_PULLED}",
            ),
            line(
                "topology",
                COMPOSE,
                'rule "dflash-has-no-ollama": service "vllm" is ollama (its compose environment '
                "sets OLLAMA_MODEL)",
            ),
        ),
    ),
    # and: Open WebUI's image still wired to Ollama in the DFlash pick.
    "dflash-webui-image-points-at-ollama": Case(
        DFLASH,
        (
            line(
                "device",
                "open-webui/Dockerfile",
                "ENV OLLAMA_BASE_URL=http://ollama:11434 (the image of service open-webui): "
                "ollama is no service of this app, so on a device the container talks to a "
                "backend that is not there (the app's services: open-webui, vllm)",
            ),
        ),
    ),
}
