"""The inputs the gate renders every pick with: the canonical one and its variant.

Golden fixtures hold one render per pick, with the canonical inputs (app id
:data:`~wendy_llm.render.picks.CANONICAL_APP_ID`, every variable at its
default, the pick's answers).  One input cannot tell ``{{.PORT}}`` from a
hard-coded ``8080``, so ``check`` and ``diff`` also render every pick with
a *variant*, derived from the template's own ``template.json``:

- the app id :data:`VARIANT_APP_ID` (``my.app-2``: dots and dashes, still a
  valid project name that YAML reads as a string);
- every ``integer`` variable with an integral default gets another value,
  passed as ``--var`` gives it (a Go ``int``, where the canonical default is
  a JSON-decoded ``float64``): the first of default + 1000, - 1000, + 100,
  - 100, + 10, - 10, + 1, - 1 that its ``validate.min``/``max`` accept and
  that no rendered template file contains as a number (so the variant
  cannot collide with a value written elsewhere, e.g. another service's
  port); ``PORT`` 8080 becomes 9080.  Only the files ``wendy init`` renders
  (its extension and base-name rule) are read for numbers, once per
  template and number (:meth:`Template.writes_number`): a copied file (an audio
  asset, an SDK blob) is never scanned, since no variable can reach it;
- every ``string`` variable whose default looks like an identifier
  (letters, digits, ``-``, ``_``, not a number) gets ``<default>.v-2``
  when its ``validate.pattern`` accepts that (else it keeps its default);
- booleans, other strings and variables without a default keep their
  default: flipping a feature is a different pick, not a different input.

The variant is the same for every pick and deterministic.  Its label
(``app-id=my.app-2 PORT=9080``) names it in findings and diffs.

A variable without a default has no canonical value: both inputs give it
the repository's sample value (``wendy-llm.toml``), which no label names;
:func:`missing_values` lists those a template lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wendy_llm.arguments import check_fields
from wendy_llm.errors import ValuesError
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.values import convert_override, template_variables

if TYPE_CHECKING:
    from wendy_llm.render.manifest.load import Variable
    from wendy_llm.render.template import Template

#: The variant's app id: dots and dashes, unlike ``llm-app``.
VARIANT_APP_ID = "my.app-2"
CANONICAL_LABEL = "canonical"
_OFFSETS = (1000, -1000, 100, -100, 10, -10, 1, -1)
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Inputs:
    """What a pick is rendered with besides its answers: an app id and ``--var``s.

    ``overrides`` are strings, converted by the variables' types as the CLI
    converts ``--var`` (an ``integer`` becomes a Go ``int``); ``samples``
    too, the sample values of variables without a default (the same in
    every input, so not part of the label).
    """

    app_id: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    samples: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_fields(self)  # a caller's value (diff_template's inputs): refused when made

    @property
    def canonical(self) -> bool:
        return self.app_id == CANONICAL_APP_ID and not self.overrides

    @property
    def label(self) -> str:
        """``canonical``, or ``app-id=my.app-2 PORT=9080``."""
        if self.canonical:
            return CANONICAL_LABEL
        parts = [f"app-id={self.app_id}", *(f"{k}={v}" for k, v in self.overrides.items())]
        return " ".join(parts)

    def with_answers(self, answers: Mapping[str, str]) -> dict[str, str]:
        """The ``--var`` overrides of a pick: these inputs, then its answers."""
        return {**self.samples, **self.overrides, **answers}


CANONICAL = Inputs(CANONICAL_APP_ID)


def variant_inputs(template: Template, samples: Mapping[str, str] | None = None) -> Inputs:
    """The template's variant (see the module docstring)."""
    overrides: dict[str, str] = {}
    for variable in template_variables(template.manifest):
        other = _other_value(variable, template.writes_number)
        if other is not None:
            overrides[variable.name] = other
    return Inputs(VARIANT_APP_ID, overrides, dict(samples or {}))


def gate_inputs(template: Template, samples: Mapping[str, str] | None = None) -> tuple[Inputs, ...]:
    """Every input the gate renders a pick with: canonical first, then the variant;
    ``samples`` give the variables without a default their values."""
    if not samples:
        return (CANONICAL, variant_inputs(template))
    return (Inputs(CANONICAL_APP_ID, samples=dict(samples)), variant_inputs(template, samples))


def missing_values(template: Template, samples: Mapping[str, str] | None) -> list[str]:
    """The variables without a default that ``samples`` give no value: no pick renders."""
    given = samples or {}
    return [
        v.name
        for v in template_variables(template.manifest)
        if v.default is None and v.name not in given
    ]


def _other_value(variable: Variable, written: Callable[[int], bool]) -> str | None:
    default = variable.default
    if variable.type == "integer":
        if isinstance(default, bool) or not isinstance(default, int | float):
            return None
        if not float(default).is_integer():
            return None
        start = int(default)
        for offset in _OFFSETS:
            number = start + offset
            if _accepts(variable, str(number)) and not written(number):
                return str(number)
        return None
    if variable.type == "string" and isinstance(default, str):
        if not _IDENTIFIER.fullmatch(default) or default.isdigit():
            return None
        text = f"{default}.v-2"
        return text if _accepts(variable, text) else None
    return None


def _accepts(variable: Variable, raw: str) -> bool:
    try:
        convert_override(variable, raw)
    except ValuesError:
        return False
    return True
