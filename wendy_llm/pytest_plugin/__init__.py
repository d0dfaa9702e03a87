"""pytest plugin (entry point ``pytest11``): golden and property tests for templates.

Installed with wendy-llm and active in every pytest run. Fixtures:

- ``wendy_renderer`` (session): one :class:`~wendy_llm.engine.client.Renderer` (one
  Go helper process) for the whole run.
- ``wendy_template`` (session): ``wendy_template("templates/python/llm")`` ->
  :class:`~wendy_llm.render.template.Template`, loaded once. A relative reference is
  looked up under the rootdir, then under the templates directory (so
  ``wendy_template("python/llm")`` works too). The template's id is its path
  below the templates directory (``python/llm``), as ``wendy-llm`` names it.
- ``wendy_templates`` (session): every template of the repository, found
  as ``wendy-llm check`` finds them (:mod:`wendy_llm.repo.layout`).
- ``wendy_render`` (session): ``wendy_render(template, pick=None, *,
  app_id=CANONICAL_APP_ID, overrides=None)`` -> ``RenderedTree``; ``pick`` is
  a :class:`~wendy_llm.render.picks.Pick` or a slug; the repository's sample
  values come first (``wendy-llm.toml``); renders are cached.
- ``wendy_golden``: ``wendy_golden()`` checks every template's fixtures, as
  ``wendy-llm golden --check`` does; ``wendy_golden(template, picks=[...])``
  one template (optionally some picks). A mismatch fails the test with the
  CLI's message (the diff, then the command that refreshes the fixtures).
  With ``--update-golden`` it rewrites the fixtures instead, as
  ``wendy-llm golden --update`` does (a whole template at a time, even when
  ``picks`` are named), and the terminal summary lists what changed.
- ``wendy_pick`` / ``wendy_tree``: a test marked
  ``@pytest.mark.wendy_picks()`` runs once per pick of every template
  (``@pytest.mark.wendy_picks("templates/python/llm")``: of those templates);
  ``wendy_pick`` is a :class:`WendyPick` (``.template``, ``.pick``,
  ``.slug``) and ``wendy_tree`` its canonical render (app id ``llm-app``,
  defaults, the pick's answers: what the golden fixtures hold).

A template that fails to load or render fails each test that needs it
with one short message naming the template, the file and the line (no
traceback).

Installed, the plugin loads in every pytest run of the environment, so its
module imports only pytest and the standard library; the engine, the loader
and the golden checks are imported by the fixtures that need them (issue
31: ``bench/bench_plugin.py`` measures what that costs a run).

Options: ``--update-golden`` (refused when ``CI`` is set, as ``wendy-llm
golden --update`` is, unless ``--force-golden``). Where the templates and
fixtures are: the rule every ``wendy-llm`` command follows, starting at the
rootdir (the repository's ``wendy-llm.toml`` included, sample values too);
the ini settings ``wendy_templates_dir`` and ``wendy_golden_dir`` (relative
to the rootdir) override it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from wendy_llm.errors import GoldenUpdateRefused, WendyLlmError
from wendy_llm.pytest_plugin.state import (
    RunState,
    TemplateRef,
    may_hold_templates,
    short_failure,
)

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.golden import TemplateUpdate
    from wendy_llm.render.files.tree import RenderedTree
    from wendy_llm.render.picks import Pick
    from wendy_llm.render.template import Template
    from wendy_llm.repo.layout import Layout

__all__ = ["WendyPick"]

RenderFn = Callable[..., "RenderedTree"]
GoldenFn = Callable[..., None]


@dataclass(frozen=True)
class WendyPick:
    """One pick of one template: the value of ``wendy_pick``."""

    template: Template
    pick: Pick

    @property
    def slug(self) -> str:
        return self.pick.slug

    @property
    def id(self) -> str:
        return f"{self.template.id}:{self.pick.slug}"


_STATE = pytest.StashKey[RunState]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("wendy-llm", "wendy-llm template tests")
    group.addoption(
        "--update-golden",
        action="store_true",
        dest="wendy_update_golden",
        help="wendy_golden rewrites the golden fixtures instead of checking them",
    )
    group.addoption(
        "--force-golden",
        action="store_true",
        dest="wendy_force_golden",
        help="with --update-golden: write even when CI is set",
    )
    parser.addini(
        "wendy_templates_dir",
        "templates directory, relative to the rootdir (default: as wendy-llm finds it)",
        default="",
    )
    parser.addini(
        "wendy_golden_dir",
        "golden fixture root, relative to the rootdir (default: as wendy-llm finds it)",
        default="",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "wendy_picks(*templates): run the test once per pick (fixtures wendy_pick, wendy_tree) "
        "of the given templates (paths or ids), or of every template when none is given",
    )
    update = bool(config.getoption("wendy_update_golden"))
    if update:
        # lazy: the golden package, only for a run that updates fixtures.
        from wendy_llm.golden.guard import refuse_update_in_ci

        try:
            refuse_update_in_ci(
                os.environ,
                force=bool(config.getoption("wendy_force_golden")),
                force_flag="--force-golden",
                local_command="pytest --update-golden",
                check_command="pytest",
            )
        except GoldenUpdateRefused as exc:
            raise pytest.UsageError(str(exc)) from None
    rootdir = config.rootpath
    config.stash[_STATE] = RunState(
        rootdir=rootdir,
        templates_setting=str(config.getini("wendy_templates_dir")),
        golden_setting=str(config.getini("wendy_golden_dir")),
        update=update,
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None and state.renderer is not None:
        state.renderer.close()
        state.renderer = None


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(_STATE, None)
    if state is None or not may_hold_templates(state):
        return None  # not a templates repository: say nothing, import nothing
    try:
        if not state.layout.find_templates():
            return None  # not a templates repository: say nothing
    except WendyLlmError:
        return None
    mode = "update: --update-golden" if state.update else "check"
    return (
        f"wendy-llm: templates {_shown(state.templates_dir, state.rootdir)}, "
        f"golden {_shown(state.golden_dir, state.rootdir)} ({mode})"
    )


def _shown(path: Path, rootdir: Path) -> str:
    try:
        return path.relative_to(rootdir).as_posix() or "."
    except ValueError:
        return str(path)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "wendy_pick" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("wendy_picks")
    if marker is None:
        pytest.fail(
            f"{metafunc.definition.nodeid}: the wendy_pick fixture needs the marker "
            '@pytest.mark.wendy_picks() (every template) or @pytest.mark.wendy_picks("<path>")',
            pytrace=False,
        )
    state = metafunc.config.stash[_STATE]
    try:
        if marker.args:
            templates = [state.template(ref) for ref in marker.args]
        else:
            templates = state.all_templates()
        cases = [WendyPick(t, pick) for t in templates for pick in t.picks()]
    except WendyLlmError as exc:
        pytest.fail(f"{metafunc.definition.nodeid}: wendy_picks: {exc}", pytrace=False)
    metafunc.parametrize("wendy_pick", cases, ids=[case.id for case in cases])


@pytest.fixture(scope="session")
def _wendy_state(request: pytest.FixtureRequest) -> RunState:
    return request.config.stash[_STATE]


@pytest.fixture(scope="session")
def wendy_renderer(_wendy_state: RunState) -> Renderer:
    """One renderer (one Go helper process) for the whole run."""
    return _wendy_state.get_renderer()


@pytest.fixture(scope="session")
def wendy_template(_wendy_state: RunState) -> Callable[[TemplateRef], Template]:
    """``wendy_template(path)`` -> Template, loaded once per run."""

    def template(ref: TemplateRef) -> Template:
        with short_failure("wendy_template"):
            return _wendy_state.template(ref)
        raise AssertionError("unreachable: pytest.fail raised")  # for mypy

    return template


@pytest.fixture(scope="session")
def wendy_templates(_wendy_state: RunState) -> list[Template]:
    """Every template of the repository, as ``wendy-llm check`` finds them."""
    with short_failure("wendy_templates"):
        return _wendy_state.all_templates()
    raise AssertionError("unreachable: pytest.fail raised")  # for mypy


@pytest.fixture(scope="session")
def wendy_render(_wendy_state: RunState, wendy_renderer: Renderer) -> RenderFn:
    """``wendy_render(template, pick=None, *, app_id=..., overrides=None)`` -> RenderedTree."""
    # lazy: the picks module, only for a run that renders.
    from wendy_llm.render.picks import CANONICAL_APP_ID

    def render(
        template: Template,
        pick: Pick | str | None = None,
        *,
        app_id: str = CANONICAL_APP_ID,
        overrides: Mapping[str, str] | None = None,
    ) -> RenderedTree:
        slug = pick if isinstance(pick, str) else pick.slug if pick is not None else None
        with short_failure(f"{template.id}:{slug}" if slug is not None else template.id):
            if isinstance(pick, str):
                pick = template.pick(pick)
            # The repository's sample values first, as in every canonical render.
            answers = _wendy_state.layout.sample_values(template.id)
            answers.update(pick.answers if pick is not None else {})
            answers.update(overrides or {})
            key = (id(template), app_id, tuple(sorted(answers.items())))
            tree = _wendy_state.renders.get(key)
            if tree is None:
                tree = template.render(app_id, answers, renderer=wendy_renderer)
                _wendy_state.renders[key] = tree
            return tree
        raise AssertionError("unreachable: pytest.fail raised")  # for mypy

    return render


@pytest.fixture
def wendy_pick(request: pytest.FixtureRequest) -> WendyPick:
    """The pick this test runs for (see the ``wendy_picks`` marker)."""
    case: WendyPick = request.param
    return case


@pytest.fixture
def wendy_tree(wendy_pick: WendyPick, wendy_render: RenderFn) -> RenderedTree:
    """The canonical render of ``wendy_pick`` (what its golden fixtures hold)."""
    return wendy_render(wendy_pick.template, wendy_pick.pick)


@pytest.fixture
def wendy_golden(_wendy_state: RunState, wendy_renderer: Renderer) -> GoldenFn:
    """``wendy_golden(template=None, *, picks=None)``: fixtures match, or the test fails."""
    # lazy: the golden checks and their report, only for a run that checks fixtures.
    from wendy_llm.golden import check_golden, update_golden
    from wendy_llm.reports.golden import check_text

    def golden(template: Template | None = None, *, picks: Sequence[str] | None = None) -> None:
        state = _wendy_state
        source: Layout | list[Template] = state.layout if template is None else [template]
        ids = None if template is None else [template.id]
        samples = state.layout.settings.sample_values
        if state.update:
            # A refresh rewrites a template's fixtures as a whole (which files
            # are shared depends on every pick), so ``picks`` does not narrow it.
            result = update_golden(
                source,
                state.golden_dir,
                template_ids=ids,
                renderer=wendy_renderer,
                sample_values=samples,
            )
            state.updates.extend(t for t in result.templates if t.written)
            if result.failed:
                said = "\n".join(f.message for f in result.failed)
                # lazy: the escaping loads only when a test fails.
                from wendy_llm import escape

                pytest.fail("\n".join(escape.lines(said)), pytrace=False)  # template text
            return
        checked = check_golden(
            source,
            state.golden_dir,
            template_ids=ids,
            pick_slugs=picks,
            renderer=wendy_renderer,
            sample_values=samples,
        )
        if not checked.ok:
            # A refresh cannot fix a template that does not render: no advice then.
            refresh = "(or, from pytest: pytest --update-golden)" if checked.problems else ""
            pytest.fail(check_text(checked) + refresh, pytrace=False)

    return golden


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not state.update:
        return
    # lazy: the golden report, only after a run that updated fixtures.
    from wendy_llm.golden import GoldenUpdate
    from wendy_llm.reports.golden import update_text

    terminalreporter.section("wendy-llm golden")
    if not state.updates:
        terminalreporter.write_line("golden: every fixture was up to date; nothing written")
        return
    result = GoldenUpdate(golden_root=state.golden_dir, templates=_dedupe(state.updates))
    for line in update_text(result).splitlines():
        terminalreporter.write_line(line)


def _dedupe(updates: Sequence[TemplateUpdate]) -> tuple[TemplateUpdate, ...]:
    # The same template may be updated by several tests; the first write is
    # the one that changed files (later ones find them up to date).
    seen: dict[str, TemplateUpdate] = {}
    for update in updates:
        seen.setdefault(update.template_id, update)
    return tuple(seen.values())
