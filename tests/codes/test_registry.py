"""The registry of finding codes walked (issue 27): no finding without a code.

Statically, a finding can only be made from a registered entry: the helpers
of ``validate.findings`` and the device view's ``Notes`` take a
:class:`~wendy_llm.codes.CodeInfo` (mypy holds every call to it), so check
and severity come from the registry.  Here: every entry is produced
somewhere in the package (or retired), codes are unique and well formed,
every lint slug has its code, ``docs/codes.md`` is the registry's text, and
the JSON Schemas name the same check ids as :class:`~wendy_llm.codes.Check`.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from wendy_llm.codes import (
    CODES,
    PREFIXES,
    Check,
    CodeInfo,
    builds,
    codes_of,
    device,
    info,
    nearest,
    runtime,
    stored,
    template,
    tools,
)
from wendy_llm.codes.model import entry
from wendy_llm.codes.reference import REFERENCE_COMMAND, reference_markdown
from wendy_llm.codes.stored import LINT_CODES
from wendy_llm.validate import codes as validate_codes
from wendy_llm.validate.findings import CHECK_IDS

PACKAGE = Path(__file__).resolve().parents[2] / "wendy_llm"
DOCS = PACKAGE.parent / "docs" / "codes.md"
SCHEMAS = PACKAGE / "schemas"
ENTRY_MODULES = (tools, device, runtime, builds, template, stored)


def _constants() -> dict[str, CodeInfo]:
    """Every registry constant by its name (``COMPOSE_REFUSED``)."""
    return {
        name: value
        for module in ENTRY_MODULES
        for name, value in vars(module).items()
        if isinstance(value, CodeInfo)
    }


def _names_used_outside_the_registry() -> set[str]:
    """Every name and attribute the package's modules (but the registry's) mention."""
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name == "codes" and path.parent.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                used.add(node.id)
            elif isinstance(node, ast.Attribute):
                used.add(node.attr)
            elif isinstance(node, ast.alias):
                used.add(node.name)
    return used


def _lint_slugs() -> set[str]:
    """The slug (third argument) of every ``LintWarning(...)`` in the package."""
    slugs = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "LintWarning":
                slug = node.args[2]
                assert isinstance(slug, ast.Constant), f"{path}:{node.lineno}: a computed slug"
                slugs.add(str(slug.value))
    return slugs


def test_every_code_is_produced_somewhere_or_retired() -> None:
    used = _names_used_outside_the_registry()
    # The parse codes and the tools' failures are reached through tables.
    tabled = {"PARSE_CODES", "TOOL_FAILED"} & used
    assert tabled == {"PARSE_CODES", "TOOL_FAILED"}
    from wendy_llm.codes import PARSE_CODES, TOOL_FAILED

    reached = {c.code for p in PARSE_CODES.values() for c in (p.not_utf8, p.syntax, p.duplicate)}
    reached |= {c.code for c in TOOL_FAILED.values()}
    reached |= {c.code for name, c in _constants().items() if name in used}
    reached |= {LINT_CODES[slug].code for slug in _lint_slugs()}
    unused = [c.code for c in CODES.values() if c.code not in reached and not c.retired]
    assert not unused, f"registered, never produced (retire them, never reuse): {unused}"


def test_no_retired_code_is_produced() -> None:
    used = _names_used_outside_the_registry()
    from wendy_llm.codes import PARSE_CODES

    tabled = {c.code for p in PARSE_CODES.values() for c in (p.not_utf8, p.syntax, p.duplicate)}
    retired = [name for name, c in _constants().items() if c.retired]
    assert sorted(retired) == ["COMPOSE_DUPLICATE_KEY", "DF_BUILD_MAYBE"]  # never reused
    assert not [n for n in retired if n in used or _constants()[n].code in tabled]


def test_every_lint_slug_has_its_code_and_every_lint_code_a_slug() -> None:
    assert set(LINT_CODES) == _lint_slugs()


def test_codes_are_unique_and_name_their_check() -> None:
    every = list(_constants().values()) + list(LINT_CODES.values())
    by_code: dict[str, CodeInfo] = {}
    for code in every:
        assert by_code.setdefault(code.code, code) is code, f"{code.code} is registered twice"
    assert set(by_code) == set(CODES)
    for code in CODES.values():
        assert code.code.startswith(PREFIXES[Check(code.check)])
        assert code.title and code.rationale and code.example, code.code
        assert "\n" not in code.title, code.code


def test_a_code_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="CMP1: a compose code is CMP and three digits"):
        entry("CMP1", Check.COMPOSE, "error", "t", "r", "f", "e")
    with pytest.raises(ValueError, match="DEV001: a compose code is CMP"):
        entry("DEV001", Check.COMPOSE, "error", "t", "r", "f", "e")


def test_the_interface_the_outputs_read() -> None:
    assert validate_codes.CODES is CODES
    assert validate_codes.info("CMP001") is info("CMP001") is tools.COMPOSE_REFUSED
    with pytest.raises(KeyError):
        info("CMP999")
    assert nearest("CMP01")[0].startswith("CMP")
    assert [c.code for c in codes_of(Check.SHELL)] == ["SH001", "SH002", "SH003"]


def test_every_check_has_a_prefix_and_the_report_order_is_the_enumeration() -> None:
    assert set(PREFIXES) == set(Check)
    assert len(set(PREFIXES.values())) == len(PREFIXES)
    assert [*CHECK_IDS, "suppressions", "policy"] == [c.value for c in Check]


def test_the_check_report_schema_names_the_same_check_ids() -> None:
    schema = json.loads((SCHEMAS / "report-check.v1.schema.json").read_text(encoding="utf-8"))
    result = schema["properties"]["results"]["items"]["properties"]
    assert result["check"]["enum"] == [c.value for c in Check]
    assert schema["properties"]["checks"]["items"]["enum"] == [c.value for c in Check]
    replay = json.loads((SCHEMAS / "report-replay.v1.schema.json").read_text(encoding="utf-8"))
    assert replay["$defs"]["finding"]["properties"]["check"]["enum"] == [c.value for c in Check]


def test_docs_codes_md_is_the_registry() -> None:
    assert DOCS.read_text(encoding="utf-8") == reference_markdown(), (
        f"docs/codes.md is out of date: run `{REFERENCE_COMMAND}`"
    )
    text = DOCS.read_text(encoding="utf-8")
    for code in CODES:
        assert f"\n## {code}" in text, code


def _constructions(name: str) -> list[str]:
    """Every ``name(...)`` call in the package, as ``file:line``."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == name:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_findings_are_made_only_from_a_registry_entry() -> None:
    # Finding(...) and DeviceFinding(...) only where the helpers taking a CodeInfo
    # build them: no finding without a code, its check and severity the registry's.
    assert [f.split(":")[0] for f in _constructions("Finding")] == [
        "wendy_llm/validate/findings.py"
    ]
    assert {f.split(":")[0] for f in _constructions("DeviceFinding")} == {
        "wendy_llm/device/notes.py"
    }


def _headings(page: Path) -> list[str]:
    return [
        line.lstrip("#").strip().replace("`", "").lower()
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("## ") or line.startswith("### ")
    ]


def test_every_fact_cites_a_page_and_a_section_the_docs_have() -> None:
    cited = re.compile(r"(docs/[\w.-]+\.md)(?: \((.+)\))?$")
    for code in CODES.values():
        found = cited.search(code.fact)
        assert found is not None, f"{code.code}: {code.fact!r} names no docs page"
        page = PACKAGE.parent / found.group(1)
        assert page.is_file(), f"{code.code}: no {found.group(1)}"
        if found.group(2):
            section = found.group(2).replace("`", "").lower()
            assert any(h.startswith(section) for h in _headings(page)), (code.code, section)
