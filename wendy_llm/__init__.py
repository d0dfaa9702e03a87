"""wendy-llm: render Wendy app templates exactly as `wendy init` does.

The public API, re-exported here and nowhere else.
"""

from wendy_llm.errors import (
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
    "EngineError",
    "OutputTooLarge",
    "RenderTimeout",
    "TemplateError",
    "TemplateExecError",
    "TemplateParseError",
    "ToolchainError",
    "WendyLlmError",
]
