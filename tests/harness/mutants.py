"""``python -m harness.mutants`` (``make mutants``): proof that the suite bites.

Applies each known regression of the python/llm template (:data:`MUTANTS`)
to a temporary copy and runs the whole suite against it (see
:mod:`harness.mutation`); every mutant must be killed by a check other
than the golden fixtures.  Prints one line per mutant with the checks that
killed it and the kill rate.

Exit status: 0 every mutant killed; 1 a mutant survived; 2 bad usage, a
mutant that no longer applies to the template, or a control run (the
unmutated template) that does not pass.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from harness.mutation import Edit, Mutant, MutantResult, MutationReport, run_mutation
from wendy_llm.errors import MutantError, WendyLlmError
from wendy_llm.repo.layout import find_layout

TEMPLATE_ID: Final = "python/llm"

_COMPOSE = "docker-compose.yml"
_VLLM_SH = "vllm/entrypoint.sh"
_OLLAMA_SH = "ollama/entrypoint.sh"
_WEBUI_SH = "open-webui/entrypoint.sh"
_SENTINEL = "laguna-s-2.1-dflash"
_COLON_SENTINEL = "laguna-s-2.1:dflash"

MUTANTS: Final[tuple[Mutant, ...]] = (
    # --- the regressions the issue lists -------------------------------------
    Mutant(
        "drop-trim-marker",
        "an {{end}} without its trim marker: a blank line in every Ollama render",
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
        (Edit("vllm/Dockerfile", "RUN chmod 0755 /usr/local/bin/wendy-vllm-entrypoint.sh\n", ""),),
    ),
    Mutant(
        "unbounded-fast-exits",
        "fast vLLM deaths are counted but never end the loop",
        (
            Edit(
                _VLLM_SH,
                "if ((fast_exits >= max_fast_exits)); then",
                "if ((max_fast_exits == 0)); then",
            ),
        ),
    ),
    Mutant(
        "preflight-after-download",
        "the CUDA preflight runs after vLLM's first start (which downloads ~72GB)",
        (
            Edit(_VLLM_SH, "if ! preflight; then", "if false; then"),
            Edit(
                _VLLM_SH,
                '  run_vllm "${args[@]}"\n',
                '  run_vllm "${args[@]}"\n  preflight || exit 3\n',
            ),
        ),
    ),
    Mutant(
        "sentinel-with-colon",
        f"the DFlash sentinel renamed to {_COLON_SENTINEL}, which passes for an Ollama tag",
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
    # --- more regressions, cheap to add ----------------------------------------
    Mutant(
        "hard-coded-port",
        "the Open WebUI port mapping hard-codes the default port on the host side",
        (Edit(_COMPOSE, '      - "{{.PORT}}:{{.PORT}}"', '      - "8080:{{.PORT}}"'),),
    ),
    Mutant(
        "readiness-port-hard-coded",
        "wendy.json's readiness probe hard-codes the default port",
        (Edit("wendy.json", '"port": {{.PORT}}', '"port": 8080'),),
    ),
    Mutant(
        "dflash-keeps-ollama-url",
        "the DFlash render still points Open WebUI at Ollama",
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
        (Edit("template.schema.json", '"value": "mistral:7b"', '"value": "mistral-7b"'),),
    ),
    Mutant(
        "trust-remote-code-always",
        "--trust-remote-code is passed although TRUST_REMOTE_CODE=0",
        (Edit(_VLLM_SH, "if ((trust_remote_code)); then", "if true; then"),),
    ),
    Mutant(
        "quantization-flag",
        "vLLM is told --quantization instead of detecting it from the checkpoint",
        (
            Edit(
                _VLLM_SH,
                "    --max-num-batched-tokens 32768\n",
                "    --max-num-batched-tokens 32768\n    --quantization modelopt_fp4\n",
            ),
        ),
    ),
    Mutant(
        "no-retry-pause",
        "vLLM is restarted at once instead of after VLLM_RETRY_DELAY_S",
        (Edit(_VLLM_SH, '  pause "$(ms_to_s "$retry_delay_ms")"\n', ""),),
    ),
    Mutant(
        "slow-death-keeps-count",
        "a slow vLLM death no longer resets the count of fast exits in a row",
        (
            Edit(
                _VLLM_SH,
                '    fast_exits=0\n    log "vLLM died after $ran (status $status); restarting"',
                '    log "vLLM died after $ran (status $status); restarting"',
            ),
        ),
    ),
    Mutant(
        "clock-in-seconds",
        "the vLLM script's clock reads seconds where it means milliseconds",
        (
            Edit(
                _VLLM_SH,
                "printf '%d' \"$((10#$us / 1000))\"",
                "printf '%d' \"$((10#$us / 1000000))\"",
            ),
        ),
    ),
    Mutant(
        "uncapped-backoff",
        "the pull backoff keeps doubling past OLLAMA_PULL_BACKOFF_MAX_S",
        (Edit(_OLLAMA_SH, "if ((delay_ms > backoff_max_ms)); then", "if false; then"),),
    ),
    Mutant(
        "pull-before-serve",
        "the model is pulled before `ollama serve` starts (in the foreground)",
        (Edit(_OLLAMA_SH, "ensure_model &\n", "ensure_model\n"),),
    ),
    Mutant(
        "pull-when-present",
        "the model is pulled even when `ollama show` finds it",
        (
            Edit(
                _OLLAMA_SH,
                'if ollama show "$model" >/dev/null 2>&1; then',
                'if false && ollama show "$model" >/dev/null 2>&1; then',
            ),
        ),
    ),
    Mutant(
        "webui-keeps-vllm-dns",
        "on a device, Open WebUI keeps the vllm service name, which does not resolve",
        (
            Edit(
                _WEBUI_SH,
                '"http://vllm:8000/v1" | "http://$host:8000/v1")',
                '"http://$host:8000/v1")',
            ),
        ),
    ),
    # --- issue 14 item 7: the template true on a device -------------------------
    Mutant(
        "ollama-image-pulls-the-default",
        "the Ollama image pulls gemma4:e2b whatever was picked (only compose has the pick)",
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
        (
            Edit(
                "open-webui/Dockerfile",
                f'{{{{- if eq .OLLAMA_MODEL "{_SENTINEL}"}}}}',
                '{{- if eq .OLLAMA_MODEL "no-such-pick"}}',
            ),
        ),
    ),
    Mutant(
        "webui-rewrites-only-with-hostname",
        "Open WebUI rewrites backend URLs only if WENDY_HOSTNAME is set (a device may not set it)",
        (Edit(_WEBUI_SH, '    if resolves "$service"; then', "    if true; then"),),
    ),
    Mutant(
        "jetpack-6-not-detected",
        "the Ollama entrypoint no longer sets JETSON_JETPACK=6 on JetPack 6",
        (Edit(_OLLAMA_SH, "if ((major == 6 || major == 36)); then", "if ((major == 0)); then"),),
    ),
)

EPILOG = """\
examples:
  python -m harness.mutants                 # every mutant (make mutants)
  python -m harness.mutants --list          # what each mutant breaks
  python -m harness.mutants --only drop-trim-marker --only no-retry-pause -v

A mutant is killed when a check other than the golden fixtures fails
(`wendy-llm golden --update` would make those agree with it). The control
run (the unmutated template) must pass every check first.
"""


def select(names: Sequence[str]) -> list[Mutant]:
    """The mutants named, in catalogue order (all when ``names`` is empty)."""
    if not names:
        return list(MUTANTS)
    known = {m.name for m in MUTANTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise MutantError(
            f"no mutant {', '.join(unknown)} (mutants: {', '.join(m.name for m in MUTANTS)})"
        )
    return [m for m in MUTANTS if m.name in names]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m harness.mutants",
        description=(
            "Apply known regressions to a copy of the python/llm template and "
            "check that the suite fails for each."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="run this mutant (repeatable)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--templates-dir", type=Path, help="the templates directory (default: ./templates)"
    )
    parser.add_argument(
        "--golden-dir", type=Path, help="the golden directory (default: next to the templates)"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="show each failing check's first problem"
    )
    return parser


def _first_line(message: str, limit: int = 240) -> str:
    line = message.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 3] + "..."


def format_result(result: MutantResult, *, verbose: bool) -> list[str]:
    mutant = result.mutant
    checks = ", ".join(f.check for f in result.failures) or "nothing failed"
    if result.killed:
        status = "KILLED  "
    elif result.failures:
        status = "SURVIVED"
        checks += " (only the golden fixtures: not a kill)"
    else:
        status = "SURVIVED"
    lines = [f"  {status} {mutant.name:<28} {result.seconds:5.1f}s  {checks}"]
    if verbose or not result.killed:
        lines.append(f"           {mutant.description}")
    if verbose:
        lines += [f"           {f.check}: {_first_line(f.message)}" for f in result.failures]
    return lines


def format_report(report: MutationReport) -> list[str]:
    if report.control:
        lines = [f"control run FAILED: the unmutated {report.template_id} does not pass:"]
        lines += [f"  {f.check}: {f.message} ({f.count} problem(s))" for f in report.control]
        return [*lines, "fix the template (or the checks) first: a kill would prove nothing"]
    total = len(report.results)
    rate = 100 * report.killed / total if total else 100.0
    return [f"kill rate: {report.killed}/{total} ({rate:.0f}%)"]


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        mutants = select(args.only)
        if args.list:
            for mutant in mutants:
                files = sorted({e.file for e in mutant.edits})
                print(f"{mutant.name:<28} {mutant.description} [{', '.join(files)}]")
            return 0
        where = find_layout(args.templates_dir, args.golden_dir)
        templates_dir, golden_dir = where.templates_root, where.golden_dir
        print(
            f"mutation check of {TEMPLATE_ID}: {len(mutants)} mutant(s); "
            "control run (the unmutated template) first",
            flush=True,
        )
        started = time.perf_counter()
        report = run_mutation(
            templates_dir / TEMPLATE_ID,
            golden_dir,
            TEMPLATE_ID,
            mutants,
            on_result=lambda r: print(
                "\n".join(format_result(r, verbose=args.verbose)), flush=True
            ),
        )
    except WendyLlmError as exc:
        print(f"harness.mutants: error: {exc}", file=sys.stderr)
        return 2
    for line in format_report(report):
        print(line)
    print(f"({time.perf_counter() - started:.0f}s)")
    if report.control:
        return 2
    return 0 if report.all_killed else 1


if __name__ == "__main__":
    sys.exit(main())
