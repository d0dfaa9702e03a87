"""The known regressions of python/llm that ``make mutants`` applies (:data:`MUTANTS`).

Each mutant is data (:class:`harness.mutation.Mutant`): what it breaks,
the checks that must each fail for it (``killed_by``), and its edits (a
search string that occurs exactly once, and its replacement).  Grouped by
where they come from: the regressions issue 14's reviewers tried by hand
(item 6: a backend kept under another name, its volume under another key,
hard-coded app ids and ports that only the variant input shows, a new pick
leaking a blank line, an API key changed in one file, DFlash switched off,
long-syntax ports, the sentinel reaching an Ollama pull), the template's
device facts (item 7), the seed change's design decisions (issue 20: each
undone, each killed by the rule that names it), and the earlier
regressions of the template and its entrypoint scripts.
"""

from __future__ import annotations

from typing import Final

from harness.decision_mutants import DECISION_MUTANTS
from harness.mutation import Edit, Mutant
from harness.script_mutants import SCRIPT_MUTANTS, VLLM_SH, behaviour

TEMPLATE_ID: Final = "python/llm"

_COMPOSE = "docker-compose.yml"
_SENTINEL = "laguna-s-2.1-dflash"
_COLON_SENTINEL = "laguna-s-2.1:dflash"
_API_KEY = "wendy-local-dflash"
_NEW_TAG = "phi4:14b"

_TEMPLATE_MUTANTS: Final[tuple[Mutant, ...]] = (
    # --- rendering, wiring and the picker: the first regressions found -----------
    Mutant(
        "drop-trim-marker",
        "an {{end}} without its trim marker: a blank line in every Ollama render",
        ("baseline",),
        (
            Edit(
                _COMPOSE,
                '      - "{{.APP_ID}}-models:/models"\n{{- end}}',
                '      - "{{.APP_ID}}-models:/models"\n{{end}}',
            ),
        ),
    ),
    Mutant(
        "leak-comment",
        "an explanation written as a YAML comment, not a template comment",
        ("baseline",),
        (
            Edit(
                _COMPOSE,
                '{{- else}}\n      OLLAMA_BASE_URL: "http://ollama:11434"',
                "{{- else}}\n      # Compose service DNS; the entrypoint rewrites it on a device.\n"
                '      OLLAMA_BASE_URL: "http://ollama:11434"',
            ),
        ),
    ),
    Mutant(
        "dflash-keeps-ollama-volume",
        "the DFlash branch still declares the <APP_ID>-models volume",
        ("topology",),
        (
            Edit(
                _COMPOSE,
                "  {{.APP_ID}}-hf:\n{{- else}}",
                "  {{.APP_ID}}-hf:\n  {{.APP_ID}}-models:\n{{- else}}",
            ),
        ),
    ),
    Mutant(
        "vllm-without-gpu",
        "wendy.json gives vllm no gpu entitlement",
        ("topology",),
        (
            Edit(
                "wendy.json",
                '"context": "./vllm",\n      "entitlements": [\n        {\n'
                '          "type": "gpu"\n        }\n      ]',
                '"context": "./vllm"',
            ),
        ),
    ),
    Mutant(
        "dockerfile-without-chmod",
        "the vllm Dockerfile no longer makes its entrypoint executable",
        ("dockerfile",),
        (Edit("vllm/Dockerfile", "RUN chmod 0755 /usr/local/bin/wendy-vllm-entrypoint.sh\n", ""),),
    ),
    Mutant(
        "open-webui-not-on-the-device-path",
        "open-webui is no longer linked into /usr/local/bin: only the image's PATH, which a "
        "device's agent replaces, finds it in the virtualenv (issue 32)",
        ("device",),
        (
            Edit(
                "open-webui/Dockerfile",
                "RUN ln -s /opt/open-webui/bin/open-webui /usr/local/bin/open-webui\n",
                "",
            ),
        ),
    ),
    Mutant(
        "sentinel-with-colon",
        f"the DFlash sentinel renamed to {_COLON_SENTINEL}, which passes for an Ollama tag",
        ("picker",),
        (
            Edit(
                "template.schema.json", f'"value": "{_SENTINEL}"', f'"value": "{_COLON_SENTINEL}"'
            ),
            Edit(_COMPOSE, f'.OLLAMA_MODEL "{_SENTINEL}"', f'.OLLAMA_MODEL "{_COLON_SENTINEL}"'),
            Edit(
                "wendy.json", f'.OLLAMA_MODEL "{_SENTINEL}"', f'.OLLAMA_MODEL "{_COLON_SENTINEL}"'
            ),
            Edit("README.md", f'.OLLAMA_MODEL "{_SENTINEL}"', f'.OLLAMA_MODEL "{_COLON_SENTINEL}"'),
            Edit(
                "ollama/Dockerfile",
                f'.OLLAMA_MODEL "{_SENTINEL}"',
                f'.OLLAMA_MODEL "{_COLON_SENTINEL}"',
            ),
            Edit(
                "open-webui/Dockerfile",
                f'.OLLAMA_MODEL "{_SENTINEL}"',
                f'.OLLAMA_MODEL "{_COLON_SENTINEL}"',
            ),
        ),
    ),
    Mutant(
        "readiness-port-hard-coded",
        "wendy.json's readiness probe hard-codes the default port",
        ("topology", "baseline"),
        (Edit("wendy.json", '"port": {{.PORT}}', '"port": 8080'),),
    ),
    Mutant(
        "dflash-keeps-ollama-url",
        "the DFlash render still points Open WebUI at Ollama",
        ("topology",),
        (
            Edit(
                _COMPOSE,
                '      ENABLE_OLLAMA_API: "False"\n',
                '      ENABLE_OLLAMA_API: "False"\n      OLLAMA_BASE_URL: "http://ollama:11434"\n',
            ),
        ),
    ),
    Mutant(
        "ollama-tag-without-colon",
        "an Ollama option whose value lacks a colon (it would be taken for a sentinel)",
        ("picker",),
        (Edit("template.schema.json", '"value": "mistral:7b"', '"value": "mistral-7b"'),),
    ),
    # --- issue 14 item 7: the template true on a device -------------------------
    Mutant(
        "ollama-image-pulls-the-default",
        "the Ollama image pulls gemma4:e2b whatever was picked (only compose has the pick)",
        ("device", "topology"),
        (
            Edit(
                "ollama/Dockerfile",
                "{{else}}{{.OLLAMA_MODEL}}{{end}}",
                "{{else}}gemma4:e2b{{end}}",
            ),
        ),
    ),
    Mutant(
        "dflash-webui-image-points-at-ollama",
        "Open WebUI's image keeps the Ollama wiring in the DFlash pick (only compose says vLLM)",
        ("device",),
        (
            Edit(
                "open-webui/Dockerfile",
                f'{{{{- if eq .OLLAMA_MODEL "{_SENTINEL}"}}}}',
                '{{- if eq .OLLAMA_MODEL "no-such-pick"}}',
            ),
        ),
    ),
    # --- issue 14 item 6: verdicts by meaning -------------------------------------
    # 1. The backend by identity, not by name.
    Mutant(
        "ollama-service-renamed",
        "the DFlash render keeps an Ollama service named llm (built from ./ollama, port 11434)",
        ("topology",),
        (
            Edit(
                _COMPOSE,
                "{{- if $dflash}}\n  vllm:\n",
                '{{- if $dflash}}\n  llm:\n    build: ./ollama\n    ports:\n      - "11434:11434"\n'
                "  vllm:\n",
            ),
        ),
    ),
    # 2. The backend's data by what the baseline's Ollama service mounts.
    Mutant(
        "ollama-volume-under-another-key",
        "the DFlash render keeps the Ollama volume under the key weights (name: <APP_ID>-models)",
        ("topology",),
        (
            Edit(_COMPOSE, '      - "{{.APP_ID}}-hf:/models"\n', '      - "weights:/models"\n'),
            Edit(_COMPOSE, "  {{.APP_ID}}-hf:\n", "  weights:\n    name: {{.APP_ID}}-models\n"),
        ),
    ),
    # 3. A hard-coded app id: only the variant input (app id my.app-2) sees it.
    Mutant(
        "hard-coded-app-id",
        "Open WebUI mounts the volume llm-app-openwebui instead of <APP_ID>-openwebui",
        ("compose", "baseline"),
        (Edit(_COMPOSE, '"{{.APP_ID}}-openwebui:/data"', '"llm-app-openwebui:/data"'),),
    ),
    Mutant(
        "hard-coded-app-id-volume",
        "the Open WebUI volume is llm-app-openwebui, mounted and declared (Compose accepts it)",
        ("topology", "baseline"),
        (
            Edit(_COMPOSE, '"{{.APP_ID}}-openwebui:/data"', '"llm-app-openwebui:/data"'),
            Edit(_COMPOSE, "  {{.APP_ID}}-openwebui:", "  llm-app-openwebui:"),
        ),
    ),
    Mutant(
        "hard-coded-app-id-in-wendy-json",
        "wendy.json's appId is llm-app whatever app id was given",
        ("topology", "baseline"),
        (Edit("wendy.json", '"appId": "{{.APP_ID}}"', '"appId": "llm-app"'),),
    ),
    # 4. A hard-coded port: only the variant input (PORT 9080) sees it.
    Mutant(
        "hard-coded-port",
        "the Open WebUI port mapping hard-codes the default port on the host side",
        ("topology", "baseline"),
        (Edit(_COMPOSE, '      - "{{.PORT}}:{{.PORT}}"', '      - "8080:{{.PORT}}"'),),
    ),
    Mutant(
        "hard-coded-port-in-image",
        "Open WebUI's image listens on 8080 whatever port was picked (compose publishes PORT)",
        ("topology", "device"),
        (Edit("open-webui/Dockerfile", "    PORT={{.PORT}} \\\n", "    PORT=8080 \\\n"),),
    ),
    # 5. A new Ollama pick, held to the baseline rendered with its answers.
    Mutant(
        "new-pick-leaks-blank-line",
        f"a new option {_NEW_TAG} whose render alone has a blank line in docker-compose.yml",
        ("baseline",),
        (
            Edit(
                "template.schema.json",
                '            {\n              "value": "mistral:7b",',
                "            {\n"
                f'              "value": "{_NEW_TAG}",\n'
                f'              "label": "{_NEW_TAG}",\n'
                '              "size": "edge server",\n'
                '              "parameters": "14B",\n'
                '              "comments": "Jetson AGX Orin 32/64GB and Thor."\n'
                "            },\n"
                "            {\n"
                '              "value": "mistral:7b",',
            ),
            Edit(
                _COMPOSE,
                '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n',
                '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n'
                f'{{{{if eq .OLLAMA_MODEL "{_NEW_TAG}"}}}}\n{{{{end}}}}',
            ),
        ),
    ),
    # 6. One API key across files: a relation between compose and the images.
    Mutant(
        "api-key-changed-in-compose",
        "compose gives Open WebUI another OPENAI_API_KEY than the vLLM image's VLLM_API_KEY",
        ("topology", "device"),
        (Edit(_COMPOSE, f'OPENAI_API_KEY: "{_API_KEY}"', 'OPENAI_API_KEY: "wendy-local-vllm"'),),
    ),
    Mutant(
        "api-key-changed-in-vllm-image",
        "the vLLM image serves with another VLLM_API_KEY than Open WebUI sends",
        ("topology",),
        (Edit("vllm/Dockerfile", f"VLLM_API_KEY={_API_KEY}", "VLLM_API_KEY=wendy-local-vllm"),),
    ),
    Mutant(
        "api-key-changed-in-webui-image",
        "Open WebUI's image sends another OPENAI_API_KEY than vLLM serves with (on a device)",
        ("topology", "device"),
        (
            Edit(
                "open-webui/Dockerfile",
                f"OPENAI_API_KEY={_API_KEY}",
                "OPENAI_API_KEY=wendy-local-vllm",
            ),
        ),
    ),
    # 7. DFlash really requested.
    Mutant(
        "dflash-off-in-entrypoint",
        "the vLLM entrypoint no longer passes the DFlash --speculative-config",
        ("topology", behaviour("vllm-dflash-on")),
        (
            Edit(
                VLLM_SH,
                '    args+=(--speculative-config\n      "{\\"method\\": \\"dflash\\", \\"model\\": '
                '\\"$draft\\", \\"num_speculative_tokens\\": $spec_tokens}"\n'
                "      --moe-backend triton)",
                "    args+=(--moe-backend triton)",
            ),
        ),
    ),
    Mutant(
        "dflash-disabled-by-image",
        "the vLLM image sets DFLASH_DISABLE=1, so the probe never runs",
        ("topology",),
        (Edit("vllm/Dockerfile", "DFLASH_DISABLE=0", "DFLASH_DISABLE=1"),),
    ),
    # 8. What makes `wendy run` fail on a device.
    Mutant(
        "long-syntax-ports",
        "vLLM's port in the long syntax, which the Wendy CLI cannot load",
        ("device",),
        (
            Edit(
                _COMPOSE,
                '    ports:\n      - "8000:8000"\n',
                '    ports:\n      - target: 8000\n        published: "8000"\n',
            ),
        ),
    ),
    # 9. The sentinel never reaches an Ollama pull.
    Mutant(
        "sentinel-in-ollama-image",
        f"the Ollama image pulls the pick unmapped: {_SENTINEL} in the DFlash render",
        ("picker",),
        (
            Edit(
                "ollama/Dockerfile",
                f'{{{{if eq .OLLAMA_MODEL "{_SENTINEL}"}}}}laguna-s-2.1:q4_K_M'
                "{{else}}{{.OLLAMA_MODEL}}{{end}}",
                "{{.OLLAMA_MODEL}}",
            ),
        ),
    ),
    Mutant(
        "sentinel-in-compose-env",
        f"compose hands vLLM OLLAMA_MODEL={_SENTINEL}",
        ("picker", "topology"),
        (
            Edit(
                _COMPOSE,
                "    build: ./vllm\n",
                '    build: ./vllm\n    environment:\n      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n',
            ),
        ),
    ),
)

#: Every mutant ``make mutants`` applies: the template's files, then its scripts.
MUTANTS: Final[tuple[Mutant, ...]] = (*_TEMPLATE_MUTANTS, *DECISION_MUTANTS, *SCRIPT_MUTANTS)
