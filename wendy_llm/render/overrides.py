"""Overrides as a pipeline has them: typed values made the text of a ``--var``,
and names the template does not know.

``wendy init --var K=V`` only ever sees text; a pipeline reading YAML or JSON
holds ``3000``, ``true`` or ``0.5``. Each is turned into the text a user
would have typed (``3000``, ``true``, ``0.5``), which then goes through the
CLI's own conversion, so ``{"PORT": 3000}`` and ``{"PORT": "3000"}`` render
alike. A float with a fraction where the variable is an integer, and any
value that is not a string, number or boolean, is a :class:`ValuesError`
naming the variable. An override naming nothing the template declares is
ignored by ``wendy init``; strict mode makes it an error naming the nearest
known name, ``strict=False`` a :class:`UnknownVariableWarning`.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Iterable, Mapping

from wendy_llm.errors import ValuesError
from wendy_llm.render.manifest.load import Manifest, Picker


class UnknownVariableWarning(UserWarning):
    """``strict=False``: an override names no variable or picker question of
    the template (a typo renders the default without a word)."""


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SHOWN_NAMES = 20


def override_text(name: str, value: object, declared_type: str | None) -> str:
    """``value`` as the text of ``--var name=...`` (``declared_type``: the
    variable's ``type`` in ``template.json``, None for other names)."""
    if isinstance(value, str):
        return str.__str__(value)  # a str subclass (StrEnum) as its plain text
    if isinstance(value, bool):
        return "true" if value else "false"  # Go's strconv.FormatBool
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))  # 3000.0 from YAML/JSON is the 3000 a user types
        if declared_type == "integer":
            raise ValuesError(
                f"invalid value for {name}: expected integer, got the float {value!r}",
                variable=name,
            )
        return repr(value)  # the shortest text that reads back as this float
    raise ValuesError(
        f"invalid value for {name}: expected a string, number or boolean (what --var "
        f"gives), got {type(value).__name__}",
        variable=name,
    )


def override_texts(manifest: Manifest, overrides: Mapping[str, object] | None) -> dict[str, str]:
    """Every override as text; a key that is not a string is a ``ValuesError``."""
    if overrides is None:
        return {}
    if not isinstance(overrides, Mapping):
        raise ValuesError(
            f"overrides must be a mapping of names to values, not {type(overrides).__name__}",
            variable="",
        )
    types = {v.name: v.type for v in manifest.variables}
    texts: dict[str, str] = {}
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise ValuesError(
                f"override name {key!r} is a {type(key).__name__}, not a string",
                variable=str(key),
            )
        texts[str.__str__(key)] = override_text(key, value, types.get(key))
    return texts


def known_names(manifest: Manifest, picker: Picker | None) -> list[str]:
    """The names an override may give: the variables, then the picker's questions."""
    names = [v.name for v in manifest.variables if v.name]
    if picker is not None:
        names += [q.id for q in picker.questions if q.id]
    return list(dict.fromkeys(names))  # each once, in manifest order


def check_names(names: Iterable[str], known: list[str], *, strict: bool) -> None:
    """Refuse (strict) or warn about each override name not in ``known``."""
    known_set = set(known) | {"APP_ID"}
    for name in names:
        if name in known_set:
            continue
        # lazy: difflib, only for a name the template does not know.
        import difflib

        nearest = difflib.get_close_matches(name, known, n=1)
        shown = ", ".join(known[:_SHOWN_NAMES]) + (", ..." if len(known) > _SHOWN_NAMES else "")
        guess = f" (did you mean {nearest[0]}?)" if nearest else ""
        message = (
            f"unknown variable {name}{guess}: the template has no variable or picker "
            f"question of that name (known: {shown or 'none'})"
        )
        if strict:
            raise ValuesError(
                message,
                variable=name,
                advice="strict=False renders anyway, ignoring it as wendy init does",
                cli_advice="--no-strict renders anyway, ignoring it as wendy init does",
            )
        warnings.warn(message, UnknownVariableWarning, stacklevel=_callers_level())


def _callers_level() -> int:
    """The ``stacklevel`` of the first frame outside this package, so the
    warning points at the caller's line (3.12's ``skip_file_prefixes``)."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level
