"""The ``lint`` check: ``Template.lint()``'s warnings, as warning findings.

The lints (numbers that render as ``1e+06``, comparisons that depend on
how a number was typed, files copied unrendered that look like templates,
validation rules the CLI ignores) live with the loader; they flag what
makes ``wendy init`` misbehave for some input, not what is broken for
every input, so they are warnings: shown, and failing the run only with
``--strict``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from wendy_llm.codes import Check
from wendy_llm.codes.stored import LINT_CODES
from wendy_llm.validate.findings import Finding, warning

if TYPE_CHECKING:
    from wendy_llm.engine.client import Renderer
    from wendy_llm.render.template import Template

CHECK = Check.LINT


def lint_findings(
    template: Template,
    renderer: Renderer | None = None,
    *,
    values: Mapping[str, str] | None = None,
) -> list[Finding]:
    """``values`` are the sample values the picks render with (no default of their own)."""
    return [
        warning(LINT_CODES[item.code], f"{item.code}: {item.message}", item.file, item.line)
        for item in template.lint(renderer=renderer, values=values)
    ]
