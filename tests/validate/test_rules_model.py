"""One rules model (issue 26): the rules file is read once per check, each of its
patterns parsed once, and the baseline's scope and the rules read the same parsed
patterns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import RULES, write_baseline, write_template

from wendy_llm.errors import RulesError
from wendy_llm.repo import globs
from wendy_llm.validate import stored_rows
from wendy_llm.validate.rules import file as rules_file
from wendy_llm.validate.rules.file import Rules, parse_rules
from wendy_llm.validate.rules.patterns import rule_glob
from wendy_llm.validate.rules.values import LocatedError
from wendy_llm.validate.run import run_check

#: The mini template's rules, with a pattern of every kind: gate.files (2), a
#: selector's globs (3, one excluding), a file assertion (1), a file reference (1).
RULES_WITH_PATTERNS = (
    RULES
    + """\
  - name: patterns
    picks: {except: [big-dflash]}
    assert:
      - {services: {env: ["OLLAMA_*", "!OLLAMA_HOST"], name: "ollam?"}, count: 1}
      - {file: "**/run.sh", contains: "set -eu"}
      - same:
          - {file: "ollama/D*", capture: 'FROM (\\S+)'}
          - {file: "vllm/Dockerfile", capture: 'FROM (\\S+)'}
"""
)
PATTERNS = 2 + 3 + 1 + 2


def test_the_rules_file_is_read_once_and_each_pattern_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    templates, golden = write_template(tmp_path, rules=RULES_WITH_PATTERNS)
    write_baseline(golden)
    parsed: list[Rules] = []
    made: list[globs.Glob] = []
    real_parse = rules_file.parse_rules

    def counted_parse(text: str, path: str) -> Rules:
        parsed.append(real_parse(text, path))
        return parsed[-1]

    class CountedGlob(globs.Glob):
        def __init__(self, text: str, regex: Any) -> None:
            super().__init__(text, regex)
            made.append(self)

    scopes: list[Any] = []
    real_baseline: Callable[..., Any] = stored_rows.baseline_findings  # type: ignore[attr-defined]

    def spy(*args: Any, **kwargs: Any) -> Any:
        scopes.append(kwargs["scope"])
        return real_baseline(*args, **kwargs)

    monkeypatch.setattr(rules_file, "parse_rules", counted_parse)
    monkeypatch.setattr(globs, "Glob", CountedGlob)
    monkeypatch.setattr(stored_rows, "baseline_findings", spy)
    report = run_check(templates, golden_dir=golden, golden=False)

    topology = [f for r in report.results for f in r.findings if f.check == "topology"]
    assert topology == []  # every rule ran, and held, on every pick
    assert len(parsed) == 1  # topology, picker, the baseline: one read of the file
    rules = parsed[0]
    # Every pattern parsed when the file was read, none again for a pick.
    assert len(made) == PATTERNS
    # The baseline compared with the very patterns the rules file holds.
    assert [scope is rules.gate for scope in scopes] == [True]
    assert all(any(p is m for m in made) for p in rules.gate.patterns)
    assert [p.text for p in rules.gate.patterns] == ["docker-compose.yml", "wendy.json"]


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ("gate: {files: [ok.yml, 'vllm/**x']}\n", "t.rules.yaml:2: gate: files[1]: "),
        (
            "rules:\n  - name: r\n    assert:\n      - {file: 'a/[b', contains: x}\n",
            "t.rules.yaml:5: rules[0] (r): assert[0].file: ",
        ),
        (
            "selectors:\n  services:\n    s: {env: [OK, 'A**']}\n",
            "t.rules.yaml:4: selectors: services.s.env[1]: ",
        ),
    ],
)
def test_an_invalid_pattern_names_the_file_and_line(extra: str, where: str) -> None:
    with pytest.raises(RulesError) as raised:
        parse_rules("version: 1\n" + extra, "t.rules.yaml")
    message = str(raised.value)
    assert message.startswith(where), message
    assert "pattern" in message


def test_the_model_is_immutable() -> None:
    rules = parse_rules(RULES_WITH_PATTERNS, "t.rules.yaml")
    with pytest.raises(AttributeError):
        rules.gate = rules.gate  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.sentinels["OTHER"] = rules.sentinels["OLLAMA_MODEL"]  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.rules[0].picks.when["X"] = ("y",)  # type: ignore[index]


def test_a_value_in_a_pattern_is_plain_text() -> None:
    """``${VAR}`` stands for the pick's value, escaped: its ``*`` is a star."""
    glob = rule_glob("${APP_ID}-*", ["k"])
    assert glob.glob is None  # parsed per value, once each
    resolved = glob.resolve({"APP_ID": "a*b"})
    assert resolved.matches("a*b-models") and not resolved.matches("axb-models")
    assert glob.resolve({"APP_ID": "a*b"}) is resolved
    plain = rule_glob("vllm/*", ["k"])
    assert plain.glob is not None and plain.resolve({}) is plain.glob


def test_a_pattern_with_a_value_is_checked_when_the_file_is_read() -> None:
    with pytest.raises(LocatedError) as raised:
        rule_glob("${APP_ID}**", ["rules", 0, "assert", 0, "file"])
    assert raised.value.keys == ("rules", 0, "assert", 0, "file")
    assert "** must be a whole segment" in str(raised.value)
