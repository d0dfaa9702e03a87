"""wendy-llm: render Wendy app templates exactly as `wendy init` does.

The public API, re-exported here and nowhere else.
"""

from wendy_llm.engine import Renderer, RenderJob, shared_renderer
from wendy_llm.errors import (
    AppIdError,
    DataTypeError,
    EngineError,
    ManifestError,
    OutputTooLarge,
    PickError,
    RenderError,
    RenderTimeout,
    TemplateError,
    TemplateExecError,
    TemplateLoadError,
    TemplateParseError,
    ToolchainError,
    TreeWriteError,
    ValuesError,
    WendyLlmError,
)
from wendy_llm.lint import LintWarning
from wendy_llm.picks import CANONICAL_APP_ID, Pick
from wendy_llm.template import Template, discover_templates, load_template, template_from_files
from wendy_llm.tree import RenderedFile, RenderedTree

__all__ = [
    "CANONICAL_APP_ID",
    "AppIdError",
    "DataTypeError",
    "EngineError",
    "LintWarning",
    "ManifestError",
    "OutputTooLarge",
    "Pick",
    "PickError",
    "RenderError",
    "RenderJob",
    "RenderTimeout",
    "RenderedFile",
    "RenderedTree",
    "Renderer",
    "Template",
    "TemplateError",
    "TemplateExecError",
    "TemplateLoadError",
    "TemplateParseError",
    "ToolchainError",
    "TreeWriteError",
    "ValuesError",
    "WendyLlmError",
    "discover_templates",
    "load_template",
    "shared_renderer",
    "template_from_files",
]
