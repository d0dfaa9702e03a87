"""``check`` for a pull request: annotations at the template source lines, SARIF
that the official schema accepts, a Markdown summary grouped per distinct finding
with Mermaid topologies; on the bundled template and on a failing variant of it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _cli_helpers import LLM, REPO, Run, cli_env, copy_llm_project, edit, run_module
from _sarif_helpers import mermaid_blocks, mermaid_errors, sarif_errors

from wendy_llm import options
from wendy_llm.golden.fixture_files import PICK_PLACEHOLDER
from wendy_llm.render.template import load_template
from wendy_llm.validate.codes import CODES

COMPOSE = f"templates/{LLM}/docker-compose.yml"
ANNOTATION = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def annotations_in(out: str) -> list[tuple[str, dict[str, str], str]]:
    found = []
    for line in out.split("\n"):
        match = ANNOTATION.match(line)
        if match is not None and "stop-commands" not in line:
            props = dict(p.split("=", 1) for p in match[2].split(","))
            props = {k: v.replace("%3A", ":").replace("%2C", ",") for k, v in props.items()}
            found.append((match[1], props, match[3].replace("%0A", "\n").replace("%25", "%")))
    return found


def distinct_count(out: str, title: str) -> int:
    match = re.search(rf"^{title} \((\d+)(?:, (\d+) distinct)?\):$", out, re.M)
    assert match is not None, f"no {title} section"
    return int(match[2] or match[1])


def rendered_line(root: Path, pick: str, file: str, line: int) -> str:
    template = load_template(root / "templates" / LLM, id=LLM)
    tree = template.render("llm-app", template.pick(pick).answers)
    return tree.files[file].data.decode().split("\n")[line - 1]


def literal_parts(source_line: str) -> list[str]:
    """The text of a template line outside its actions."""
    return [p for p in re.split(r"\{\{.*?\}\}", source_line) if p.strip()]


def first_pick(message: str, every: list[str]) -> str:
    who = message.split(": ", 1)[0].split(" ", 1)[1]
    if who.startswith("every pick") or who == "(template)":
        # A template-wide finding at a rendered line is traced through the first pick.
        return every[0]
    return who.removeprefix("picks ").removeprefix("pick ").split(",")[0].split(" ")[0]


def assert_at_their_source(root: Path, found: list[tuple[str, dict[str, str], str]]) -> None:
    every = [p.slug for p in load_template(root / "templates" / LLM, id=LLM).picks()]
    for _, props, message in found:
        source = root / props["file"]
        assert source.is_file(), props
        rendered = re.search(r"\(rendered ([^:)]+):(\d+)\)", message)
        if rendered is None or "line" not in props or PICK_PLACEHOLDER in rendered[1]:
            continue  # (every pick's copy of a fixture: shown at one copy, a fixture line)
        held = source.read_text(encoding="utf-8").split("\n")[int(props["line"]) - 1]
        wrote = rendered_line(root, first_pick(message, every), rendered[1], int(rendered[2]))
        parts = literal_parts(held)
        assert parts, f"{props}: source line {held!r} holds no text of its own"
        assert all(p.strip() in wrote for p in parts), (props, held, wrote)


def test_annotations_of_the_bundled_template_sit_on_the_offending_source_lines() -> None:
    result = run_module("check", env=cli_env({"GITHUB_ACTIONS": "true"}))
    assert result.code == 0, result.err
    found = annotations_in(result.out)
    assert len(found) == distinct_count(result.out, "Warnings")
    assert {kind for kind, _, _ in found} == {"warning"}
    # Each titled by its registered code, every one the device check's.
    assert all(CODES[props["title"]].check == "device" for _, props, _ in found)
    # A finding of a rendered line names its source line; one without a line (a
    # whole file: vLLM's /dev/shm) names the file alone, never a made-up line.
    for _, props, message in found:
        assert ("line" in props) == bool(re.search(r"\(rendered [^:)]+:\d+\)", message)), message
    assert_at_their_source(REPO, found)
    healthcheck = [p for _, p, m in found if "services.vllm.healthcheck" in m]
    assert healthcheck == [{"file": COMPOSE, "line": "35", "title": "DEV006"}]


def test_no_annotations_outside_github_or_with_json() -> None:
    plain = run_module("check", "--pick", "gemma4-e2b", env=cli_env(drop=["GITHUB_ACTIONS"]))
    assert annotations_in(plain.out) == []
    document = run_module(
        "check", "--pick", "gemma4-e2b", "--json", env=cli_env({"GITHUB_ACTIONS": "true"})
    )
    json.loads(document.out)  # stdout stays one JSON document


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    """The llm project with a port no side accepts (every pick) and the Ollama volume
    declared for the DFlash pick too (one pick), checked with every output."""
    root = copy_llm_project(tmp_path_factory.mktemp("failing"))
    compose = root / COMPOSE
    edit(
        compose, "{{- else}}\n  {{.APP_ID}}-models:\n{{- end}}", "{{- end}}\n  {{.APP_ID}}-models:"
    )
    edit(
        compose,
        '      - "{{.PORT}}:{{.PORT}}"\n',
        '      - "{{.PORT}}:{{.PORT}}"\n      - "99999:80"\n',
    )
    result = run_module(
        "check",
        "--sarif",
        "reports/check.sarif",
        "--markdown",
        "reports/check.md",
        cwd=root,
        env=cli_env({"GITHUB_ACTIONS": "true"}),
    )
    return root, result


def test_a_failing_variant_annotates_errors_first_at_their_sources(
    failing: tuple[Path, Run],
) -> None:
    root, result = failing
    assert result.code == 1, result.err
    found = annotations_in(result.out)
    kinds = [kind for kind, _, _ in found]
    assert kinds == sorted(kinds, key=["error", "warning", "notice"].index)
    # Annotations group by source line: two rendered lines of one source line (the
    # refused port in the Ollama and the DFlash renders) are one annotation.
    assert 1 <= kinds.count("error") <= min(10, distinct_count(result.out, "Failures"))
    assert_at_their_source(root, found)
    port = [p for k, p, m in found if k == "warning" and '"99999:80"' in m and "every pick" in m]
    assert port == [{"file": COMPOSE, "line": "56", "title": "DEV023"}]
    # Printed after the text report's last stop-commands block is closed.
    last_close = max(
        i
        for i, line in enumerate(result.out.split("\n"))
        if re.fullmatch(r"::[0-9a-f]{32}::", line)
    )
    first = min(
        i
        for i, line in enumerate(result.out.split("\n"))
        if ANNOTATION.match(line)
        and "stop-commands" not in line
        and not re.fullmatch(r"::[0-9a-f]{32}::", line)
    )
    assert first > last_close


def test_sarif_of_the_bundled_template_and_a_failing_variant_validates(
    failing: tuple[Path, Run], tmp_path: Path
) -> None:
    target = tmp_path / "bundled.sarif"
    assert run_module("check", "--quiet", "--sarif", str(target)).code == 0
    for path, root in ((target, REPO), (failing[0] / "reports" / "check.sarif", failing[0])):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert sarif_errors(document) == [], path
        (run,) = document["runs"]
        assert run["automationDetails"]["id"] == "wendy-llm/check/"
        for result in run["results"]:
            location = result["locations"][0]["physicalLocation"]
            assert (root / location["artifactLocation"]["uri"]).is_file()
            assert location.get("region", {}).get("startLine", 1) >= 1
            assert "line" not in json.dumps(result["partialFingerprints"])
    failing_run = json.loads((failing[0] / "reports" / "check.sarif").read_text())["runs"][0]
    levels = {r["level"] for r in failing_run["results"]}
    assert levels == {"error", "warning"}


def test_the_summary_of_a_failing_variant_has_a_row_per_distinct_failure_and_diagrams(
    failing: tuple[Path, Run],
) -> None:
    root, result = failing
    summary = (root / "reports" / "check.md").read_text(encoding="utf-8")
    failures, warnings = summary.split("<details><summary>")
    assert "| template source | problem |" in failures
    assert "| template source | warning |" in warnings

    def rows(text: str) -> list[str]:
        return [
            line for line in text.split("\n") if re.match(r"^\| `[A-Z]+\d{3}` \| python/llm", line)
        ]

    # One row per distinct finding: the failures, then the warnings (folded).
    assert len(rows(failures)) == distinct_count(result.out, "Failures")
    assert len(rows(warnings)) == distinct_count(result.out, "Warnings")
    assert f"{distinct_count(result.out, 'Warnings')} distinct, not failing the run" in warnings
    # Compose's refusal at the key it names (issue 37): a row per rendered line (the
    # Ollama picks' and the DFlash pick's), both at the one source line of the port.
    refusals = [row for row in rows(failures) if "invalid hostPort: 99999" in row]
    assert len(refusals) == 2
    assert all("`templates/python/llm/docker-compose.yml:56`" in row for row in refusals)
    assert "| `CMP001` | error | 2 | 17 |" in summary
    blocks = mermaid_blocks(summary)
    assert len(blocks) == 3  # the Ollama picks; the DFlash pick before (baseline) and after
    assert all(mermaid_errors(block) == [] for block in blocks)
    assert any('s0["vllm"]' in block for block in blocks[2])
    assert len(summary.encode()) < options.MARKDOWN_MAX_BYTES


def test_format_github_prints_the_annotations_alone_anywhere() -> None:
    result = run_module(
        "check",
        "--pick",
        "laguna-s-2.1-dflash",
        "--format",
        "github",
        env=cli_env(drop=["GITHUB_ACTIONS"]),
    )
    assert result.code == 0, result.err
    lines = [line for line in result.out.split("\n") if line]
    assert lines and len(annotations_in(result.out)) == len(lines)  # no table, no details
    assert any(f"file={COMPOSE},line=35," in line for line in lines)


def test_diff_annotates_the_template_line_of_a_change_that_breaks_the_policy(
    tmp_path: Path,
) -> None:
    root = copy_llm_project(tmp_path)
    edit(root / COMPOSE, '      PORT: "{{.PORT}}"\n{{- if', '      PORT: "{{.PORT}}"\n{{ if')
    result = run_module(
        "diff",
        "--baseline",
        f"golden/baseline/{LLM}",
        "--template",
        LLM,
        "--expect-unchanged",
        "--format",
        "github",
        cwd=root,
        env=cli_env(drop=["GITHUB_ACTIONS"]),
    )
    assert result.code == 1, result.err
    ((kind, props, message),) = annotations_in(result.out)  # one distinct change, 16 picks
    assert kind == "error" and props["title"] == "BAS008"
    assert message.startswith(f"{LLM} every pick (16): docker-compose.yml is changed against")
    # The blank line the change added: its newline is the text after an action.
    assert props["file"] == COMPOSE and "{{- / -}} markers" in message
    assert result.out.count("\n") == 1  # the annotation alone
