"""What a loaded ``template.json`` and ``template.schema.json`` hold: the records
:mod:`wendy_llm.render.manifest.load` builds (a :class:`Manifest` of :class:`Variable`
s, a :class:`Picker` of :class:`Phase` s and :class:`Question` s).

They are immutable values (equal by their fields, as dataclasses would be):
:class:`~wendy_llm.record.Record` s: every command loads manifests, and
creating dataclasses costs the command line more than a render (README,
Performance).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from wendy_llm.record import Record
from wendy_llm.render.manifest.jsonpos import JsonPath

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final, Literal

    #: The question types the CLI lists; any other is collected as an input.
    QuestionType = Literal["radio", "checkbox", "input"]
    WhenKind = Literal["equals", "in", "contains"]

MANIFEST_FILE = "template.json"
PICKER_FILE = "template.schema.json"

Scalar = str | float | bool
#: A variable's default: any JSON value, numbers as float64 (an ``interface{}``).
Default = Scalar | list[object] | dict[str, object]
QUESTION_TYPES: Final[tuple[QuestionType, ...]] = ("radio", "checkbox", "input")
WHEN_KINDS: Final[tuple[WhenKind, ...]] = ("equals", "in", "contains")
Positions = Mapping[JsonPath, tuple[int, int]]

_NO_EXTRA: Final[Mapping[str, object]] = MappingProxyType({})


class Validate(Record):
    """A variable's ``validate`` object.  ``ignored`` lists the keys the CLI
    does not check (e.g. ``enum``), for the linter."""

    __slots__ = ("ignored", "max", "min", "pattern")
    _fields = ("min", "max", "pattern", "ignored")

    def __init__(
        self,
        min: int | None = None,
        max: int | None = None,
        pattern: str | None = None,
        ignored: tuple[str, ...] = (),
    ) -> None:
        self.min: Final = min
        self.max: Final = max
        self.pattern: Final = pattern
        self.ignored: Final = ignored


class Variable(Record):
    """One ``template.json`` variable.  ``default`` is None when absent."""

    __slots__ = ("default", "description", "index", "name", "type", "validate")
    _fields = ("name", "type", "default", "description", "validate", "index")

    def __init__(
        self,
        name: str,
        type: str,
        default: Default | None,
        description: str,
        validate: Validate,
        index: int,
    ) -> None:
        self.name: Final = name
        self.type: Final = type
        self.default: Final = default
        self.description: Final = description
        self.validate: Final = validate
        self.index: Final = index

    @property
    def json_path(self) -> JsonPath:
        return ("variables", self.index)


class Manifest(Record):
    """A loaded ``template.json``.  ``data`` is the decoded document and
    ``positions`` maps JSON paths to (line, column)."""

    __slots__ = ("data", "file", "positions", "variables")
    _fields = ("variables", "data", "positions", "file")
    _shown = ("variables", "file")

    def __init__(
        self,
        variables: tuple[Variable, ...],
        data: Mapping[str, object],
        positions: Positions,
        file: str = MANIFEST_FILE,
    ) -> None:
        self.variables: Final = variables
        self.data: Final = data
        self.positions: Final = positions
        self.file: Final = file

    def line_of(self, path: JsonPath) -> int | None:
        """The line where the value at ``path`` starts, or None."""
        found = self.positions.get(path)
        return None if found is None else found[0]


class Option(Record):
    __slots__ = ("extra", "label", "value")
    _fields = ("value", "label", "extra")
    _shown = ("value", "label")

    def __init__(self, value: str, label: str, extra: Mapping[str, object] = _NO_EXTRA) -> None:
        self.value: Final = value
        self.label: Final = label
        self.extra: Final = extra


class When(Record):
    """``{questionId, equals | in | contains}``; ``values`` holds the one
    string of ``equals``/``contains`` or the list of ``in``."""

    __slots__ = ("kind", "question_id", "values")
    _fields = ("question_id", "kind", "values")

    def __init__(self, question_id: str, kind: WhenKind, values: tuple[str, ...]) -> None:
        self.question_id: Final = question_id
        self.kind: Final = kind
        self.values: Final = values


class Question(Record):
    """One picker question.  ``type`` is as written; see :attr:`kind`."""

    __slots__ = (
        "default",
        "id",
        "json_path",
        "label",
        "options",
        "required",
        "secret",
        "type",
        "when",
    )
    _fields = (
        "id",
        "label",
        "type",
        "options",
        "default",
        "required",
        "secret",
        "when",
        "json_path",
    )

    def __init__(
        self,
        id: str,
        label: str,
        type: str,
        options: tuple[Option, ...],
        default: str,
        required: bool,
        secret: bool,
        when: When | None,
        json_path: JsonPath,
    ) -> None:
        self.id: Final = id
        self.label: Final = label
        self.type: Final = type
        self.options: Final = options
        self.default: Final = default
        self.required: Final = required
        self.secret: Final = secret
        self.when: Final = when
        self.json_path: Final = json_path

    @property
    def kind(self) -> QuestionType:
        """How the CLI collects the answer: a type it does not list is an input."""
        if self.type == "radio":
            return "radio"
        return "checkbox" if self.type == "checkbox" else "input"

    @property
    def known_type(self) -> bool:
        return self.type in QUESTION_TYPES

    @property
    def option_values(self) -> tuple[str, ...]:
        return tuple(option.value for option in self.options)


class Phase(Record):
    __slots__ = ("json_path", "questions", "when")
    _fields = ("when", "questions", "json_path")

    def __init__(
        self, when: When | None, questions: tuple[Question, ...], json_path: JsonPath
    ) -> None:
        self.when: Final = when
        self.questions: Final = questions
        self.json_path: Final = json_path


class Picker(Record):
    """A loaded ``template.schema.json``."""

    __slots__ = ("data", "file", "phases", "positions")
    _fields = ("phases", "data", "positions", "file")
    _shown = ("phases", "file")

    def __init__(
        self,
        phases: tuple[Phase, ...],
        data: Mapping[str, object],
        positions: Positions,
        file: str = PICKER_FILE,
    ) -> None:
        self.phases: Final = phases
        self.data: Final = data
        self.positions: Final = positions
        self.file: Final = file

    @property
    def questions(self) -> tuple[Question, ...]:
        """Every question, in walk order."""
        return tuple(q for phase in self.phases for q in phase.questions)

    def line_of(self, path: JsonPath) -> int | None:
        found = self.positions.get(path)
        return None if found is None else found[0]
