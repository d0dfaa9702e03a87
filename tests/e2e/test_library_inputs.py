"""Every public callable of the library, called with wrong-typed arguments,
fails only with a ``WendyLlmError`` (issue 31): never an ``AttributeError``
or a bare ``TypeError`` from deep inside.

The callables: every function in ``wendy_llm.__all__``, the constructor of
every class there (a dataclass's fields are its parameters; issue 37), and
the public methods of the objects a caller holds (a ``Template``, a
``Renderer``, a ``Layout``, a ``RenderedTree``). Each example gives every
required parameter, and some optional ones, a value of a type no signature
asks for (None where it is allowed is the one valid value it may draw).
Exceptions are not constructed (their arguments are a message and its
fields, never checked); nor are the ``Mapping`` methods a ``RenderedTree``
inherits called (``tree.get([])`` is a ``TypeError`` as for any dict: the
standard container contract). The walk runs in an empty directory, so a
call that does get through finds no repository to work on. That the values
a caller makes and passes in refuse a wrong field, naming it, is
tests/e2e/test_library_constructors.py.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest
from _hypothesis_profiles import property_settings
from hypothesis import given
from hypothesis import strategies as st

import wendy_llm

REPO = Path(__file__).resolve().parents[2]

WRONG = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.floats()),
    st.sets(st.integers(), max_size=2),
    st.dictionaries(st.integers(), st.none(), max_size=2),
    st.builds(object),
)


@functools.cache
def objects() -> dict[str, object]:
    """The objects whose methods are public calls, made once."""
    template = wendy_llm.load_template(REPO / "templates/python/llm")
    return {
        "Template": template,
        "Renderer": wendy_llm.shared_renderer(),
        "Layout": wendy_llm.find_layout(start=REPO),
        "RenderedTree": template.render("my-app"),
    }


def public_callables() -> dict[str, Callable[..., object]]:
    found: dict[str, Callable[..., object]] = {}
    for name in wendy_llm.__all__:
        value = getattr(wendy_llm, name)
        if inspect.isfunction(value):
            found[name] = value
        elif inspect.isclass(value) and not issubclass(value, BaseException):
            found[f"{name}()"] = value
    for kind, instance in objects().items():
        for attribute, member in inspect.getmembers(type(instance)):
            if attribute.startswith("_") or not inspect.isfunction(member):
                continue
            if not member.__module__.startswith("wendy_llm"):
                continue  # a RenderedTree's Mapping methods: the standard container contract
            if attribute in ("close", "start"):  # no arguments; close() would stop the helper
                continue
            found[f"{kind}.{attribute}"] = getattr(instance, attribute)
    return found


CALLABLES = public_callables()


def test_the_walk_covers_the_documented_calls() -> None:
    documented = {"load_template", "run_check", "check_golden", "update_golden", "find_layout"}
    documented |= {"Template.values", "Template.render", "Template.pick", "Template.lint"}
    documented |= {"Renderer.render", "Renderer.render_many", "RenderedTree.write"}
    documented |= {"Renderer()", "RenderJob()", "FileScope()", "Side()", "Policy()", "Finding()"}
    assert documented <= set(CALLABLES)


@pytest.mark.parametrize("name", sorted(CALLABLES))
@property_settings(max_examples=40)
@given(data=st.data())
def test_wrong_typed_arguments_raise_only_library_errors(
    name: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    function = CALLABLES[name]
    kwargs: dict[str, object] = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is parameter.empty or data.draw(st.booleans(), "optional"):
            kwargs[parameter.name] = data.draw(WRONG, parameter.name)
    # A WendyLlmError is what every failure of a public call must be; any
    # other exception fails the test.
    with (
        contextlib.chdir(empty_directory(tmp_path_factory)),
        contextlib.suppress(wendy_llm.WendyLlmError),
    ):
        function(**kwargs)


def empty_directory(factory: pytest.TempPathFactory) -> Path:
    empty = factory.getbasetemp() / "empty"
    empty.mkdir(exist_ok=True)
    return empty
