"""Loading the package's JSON Schemas and turning violations into readable text
(:mod:`wendy_llm.render.manifest.schemawords` words them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from wendy_llm.render.manifest.schemawords import validator_for as validator_for
from wendy_llm.render.manifest.schemawords import violation_text


def json_path(path: Iterable[str | int]) -> str:
    """``services.ollama.entitlements[0].type``: the path a user searches for."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def most_specific(err: ValidationError) -> ValidationError:
    """The most specific error beneath a ``oneOf``/``anyOf`` failure."""
    best: ValidationError = jsonschema.exceptions.best_match([err])
    return best


def describe(err: ValidationError) -> str:
    """``<path>: <message>`` for the most specific part of ``err``."""
    best = most_specific(err)
    return f"{json_path(best.absolute_path)}: {violation_text(best)}"


def violations(validator: Validator, instance: object) -> list[ValidationError]:
    """Every violation, in document order (by path) so reports are stable."""
    document: Any = instance
    errors = list(validator.iter_errors(document))
    return sorted(errors, key=lambda e: [str(p) for p in e.absolute_path])
