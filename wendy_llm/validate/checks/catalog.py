"""The ``catalog`` check: ``meta.json`` agrees with the template directories.

When the repository has a ``meta.json``
(:meth:`wendy_llm.repo.layout.Layout.meta_json` finds it), each template
``<language>/<name>/`` gets a ``catalog`` row:

- it is reachable: ``meta.json`` lists ``name`` (else ``wendy init
  --template name`` refuses it), and the entry's ``languages``, when given,
  include ``language``;
- the entry's ``targets`` agree with the ``platform`` its renders'
  ``wendy.json`` declares: a ``wendy-lite`` app is offered under the
  ``wendy-lite`` target (an entry without targets is offered to WendyOS
  devices only, where it cannot run), and an entry offered to
  ``wendy-lite`` holds only ``wendy-lite`` apps;
- the entry's description is not empty (``wendy init`` lists it);
- the entry's ``targets``, when given, name a target the CLI knows
  (``wendyos`` or ``wendy-lite``): else the picker never offers the
  template (a warning: ``--template NAME`` still reaches it).

A ``<language>/<name>/`` folder holding a template's files but no
``template.json`` (:mod:`wendy_llm.repo.unseen`) fails the repository row,
with or without a ``meta.json``.

What belongs to no template goes on the repository row: a ``meta.json``
Go cannot decode, an entry that exists in no language (or lists a
language where it does not exist), an entry listed twice, and a
``languages`` list that does not match the language folders holding
templates.  Every finding names ``meta.json`` and, where it can, the line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wendy_llm.codes import Check, CodeInfo
from wendy_llm.codes.template import (
    CATALOG_DECODE,
    CATALOG_JSON,
    CATALOG_LANGUAGE,
    CATALOG_LANGUAGE_EMPTY,
    CATALOG_LANGUAGE_MISSING,
    CATALOG_LANGUAGE_UNLISTED,
    CATALOG_LITE_MISSING,
    CATALOG_LITE_WRONG,
    CATALOG_NO_DESCRIPTION,
    CATALOG_NOWHERE,
    CATALOG_REFUSED,
    CATALOG_REPEATED,
    CATALOG_UNKNOWN_TARGETS,
    CATALOG_UNLISTED,
    CATALOG_UNSEEN_FOLDER,
)
from wendy_llm.errors import quoted
from wendy_llm.render.manifest.gojson import GoJsonSyntaxError, decode
from wendy_llm.render.manifest.jsonpos import JsonPath, value_positions
from wendy_llm.repo.unseen import UnseenFolder
from wendy_llm.safe_read import ReadRefused, read_bytes
from wendy_llm.validate.findings import Finding, error, warning
from wendy_llm.wendycli.catalog import (
    KNOWN_TARGETS,
    META_FILE,
    WENDY_LITE,
    Catalog,
    Entry,
    load_catalog,
)
from wendy_llm.wendycli.wendy_json import APP_CONFIG
from wendy_llm.wendycli.wendy_json import FILE as WENDY_JSON

CHECK = Check.CATALOG


@dataclass
class CatalogFindings:
    """Findings per template id, and those of the repository row."""

    templates: dict[str, list[Finding]] = field(default_factory=dict)
    repository: list[Finding] = field(default_factory=list)
    #: meta.json could not be decoded: nothing else was judged.
    unreadable: bool = False


def rendered_platform(tree: Mapping[str, bytes]) -> str:
    """The ``platform`` a render's ``wendy.json`` declares, as the CLI decodes it ("": none)."""
    data = tree.get(WENDY_JSON)
    if data is None:
        return ""
    try:
        config = decode(APP_CONFIG, data).value
    except GoJsonSyntaxError:
        return ""  # the wendy-json check reports it
    return str(config["platform"]) if isinstance(config, Mapping) else ""


def check_catalog(
    path: Path | None,
    template_ids: Sequence[str],
    renders: Mapping[str, Mapping[str, Mapping[str, bytes]]],
    *,
    complete: bool,
) -> CatalogFindings | None:
    """The catalog check of a run (None: the repository has no ``meta.json``,
    ``path``).

    ``renders`` maps each checked template id to its picks' renders.  A run
    of some templates only (``complete`` false) has no repository row: what
    stops ``meta.json`` from being read goes on each checked template's row.
    """
    if path is None:
        return None
    platforms = {
        template_id: {slug: rendered_platform(tree) for slug, tree in picks.items()}
        for template_id, picks in renders.items()
    }
    found = read_catalog(path, template_ids, platforms)
    if not complete:
        for template_id in renders if found.unreadable else ():
            found.templates[template_id] = list(found.repository)
        found.repository = []
    return found


def unseen_folder_findings(folders: Sequence[UnseenFolder]) -> list[Finding]:
    """Template folders without ``template.json``: each fails the repository row."""
    out = []
    for folder in folders:
        shown = ", ".join(folder.evidence[:5])
        more = f" and {len(folder.evidence) - 5} more" if len(folder.evidence) > 5 else ""
        message = (
            f"{folder.id}/ holds a template's files ({shown}{more}) but no template.json: "
            f'`wendy init` refuses it ("no template.json"), the CLI cannot list it, and the '
            "gate never checks it (docs/checks.md, template folders); add one, or move the "
            "files out of <language>/<name>/"
        )
        out.append(error(CATALOG_UNSEEN_FOLDER, message, f"{folder.id}/"))
    return out


@dataclass
class _Judge:
    catalog: Catalog
    positions: Mapping[JsonPath, tuple[int, int]]
    file: str

    def line(self, path: JsonPath) -> int | None:
        raw = self.catalog.decoded.raw_path(path)
        while raw and raw not in self.positions:
            raw = raw[:-1]
        found = self.positions.get(raw)
        return None if found is None else found[0]

    def error(self, code: CodeInfo, message: str, path: JsonPath = ()) -> Finding:
        return error(code, message, self.file, self.line(path))

    def warning(self, code: CodeInfo, message: str, path: JsonPath = ()) -> Finding:
        return warning(code, message, self.file, self.line(path))


def read_catalog(
    path: Path, template_ids: Sequence[str], platforms: Mapping[str, Mapping[str, str]]
) -> CatalogFindings:
    """:func:`catalog_findings` of the file at ``path``, read by the one reader: a
    ``meta.json`` linked out of its folder, not a regular file or too large is a
    finding, and nothing of it is read."""
    try:
        meta = read_bytes(path, shown=META_FILE)
    except (ReadRefused, OSError) as exc:
        out = CatalogFindings({template_id: [] for template_id in template_ids})
        reason = exc.reason if isinstance(exc, ReadRefused) else exc.strerror
        out.repository.append(error(CATALOG_REFUSED, f"not read: {reason}", META_FILE))
        out.unreadable = True
        return out
    return catalog_findings(meta, template_ids, platforms)


def catalog_findings(
    meta: bytes,
    template_ids: Sequence[str],
    platforms: Mapping[str, Mapping[str, str]],
    *,
    file: str = META_FILE,
) -> CatalogFindings:
    """Judge ``meta`` (the file's bytes) against every template directory found.

    ``template_ids`` are every ``<language>/<name>`` of the repository;
    ``platforms`` maps a template id to each checked pick's rendered
    ``wendy.json`` platform (``""`` without one).
    """
    out = CatalogFindings({template_id: [] for template_id in template_ids})
    text = meta.decode("utf-8", errors="replace")
    try:
        catalog = load_catalog(text)
    except GoJsonSyntaxError as exc:
        out.repository.append(error(CATALOG_JSON, f"JSON: {exc.message}", file, exc.line))
        out.unreadable = True
        return out
    judge = _Judge(catalog, value_positions(text), file)
    if catalog.decoded.errors:
        out.repository += [
            judge.error(CATALOG_DECODE, str(e), e.path) for e in catalog.decoded.errors
        ]
        out.unreadable = True
        return out
    for template_id in template_ids:
        language, name = template_id.split("/", 1)
        out.templates[template_id] = _template(judge, language, name, platforms.get(template_id))
    out.repository = _repository(judge, template_ids)
    return out


def _template(
    judge: _Judge, language: str, name: str, platforms: Mapping[str, str] | None
) -> list[Finding]:
    entry = judge.catalog.entry(name)
    if entry is None:
        message = (
            f"{language}/{name} is not listed in {judge.file}: "
            f"`wendy init --template {name}` refuses it"
        )
        return [judge.error(CATALOG_UNLISTED, message, ("templates",))]
    found: list[Finding] = []
    if not entry.offers(language):
        message = (
            f"{language}/{name}: {judge.file} lists {name} for {', '.join(entry.languages or ())}"
            f", not {language}: wendy init does not offer it in {language}"
        )
        found.append(judge.error(CATALOG_LANGUAGE, message, (*entry.path, "languages")))
    if not entry.description.strip():
        message = f"{language}/{name}: the {judge.file} entry of {name} has no description"
        found.append(judge.error(CATALOG_NO_DESCRIPTION, message, entry.path))
    return (
        found
        + _unknown_targets(judge, entry, language)
        + _targets(judge, entry, language, platforms or {})
    )


def _unknown_targets(judge: _Judge, entry: Entry, language: str) -> list[Finding]:
    if entry.offered_by_picker:
        return []
    known = " nor ".join(KNOWN_TARGETS)
    message = (
        f"{language}/{entry.name}: its {judge.file} targets ({', '.join(entry.targets)}) name "
        f"neither {known}, the only targets wendy init knows: its picker never offers "
        f"{entry.name}, which only `wendy init --template {entry.name}` reaches"
    )
    return [judge.warning(CATALOG_UNKNOWN_TARGETS, message, (*entry.path, "targets"))]


def _targets(
    judge: _Judge, entry: Entry, language: str, platforms: Mapping[str, str]
) -> list[Finding]:
    where = (*entry.path, "targets")
    lite = sorted(slug for slug, platform in platforms.items() if platform == WENDY_LITE)
    other = sorted(slug for slug, platform in platforms.items() if platform != WENDY_LITE)
    template = f"{language}/{entry.name}"
    if lite and not entry.for_wendy_lite:
        message = (
            f"{template} renders a {WENDY_LITE} app (picks: {', '.join(lite)}), but its "
            f"{judge.file} targets do not include {WENDY_LITE} ({entry.describe_targets()}): "
            "wendy init offers it where it cannot run"
        )
        return [judge.error(CATALOG_LITE_MISSING, message, where)]
    if other and entry.for_wendy_lite:
        shown = ", ".join(f"{slug} ({platforms[slug] or 'no platform'})" for slug in other)
        message = (
            f"{template} is offered for {WENDY_LITE} by {judge.file}, but renders apps that "
            f"are not {WENDY_LITE} apps (picks: {shown})"
        )
        return [judge.error(CATALOG_LITE_WRONG, message, where)]
    return []


def _repository(judge: _Judge, template_ids: Sequence[str]) -> list[Finding]:
    found: list[Finding] = []
    existing = {tuple(t.split("/", 1)) for t in template_ids}
    folders = sorted({language for language, _ in existing})
    seen: set[str] = set()
    for entry in judge.catalog.entries:
        if entry.name in seen:
            message = f"{entry.name} is listed more than once; wendy init uses the first entry"
            found.append(warning(CATALOG_REPEATED, message, judge.file, judge.line(entry.path)))
        seen.add(entry.name)
        where = list(entry.languages or folders)
        present = [lang for lang in where if (lang, entry.name) in existing]
        if not present:
            places = ", ".join(f"{lang}/{entry.name}/" for lang in where) or "no language folder"
            message = f"{judge.file} lists {entry.name}, which exists in no language ({places})"
            found.append(judge.error(CATALOG_NOWHERE, message, entry.path))
        elif entry.languages is not None:
            for lang in sorted(set(entry.languages) - set(present)):
                message = (
                    f"{judge.file} lists {entry.name} for {lang}, but {lang}/{entry.name}/ "
                    "is not a template"
                )
                found.append(
                    judge.error(CATALOG_LANGUAGE_MISSING, message, (*entry.path, "languages"))
                )
    keys = judge.catalog.languages
    if keys is not None:
        for lang in folders:
            if lang not in keys:
                message = (
                    f"the language folder {lang}/ holds templates, but {judge.file}'s "
                    "languages do not list it"
                )
                found.append(judge.error(CATALOG_LANGUAGE_UNLISTED, message, ("languages",)))
        for lang in sorted(set(keys) - set(folders)):
            message = f"{judge.file}'s languages list {quoted(lang)}, which holds no template"
            found.append(judge.error(CATALOG_LANGUAGE_EMPTY, message, ("languages",)))
    return found
