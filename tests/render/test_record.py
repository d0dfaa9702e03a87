"""The value records of the render path (``wendy_llm.record.Record``) behave as
frozen dataclasses would: equal by their fields and class, hashing alike,
shown by their fields."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from wendy_llm.render.lints.warning import LintWarning
from wendy_llm.render.manifest.gotypes import STRING, Map, Scalar, Slice
from wendy_llm.render.manifest.records import Manifest, Option
from wendy_llm.render.picks import Pick


def test_equal_by_fields_and_hashing_alike() -> None:
    a = LintWarning("a.txt", 3, "code", "message")
    b = LintWarning("a.txt", 3, "code", "message")
    assert a == b and hash(a) == hash(b)
    assert a != LintWarning("a.txt", 4, "code", "message")
    assert len({a, b}) == 1


def test_same_fields_of_another_class_are_not_equal() -> None:
    assert Slice(STRING) != Map(STRING)
    assert Scalar("string") == STRING
    assert LintWarning("f", None, "c", "m") != ("f", None, "c", "m")


def test_repr_shows_the_fields_or_the_ones_chosen() -> None:
    assert repr(Slice(STRING)) == "Slice(elem=Scalar(name='string'))"
    assert repr(Option("a", "A", MappingProxyType({"x": 1}))) == "Option(value='a', label='A')"
    manifest = Manifest((), MappingProxyType({}), MappingProxyType({}))
    assert repr(manifest) == "Manifest(variables=(), file='template.json')"


def test_a_pick_hashes_by_its_slug_although_its_answers_are_a_mapping() -> None:
    one = Pick("gemma", MappingProxyType({"MODEL": "gemma"}))
    assert hash(one) == hash(Pick("gemma", MappingProxyType({"MODEL": "other"})))
    assert one != Pick("gemma", MappingProxyType({"MODEL": "other"}))
    assert one == Pick("gemma", {"MODEL": "gemma"})


def test_fields_cannot_be_added() -> None:
    with pytest.raises(AttributeError):
        LintWarning("f", 1, "c", "m").other = 1  # type: ignore[attr-defined]
