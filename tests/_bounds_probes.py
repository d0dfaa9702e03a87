"""Small hostile inputs that once stalled or crashed a run (issue 38, items 4-5).

Each probe writes the ``py/mini`` test template (``_check_helpers``) with one
file changed into a fresh repository and returns its templates and golden
folders; the files are generated at test time, a few kilobytes each.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from _check_helpers import RULES, TEMPLATE_COMPOSE, write_template

Probe = Callable[[Path], tuple[Path, Path]]


def yaml_nodes(base: Path, items: int = 60_000) -> tuple[Path, Path]:
    """A compose value of ``items`` YAML nodes (past ``MAX_YAML_NODES``), from one
    line of template (the issue's was a million)."""
    marker = '    ports:\n      - "11434:11434"\n'
    big = f"    command: [{{{{range $i := {items}}}}}a, {{{{end}}}}b]\n"
    compose = TEMPLATE_COMPOSE.replace(marker, marker + big, 1)
    return write_template(base, files={"docker-compose.yml": compose})


def many_picks(base: Path) -> tuple[Path, Path]:
    """60 radio questions of 20 options each: 20**60 combinations."""
    questions = [
        {
            "id": f"Q{q}",
            "type": "radio",
            "options": [{"value": f"v{v}"} for v in range(20)],
            "default": "v0",
        }
        for q in range(60)
    ]
    templates, golden = write_template(base)
    root = templates / "py" / "mini"
    schema = json.loads((root / "template.schema.json").read_text())
    schema["phases"].append({"questions": questions})
    (root / "template.schema.json").write_text(json.dumps(schema))
    return templates, golden


def slow_regex(base: Path) -> tuple[Path, Path]:
    """A rules ``matches`` that backtracks exponentially on a 46-character line."""
    rules = RULES + (
        "  - name: header\n    assert:\n      - {file: ollama/run.sh, matches: '^# (a|aa)+$'}\n"
    )
    script = "#!/bin/sh\n# " + "a" * 43 + "!\nset -eu\nexec sleep 1\n"
    return write_template(base, files={"ollama/run.sh": script}, rules=rules)


def nested_ifs(base: Path) -> tuple[Path, Path]:
    """An entry script of 1,500 nested ``if``s (ShellCheck's memory grows with depth)."""
    depth = 1500
    body = "if true; then\n" * depth + "echo deep\n" + "fi\n" * depth
    script = "#!/bin/sh\nset -eu\n" + body + "exec sleep 1\n"
    return write_template(base, files={"ollama/run.sh": script})


def wide_line(base: Path, turns: int = 400_000) -> tuple[Path, Path]:
    """A rendered line of ``turns`` x 10 characters in a port a finding quotes (the
    issue's was 40 MB: 4,000,000 turns)."""
    marker = '    ports:\n      - "11434:11434"\n'
    wide = f'      - "{{{{range $i := {turns}}}}}xxxxxxxxxx{{{{end}}}}"\n'
    compose = TEMPLATE_COMPOSE.replace(marker, marker + wide, 1)
    return write_template(base, files={"docker-compose.yml": compose})


def chained_stages(base: Path) -> tuple[Path, Path]:
    """A Dockerfile of 600 stages, each built from the one before."""
    lines = ["FROM debian:12 AS s0"]
    lines += [f"FROM s{i - 1} AS s{i}" for i in range(1, 600)]
    lines += ["COPY run.sh /run.sh", 'ENTRYPOINT ["/run.sh"]']
    return write_template(base, files={"ollama/Dockerfile": "\n".join(lines) + "\n"})


def deep_settings(base: Path) -> tuple[Path, Path]:
    """A ``wendy-llm.toml`` nested 5,000 deep."""
    templates, golden = write_template(base)
    (base / "wendy-llm.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    return templates, golden


def undecodable_name(base: Path) -> tuple[Path, Path]:
    """A template folder whose name is not UTF-8 (``py/mini\\xff``)."""
    templates, golden = write_template(base)
    source = templates / "py" / "mini"
    target = source.with_name(b"mini\xff".decode("utf-8", "surrogateescape"))
    source.rename(target)
    return templates, golden


PROBES: dict[str, Probe] = {
    "yaml-nodes": yaml_nodes,
    "many-picks": many_picks,
    "slow-regex": slow_regex,
    "nested-ifs": nested_ifs,
    "wide-line": wide_line,
    "chained-stages": chained_stages,
    "deep-settings": deep_settings,
    "undecodable-name": undecodable_name,
}
