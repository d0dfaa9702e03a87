"""The dockerfile check's build problems: their kinds (each a code) and their findings.

A problem is found per build-argument combination; :func:`merge_combinations`
makes one finding of each distinct problem, and :func:`with_subjects` names
what each finding is about (the stage and the instruction, never the line),
the fingerprint a suppression records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from wendy_llm.codes import CodeInfo
from wendy_llm.codes import builds as codes
from wendy_llm.docker.model import Dockerfile
from wendy_llm.validate.dockerfiles.args import describe
from wendy_llm.validate.findings import Finding, finding

#: One problem of one build-argument combination: line, message, is it certain,
#: and its kind (a key of :data:`KINDS`).
Problem = tuple[int, str, bool, str]
#: Kind -> its code when certain, and when a RUN the check cannot follow may have
#: fixed it (None: the kind is always certain).
KINDS: Mapping[str, tuple[CodeInfo, CodeInfo | None]] = {
    "from": (codes.DF_FROM, None),
    "expand": (codes.DF_EXPANSION, None),
    "source": (codes.DF_SOURCE_MISSING, None),
    "etc": (codes.DF_ETC_WRITE, None),
    "lockfile": (codes.DF_LOCKFILE, codes.DF_LOCKFILE_MAYBE),
    "exec": (codes.DF_NOT_EXECUTABLE, codes.DF_NOT_EXECUTABLE_MAYBE),
}


def merge_combinations(
    path: str, per_combo: Sequence[tuple[Mapping[str, str], set[Problem]]]
) -> list[Finding]:
    """One finding per distinct problem; say which combinations when not all."""
    seen: dict[Problem, list[Mapping[str, str]]] = {}
    for combo, problems in per_combo:
        for problem in sorted(problems):
            seen.setdefault(problem, []).append(combo)
    findings = []
    for (line, message, certain, kind), failing in sorted(seen.items()):
        text = message.replace("{combo}", "")
        if len(failing) < len(per_combo) and "{combo}" not in message:
            more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
            text = f"{text} (with {describe(failing[0])}{more})"
        findings.append(finding(_code(kind, certain), text, path, line))
    return findings


def _code(kind: str, certain: bool) -> CodeInfo:
    sure, maybe = KINDS[kind]
    if certain:
        return sure
    if maybe is None:
        raise ValueError(f"a {kind} problem is always certain")
    return maybe


def with_subjects(findings: Iterable[Finding], dockerfile: Dockerfile) -> list[Finding]:
    """``findings`` of one Dockerfile, each naming its stage and instruction as subject."""
    return [
        f
        if f.subject or f.line is None
        else dataclasses.replace(f, subject=_subject(dockerfile, f.line))
        for f in findings
    ]


def _subject(dockerfile: Dockerfile, line: int) -> str:
    """``stage builder: COPY`` (``stage 1`` when unnamed; ``preamble`` before any FROM)."""
    keyword = next((i.keyword for i in dockerfile.instructions if i.line == line), "")
    stage = None
    for each in dockerfile.stages:
        if each.line <= line:
            stage = each
    where = "preamble" if stage is None else f"stage {stage.name or stage.index}"
    return f"{where}: {keyword}" if keyword else where
