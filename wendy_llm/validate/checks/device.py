"""The ``device`` check: what ``wendy run`` would do with the render on a WendyOS device.

The render's device view (:mod:`wendy_llm.device`) is built from the
documents ``check`` already parsed; its findings become the check's: what
makes ``wendy run`` fail is an error, what the device silently drops or
ignores is a warning (warnings fail ``check`` only with ``--strict``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from wendy_llm.codes import Check, info
from wendy_llm.codes.device import (
    COMPOSE_UNLOADABLE,
    NOT_JUDGED,
    SERVICE_NO_IMAGE,
    UNKNOWN_DEPENDENCY,
    WENDY_JSON_REFUSED,
)
from wendy_llm.codes.tools import COMPOSE_REFUSED
from wendy_llm.device import PROFILES, DeviceProfile, DeviceView, compose_file, device_view
from wendy_llm.validate.documents.parse import (
    Documents,
    compose_files,
    parse_documents,
    parse_yaml,
)
from wendy_llm.validate.findings import Finding, finding, note

CHECK = Check.DEVICE


def build_view(
    tree: Mapping[str, bytes],
    project: str,
    docs: Documents | None = None,
    devices: Sequence[DeviceProfile] = PROFILES,
) -> DeviceView:
    """The device view of a render whose project directory is named ``project``."""
    if docs is None:
        docs = parse_documents(tree)
    path = compose_file(tree)
    compose = docs.compose
    if path is not None and (compose is None or compose.path != path):
        # wendy run and Docker Compose disagree on which file to read.
        compose = parse_yaml(path, tree[path])
    return device_view(tree, project=project, compose=compose, wendy=docs.wendy, devices=devices)


#: Device codes whose root cause another check reports (the file does not
#: load): when it does, the device check notes it could not judge instead.
_SAME_ROOT: dict[str, str] = {
    COMPOSE_UNLOADABLE.code: Check.COMPOSE,
    WENDY_JSON_REFUSED.code: Check.WENDY_JSON,
}


def device_findings(view: DeviceView, reported: Sequence[Finding] = ()) -> list[Finding]:
    """The view's findings as ``device`` check findings.

    ``reported``: the findings other checks made of the same render.  A
    defect one of them reports (a compose file or ``wendy.json`` that does
    not load) is theirs: the device check says it could not judge, in a
    note naming their code, so the defect counts once (issue 27).
    """
    out = []
    for f in view.findings:
        owner = _reported_by(f.code, f.file, reported)
        if owner is not None:
            message = f"not judged: {f.message} ({owner.check} reports it as {owner.code})"
            out.append(note(NOT_JUDGED, message, f.file, f.line, subject=owner.code))
        else:
            out.append(finding(info(f.code), f.message, f.file, f.line, subject=f.subject))
    return out


def _reported_by(code: str, file: str | None, reported: Sequence[Finding]) -> Finding | None:
    check = _SAME_ROOT.get(code)
    if check is None:
        return None
    return next(
        (f for f in reported if f.check == check and f.severity == "error" and f.file == file),
        None,
    )


#: Device errors Docker Compose refuses too, and Compose's words for them
#: (docker-compose config stops at the first; :func:`not_repeated`).
_COMPOSE_SAYS: dict[str, tuple[re.Pattern[str], str]] = {
    SERVICE_NO_IMAGE.code: (
        re.compile(r"service (?P<service>\S+) has neither image nor build"),
        'service "{service}" has neither an image nor a build context',
    ),
    UNKNOWN_DEPENDENCY.code: (
        re.compile(r"services\.(?P<service>\S+)\.depends_on names (?P<other>\S+), which is not"),
        'service "{service}" depends on undefined service "{other}"',
    ),
}


def not_repeated(device: Sequence[Finding], compose: Sequence[Finding]) -> list[Finding]:
    """``device`` without what Docker Compose's refusal (in ``compose``) already says:
    each such error becomes a note naming Compose's code, so the defect counts once."""
    out = []
    for f in device:
        said = _COMPOSE_SAYS.get(f.code)
        found = None if said is None else said[0].match(f.message)
        phrase = None if said is None or found is None else said[1].format(**found.groupdict())
        owner = next(
            (
                c
                for c in compose
                if phrase and c.code == COMPOSE_REFUSED.code and phrase in c.message
            ),
            None,
        )
        if owner is None:
            out.append(f)
            continue
        message = f"not judged: {f.message} (compose reports it as {owner.code})"
        out.append(note(NOT_JUDGED, message, f.file, f.line, subject=owner.code))
    return out


def load_problems(tree: Mapping[str, bytes], docs: Documents) -> list[Finding]:
    """What the compose check says of compose files that do not parse (as
    :func:`device_findings` reads ``reported``)."""
    found = []
    for path in compose_files(tree):
        parsed = docs.compose if docs.compose and docs.compose.path == path else None
        parsed = parsed or parse_yaml(path, tree[path], check=Check.COMPOSE)
        if parsed.problem is not None:
            found.append(parsed.problem)
    return found
