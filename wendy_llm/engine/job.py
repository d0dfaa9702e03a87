"""One render asked of the engine: a template's text, its data and its name.

A job checks its text and its name when it is made, once: a batch of them
(``Renderer.render_many``) is then sent as it is, with no check per job on
the hot path (issue 37).  What a caller can still get wrong there, an
element that is no job or a job whose fields were changed since, fails in
the encoder, and :func:`odd_job_error` names it then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from wendy_llm.arguments import ArgumentTypeError
from wendy_llm.errors import TemplateParseError, WendyLlmError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


class RenderJob:
    """One template to render: its text, its data map and its name.

    ``name`` is the Go template name, i.e. the file's path relative to the
    template root; Go error messages quote it.  A text that is no ``str`` or
    ``bytes``, or a name that is no ``str``, is a :class:`TemplateParseError`
    naming it, raised here.  A value (equal by its fields, immutable); a
    plain class, not a dataclass, whose creation would cost the command line
    more than a render (README, Performance).
    """

    __slots__ = ("data", "name", "text")

    def __init__(
        self, text: str | bytes, data: Mapping[str, object], name: str = "template"
    ) -> None:
        if type(name) is not str or type(text) not in (str, bytes):  # exact: the fast test
            refuse_odd_texts(((text, name),))
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


def refuse_odd_texts(texts: Iterable[tuple[object, object]]) -> None:
    """A (text, name) whose text is no ``str`` or ``bytes``, or whose name is
    no ``str``, is a caller's mistake: a ``TemplateParseError`` naming it,
    never a ``TypeError`` from the wire."""
    for text, name in texts:
        if not isinstance(name, str):
            kind = type(name).__name__
            raise TemplateParseError(f"a template name is a str, not {kind}", name=str(name))
        if not isinstance(text, str | bytes):
            kind = type(text).__name__
            raise TemplateParseError(
                f"template: {name}: the text is a {kind}, not str or bytes", name=name
            )


def check_batch(function: str, jobs: object) -> None:
    """``jobs`` must be a sequence (of jobs: see :func:`odd_job_error`)."""
    if type(jobs) in (list, tuple):  # the common case, before the ABC's slower test
        return
    if not isinstance(jobs, Sequence) or isinstance(jobs, str | bytes):
        raise _not_jobs(function, jobs)


def odd_job_error(function: str, jobs: Sequence[object], failure: Exception) -> Exception:
    """The error to raise for a batch the encoder failed on with ``failure``:
    an :class:`ArgumentTypeError` for an element that is no job, the
    :class:`TemplateParseError` of a job whose text or name was changed to
    one of the wrong type since, else ``failure`` itself (no caller's
    mistake found: a bug, left as it is)."""
    if isinstance(failure, WendyLlmError):
        return failure
    if not all(isinstance(job, RenderJob) for job in jobs):
        return _not_jobs(function, jobs)
    try:
        refuse_odd_texts((job.text, job.name) for job in jobs if isinstance(job, RenderJob))
    except TemplateParseError as error:
        return error
    return failure


def _not_jobs(function: str, jobs: object) -> ArgumentTypeError:
    if isinstance(jobs, list | tuple | set | frozenset) and jobs:
        kinds = ", ".join(sorted({type(job).__name__ for job in jobs}))
        got = f"{type(jobs).__name__} of {kinds}"
    else:
        got = "None" if jobs is None else type(jobs).__name__
    return ArgumentTypeError(
        f"{function}: jobs must be Sequence[RenderJob], not {got}",
        function=function,
        argument="jobs",
    )
