"""The wendy-llm library in one runnable tour (the README's "Library API").

Run it from anywhere inside a checkout of this repository:

    .venv/bin/python examples/library_example.py [OUT_DIR]

It loads templates/python/llm, shows the values `wendy init` would render
with, lists the picks, renders one into OUT_DIR (default: a temporary
directory), checks the golden fixtures, and compares every pick with the
stored Ollama-only baseline and with the last commit, as the PR gate does.
Every call used here is typed (the package ships ``py.typed``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

from wendy_llm import (
    CANONICAL_APP_ID,
    FileScope,
    Policy,
    Renderer,
    Side,
    ValuesError,
    check_golden,
    diff_template,
    evaluate_policy,
    load_template,
    template_at_revision,
)

REPO = Path(__file__).resolve().parent.parent
LLM = REPO / "templates" / "python" / "llm"


def main(out_dir: Path) -> int:
    # One renderer (one Go helper process) for everything below; without it,
    # each call would use the process-wide shared_renderer().
    with Renderer() as renderer:
        template = load_template(LLM, id="python/llm")

        # The data map `wendy init my-app --var ...` would render with.
        values = template.values("my-app", {"OLLAMA_MODEL": "laguna-xs-2.1:q4_K_M"})
        print(f"values: APP_ID={values['APP_ID']} PORT={values['PORT']!r} ", end="")
        print(f"OLLAMA_MODEL={values['OLLAMA_MODEL']}")  # PORT is 8080.0: a JSON default

        # A bad --var is a typed error whose message names the variable.
        try:
            template.values("my-app", {"PORT": "http"})
        except ValuesError as exc:
            print(f"error for {exc.variable}: {exc}")

        # Every reachable set of picker answers, and one pick rendered to disk.
        picks = template.picks()
        print(f"{len(picks)} picks: {', '.join(p.slug for p in picks[:3])}, ...")
        dflash = template.pick("laguna-s-2.1-dflash")
        tree = template.render("my-app", dict(dflash.answers), renderer=renderer)
        written = tree.write(out_dir / "my-app", overwrite=True)
        services = sorted(yaml.safe_load(tree["docker-compose.yml"])["services"])
        print(f"rendered {dflash.slug}: {len(tree)} files in {written}; services {services}")

        # Golden fixtures: every pick's canonical render (app id llm-app).
        golden = check_golden(
            REPO / "templates", REPO / "golden", template_ids=["python/llm"], renderer=renderer
        )
        print(f"golden: {'ok' if golden.ok else 'FAILED'} for {CANONICAL_APP_ID} renders")
        for problem in golden.problems:
            print(problem.message())

        # The gate: every pick but the DFlash sentinel (declared in
        # golden/python/llm.rules.yaml) must render exactly as the stored
        # baseline does with the same answers, for the canonical input and a
        # variant (app id my.app-2, PORT=9080); new Ollama tags included.
        baseline_dir = REPO / "golden" / "baseline" / "python" / "llm"
        diff = diff_template(
            "python/llm",
            load_template(baseline_dir),
            template,
            base_side=Side("baseline", "golden/baseline/python/llm", "golden/baseline/python/llm"),
            head_side=Side("working-tree", "templates/python/llm", "templates/python/llm"),
            scope=FileScope(("docker-compose.yml", "wendy.json")),
            sentinels={"OLLAMA_MODEL": ["laguna-s-2.1-dflash"]},
            renderer=renderer,
        )
        verdict = evaluate_policy(diff, Policy(expect_unchanged=True))
        exempt = [p.slug for p in diff.with_status("exempt")]
        print(f"vs baseline: {diff.counts()}; exempt {exempt}; policy holds: {verdict.holds}")

        # The same comparison against a git revision, read through git (the
        # work tree is not touched); the path is the repository's, and the
        # template is python/llm there as load_template names it.
        at_head, revision = template_at_revision(REPO, "HEAD", "templates/python/llm")
        assert at_head.id == template.id == "python/llm"
        since = diff_template(
            "python/llm",
            at_head,
            template,
            base_side=Side("revision", "HEAD", "templates/python/llm", revision.commit),
            head_side=Side("working-tree", "templates/python/llm", "templates/python/llm"),
            renderer=renderer,
        )
        print(f"vs HEAD ({revision.commit[:12]}): {since.counts()}")
        return 0 if golden.ok and verdict.holds else 1


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(main(Path(sys.argv[1])))
    with tempfile.TemporaryDirectory() as scratch:
        sys.exit(main(Path(scratch)))
