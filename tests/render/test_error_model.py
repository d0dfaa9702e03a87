"""The library's one error model (issue 31): every error carries ``template``,
``file``, ``line`` and ``variable`` under those names, a template's parse or
exec error is a ``TemplateError`` through the class hierarchy, messages name
the template then the file, and advice is worded for the caller."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path

import pytest
from _template_helpers import PORT, make_template, write_files

from wendy_llm import errors
from wendy_llm.errors import (
    DataTypeError,
    ManifestError,
    MissingValueError,
    RenderError,
    RenderExecError,
    RenderParseError,
    TemplateError,
    TemplateExecError,
    TemplateParseError,
    TreeWriteError,
    WendyLlmError,
    cli_text,
)
from wendy_llm.render.template import load_template

ERROR_CLASSES = [
    cls
    for _, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, WendyLlmError) and cls.__module__ == errors.__name__
]


def test_a_parse_error_in_a_render_is_a_template_error_naming_template_file_and_line(
    tmp_path: Path,
) -> None:
    t = make_template(tmp_path, files={"wendy.json": '{\n  "a": "{{.APP_ID}"\n}'})
    with pytest.raises(TemplateError) as info:  # what docs/library.md tells callers to catch
        t.render("my-app")
    error = info.value
    assert isinstance(error, RenderError) and isinstance(error, TemplateParseError)
    assert type(error).__name__ == "RenderParseError"
    assert (error.template, error.file, error.line) == ("demo", "wendy.json", 2)
    assert str(error).startswith("template demo: parsing wendy.json: template: wendy.json:2: ")


def test_an_exec_error_in_a_render_is_a_template_exec_error(tmp_path: Path) -> None:
    t = make_template(tmp_path, files={"a.txt": "\n{{.NOPE}}"})
    with pytest.raises(TemplateExecError) as info:
        t.render("my-app")
    assert type(info.value) is RenderExecError
    assert (info.value.template, info.value.file, info.value.line) == ("demo", "a.txt", 2)
    assert str(info.value).startswith("template demo: rendering a.txt: ")


def test_a_manifest_error_names_the_template_then_the_file(tmp_path: Path) -> None:
    root = write_files(tmp_path / "demo", {"template.json": '{\n  "variables": [}'})
    with pytest.raises(ManifestError) as info:
        load_template(root)
    assert (info.value.template, info.value.file, info.value.line) == ("demo", "template.json", 2)
    assert str(info.value).startswith("template demo: template.json:2:")


def test_library_advice_is_for_the_caller_and_the_cli_keeps_its_own(tmp_path: Path) -> None:
    t = make_template(tmp_path, variables=[{"name": "TOKEN", "type": "string"}])
    with pytest.raises(MissingValueError) as info:
        t.values("my-app")
    assert "--var" not in str(info.value)
    assert str(info.value) == (
        'template demo: missing value for TOKEN; give it in the overrides ({"TOKEN": ...})'
    )
    assert cli_text(info.value) == "template demo: missing value for TOKEN; pass --var TOKEN=VALUE"
    with pytest.raises(WendyLlmError) as strict:
        t.values("true", {"TOKEN": "x"})
    assert "strict=False" in str(strict.value) and "--no-strict" not in str(strict.value)
    assert "--no-strict" in cli_text(strict.value)


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda cls: cls.__name__)
def test_every_error_has_the_same_field_names(cls: type[WendyLlmError]) -> None:
    for name in ("template", "file", "line", "variable"):
        assert hasattr(cls, name), f"{cls.__name__} has no {name}"
    # .path survives only where it is the output directory, not a file or a key path.
    init = inspect.signature(cls.__init__).parameters
    assert "path" not in init or issubclass(cls, TreeWriteError), cls


def test_a_data_error_names_its_key_path_and_variable() -> None:
    error = DataTypeError("template data .PORTS[2] has type set", key_path=".PORTS[2]")
    assert (error.key_path, error.variable, error.file) == (".PORTS[2]", "PORTS", None)


def test_fields_set_after_construction_survive_pickling(tmp_path: Path) -> None:
    t = make_template(tmp_path, variables=[PORT])
    with pytest.raises(WendyLlmError) as info:
        t.values("my-app", {"PORT": "x"})
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.template, copy.variable) == (str(info.value), "demo", "PORT")
    parse = RenderError.of(TemplateParseError("bad", name="f.yaml", line=3), template="t")
    again = pickle.loads(pickle.dumps(parse))
    assert (type(again), str(again), again.line) == (RenderParseError, str(parse), 3)
