"""A run's memory is bounded: a template's rendered output as a whole, and
its manifests' size and variable count, each refused with an error naming
the template and the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _template_helpers import make_template, write_files

from wendy_llm import ManifestError, OutputTooLarge, Renderer, options
from wendy_llm.render.template import load_template


def test_a_tree_whose_output_passes_the_batch_budget_names_template_and_file(
    tmp_path: Path,
) -> None:
    files = {f"f{i}.txt": f"{{{{range 1048576}}}}{i}{{{{end}}}}" for i in range(8)}
    template = make_template(tmp_path, files=files, name="bomb")
    with (
        Renderer(max_batch_output_bytes=3 << 20) as renderer,
        pytest.raises(OutputTooLarge) as caught,
    ):
        template.render("bomb-app", renderer=renderer)
    message = str(caught.value)
    # named by the template's id, never the host's absolute path (issue 29)
    assert message.startswith("template bomb: rendering f3.txt brought")


def test_the_default_batch_budget_holds_two_maximal_renders() -> None:
    assert options.RENDER_MAX_BATCH_OUTPUT_BYTES == 2 * options.RENDER_MAX_OUTPUT_BYTES
    assert Renderer().max_batch_output_bytes == options.RENDER_MAX_BATCH_OUTPUT_BYTES


@pytest.mark.parametrize("file", ["template.json", "template.schema.json"])
def test_a_manifest_over_the_size_bound_is_refused_before_decoding(
    tmp_path: Path, file: str
) -> None:
    padding = " " * (options.MANIFEST_MAX_BYTES + 1)
    content = {
        "template.json": json.dumps({"name": "big", "variables": []}),
        "template.schema.json": json.dumps({"phases": []}),
    }
    content[file] = content[file] + padding
    root = write_files(tmp_path / "big", content)
    with pytest.raises(ManifestError) as caught:
        load_template(root)
    assert caught.value.file == file
    assert str(caught.value) == (
        f"template big: {file}: {len(content[file])} bytes, more than the"
        f" {options.MANIFEST_MAX_BYTES} a manifest may have"
    )


def test_a_manifest_with_too_many_variables_is_refused(tmp_path: Path) -> None:
    count = options.MANIFEST_MAX_VARIABLES + 1
    variables: list[dict[str, object]] = [
        {"name": f"V{i}", "type": "string", "default": "x"} for i in range(count)
    ]
    with pytest.raises(ManifestError) as caught:
        make_template(tmp_path, variables=variables, name="many")
    assert caught.value.json_path == "variables"
    assert str(caught.value) == (
        f"template many: template.json: variables: {count} variables, more than the"
        f" {options.MANIFEST_MAX_VARIABLES} a template may have"
    )
    # The bound itself is accepted.
    make_template(tmp_path, variables=variables[:-1], name="most")
