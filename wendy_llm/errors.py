"""Every exception the library raises.

Each class carries the fields a caller needs (file, line, variable, ...) and
its ``str()`` is the message a user reads.  The CLI maps ``WendyLlmError`` to
exit code 2 (bad input) and failed checks to exit code 1.
"""

from __future__ import annotations

import json


def quoted(text: str) -> str:
    """``text`` as a message shows a user's value: in double quotes, with quotes,
    backslashes and control characters escaped so the message stays one line.

    One spelling for every message (not Python's ``repr``, which switches
    between quote styles and prints Python escapes).
    """
    return json.dumps(text, ensure_ascii=False)


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
        return (
            _rebuild_template_error,
            (type(self), self.message, self.name, self.line, self.column),
        )


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


# --- validation and `check` --------------------------------------------------


class ValidatorToolError(WendyLlmError):
    """A tool a validator needs (docker-compose, shellcheck, bash) is missing or broke."""


class RulesError(WendyLlmError):
    """A template's rules file (``golden/<lang>/<name>.rules.yaml``) is malformed.

    ``path`` names the file, ``line`` the offending line when known, and
    ``rule`` the rule (``rules[2] (name)``) or section it is about.
    """

    def __init__(
        self, message: str, *, path: str, line: int | None = None, rule: str | None = None
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.rule = rule


class CheckSelectionError(WendyLlmError):
    """A command was asked for a template or pick that does not exist, or found
    no template at all."""


class DataTypeError(WendyLlmError):
    """Template data holds a value Go's engine cannot represent.

    ``path`` locates it in the data map (``.services[2].port``; empty for the
    map itself).
    """

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


# --- templates: manifest, values, files, picks -------------------------------


class TemplateLoadError(WendyLlmError):
    """A template directory cannot be read (``path`` names what failed)."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_with_kwargs, (type(self), self.args, {"path": self.path}))


def _rebuild_with_kwargs(
    cls: type[WendyLlmError], args: tuple[object, ...], kwargs: dict[str, object]
) -> WendyLlmError:
    # Exceptions with keyword-only fields do not survive the default pickling.
    return cls(*args, **kwargs)


class ManifestError(WendyLlmError):
    """``template.json`` or ``template.schema.json`` is malformed.

    ``file`` is the manifest's file name, ``json_path`` the offending
    element (``phases[0].questions[1]``, empty for the document itself),
    and ``line``/``column`` (1-based) locate it when known.  ``str()`` is
    ``<file>: <json path>: <message>`` for shape errors and
    ``<file>:<line>:<column>: <message>`` for syntax errors.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str,
        json_path: str = "",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.file = file
        self.json_path = json_path
        self.line = line
        self.column = column

    def __reduce__(self) -> tuple[object, ...]:
        fields: dict[str, object] = {"file": self.file, "json_path": self.json_path}
        fields.update(line=self.line, column=self.column)
        return (_rebuild_with_kwargs, (type(self), self.args, fields))


class ValuesError(WendyLlmError):
    """A value cannot be assembled: a bad override, a missing variable, a
    required picker question without an answer.  ``variable`` names it."""

    def __init__(self, message: str, *, variable: str) -> None:
        super().__init__(message)
        self.variable = variable

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_with_kwargs, (type(self), self.args, {"variable": self.variable}))


class MissingValueError(ValuesError):
    """A variable has no default and no value was given (``wendy init`` asks
    for it; non-interactively it is an error)."""


class AppIdError(ValuesError):
    """The app id is empty or (strict mode) unsafe; ``variable`` is ``APP_ID``."""

    def __init__(self, message: str) -> None:
        super().__init__(message, variable="APP_ID")

    def __reduce__(self) -> tuple[object, ...]:
        return (AppIdError, self.args)


class RenderError(WendyLlmError):
    """A file of the template failed in the engine, worded as ``wendy init``
    words it: ``parsing <path>: <go error>`` or ``rendering <path>: <go error>``.

    ``path`` is the file's path in the template and ``cause`` the engine's
    ``TemplateError`` (``line``/``column`` come from it).
    """

    def __init__(self, *, path: str, cause: TemplateError) -> None:
        verb = "parsing" if isinstance(cause, TemplateParseError) else "rendering"
        super().__init__(f"{verb} {path}: {cause.message}")
        self.path = path
        self.cause = cause

    @property
    def line(self) -> int | None:
        return self.cause.line

    @property
    def column(self) -> int | None:
        return self.cause.column

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_render_error, (self.path, self.cause))


def _rebuild_render_error(path: str, cause: TemplateError) -> RenderError:
    return RenderError(path=path, cause=cause)


class TreeWriteError(WendyLlmError):
    """A rendered tree could not be written to ``path`` (nothing was left behind)."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_with_kwargs, (type(self), self.args, {"path": self.path}))


class OutputDirNotEmpty(TreeWriteError):
    """The output directory holds files and replacing it was not allowed."""


class OutputDirRefused(TreeWriteError):
    """The output directory must never be replaced or written into.

    ``reason`` is ``template`` (it is or contains the template directory),
    ``inside-template``, ``repository`` (it is or contains a git work
    tree's root), ``cwd`` (the current directory) or ``home``;
    ``protected`` is the directory it would have destroyed.
    """

    def __init__(self, message: str, *, path: str, reason: str, protected: str) -> None:
        super().__init__(message, path=path)
        self.reason = reason
        self.protected = protected

    def __reduce__(self) -> tuple[object, ...]:
        fields = {"path": self.path, "reason": self.reason, "protected": self.protected}
        return (_rebuild_with_kwargs, (type(self), self.args, fields))


class PathCollisionError(WendyLlmError):
    """The app id makes one template file land where another needs a directory.

    ``file`` is the template path written as a file, ``other`` the one that
    would be written inside it, ``app_id`` the app id that made them meet.
    """

    def __init__(self, message: str, *, file: str, other: str, app_id: str) -> None:
        super().__init__(message)
        self.file = file
        self.other = other
        self.app_id = app_id

    def __reduce__(self) -> tuple[object, ...]:
        fields = {"file": self.file, "other": self.other, "app_id": self.app_id}
        return (_rebuild_with_kwargs, (type(self), self.args, fields))


class PickError(WendyLlmError):
    """A pick was asked for by a slug the template does not have."""


# --- the repository: where things are, its settings ---------------------------


class LayoutError(WendyLlmError):
    """Where things are cannot be settled as asked: a golden directory outside
    the repository, a templates directory that does not exist."""


class SettingsError(LayoutError):
    """The repository's ``wendy-llm.toml`` is invalid.

    ``path`` names the file, ``line`` the offending line when known, ``key``
    the setting (``sample-values."python/openai-chat".PORT``).
    """

    def __init__(
        self, message: str, *, path: str, line: int | None = None, key: str | None = None
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.key = key


class SuppressionsError(LayoutError):
    """The repository's suppressions file is invalid, or cannot be written as asked.

    ``path`` names the file, ``line`` the offending line when known.
    """

    def __init__(self, message: str, *, path: str, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line

    def __reduce__(self) -> tuple[object, ...]:
        fields = {"path": self.path, "line": self.line}
        return (_rebuild_with_kwargs, (type(self), self.args, fields))


# --- golden fixtures and baseline comparison ---------------------------------


class GoldenError(WendyLlmError):
    """The golden fixtures cannot be read, written or selected as asked."""


class GoldenManifestError(GoldenError):
    """A fixture's ``golden.json`` is not a valid manifest (``path`` names it)."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


class GoldenUpdateRefused(GoldenError):
    """``golden --update`` was asked to write fixtures in CI without ``--force``."""


class GitError(WendyLlmError):
    """Reading a template through git failed."""


class NotAGitRepository(GitError):
    """The directory given as the repository is not inside a git work tree."""


class UnknownRevision(GitError):
    """The revision does not name a commit in the repository (``revision``)."""

    def __init__(self, message: str, *, revision: str) -> None:
        super().__init__(message)
        self.revision = revision


class NoTemplateAtRevision(GitError):
    """The revision exists but holds no template at the asked path."""


class DiffError(WendyLlmError):
    """A baseline comparison was asked for something that cannot be compared."""


# --- mutation testing --------------------------------------------------------


class MutantError(WendyLlmError):
    """A mutant does not apply to the template (a search string is missing,
    repeated, or names a file the template lacks), names no check that can
    kill it, or is unknown."""
