"""A trait is one entry (wendy_llm/validate/rules/traits.py): the rules schema's
trait properties and the docs' trait tables say what the entries say.

After adding or changing an entry, ``.venv/bin/python tests/validate/test_rules_traits.py``
rewrites both from the entries (docs/rules.md, "Adding a trait").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from wendy_llm.validate.rules.traits import (
    SERVICE_TRAITS,
    VOLUME_TRAITS,
    Kind,
    docs_row,
    schema_properties,
)

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "wendy_llm" / "schemas" / "rules.schema.json"
#: Every page with the trait tables.
PAGES = (REPO / "docs" / "rules.md", REPO / "docs" / "checks.md")
SELECTOR_DEFS: dict[Kind, str] = {"services": "serviceSelector", "volumes": "volumeSelector"}
#: Keys of a selector that are not traits: combinators, and selectors of selectors.
NOT_TRAITS = {"any", "all", "not", "is", "mounted_by", "baseline"}
TABLE_HEADS: dict[Kind, str] = {
    "services": "| service trait | example | selects a service whose ... |",
    "volumes": "| volume trait | example | selects a volume whose ... |",
}
_ROW_NAME = re.compile(r"^\| `([a-z_]+)` \|")


def schema_text(current: str) -> str:
    """``current`` (the schema file) with its trait properties as the entries say."""
    schema = json.loads(current)
    for kind, key in SELECTOR_DEFS.items():
        properties = schema["$defs"][key]["properties"]
        others = {k: v for k, v in properties.items() if k in NOT_TRAITS}
        schema["$defs"][key]["properties"] = {**schema_properties(kind), **others}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def page_text(current: str) -> str:
    """``current`` (a docs page) with each trait table's trait rows as the entries say."""
    lines = current.split("\n")
    for kind, head in TABLE_HEADS.items():
        entries = SERVICE_TRAITS if kind == "services" else VOLUME_TRAITS
        start = lines.index(head) + 2  # the head, the |---| line
        end = start
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        kept = [line for line in lines[start:end] if _name(line) in NOT_TRAITS]
        lines[start:end] = [*(docs_row(e) for e in entries.values()), *kept]
    return "\n".join(lines)


def _name(row: str) -> str | None:
    found = _ROW_NAME.match(row)
    return found[1] if found else None


def test_the_schema_lists_every_trait_as_its_entry_says() -> None:
    current = SCHEMA.read_text(encoding="utf-8")
    assert current == schema_text(current), (
        "rules.schema.json's trait properties differ from the trait entries: run "
        ".venv/bin/python tests/validate/test_rules_traits.py"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_docs_tables_list_every_trait_as_its_entry_says(page: Path) -> None:
    current = page.read_text(encoding="utf-8")
    assert current == page_text(current), (
        f"{page.name}'s trait tables differ from the trait entries: run "
        ".venv/bin/python tests/validate/test_rules_traits.py"
    )


def test_a_new_entry_reaches_the_schema_and_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worked example of docs/rules.md: one entry, and the schema and the
    tables have it."""
    from wendy_llm.validate.rules import traits

    entry = traits.TraitEntry(
        "dockerfile",
        "globs",
        "build uses a matching Dockerfile",
        "{dockerfile: vllm/Dockerfile}",
        lambda w, s: [f"its build uses {s.dockerfile}"] if w.matches(s.dockerfile or "") else [],
    )
    monkeypatch.setattr(traits, "SERVICE_TRAITS", {**traits.SERVICE_TRAITS, "dockerfile": entry})
    properties = traits.schema_properties("services")
    assert properties["dockerfile"] == {
        "$ref": "#/$defs/globs",
        "description": "build uses a matching Dockerfile",
    }
    assert traits.docs_row(entry) == (
        "| `dockerfile` | `{dockerfile: vllm/Dockerfile}` | build uses a matching Dockerfile |"
    )


def write() -> None:
    """Rewrite the schema's trait properties and the docs' trait rows from the entries."""
    SCHEMA.write_text(schema_text(SCHEMA.read_text(encoding="utf-8")), encoding="utf-8")
    for page in PAGES:
        page.write_text(page_text(page.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    write()
    sys.stdout.write(f"wrote {SCHEMA.relative_to(REPO)} and the trait tables of the docs\n")
