"""Every exception the library raises.

Each class carries the fields a caller needs (file, line, variable, ...) and
its ``str()`` is the message a user reads.  The CLI maps ``WendyLlmError`` to
exit code 2 (bad input) and failed checks to exit code 1.
"""

from __future__ import annotations


class WendyLlmError(Exception):
    """Base class: anything wrong with the input or the environment."""


# --- the engine ---------------------------------------------------------------


class TemplateError(WendyLlmError):
    """A Go ``text/template`` error for one template.

    ``name`` is the template name (the file's path relative to the template
    root), ``line``/``column`` locate the error when Go reports them, and
    ``message`` is Go's error text verbatim (``template: name:3:7: ...``).
    """

    def __init__(
        self, message: str, *, name: str, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.name = name
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        # Keep keyword-only fields across pickling (multiprocessing, xdist).
        return (_rebuild_template_error, (type(self), self.message, self.name, self.line, self.column))


def _rebuild_template_error(
    cls: type[TemplateError], message: str, name: str, line: int | None, column: int | None
) -> TemplateError:
    return cls(message, name=name, line=line, column=column)


class TemplateParseError(TemplateError):
    """The template text does not parse."""


class TemplateExecError(TemplateError):
    """The template parsed but failed while executing (e.g. a missing key)."""


class RenderTimeout(WendyLlmError):
    """A render ran longer than the renderer's timeout; the helper was killed."""


class EngineError(WendyLlmError):
    """The Go helper misbehaved (crashed twice in a row, broke the protocol)."""


class OutputTooLarge(EngineError):
    """A render produced more output than the renderer's cap allows."""


class ToolchainError(WendyLlmError):
    """No Go toolchain was found, or building the helper failed."""


class DataTypeError(WendyLlmError):
    """Template data holds a value Go's engine cannot represent.

    ``path`` locates it in the data map (``.services[2].port``; empty for the
    map itself).
    """

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path
