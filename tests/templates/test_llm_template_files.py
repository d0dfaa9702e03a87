"""The files of every python/llm render (the DFlash pick, a default pick, the
baseline): no template syntax left, every Dockerfile chmods the script it
runs, the Ollama image keeps the JetPack release, scripts pass bash -n and
ShellCheck, and docker-compose config accepts every render.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _llm_template_helpers import (
    BIN,
    DEFAULT_MODEL,
    SENTINEL,
    dockerfile_env,
    dockerfile_instructions,
    render,
)

from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.render.template import Template

# --- files of every render ------------------------------------------------------


@pytest.fixture(scope="module")
def renders(template: Template, baseline: Template) -> list[tuple[str, RenderedTree]]:
    """The three renders every test here reads, rendered once for the module."""
    return [
        ("template/dflash", render(template, SENTINEL, {})),
        ("template/default", render(template, DEFAULT_MODEL, {"PORT": "3000"})),
        ("baseline/default", render(baseline, DEFAULT_MODEL, {})),
    ]


def test_renders_leave_no_template_syntax_behind(renders: list[tuple[str, RenderedTree]]) -> None:
    for label, tree in renders:
        for path, data in tree.items():
            assert b"{{" not in data and b"<no value>" not in data, f"{label}: {path}"


def test_every_dockerfile_chmods_the_script_it_runs(
    renders: list[tuple[str, RenderedTree]],
) -> None:
    checked = 0
    for label, tree in renders:
        for path in (p for p in tree if p.rsplit("/", 1)[-1] == "Dockerfile"):
            instructions = dockerfile_instructions(tree[path].decode())
            runs = [json.loads(rest)[0] for kw, rest in instructions if kw in ("ENTRYPOINT", "CMD")]
            assert runs, f"{label}: {path} runs nothing"
            context = path.rsplit("/", 1)[0]
            for target in runs:
                copies = [rest.split() for kw, rest in instructions if kw == "COPY"]
                sources = [c[0] for c in copies if c[-1] == target and not c[0].startswith("--")]
                assert sources, f"{label}: {path} does not COPY {target}"
                assert f"{context}/{sources[0]}" in tree, f"{label}: {path}: no {sources[0]}"
                chmods = [rest for kw, rest in instructions if kw == "RUN" and "chmod" in rest]
                assert any(target in rest.split() for rest in chmods), f"{label}: {path}: {target}"
                checked += 1
    # Every render of the template has all three service directories; the baseline two.
    assert checked == 3 + 3 + 2


def test_the_ollama_image_keeps_the_jetpack_release_the_cli_passes(template: Template) -> None:
    # The Wendy CLI passes WENDY_JETPACK_VERSION (wendy-run.md section 3), never
    # the WENDY_JETPACK_MAJOR of llm-template.md: the image keeps it for the
    # entrypoint, which picks Ollama's JetPack 6 runners from it at start-up.
    text = render(template, DEFAULT_MODEL, {})["ollama/Dockerfile"].decode()
    froms = [rest for keyword, rest in dockerfile_instructions(text) if keyword == "FROM"]
    assert froms == ["ollama/ollama:${OLLAMA_VERSION}"]
    assert "WENDY_JETPACK_MAJOR" not in text and "JETSON_JETPACK" not in dockerfile_env(text)
    for version in ("6.2", "7.2"):
        env = dockerfile_env(text, {"WENDY_JETPACK_VERSION": version})
        assert env["WENDY_JETPACK_VERSION"] == version
    env = dockerfile_env(text)  # a plain `docker compose build`
    assert env == {
        "WENDY_JETPACK_VERSION": "",
        "OLLAMA_HOST": "0.0.0.0:11434",
        "OLLAMA_MODELS": "/models/ollama",
        "OLLAMA_MODEL": DEFAULT_MODEL,
        "OLLAMA_LOAD_TIMEOUT": "20m",
    }


def test_rendered_scripts_pass_bash_and_shellcheck(
    renders: list[tuple[str, RenderedTree]], tmp_path: Path
) -> None:
    scripts: list[Path] = []
    for label, tree in renders:
        for path in (p for p in tree if p.endswith(".sh")):
            target = tmp_path / label / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tree[path])
            assert tree[path].startswith(b"#!/usr/bin/env bash\n"), f"{label}: {path}"
            scripts.append(target)
    assert len(scripts) == 3 + 3 + 2
    for script in scripts:
        syntax = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert syntax.returncode == 0, syntax.stderr
    lint = subprocess.run(
        [str(BIN / "shellcheck"), "-S", "warning", *map(str, scripts)],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_renders_pass_docker_compose_config(
    renders: list[tuple[str, RenderedTree]], tmp_path: Path
) -> None:
    # docker-compose needs the build contexts, so validate written trees.
    for label, tree in renders:
        out = tree.write(tmp_path / label.replace("/", "-"))
        result = subprocess.run(
            [str(BIN / "docker-compose"), "-f", str(out / "docker-compose.yml"), "config", "-q"],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, f"{label}: {result.stderr}"
