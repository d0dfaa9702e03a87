"""Golden fixtures: every pick's canonical render, committed and checked.

``update_golden`` (``wendy-llm golden --update``) regenerates the fixtures atomically;
``check_golden`` compares fresh renders with them and never writes.
"""

from wendy_llm.golden.check import CheckedTemplate, GoldenCheck, check_golden
from wendy_llm.golden.template_check import GoldenProblem
from wendy_llm.golden.update import GoldenUpdate, TemplateUpdate, update_golden

__all__ = [
    "CheckedTemplate",
    "GoldenCheck",
    "GoldenProblem",
    "GoldenUpdate",
    "TemplateUpdate",
    "check_golden",
    "update_golden",
]
