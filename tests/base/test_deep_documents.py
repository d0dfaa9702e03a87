"""Hostile JSON and YAML: nesting, self-containing anchors and alias bombs give errors, not crashes.

Issue 11 item 7: 500+ levels of nesting in ``template.json`` raised
``RecursionError``; every JSON and YAML reader of the package is checked
the same way (wendy.json, the picker lint, golden.json, the rules file,
the rules file's gate scope, the compose file and its line index).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from _template_helpers import write_files

from wendy_llm import bounded_yaml
from wendy_llm.bounded import MAX_DEPTH
from wendy_llm.cli import main
from wendy_llm.errors import GoldenManifestError, ManifestError, RulesError
from wendy_llm.golden.manifest import GoldenManifest
from wendy_llm.render.manifest.load import load_manifest, load_picker
from wendy_llm.render.template import load_template
from wendy_llm.validate.checks.picker import lint_picker
from wendy_llm.validate.documents.locate import LineIndex
from wendy_llm.validate.documents.parse import parse_json, parse_yaml
from wendy_llm.validate.rules.file import parse_rules

DEEP = 5000


def nested_json(levels: int) -> str:
    """An object holding ``levels`` levels in all (the object itself is the first)."""
    return '{"variables": [], "x": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"


def nested_yaml(levels: int, key: str = "services") -> str:
    return f"{key}: " + "[" * (levels - 1) + "]" * (levels - 1) + "\n"


TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"


@pytest.mark.parametrize("loader", [load_manifest, load_picker])
@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, DEEP])
def test_a_deep_manifest_is_a_manifest_error(loader: object, levels: int) -> None:
    assert callable(loader)
    with pytest.raises(ManifestError) as info:
        loader(nested_json(levels).encode())
    error = info.value
    assert (error.line, error.column) == (1, 24 + MAX_DEPTH - 1)
    assert str(error) == f"{error.file}:1:{error.column}: invalid JSON: {TOO_DEEP}"


def test_the_limit_itself_loads_and_lints(tmp_path: Path) -> None:
    """Every step after decoding (positions, schema, lints) copes with MAX_DEPTH levels."""
    root = write_files(
        tmp_path / "t",
        {
            "template.json": nested_json(MAX_DEPTH),
            "template.schema.json": '{"phases": [], "x": ' + nested_json(MAX_DEPTH - 1) + "}",
            "README.md": "{{.APP_ID}}",
        },
    )
    t = load_template(root)
    assert t.render("a")["README.md"] == b"a"
    assert t.lint() == []
    assert lint_picker((root / "template.schema.json").read_bytes()) == []


@pytest.mark.parametrize("name", ["template.json", "template.schema.json"])
def test_the_cli_names_the_deep_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    files = {"template.json": '{"variables": []}', name: nested_json(DEEP)}
    root = write_files(tmp_path / "t", files)
    code = main(["render", str(root), "--app-id", "a", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        err
        == f"wendy-llm: error: template t: {name}:1:{23 + MAX_DEPTH}: invalid JSON: {TOO_DEEP}\n"
    )


def test_a_deep_manifest_through_a_real_process(tmp_path: Path) -> None:
    root = write_files(tmp_path / "t", {"template.json": nested_json(DEEP)})
    proc = subprocess.run(
        [Path(sys.executable).parent / "wendy-llm", "picks", root],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    where = f"template t: template.json:1:{23 + MAX_DEPTH}"
    assert proc.stderr == f"wendy-llm: error: {where}: invalid JSON: {TOO_DEEP}\n"


def test_deep_wendy_json_and_picker_are_findings() -> None:
    text = nested_json(DEEP)
    parsed = parse_json("wendy.json", text.encode())
    assert parsed.problem is not None and TOO_DEEP in parsed.problem.message
    assert parsed.problem.line == 1
    [finding] = lint_picker(text)
    assert finding.message == f"line 1, column {23 + MAX_DEPTH}: invalid JSON: {TOO_DEEP}"


def test_a_deep_golden_manifest_is_a_golden_manifest_error() -> None:
    with pytest.raises(GoldenManifestError) as info:
        GoldenManifest.from_json(nested_json(DEEP).encode(), source="golden.json")
    assert str(info.value) == (
        f"golden.json: not a valid golden manifest: line 1, column {23 + MAX_DEPTH}: {TOO_DEEP}"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (nested_yaml(DEEP), "exceeded maximum nesting depth"),  # libyaml's own limit
        (nested_yaml(MAX_DEPTH + 1), TOO_DEEP),
        ("services:\n  a: &x [*x]\n", "the anchor &x contains itself"),
        ("services:\n  a: &x {b: *x}\n", "the anchor &x contains itself"),
    ],
)
def test_hostile_yaml_is_a_finding_or_a_rules_error(text: str, problem: str) -> None:
    parsed = parse_yaml("docker-compose.yml", text.encode())
    assert parsed.problem is not None, parsed.data
    assert problem in parsed.problem.message
    with pytest.raises(RulesError, match=problem):
        parse_rules(text.replace("services", "rules"), "t.rules.yaml")


def test_an_alias_bomb_is_refused_quickly() -> None:
    """Nine levels of nine aliases: 9**9 nodes if expanded."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    text = "\n".join(lines) + "\n"
    parsed = parse_yaml("docker-compose.yml", text.encode())
    assert parsed.problem is not None
    assert "aliases expand it to more than" in parsed.problem.message
    # The index records each alias where it is used, and walks what it names once.
    assert LineIndex.of(text).line(["a9", 0]) == 9  # an alias node is its anchor's node


def test_a_document_of_too_many_nodes_stops_while_it_is_composed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rendered value of many items is refused at the limit, where composing
    reached it: the error points at the first node past it, not at the end."""
    monkeypatch.setattr(bounded_yaml, "MAX_YAML_NODES", 1000)
    items = ", ".join(["x"] * 5000)
    text = f"services:\n  a:\n    command: [{items}]\n"
    parsed = parse_yaml("docker-compose.yml", text.encode())
    assert parsed.problem is not None
    assert parsed.problem.message == "YAML: the document has more than 1000 nodes"
    stopped = bounded_yaml.yaml_problem(_composed_error(text))
    assert stopped[1] == 3
    composed = bounded_yaml.CountingComposer._composed  # the class's, never shared
    assert composed == 0


def _composed_error(text: str) -> yaml.MarkedYAMLError:
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        bounded_yaml.yaml_load(text, bounded_yaml.FAST_SAFE_LOADER)
    mark = caught.value.problem_mark
    assert mark is not None and mark.index < len(text) // 4  # stopped early
    return caught.value


def test_the_line_index_survives_a_self_containing_anchor() -> None:
    index = LineIndex.of("a:\n  b: &x [*x]\nc: 1\n")
    assert index.line(["c"]) == 3
    assert index.line(["a", "b", 0]) == 2


def test_the_line_index_of_deep_yaml_is_not_a_crash() -> None:
    """Below libyaml's own limit, but deeper than Python's recursion allows."""
    assert LineIndex.of(nested_yaml(995)).line(["services"]) == 1


@pytest.mark.parametrize("text", [nested_yaml(DEEP, "gate"), "gate: &g {files: *g}\n"])
def test_the_rules_files_gate_scope_is_a_rules_error(text: str) -> None:
    """The diff's scope is the rules file's gate, read with the rest of the file."""
    with pytest.raises(RulesError, match=r"^t\.rules\.yaml:"):
        parse_rules(text, "t.rules.yaml")


def test_check_reports_a_self_containing_compose_anchor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The crash first seen: `check` of a template whose compose file has `&x [*x]`."""
    write_files(
        tmp_path / "templates" / "python" / "t",
        {
            "template.json": '{"variables": []}',
            "docker-compose.yml": "services:\n  a:\n    image: x\n    x-y: &x [*x]\n",
            "wendy.json": '{"appId": "{{.APP_ID}}", "x": ' + "[" * DEEP + "]" * DEEP + "}",
        },
    )
    code = main(["check", str(tmp_path / "templates"), "--golden-dir", str(tmp_path / "g")])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "Traceback" not in err
    assert "the anchor &x contains itself" in out
    assert TOO_DEEP in out
