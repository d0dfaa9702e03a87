"""Every exception the library raises.

Each class carries the fields a caller needs (file, line, variable, ...) and
its ``str()`` is the message a user reads.  The CLI maps ``WendyLlmError`` to
exit code 2 (bad input) and failed checks to exit code 1.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Self


def quoted(text: str) -> str:
    """``text`` as every message shows a user's value: in double quotes, escaped
    to stay one line (not ``repr``, which switches quote styles)."""
    return json.dumps(text, ensure_ascii=False)


class WendyLlmError(Exception):
    """Base class: anything wrong with the input or the environment.

    Every error has the same fields, ``None`` where they do not apply:
    ``template`` (the template's id), ``file`` (a path in the template, or a
    configuration file), ``line`` (1-based) and ``variable``.  ``str()`` names
    the template first, then the file, and ends with ``advice`` for a library
    caller; :func:`cli_text` gives the command line's advice instead.
    """

    template: str | None = None
    file: str | None = None
    line: int | None = None
    variable: str | None = None
    #: What the caller can do about it, for a library caller / on the command line.
    advice: str | None = None
    cli_advice: str | None = None

    def __str__(self) -> str:
        return self.text(self.advice)

    def describe(self) -> str:
        """The message without the template or the advice."""
        return super().__str__()

    def text(self, advice: str | None) -> str:
        """The message with this advice (``str()``: the library's)."""
        body = self.describe()
        if self.template is not None:
            body = f"template {self.template}: {body}"
        return f"{body}; {advice}" if advice else body

    def in_template(self, template_id: str) -> Self:
        """This error, said of ``template_id`` (unless it names a template already)."""
        if self.template is None:
            self.template = template_id
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only fields and those set after construction survive
        # pickling (multiprocessing, xdist): the instance is made without
        # __init__, then its fields are restored.
        return (_new_error, (type(self), self.args), self.__dict__)


def _new_error(cls: type[WendyLlmError], args: tuple[object, ...]) -> WendyLlmError:
    return cls.__new__(cls, *args)


def cli_text(error: WendyLlmError) -> str:
    """``error``'s message as the command line says it (its own advice)."""
    return error.text(error.cli_advice or error.advice)


# --- the engine ---------------------------------------------------------------


class TemplateError(WendyLlmError):
    """A Go ``text/template`` error for one template.

    ``name`` is the template name (the file's path relative to the template
    root; ``file`` is the same), ``line``/``column`` locate the error when
    Go reports them, and ``message`` is Go's error text verbatim
    (``template: name:3:7: ...``).
    """

    def __init__(
        self, message: str, *, name: str, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.name = name
        self.file = name
        self.line = line
        self.column = column

    def describe(self) -> str:
        return self.message


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

    ``file`` names the file, ``line`` the offending line when known, and
    ``rule`` the rule (``rules[2] (name)``) or section it is about.
    """

    def __init__(
        self, message: str, *, file: str, line: int | None = None, rule: str | None = None
    ) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.rule = rule


class CheckSelectionError(WendyLlmError):
    """A command was asked for a template or pick that does not exist, or found
    no template at all."""


class DataTypeError(WendyLlmError):
    """Template data holds a value Go's engine cannot represent.

    ``key_path`` locates it in the data map (``.services[2].port``; empty
    for the map itself); ``variable`` is its top-level key, when there is one.
    """

    def __init__(self, message: str, *, key_path: str) -> None:
        super().__init__(message)
        self.key_path = key_path
        top = key_path[1:].split(".", 1)[0].split("[", 1)[0] if key_path.startswith(".") else ""
        self.variable = top or None


# --- templates: manifest, values, files, picks -------------------------------


class TemplateLoadError(WendyLlmError):
    """A template directory cannot be read (``file`` names what failed)."""

    def __init__(self, message: str, *, file: str) -> None:
        super().__init__(message)
        self.file = file


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


class ValuesError(WendyLlmError):
    """A value cannot be assembled: a bad override, a missing variable, a
    required picker question without an answer, an unknown override name
    (strict mode).  ``variable`` names it."""

    variable: str

    def __init__(
        self,
        message: str,
        *,
        variable: str,
        advice: str | None = None,
        cli_advice: str | None = None,
    ) -> None:
        super().__init__(message)
        self.variable = variable
        self.advice = advice
        self.cli_advice = cli_advice


class MissingValueError(ValuesError):
    """A variable has no default and no value was given (``wendy init`` asks
    for it; non-interactively it is an error)."""


class AppIdError(ValuesError):
    """The app id is empty or (strict mode) unsafe; ``variable`` is ``APP_ID``."""

    def __init__(
        self, message: str, *, advice: str | None = None, cli_advice: str | None = None
    ) -> None:
        super().__init__(message, variable="APP_ID", advice=advice, cli_advice=cli_advice)


class RenderError(TemplateError):
    """A file of a template failed in the engine, worded as ``wendy init``
    words it: ``template <id>: parsing <file>: <go error>`` (a
    :class:`RenderParseError`, also a :class:`TemplateParseError`) or
    ``... rendering <file>: <go error>`` (a :class:`RenderExecError`, also a
    :class:`TemplateExecError`).

    ``file`` (and ``name``) is the file's path in the template, ``template``
    the template's id, ``line``/``column`` where Go located it, ``message``
    Go's error text.
    """

    verb = "rendering"

    @classmethod
    def of(cls, error: TemplateError, *, template: str) -> RenderError:
        """The engine's ``error`` for one file, said of the template."""
        kind = RenderParseError if isinstance(error, TemplateParseError) else RenderExecError
        made = kind(error.message, name=error.name, line=error.line, column=error.column)
        made.template = template
        return made

    def describe(self) -> str:
        return f"{self.verb} {self.file}: {self.message}"


class RenderParseError(RenderError, TemplateParseError):
    """A file of a template does not parse (``parsing <file>: ...``)."""

    verb = "parsing"


class RenderExecError(RenderError, TemplateExecError):
    """A file of a template failed while executing (``rendering <file>: ...``)."""


class TreeWriteError(WendyLlmError):
    """A rendered tree could not be written to ``path``, the output directory
    (nothing was left behind); ``file`` is unset: no one file is at fault."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


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


class PickError(WendyLlmError):
    """A pick was asked for by a slug the template does not have."""


# --- the repository: where things are, its settings ---------------------------


class LayoutError(WendyLlmError):
    """Where things are cannot be settled as asked: a golden directory outside
    the repository, a templates directory that does not exist."""


class SettingsError(LayoutError):
    """The repository's ``wendy-llm.toml`` is invalid.

    ``file`` names the file, ``line`` the offending line when known, ``key``
    the setting (``sample-values."python/openai-chat".PORT``).
    """

    def __init__(
        self, message: str, *, file: str, line: int | None = None, key: str | None = None
    ) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.key = key


class SuppressionsError(LayoutError):
    """The repository's suppressions file is invalid, or cannot be written as asked.

    ``file`` names the file, ``line`` the offending line when known.
    """

    def __init__(self, message: str, *, file: str, line: int | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


# --- golden fixtures and baseline comparison ---------------------------------


class GoldenError(WendyLlmError):
    """The golden fixtures cannot be read, written or selected as asked."""


class GoldenManifestError(GoldenError):
    """A fixture's ``golden.json`` is not a valid manifest (``file`` names it)."""

    def __init__(self, message: str, *, file: str) -> None:
        super().__init__(message)
        self.file = file


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
