"""wendy-llm: render Wendy app templates exactly as `wendy init` does.

The public API, re-exported here and nowhere else.
"""

from wendy_llm.engine import Renderer, RenderJob, shared_renderer
from wendy_llm.errors import (
    DataTypeError,
    EngineError,
    OutputTooLarge,
    RenderTimeout,
    TemplateError,
    TemplateExecError,
    TemplateParseError,
    ToolchainError,
    WendyLlmError,
)

__all__ = [
    "DataTypeError",
    "EngineError",
    "OutputTooLarge",
    "RenderJob",
    "RenderTimeout",
    "Renderer",
    "TemplateError",
    "TemplateExecError",
    "TemplateParseError",
    "ToolchainError",
    "WendyLlmError",
    "shared_renderer",
]
