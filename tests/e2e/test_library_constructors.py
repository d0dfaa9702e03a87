"""The values a caller makes and passes to the library refuse a wrong field
when they are made, with an argument error naming it (issue 37): never a
bare ``ValueError`` or ``TypeError``, never a value accepted silently to
fail, or mislead, later.

Each class starts from a valid example; each field in turn is given a value
no hint takes (an ``object()``), and the fields with a narrower domain a
value of the right type outside it (a kind that is none of a ``Literal``'s,
a timeout of 0, a glob that does not parse). The walk over every public
callable with wrong-typed arguments (tests/e2e/test_library_inputs.py) holds
the other classes to "only library errors"; these are the ones a caller
builds.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

import wendy_llm
from wendy_llm.arguments import ArgumentValueError

#: A valid example of each value a caller builds, as keyword arguments.
EXAMPLES: dict[str, dict[str, object]] = {
    "Side": {"kind": "revision", "label": "HEAD", "path": "templates/python/llm", "commit": None},
    "Policy": {"expect_unchanged": True, "allow_changed": frozenset({"a"}), "forbid_removed": True},
    "FileScope": {"globs": ("*.yml", "vllm/**"), "source": "--files", "patterns": ()},
    "Renderer": {
        "timeout": 5.0,
        "max_output_bytes": 1 << 20,
        "max_batch_output_bytes": 1 << 24,
        "helper": None,
    },
    "RenderJob": {"text": "{{.A}}", "data": {"A": 1}, "name": "compose.yml"},
    "ToolRunner": {"workers": 2},
    "ResultCache": {"directory": Path("cache"), "code_salt": None},
    "Inputs": {"app_id": "my-app", "overrides": {"PORT": "9080"}, "samples": {}},
    "Layout": {
        "root": Path("."),
        "templates_root": Path("templates"),
        "golden_dir": Path("golden"),
        "settings": wendy_llm.Settings(),
        "pinned": wendy_llm.Pinned("origin/main", "0" * 40),
    },
}

#: Right type, wrong value: each must be refused as an ArgumentValueError naming the field.
OUT_OF_DOMAIN: list[tuple[str, str, object]] = [
    ("Side", "kind", "bogus"),
    ("FileScope", "globs", ("[",)),
    ("FileScope", "globs", ("a/**b",)),
    ("Renderer", "timeout", 0),
    ("Renderer", "timeout", -1.5),
    ("Renderer", "timeout", float("nan")),
    ("Renderer", "max_output_bytes", 0),
    ("Renderer", "max_output_bytes", 1 << 40),
    ("Renderer", "max_batch_output_bytes", 0),
]

#: Fields checked later, where the value is used, by an error of their own:
#: a job's data map by the encoder (a DataTypeError naming its key path).
CHECKED_WHERE_USED = {("RenderJob", "data")}


def fields(name: str) -> list[str]:
    cls = getattr(wendy_llm, name)
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_")]
    return [p for p in inspect.signature(cls).parameters if p != "self"]


def make(cls: str, **changed: object) -> object:
    value = getattr(wendy_llm, cls)(**{**EXAMPLES[cls], **changed})
    if isinstance(value, wendy_llm.Renderer):
        value.close()
    return value


def test_the_examples_are_valid_and_cover_every_field() -> None:
    for name, example in EXAMPLES.items():
        assert sorted(example) == sorted(fields(name)), name
        make(name)


WRONG_TYPED = [
    (name, field)
    for name in EXAMPLES
    for field in fields(name)
    if (name, field) not in CHECKED_WHERE_USED
]


@pytest.mark.parametrize(("name", "field"), WRONG_TYPED)
def test_a_wrong_typed_field_is_refused_naming_it(name: str, field: str) -> None:
    with pytest.raises(wendy_llm.WendyLlmError) as info:
        make(name, **{field: object()})
    error = info.value
    if isinstance(error, wendy_llm.TemplateParseError):  # a job's text or name, as ever
        assert name == "RenderJob" and field in ("text", "name")
        return
    assert isinstance(error, wendy_llm.ArgumentTypeError), repr(error)
    assert isinstance(error, TypeError)  # what Python itself would have raised
    assert (error.function, error.argument) == (f"{name}()", field)
    assert f"{name}(): {field} must be " in str(error)


@pytest.mark.parametrize(("name", "field", "value"), OUT_OF_DOMAIN)
def test_a_value_outside_a_fields_domain_is_refused_naming_it(
    name: str, field: str, value: object
) -> None:
    with pytest.raises(ArgumentValueError) as info:
        make(name, **{field: value})
    assert isinstance(info.value, ValueError)
    assert (info.value.function, info.value.argument) == (f"{name}()", field)
    assert str(info.value).startswith(f"{name}(): {field} ")


def test_the_issues_cases() -> None:
    """Each failure issue 37 reproduced, with the message a caller reads."""
    with pytest.raises(ArgumentValueError, match=r"Renderer\(\): timeout must be positive, got 0"):
        wendy_llm.Renderer(timeout=0)
    with pytest.raises(wendy_llm.ArgumentTypeError, match="timeout must be float, not str"):
        wendy_llm.Renderer(timeout="5")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match=r"globs holds a bad glob: the pattern '\['"):
        wendy_llm.FileScope(("[",))
    with pytest.raises(
        ArgumentValueError,
        match="kind must be one of 'revision', 'baseline', 'working-tree', not 'bogus'",
    ):
        wendy_llm.Side("bogus", "HEAD", "templates/python/llm")  # type: ignore[arg-type]
    with pytest.raises(wendy_llm.ArgumentTypeError, match="expect_unchanged must be bool"):
        wendy_llm.Policy(expect_unchanged="yes")  # type: ignore[arg-type]
    assert wendy_llm.ArgumentValueError is ArgumentValueError  # exported


def test_a_batch_of_things_that_are_not_jobs_is_named() -> None:
    """A batch is checked once, its jobs when they were made: what is no
    job is found where the encoder fails on it, and named (issue 37)."""
    renderer = wendy_llm.shared_renderer()
    job = wendy_llm.RenderJob("{{.A}}", {"A": 1}, "a.txt")
    for batch, shown in ((5, "int"), ("ab", "str"), ([job, 5], "list of RenderJob, int")):
        with pytest.raises(wendy_llm.ArgumentTypeError, match=f"not {shown}$") as info:
            renderer.render_many(batch)  # type: ignore[arg-type]
        assert info.value.argument == "jobs"
    changed = wendy_llm.RenderJob("{{.A}}", {"A": 1}, "b.txt")
    changed.text = 7  # type: ignore[misc,assignment]  # Final for type checkers only
    with pytest.raises(wendy_llm.TemplateParseError, match=r"b\.txt"):
        renderer.render_many([job, changed])
    with pytest.raises(wendy_llm.DataTypeError, match="must be a mapping"):
        renderer.render_many([wendy_llm.RenderJob("x", 5, "c.txt")])  # type: ignore[arg-type]
    assert renderer.render_many((job,)) == [b"1"]  # the renderer works on after each
