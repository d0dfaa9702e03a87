"""Every name a public signature uses is importable from ``wendy_llm`` (issue 37).

The signatures: every function in ``wendy_llm.__all__``, and of every
class there its constructor, public methods and properties and (for a
dataclass) its public fields, parameters and return types alike. Each
name an annotation uses is followed to where it is defined, through the
imports of its module (``TYPE_CHECKING`` ones included, read from the
source, since they never run): a class or an alias (``Severity =
Literal[...]``, ``Key = tuple[...]``) defined in the package must be in
``__all__``, as that very definition (two aliases of one name in two
modules cannot both be exported, and the one exported must be the one the
signature means).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import wendy_llm

PACKAGE = Path(wendy_llm.__file__).parent


@functools.cache
def _module_tree(module: str) -> ast.Module:
    path = Path(importlib.import_module(module).__file__ or "")
    return ast.parse(path.read_text(encoding="utf-8"))


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's statements, those under ``if TYPE_CHECKING:`` included."""
    for statement in body:
        if isinstance(statement, ast.If):
            yield from _top_level(statement.body)
        else:
            yield statement


@functools.cache
def defined_in(module: str, name: str) -> str | None:
    """The package module that defines ``name`` as ``module`` sees it, or None
    when it comes from outside the package (or nowhere: a builtin)."""
    for statement in _top_level(_module_tree(module).body):
        if isinstance(statement, ast.ClassDef) and statement.name == name:
            return module
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            value = getattr(statement, "value", None)
            if isinstance(value, ast.Call) and ast.unparse(value.func) == "TypeVar":
                return None  # a type variable stands for the caller's own types
            return module
        if isinstance(statement, ast.ImportFrom) and statement.module:
            for alias in statement.names:
                if (alias.asname or alias.name) == name:
                    source = statement.module
                    if source.split(".")[0] != "wendy_llm":
                        return None
                    return defined_in(source, alias.name)
    return None


def _names_in(annotation: object) -> set[str]:
    """The bare names an annotation (a string, under ``from __future__ import
    annotations``) uses: ``Mapping[str, Key] | None`` -> Mapping, str, Key."""
    if not isinstance(annotation, str):
        return {annotation.__name__} if isinstance(annotation, type) else set()
    found: set[str] = set()
    for node in ast.walk(ast.parse(annotation, mode="eval")):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found |= _names_in(node.value)  # a quoted forward reference
    return found


def _signatures(name: str) -> Iterator[tuple[str, str, dict[str, object]]]:
    """(where, module, annotations) of each signature of public name ``name``."""
    value = getattr(wendy_llm, name)
    value = getattr(value, "__wrapped__", value)
    if inspect.isfunction(value):
        yield name, value.__module__, value.__annotations__
    if not inspect.isclass(value):
        return
    for cls in reversed(value.__mro__):
        if not cls.__module__.startswith("wendy_llm"):
            continue
        if dataclasses.is_dataclass(cls):
            fields = vars(cls).get("__annotations__", {})
            public = {k: v for k, v in fields.items() if not k.startswith("_")}
            yield f"{name} fields", cls.__module__, public
        for attribute, member in vars(cls).items():
            if attribute.startswith("_") and attribute != "__init__":
                continue
            function = member.fget if isinstance(member, property) else member
            function = getattr(function, "__func__", function)  # class and static methods
            function = getattr(function, "__wrapped__", function)  # argument checks
            if inspect.isfunction(function):
                where = f"{name}()" if attribute == "__init__" else f"{name}.{attribute}"
                yield where, function.__module__, function.__annotations__


def unexported_names() -> list[str]:
    """Each package name a public signature uses that ``wendy_llm`` does not
    export as that very definition, with where it is used."""
    missing: set[str] = set()
    for public in wendy_llm.__all__:
        for where, module, hints in _signatures(public):
            for annotation in hints.values():
                for used in _names_in(annotation):
                    home = defined_in(module, used)
                    if home is None:
                        continue
                    exported = wendy_llm._EXPORTS.get(used)
                    if exported is None or defined_in(exported, used) != home:
                        missing.add(f"{home}.{used} (in {where})")
    return sorted(missing)


def test_every_name_a_public_signature_uses_is_exported() -> None:
    missing = unexported_names()
    assert not missing, "not importable from wendy_llm:\n" + "\n".join(missing)


def test_the_walk_follows_aliases_and_type_checking_imports() -> None:
    """The finder itself: an alias reached through a ``TYPE_CHECKING`` import
    (``Key`` in compare.diff) is found where it is defined, a standard
    library name is not the package's."""
    assert defined_in("wendy_llm.compare.diff", "Key") == "wendy_llm.compare.sides"
    assert defined_in("wendy_llm.compare.diff", "Sentinels") == "wendy_llm.compare.pairing"
    assert defined_in("wendy_llm.validate.tools.pool", "JobT") is None  # a type variable
    assert defined_in("wendy_llm.compare.model", "SideKind") == "wendy_llm.compare.model"
    assert defined_in("wendy_llm.compare.diff", "Mapping") is None
    assert _names_in("Mapping[str, 'Key'] | None") == {"Mapping", "str", "Key"}
