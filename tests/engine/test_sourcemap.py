"""The source map: each rendered line traced to the template line that wrote it.

Rendered through the real Go helper (``'m'`` in gohelper/sourcemap.go), for
the shapes a template writes: plain text, actions inside a line, trimmed
branches, ranges, a value holding newlines, a line assembled from two
source lines, and a copied file.
"""

from __future__ import annotations

import pytest

from wendy_llm import Renderer
from wendy_llm.engine.sourcemap import SourceLine, SourceMap, source_map
from wendy_llm.errors import TemplateError


def mapped(renderer: Renderer, text: str, **data: object) -> SourceMap:
    return source_map(text.encode(), data, "f.yml", renderer=renderer)


def test_text_and_actions_map_to_their_own_lines(renderer: Renderer) -> None:
    text = (
        "{{- /* a comment that leaves nothing */ -}}\n"
        "services:\n"
        "{{- if .Gpu}}\n"
        "  vllm:\n"
        '    image: "{{.Image}}:{{.Tag}}"\n'
        "{{- else}}\n"
        "  ollama:\n"
        "{{- end}}\n"
        "volumes:\n"
    )
    m = mapped(renderer, text, Gpu=True, Image="vllm/vllm", Tag="v1")
    assert m.output == b'services:\n  vllm:\n    image: "vllm/vllm:v1"\nvolumes:\n'
    assert [m.line(n) for n in (1, 2, 3, 4)] == [
        SourceLine(2, True),
        SourceLine(4, True),
        SourceLine(5, True),
        SourceLine(9, True),
    ]
    assert m.line(5) is None and m.line(0) is None
    other = mapped(renderer, text, Gpu=False, Image="x", Tag="y")
    assert other.output == b"services:\n  ollama:\nvolumes:\n"
    assert other.line(2) == SourceLine(7, True)


def test_a_range_maps_every_iteration_to_its_body(renderer: Renderer) -> None:
    m = mapped(renderer, "ports:\n{{range .Ports}}  - {{.}}\n{{end}}done\n", Ports=[80, 443])
    assert m.output == b"ports:\n  - 80\n  - 443\ndone\n"
    assert [m.line(n) for n in (2, 3, 4)] == [
        SourceLine(2, True),
        SourceLine(2, True),
        SourceLine(3, True),
    ]


def test_a_value_spanning_lines_points_at_its_action_and_says_so(renderer: Renderer) -> None:
    m = mapped(renderer, "a: 1\nb: {{.Text}}\nc: 3\n", Text="x\ny: 2")
    assert m.line(2) == SourceLine(2, True)
    third = m.line(3)
    assert third is not None and (third.line, third.exact) == (2, False)
    assert "value of the action at source line 2, which spans lines" in third.note
    assert m.line(4) == SourceLine(3, True)


def test_a_line_assembled_from_two_source_lines_names_both(renderer: Renderer) -> None:
    m = mapped(renderer, "key: {{- if .X}}\n  value{{end}}\n", X=True)
    assert m.output == b"key:\n  value\n"
    assert m.line(1) == SourceLine(1, True)
    m = mapped(renderer, "key:{{if .X -}}\n  value{{end}}\n", X=True)
    assert m.output == b"key:value\n"
    joined = m.line(1)
    assert joined is not None and (joined.line, joined.exact) == (1, False)
    assert "assembled from source lines 1, 2" in joined.note


def test_a_copied_file_maps_line_for_line() -> None:
    m = SourceMap.identity(b"one\ntwo\n\nfour")
    assert [m.line(n) for n in (1, 2, 3, 4, 5)] == [
        SourceLine(1, True),
        SourceLine(2, True),
        SourceLine(3, True),
        SourceLine(4, True),
        None,
    ]


def test_a_render_that_fails_fails_the_map(renderer: Renderer) -> None:
    with pytest.raises(TemplateError, match="Missing"):
        mapped(renderer, "{{.Missing}}\n")


def test_a_blank_line_left_by_an_action_says_the_trim_markers_decide(renderer: Renderer) -> None:
    # `{{ if` without its dash keeps the newline before it: a blank line appears.
    m = mapped(renderer, "PORT: 1\n{{ if .X}}{{else}}\nOLLAMA: 2\n{{- end}}\n", X=False)
    assert m.output == b"PORT: 1\n\nOLLAMA: 2\n"
    blank = m.line(2)
    assert blank is not None and (blank.line, blank.exact) == (2, False)
    assert "kept or trimmed by the {{- / -}} markers" in blank.note
    # A blank line inside the template's own text is exact.
    assert mapped(renderer, "a\n\n{{.X}}\n", X=1).line(2) == SourceLine(2, True)


def test_a_defined_template_maps_to_its_definition(renderer: Renderer) -> None:
    text = '{{define "svc"}}  - {{.}}\n{{end}}list:\n{{range .L}}{{template "svc" .}}{{end}}'
    m = mapped(renderer, text, L=["a", "b"])
    assert m.output == b"list:\n  - a\n  - b\n"
    assert [m.line(n) for n in (1, 2, 3)] == [
        SourceLine(2, True),
        SourceLine(1, True),
        SourceLine(1, True),
    ]
