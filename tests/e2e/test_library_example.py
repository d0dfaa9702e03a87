"""examples/library_example.py (the README's library tour) runs and says what it should."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from _cli_helpers import REPO, cli_env

EXAMPLE = REPO / "examples" / "library_example.py"


def test_the_library_example_runs(tmp_path: Path) -> None:
    # From another directory: the example must not depend on the caller's cwd.
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), str(tmp_path)],
        cwd=tmp_path,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    lines = proc.stdout.splitlines()
    assert lines[0] == "values: APP_ID=my-app PORT=8080.0 OLLAMA_MODEL=laguna-xs-2.1:q4_K_M"
    assert lines[1] == (
        'error for PORT: template python/llm: invalid value for PORT: expected integer, got "http"'
    )
    assert lines[2] == "17 picks: gemma4-e2b, gemma4-e4b, gemma4-26b, ..."
    written = [p for p in (tmp_path / "my-app").rglob("*") if p.is_file()]
    assert lines[3] == (
        f"rendered laguna-s-2.1-dflash: {len(written)} files in {tmp_path / 'my-app'}; "
        "services ['open-webui', 'vllm']"
    )
    assert lines[4] == "golden: ok for llm-app renders"
    assert lines[5] == (
        "vs baseline: {'unchanged': 16, 'changed': 0, 'added': 0, 'removed': 0, 'exempt': 1}; "
        "exempt ['laguna-s-2.1-dflash']; policy holds: True"
    )
    assert re.fullmatch(
        r"vs HEAD \([0-9a-f]{12}\): \{'unchanged': \d+, 'changed': \d+, 'added': \d+, "
        r"'removed': \d+, 'exempt': \d+\}",
        lines[6],
    )
    assert len(lines) == 7
