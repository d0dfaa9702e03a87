"""Folders at template depth that look like templates but are not: no ``template.json``.

Discovery (:func:`~wendy_llm.repo.layout.iter_template_dirs`, rule 4) skips a
``<language>/<name>/`` folder without a ``template.json``, and so does the
Wendy CLI: ``wendy init`` refuses it ("no template.json") and its list never
shows it (docs/checks.md, "Template folders").  A folder that nevertheless holds a
template's files (a ``wendy.json``, a Dockerfile, a compose file, a file
with ``{{`` actions) was meant to be one: :func:`unseen_template_dirs`
names each with the files that make it look like a template, so ``check``
can fail the repository instead of skipping it without a word.  The same
folders as discovery are passed over (hidden, ``common``, ``docs``,
``golden``, ``node_modules``, the golden directory, the settings' ``ignore``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from wendy_llm.docker.context import is_dockerfile_name
from wendy_llm.render.manifest.load import MANIFEST_FILE
from wendy_llm.repo.config import Settings
from wendy_llm.repo.layout import NOT_LANGUAGES
from wendy_llm.safe_read import ReadRefused, read_bytes, resolve_inside

WENDY_JSON = "wendy.json"
COMPOSE_NAMES = ("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml")
#: The first files of a folder read for ``{{``; a template's files are small.
_MAX_FILES = 200
_MAX_BYTES = 256 * 1024


@dataclass(frozen=True)
class UnseenFolder:
    """A folder at template depth without ``template.json``, and why it looks like one."""

    id: str  # ``<language>/<name>``
    path: Path
    evidence: tuple[str, ...]  # relative paths, each with what it is


def unseen_template_dirs(
    templates_root: Path, *, settings: Settings | None = None, golden_dir: Path | None = None
) -> list[UnseenFolder]:
    """Every ``<language>/<name>/`` holding template files but no ``template.json``."""
    skipped = golden_dir.resolve() if golden_dir is not None else None
    found = []
    for language in sorted(templates_root.iterdir()) if templates_root.is_dir() else ():
        if language.name.startswith(".") or language.name in NOT_LANGUAGES:
            continue
        if not language.is_dir() or (skipped is not None and language.resolve() == skipped):
            continue
        if _leads_out(language, templates_root):
            continue  # discovery refuses it, naming the link: never followed here
        for candidate in sorted(language.iterdir()):
            template_id = f"{language.name}/{candidate.name}"
            if candidate.name.startswith(".") or not candidate.is_dir():
                continue
            if _leads_out(candidate, templates_root):
                continue
            if os.path.lexists(candidate / MANIFEST_FILE):
                continue
            if settings is not None and settings.ignores(template_id):
                continue
            evidence = template_evidence(candidate)
            if evidence:
                found.append(UnseenFolder(template_id, candidate, tuple(evidence)))
    return found


def template_evidence(folder: Path) -> list[str]:
    """What in ``folder`` is a template's: ``wendy.json``, Dockerfiles, compose files,
    files with ``{{`` (each relative to ``folder``, with what it is)."""
    out: list[str] = []
    seen = 0
    for directory, subdirs, files in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d != "node_modules")
        for name in sorted(files):
            path = Path(directory) / name
            rel = path.relative_to(folder).as_posix()
            if name == WENDY_JSON:
                out.append(f"{rel} (the app's wendy.json)")
            elif is_dockerfile_name(name):
                out.append(f"{rel} (a Dockerfile)")
            elif name in COMPOSE_NAMES:
                out.append(f"{rel} (a compose file)")
            elif seen < _MAX_FILES and _has_actions(path, folder):
                out.append(f"{rel} (template actions {{{{ ... }}}})")
            seen += 1
    return sorted(out)


def _leads_out(path: Path, root: Path) -> bool:
    try:
        resolve_inside(path, root)
    except ReadRefused:
        return True
    return False


def _has_actions(path: Path, folder: Path) -> bool:
    try:  # the one reader: a link, a device or a large file is not read, so no evidence
        return b"{{" in read_bytes(path, folder, limit=_MAX_BYTES)
    except (ReadRefused, OSError):
        return False
