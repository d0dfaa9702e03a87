"""Cost grows with templates and picks, not bytes (issue 21, item 3).

Numbers the variant avoids are looked for only in files ``wendy init``
renders, once per template and number; a rendered file without an action
never reaches the engine; a phase nested in another is timed as itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from _template_helpers import make_template

from wendy_llm.engine.client import Renderer
from wendy_llm.engine.wire import RenderJob
from wendy_llm.errors import TemplateError
from wendy_llm.render.numbers import is_written
from wendy_llm.render.variants import variant_inputs
from wendy_llm.validate.pickrun import Timer

PORT = [{"name": "PORT", "type": "integer", "default": 8080}]


@pytest.mark.parametrize(
    ("text", "number", "found"),
    [
        (b"ports: 9080:80", 9080, True),
        (b"ports: 19080", 9080, False),  # inside a longer number
        (b"ports: 90801", 9080, False),
        (b"x: 009080", 9080, True),  # leading zeros: still the value 9080
        (b"x: -7080", -7080, True),
        (b"x: 7080", -7080, False),  # a negative number needs its minus sign
        (b"x: -7080", 7080, True),  # ... a positive one does not care
        (b"x: 100", 0, False),
        (b"x: 00", 0, True),
        (b"\xff9080\xfe", 9080, True),  # bytes that are not UTF-8 around it
    ],
)
def test_is_written_finds_whole_numbers(text: bytes, number: int, found: bool) -> None:
    assert is_written([text], number) is found


def test_a_copied_file_never_moves_the_variant_a_rendered_one_does(tmp_path: Path) -> None:
    # 9080 in an audio asset (copied: no extension wendy init renders) is not
    # a value any render holds; 9080 in a compose file is.
    copied = make_template(
        tmp_path / "a", variables=PORT, files={"assets/chime.wav": b"RIFF\x009080\x00"}
    )
    assert dict(variant_inputs(copied).overrides) == {"PORT": "9080"}
    rendered = make_template(
        tmp_path / "b", variables=PORT, files={"compose.yml": "ports: ['9080:9080']\n"}
    )
    assert dict(variant_inputs(rendered).overrides) == {"PORT": "7080"}


def test_each_number_is_looked_for_once_per_template(tmp_path: Path) -> None:
    template = make_template(tmp_path, variables=PORT, files={"a.yml": "p: 9080\n"})
    variant_inputs(template)
    looked = dict(template._written or {})
    assert looked == {9080: True, 7080: False}
    # A second derivation asks the cache, not the files: take the files away to prove it.
    template.sources = ()
    assert dict(variant_inputs(template).overrides) == {"PORT": "7080"}


class CountingRenderer(Renderer):
    """The engine, counting the texts it is asked to render (a Renderer: the
    library checks that a renderer is one)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def render_many(self, jobs: Sequence[RenderJob]) -> list[bytes | TemplateError]:
        self.names += [job.name for job in jobs]
        return super().render_many(jobs)


def test_a_rendered_file_without_an_action_is_its_own_render(tmp_path: Path) -> None:
    lock = '{"lockfileVersion": 3, "packages": {"": {"version": "1.0.0"}}}\n'
    template = make_template(
        tmp_path,
        variables=PORT,
        files={"package-lock.json": lock, "compose.yml": "port: {{.PORT}}\n"},
    )
    engine = CountingRenderer()
    with engine:
        tree = template.render("my-app", renderer=engine)
    assert engine.names == ["compose.yml"]
    assert tree["package-lock.json"] == lock.encode()
    assert tree["compose.yml"] == b"port: 8080\n"
    assert tree.files["package-lock.json"].verbatim
    assert tree.files["package-lock.json"].rendered  # still a rendered file, as wendy init says
    assert not tree.files["compose.yml"].verbatim


def test_a_nested_phase_is_counted_once_by_its_own_name(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter([0.0, 1.0, 3.0, 10.0])  # load starts, variants 1..3, load ends at 10
    monkeypatch.setattr("wendy_llm.validate.pickrun.time.perf_counter", lambda: next(ticks))
    timer = Timer()
    with timer("load"), timer("variants"):
        pass
    assert timer.seconds == {"variants": 2.0, "load": 8.0}
