"""One render asked of the engine: a template's text, its data and its name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from wendy_llm.errors import TemplateParseError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


class RenderJob:
    """One template to render: its text, its data map and its name.

    ``name`` is the Go template name, i.e. the file's path relative to the
    template root; Go error messages quote it.  A value (equal by its
    fields, immutable); a plain class, not a dataclass, whose creation would
    cost the command line more than a render (README, Performance).
    """

    __slots__ = ("data", "name", "text")

    def __init__(
        self, text: str | bytes, data: Mapping[str, object], name: str = "template"
    ) -> None:
        self.text: Final = text
        self.data: Final = data
        self.name: Final = name

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RenderJob):
            return NotImplemented
        return (self.text, self.data, self.name) == (other.text, other.data, other.name)

    __hash__ = None  # type: ignore[assignment]  # its data map is not hashable

    def __repr__(self) -> str:
        return f"RenderJob(text={self.text!r}, data={self.data!r}, name={self.name!r})"


def refuse_odd_texts(jobs: Iterable[RenderJob]) -> None:
    """A job whose text is no ``str`` or ``bytes``, or whose name is no ``str``,
    is a caller's mistake: a ``TemplateParseError`` naming it, never a
    ``TypeError`` from the wire."""
    for job in jobs:
        if not isinstance(job.name, str):
            kind = type(job.name).__name__
            raise TemplateParseError(f"a template name is a str, not {kind}", name=str(job.name))
        if not isinstance(job.text, str | bytes):
            kind = type(job.text).__name__
            raise TemplateParseError(
                f"template: {job.name}: the text is a {kind}, not str or bytes", name=job.name
            )
