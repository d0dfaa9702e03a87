"""``wendy.json`` decoded as Go decodes it: the cases Go itself passes.

``wendy_llm/engine/gohelper/testdata/wendy_json_decode.json`` holds the
facts of ``wendy-run.md`` section 2 about decoding (a key given twice:
plain values take the last, objects and maps merge, a list of objects
reuses its items; ``uint16`` ports; keys matched case-insensitively).
The Go helper's tests decode each case with Go's ``encoding/json``
(``wendy_json_decode_test.go``); here the same cases go through
:data:`~wendy_llm.wendycli.wendy_json.APP_CONFIG`, so the two decoders
agree on every case by construction of the one file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from wendy_llm.engine.toolchain import HELPER_SOURCE_DIR
from wendy_llm.render.manifest.gojson import decode
from wendy_llm.wendycli.wendy_json import APP_CONFIG

CASES: list[dict[str, Any]] = json.loads(
    (HELPER_SOURCE_DIR / "testdata" / "wendy_json_decode.json").read_text(encoding="utf-8")
)["cases"]


def holds(got: object, want: object) -> bool:
    """Every field of ``want`` is in ``got`` with the same value (as the Go test compares)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(holds(got.get(k), v) for k, v in want.items())
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(holds(g, w) for g, w in zip(got, want, strict=True))
        )
    return got == want


def test_the_cases_cover_each_decoding_fact() -> None:
    facts = " ".join(case["fact"] for case in CASES)
    for fact in ("takes the last", "merged", "keeps the keys of both", "reuses", "uint16"):
        assert fact in facts


@pytest.mark.parametrize("case", CASES, ids=[c["fact"] for c in CASES])
def test_wendy_json_decodes_as_go_does(case: dict[str, Any]) -> None:
    decoded = decode(APP_CONFIG, case["input"])
    if "error" in case:
        messages = [e.message for e in decoded.errors]
        assert messages, case["fact"]
        assert all(text in messages[0] for text in case["error"]), (case["fact"], messages)
        return
    assert decoded.errors == [], case["fact"]
    assert holds(decoded.value, case["decoded"]), (case["fact"], decoded.value)
