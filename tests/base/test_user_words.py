"""Error messages quote values one way (``"x"``) and never show Python's words.

Issue 11 item 11, beyond its examples: every error path the CLI can reach,
and every finding ``check`` reports, words values as the user typed them: no
``repr()`` quotes, no ``None``/``True``/``False``, no Python exception texts
(``[Errno 21] ...: 'path'``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _check_helpers import SERVICE_DOCKERFILE, TEMPLATE_COMPOSE, write_template
from _cli_helpers import copy_llm_project

from wendy_llm.cli import main
from wendy_llm.errors import GoldenManifestError, RulesError, WendyLlmError
from wendy_llm.golden.layout import fixture_dir
from wendy_llm.golden.manifest import GoldenManifest
from wendy_llm.validate.rules.file import load_rules
from wendy_llm.validate.run import run_check

PYTHON_WORDS = re.compile(r"\b(?:None|True|False)\b|\[Errno \d+\]|'[^' ]*'|codec can't")


def plain(text: str) -> str:
    assert not PYTHON_WORDS.search(text), text
    return text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "{p}/templates", "--template", "nope"], 'no template "nope" under '),
        (["diff", "--base", "no-such-rev", "--template", "python/llm"],
         'unknown revision "no-such-rev" in '),
        (["diff", "--base=-x", "--template", "python/llm"], "\"-x\" is not a revision"),
        (["render", "{p}/templates/python/llm", "--app-id", "a", "--out", "{p}/o", "--pick", "no"],
         'template llm has no pick "no"; its picks: '),
    ],
)  # fmt: skip
def test_cli_errors_quote_values_plainly(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    project = copy_llm_project(tmp_path / "p")
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # a git work tree for diff
    assert main([arg.format(p=project) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"wendy-llm: error: {message}"), err
    plain(err)


def test_a_golden_manifest_without_a_format_says_null() -> None:
    with pytest.raises(GoldenManifestError) as info:
        GoldenManifest.from_json(b'{"picks": []}', source="golden.json")
    assert str(info.value) == (
        'golden.json: not a valid golden manifest: "format" is null; this wendy-llm reads format 1'
    )


def test_unreadable_rules_files_say_why_in_words(tmp_path: Path) -> None:
    (tmp_path / "dir.rules.yaml").mkdir()
    with pytest.raises(RulesError) as rules:
        load_rules(tmp_path / "dir.rules.yaml", display="dir.rules.yaml")
    assert plain(str(rules.value)) == (
        "dir.rules.yaml: cannot read the rules file: it is a directory, not a regular file: "
        "the gate reads only regular files"
    )
    (tmp_path / "bad.rules.yaml").write_bytes(b"gate: \xff\n")
    with pytest.raises(RulesError) as rules:
        load_rules(tmp_path / "bad.rules.yaml", display="bad.rules.yaml")
    assert plain(str(rules.value)) == "bad.rules.yaml: not valid UTF-8 (byte 6)"
    (tmp_path / "syntax.rules.yaml").write_text("gate: [\n")
    with pytest.raises(RulesError) as rules:
        load_rules(tmp_path / "syntax.rules.yaml", display="syntax.rules.yaml")
    assert plain(str(rules.value)).startswith("syntax.rules.yaml:2: YAML: ")


def test_an_odd_template_id_is_quoted() -> None:
    with pytest.raises(WendyLlmError) as info:
        fixture_dir(Path("golden"), "a/../b")
    assert str(info.value) == 'template id "a/../b" cannot name a fixture directory'


# --- findings: what `check` reports on broken renders ----------------------------

BROKEN_RULES = """\
version: 1
sentinels:
  OLLAMA_MODEL:
    values: [big-dflash]
    tag_paths: [compose.services.*.environment.OLLAMA_MODEL]
selectors:
  services:
    front: {name: web}
rules:
  - name: every-kind-of-assertion
    picks: {only: [gemma4-e2b]}
    assert:
      - {path: compose.services.ollama.environment.OLLAMA_MODEL, equals: other}
      - {path: compose.services.web.environment.NOPE, equals: x}
      - {path: "compose.services.@front.ports[*].published", contains: "9999"}
      - {path: "compose.services.@front.ports[*].published", excludes: "8080"}
      - {path: compose.services.web.build, matches: "nothing"}
      - {services: {port: 11434}, absent: true}
      - {services: {name: web}, count: 2}
      - same:
          - compose.services.ollama.environment.OLLAMA_MODEL
          - "compose.services.web.ports[0].published"
      - {file: web/run.sh, contains: nope}
      - {file: web/run.sh, excludes: sleep}
  - name: misdirected
    picks: {only: [no-such-pick], when: {NO_SUCH_VARIABLE: x}}
    assert:
      - {path: compose.services, present: true}
"""


def test_check_findings_on_broken_renders_use_no_python_spelling(tmp_path: Path) -> None:
    # One template, five kinds of breakage: a rules violation of every
    # assertion kind, a rule naming a pick and a variable the template lacks,
    # a COPY of a missing file, a picker sentinel reaching an Ollama pull,
    # two services publishing one host port.
    compose = TEMPLATE_COMPOSE.replace(
        "services:\n",
        "services:\n  puller:\n    image: x\n    environment:\n"
        '      OLLAMA_MODEL: "{{.OLLAMA_MODEL}}"\n    ports:\n      - "{{.PORT}}:80"\n',
    )
    dockerfile = SERVICE_DOCKERFILE + "COPY missing.txt /missing.txt\n"
    templates, golden = write_template(
        tmp_path,
        files={"docker-compose.yml": compose, "web/Dockerfile": dockerfile},
        rules=BROKEN_RULES,
    )
    report = run_check(templates, golden_dir=golden, golden=False)
    messages = [f.message for f in report.findings]
    for message in messages:
        plain(message)
    text = "\n".join(messages)
    # Each breakage is reported, quoting the user's value as JSON does.
    for words in [
        'COPY source "missing.txt" is not in the build context',
        'environment.OLLAMA_MODEL is "big-dflash", a sentinel of OLLAMA_MODEL',
        'services "puller" and "web" both publish host port 8080/tcp',
        'rule "every-kind-of-assertion": compose.services.ollama.environment.OLLAMA_MODEL '
        'is "gemma4:e2b", expected "other"',
        'compose.services.web.environment.NOPE is missing (expected equals "x")',
        '(@front: "web") does not contain "9999" (it has "8080")',
        '(@front: "web") contains "8080" (must not)',
        'service "ollama" matches port 11434',
        '1 service matches name web ("web"), expected 2',
        "the values differ: compose.services.ollama.environment.OLLAMA_MODEL (docker-compose.yml:",
        'is "gemma4:e2b"; compose.services.web.ports[0].published (docker-compose.yml:',
        'web/run.sh does not contain "nope"',
        'web/run.sh contains "sleep" (must not)',
        'rule "misdirected" names the pick "no-such-pick", which the template does not have',
        'rule "misdirected" selects on "NO_SUCH_VARIABLE", which is not a variable',
    ]:
        assert words in text, f"{words!r} not in:\n{text}"
