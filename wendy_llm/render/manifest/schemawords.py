"""JSON Schema violations in the user's words: JSON's names for values, never Python's.

``jsonschema`` words its messages with Python reprs (``None is not of
type 'object'``, ``'name' is a required property``); the people reading
them wrote JSON or YAML. :func:`violation_text` says the same things the
way the file spells them: ``expected an object, got null``, ``missing the
required property "name"``, ``unknown property "timeoutSecs"``,
``expected one of "radio", "checkbox", "input", got the string "select"``.
It covers every keyword the package's schemas use; any other keyword
falls back to a neutral sentence naming it.  :func:`validator_for` loads
those schemas, for every layer that validates a file.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

_TYPE_NAMES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "a boolean",
    "null": "null",
}
_SHOWN_STRING = 60  # longer strings are cut in messages


@functools.cache
def validator_for(name: str) -> Validator:
    """A validator for ``wendy_llm/schemas/<name>`` (the schema itself checked first)."""
    text = resources.files("wendy_llm").joinpath("schemas", name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator: Validator = cls(schema)
    return validator


def json_text(value: object) -> str:
    """A scalar as JSON writes it (``null``, ``true``, ``1.5``, ``"x"``)."""
    return json.dumps(value, ensure_ascii=False)


def describe_value(value: object) -> str:
    """What ``value`` is, for "got ..." (``null``, ``1``, ``the string "x"``, ``an array``)."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, str):
        shown = value if len(value) <= _SHOWN_STRING else value[:_SHOWN_STRING] + "..."
        return f"the string {json_text(shown)}"
    return json_text(value)


def _either(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" or {words[-1]}"


def _type(expected: object, instance: object) -> str:
    names = [expected] if isinstance(expected, str) else list(expected)  # type: ignore[call-overload]
    wanted = _either([_TYPE_NAMES.get(str(n), str(n)) for n in names])
    return f"expected {wanted}, got {describe_value(instance)}"


def _schema(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _unknown_keys(error: ValidationError) -> list[str]:
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    known = set(_schema(error).get("properties", {}))
    patterns = list(_schema(error).get("patternProperties", {}))
    return [
        str(key)
        for key in instance
        if key not in known and not any(re.search(p, str(key)) for p in patterns)
    ]


_SIZES = {
    "minLength": ("at least", "character", "characters"),
    "maxLength": ("at most", "character", "characters"),
    "minItems": ("at least", "item", "items"),
    "maxItems": ("at most", "item", "items"),
    "minProperties": ("at least", "property", "properties"),
    "maxProperties": ("at most", "property", "properties"),
}


def _sized(keyword: str, limit: object) -> str | None:
    if keyword not in _SIZES:
        return None
    bound, one, many = _SIZES[keyword]
    if bound == "at least" and limit == 1:
        return "must not be empty"
    return f"must have {bound} {limit} {one if limit == 1 else many}"


def violation_text(error: ValidationError) -> str:
    """The message for one violation (without its location)."""
    keyword, instance = error.validator, error.instance
    expected: Any = error.validator_value
    if "propertyNames" in error.schema_path:
        # jsonschema reports the key itself as the instance, at its object's path.
        if keyword == "pattern":
            return f"the key {json_text(instance)} does not match the pattern {json_text(expected)}"
        return f"the key {json_text(instance)} is not allowed"
    if keyword == "type":
        return _type(expected, instance)
    if keyword == "required":
        present = instance if isinstance(instance, Mapping) else {}
        missing = [name for name in expected if name not in present]
        return f"missing the required property {json_text(missing[0] if missing else '?')}"
    if keyword == "additionalProperties":
        extra = _unknown_keys(error)
        noun = "property" if len(extra) == 1 else "properties"
        return f"unknown {noun} " + ", ".join(json_text(key) for key in extra)
    if keyword == "enum":
        options = ", ".join(json_text(option) for option in expected)
        return f"expected one of {options}, got {describe_value(instance)}"
    if keyword == "const":
        return f"expected {json_text(expected)}, got {describe_value(instance)}"
    if keyword == "pattern":
        custom = _schema(error).get("x-error")  # a pattern is rarely a reader's words
        if isinstance(custom, str):
            return f"{custom}, got {describe_value(instance)}"
        return f"{describe_value(instance)} does not match the pattern {json_text(expected)}"
    if keyword in ("minimum", "maximum"):
        bound = "at least" if keyword == "minimum" else "at most"
        return f"must be {bound} {json_text(expected)}, got {describe_value(instance)}"
    if keyword in ("exclusiveMinimum", "exclusiveMaximum"):
        bound = "more than" if keyword == "exclusiveMinimum" else "less than"
        return f"must be {bound} {json_text(expected)}, got {describe_value(instance)}"
    if keyword == "uniqueItems":
        return "must not list the same item twice"
    if keyword in ("oneOf", "anyOf"):
        custom = _schema(error).get("x-error")  # a schema may spell out what it wants
        return custom if isinstance(custom, str) else "does not match any of the allowed forms"
    if keyword == "not":
        return f"{describe_value(instance)} is not allowed here"
    sized = _sized(str(keyword), expected)
    if sized is not None:
        return sized
    return f"does not satisfy the schema's {keyword} rule"
