"""Template folders the gate never sees: template files at <language>/<name>/ without template.json.

Fact: ``wendy init`` refuses such a folder ("no template.json") and the CLI
cannot list it (``shared/spec/wendy-init.md`` section 4: each template
folder holds a ``template.json``); discovery skips it.
"""

from __future__ import annotations

from pathlib import Path

from wendy_llm.repo.config import load_settings
from wendy_llm.repo.unseen import unseen_template_dirs


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_a_folder_with_template_files_and_no_manifest_is_named(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "python/llm/template.json": "{}",
            "python/llm/wendy.json": '{"appId": "{{.APP_ID}}"}',
            "python/old-llm/wendy.json": '{"appId": "{{.APP_ID}}"}',
            "python/old-llm/app/Dockerfile": "FROM python:3.12\n",
            "python/old-llm/compose.yml": "services: {}\n",
            "python/old-llm/run.sh": "echo {{.PORT}}\n",
            "python/old-llm/README.md": "plain\n",
        },
    )
    [folder] = unseen_template_dirs(tmp_path)
    assert folder.id == "python/old-llm"
    assert folder.evidence == (
        "app/Dockerfile (a Dockerfile)",
        "compose.yml (a compose file)",
        "run.sh (template actions {{ ... }})",
        "wendy.json (the app's wendy.json)",
    )


def test_folders_without_template_files_and_skipped_ones_pass(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "python/notes/README.md": "just notes\n",
            "common/shared/Dockerfile": "FROM x\n",
            "docs/guide/wendy.json": "{}",
            ".github/workflows/ci.yml": "x: {{ y }}\n",
            "golden/python/llm/Dockerfile": "FROM x\n",
            "python/ignored/Dockerfile": "FROM x\n",
            "wendy-llm.toml": 'ignore = ["python/ignored"]\n',
        },
    )
    settings = load_settings(tmp_path / "wendy-llm.toml")
    assert unseen_template_dirs(tmp_path, settings=settings, golden_dir=tmp_path / "golden") == []
