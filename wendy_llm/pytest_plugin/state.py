"""What one pytest run of the plugin shares (:class:`RunState`), and how a
library error fails a test (:func:`short_failure`).

Like the plugin's module, this one imports only pytest and the standard
library: the loader, the layout and the engine are imported when a test
first asks for a template.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from wendy_llm.errors import WendyLlmError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.golden import TemplateUpdate
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.template import Template
    from wendy_llm.repo.layout import Layout

TemplateRef = str | os.PathLike[str]
#: What marks a directory as a templates repository without importing the loader.
SETTINGS_FILE = "wendy-llm.toml"


class RunState:
    """What one pytest run shares: settings, loaded templates, renders, updates.

    The layout is found on first use, so a project that never asks for a
    template pays nothing and never sees a wendy-llm error.  (A plain class,
    not a dataclass: building one costs every pytest run a millisecond.)
    """

    def __init__(
        self, *, rootdir: Path, templates_setting: str, golden_setting: str, update: bool
    ) -> None:
        self.rootdir = rootdir
        self.templates_setting = templates_setting  # the ini values; "" = the repository's rule
        self.golden_setting = golden_setting
        self.update = update
        self.templates: dict[tuple[Path, str], Template] = {}
        self.renders: dict[tuple[int, str, tuple[tuple[str, str], ...]], RenderedTree] = {}
        self.updates: list[TemplateUpdate] = []
        self.renderer: Renderer | None = None
        self.found_layout: Layout | None = None

    @property
    def layout(self) -> Layout:
        if self.found_layout is None:
            # lazy: the loader and the layout rule, only for a run that asks for a template.
            from wendy_llm.repo.layout import find_layout

            templates = self.rootdir / self.templates_setting if self.templates_setting else None
            golden = self.rootdir / self.golden_setting if self.golden_setting else None
            self.found_layout = find_layout(templates, golden, start=self.rootdir)
        return self.found_layout

    @property
    def templates_dir(self) -> Path:
        return self.layout.templates_root

    @property
    def golden_dir(self) -> Path:
        return self.layout.golden_dir

    def resolve(self, ref: TemplateRef) -> Path:
        path = Path(ref)
        if path.is_absolute():
            return path
        for base in (self.rootdir, self.templates_dir):
            if (base / path).is_dir():
                return (base / path).resolve()
        return (self.rootdir / path).resolve()  # load_template names what is missing

    def template(self, ref: TemplateRef) -> Template:
        # lazy: the loader, only for a run that asks for a template.
        from wendy_llm.render.template import load_template

        root = self.resolve(ref)
        try:
            template_id = root.relative_to(self.templates_dir.resolve()).as_posix()
        except ValueError:
            template_id = root.name
        key = (root, template_id)
        if key not in self.templates:
            self.templates[key] = load_template(root, id=template_id)
        return self.templates[key]

    def all_templates(self) -> list[Template]:
        # lazy: the loader, only for a run that asks for a template.
        from wendy_llm.render.template import load_template

        out = []
        for found in self.layout.find_templates():
            # Share the cache, so wendy_template() and wendy_templates agree.
            key = (found.path.resolve(), found.id)
            if key not in self.templates:
                self.templates[key] = load_template(found.path, id=found.id)
            out.append(self.templates[key])
        return out

    def get_renderer(self) -> Renderer:
        if self.renderer is None:
            # lazy: the engine (subprocess, threads), only for a run that renders.
            from wendy_llm.engine.client import Renderer

            self.renderer = Renderer()
        return self.renderer


def may_hold_templates(state: RunState) -> bool:
    """Whether the run may be a templates repository's, by a few ``stat`` calls:
    only then is the layout found (which imports the loader)."""
    if state.templates_setting or state.golden_setting:
        return True
    root = state.rootdir
    for directory in (root, *root.parents):
        if (directory / SETTINGS_FILE).is_file():
            return True
        if (directory / ".git").exists():
            break
    return any(root.glob("*/*/template.json")) or any(root.glob("templates/*/*/template.json"))


@contextmanager
def short_failure(what: str) -> Iterator[None]:
    """A library error fails the test with its message alone: the template,
    the file and the line, no traceback (one line per pick, not a page)."""
    try:
        yield
    except WendyLlmError as exc:
        # lazy: the escaping loads only when a test fails (the plugin's import stays light).
        from wendy_llm import escape

        pytest.fail(escape.text(f"{what}: {exc}"), pytrace=False)  # template text
