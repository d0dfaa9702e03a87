"""The fixture manifest ``golden.json`` and the fixture tree built from renders.

Format (version 1), JSON with sorted keys, indent 2, newline-terminated::

    {
      "canonical_inputs": {"app_id": "llm-app", "other_variables": "default",
                           "sample_values": {"VAR": "value"}},
      "files": {
        "<output path>": {"kind": "rendered", "sha256": "...", "stored": "_shared/<path>"},
        "<output path>": {"kind": "rendered",
                          "picks": {"<slug>": {"sha256": "...", "stored": "<slug>/<path>"}}},
        "<output path>": {"kind": "rendered", "mode": "0644", "sha256": "...",
                          "source": "<template path>"},
        "<output path>": {"kind": "copied", "sha256": "..."},
        "<output path>": {"kind": "copied", "picks": {"<slug>": {"sha256": "..."}}}
      },
      "format": 1,
      "picks": [{"answers": {"VAR": "value"}, "slug": "<slug>"}],
      "template": "<language>/<name>"
    }

A file without ``picks`` is the same in every pick: rendered ones are stored
once under ``_shared/``, copied ones (not run through the engine) are only
hashed.  *Lean* fixtures (the default; ``golden-fixtures = "full"`` in
``wendy-llm.toml`` asks for copies) do not store a rendered file whose
render is byte for byte its template file (no action in it: a lockfile, an
SVG): its record has no ``stored`` but the ``source`` template path and the
``mode`` ``wendy init`` writes it with, and the check compares hashes.
With ``picks``, the file exists in the listed picks only, each with its
own hash and, when rendered (and not lean), its own copy under ``<slug>/``. Picks keep
the picker's order. ``sample_values`` (the repository's values for variables
without a default) is written only when the template has some. Grouping by
file (not by pick) keeps a change to a shared file to one line of the
manifest's diff.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from wendy_llm.bounded import json_loads
from wendy_llm.compare.textdiff import sha256_hex
from wendy_llm.errors import GoldenError, GoldenManifestError, quoted
from wendy_llm.golden.layout import MANIFEST_NAME, pick_path, shared_path
from wendy_llm.render.canonical import PickRender
from wendy_llm.render.files.tree import FILE_MODE
from wendy_llm.render.manifest.schemawords import json_text
from wendy_llm.render.picks import CANONICAL_APP_ID

FORMAT_VERSION = 1
OTHER_VARIABLES = "default"

Kind = Literal["rendered", "copied"]
_KINDS: tuple[Kind, ...] = ("rendered", "copied")
_SHA_RE = re.compile(r"[0-9a-f]{64}")


#: The mode `wendy init` writes every file with (docs/wendy-init-semantics.md).
OUTPUT_MODE = f"{FILE_MODE:04o}"
_MODE_RE = re.compile(r"[0-7]{4}")


@dataclass(frozen=True)
class FileRecord:
    """One file of one pick: how it was produced, its hash, where it is stored.

    ``stored`` is None for copied files and lean ones (a rendered file that
    is its template file ``source``, written with ``mode``).
    """

    kind: Kind
    sha256: str
    stored: str | None  # fixture-relative path of the bytes
    source: str | None = None  # lean records only: the template file
    mode: str | None = None  # lean records only

    @property
    def lean(self) -> bool:
        return self.kind == "rendered" and self.stored is None


@dataclass(frozen=True)
class PickRecord:
    slug: str
    answers: Mapping[str, str]


@dataclass(frozen=True)
class GoldenManifest:
    """The logical content of ``golden.json``: per pick, per output path."""

    template_id: str
    app_id: str
    picks: tuple[PickRecord, ...]
    files: Mapping[str, Mapping[str, FileRecord]]  # slug -> output path -> record
    sample_values: Mapping[str, str] = field(default_factory=dict)

    def slugs(self) -> list[str]:
        return [pick.slug for pick in self.picks]

    def pick(self, slug: str) -> PickRecord | None:
        return next((p for p in self.picks if p.slug == slug), None)

    def referenced(self) -> set[str]:
        """Every fixture-relative path the manifest points at."""
        return {
            record.stored
            for per_pick in self.files.values()
            for record in per_pick.values()
            if record.stored is not None
        }

    def to_json(self) -> bytes:
        return dump_json(self._to_obj())

    def _to_obj(self) -> dict[str, object]:
        slugs = self.slugs()
        paths = sorted({path for per_pick in self.files.values() for path in per_pick})
        files: dict[str, object] = {}
        for path in paths:
            records = {s: self.files[s][path] for s in slugs if path in self.files.get(s, {})}
            kinds = {r.kind for r in records.values()}
            if len(kinds) != 1:
                raise GoldenError(
                    f"template {self.template_id}: {path} is rendered in some picks "
                    "and copied in others"
                )
            kind = kinds.pop()
            distinct = set(records.values())
            if len(records) == len(slugs) and len(distinct) == 1:
                files[path] = {"kind": kind, **_record_obj(distinct.pop())}
            else:
                files[path] = {
                    "kind": kind,
                    "picks": {s: _record_obj(r) for s, r in records.items()},
                }
        inputs: dict[str, object] = {"app_id": self.app_id, "other_variables": OTHER_VARIABLES}
        if self.sample_values:
            inputs["sample_values"] = dict(self.sample_values)
        return {
            "canonical_inputs": inputs,
            "files": files,
            "format": FORMAT_VERSION,
            "picks": [{"answers": dict(p.answers), "slug": p.slug} for p in self.picks],
            "template": self.template_id,
        }

    @classmethod
    def from_json(cls, data: bytes, *, source: str) -> GoldenManifest:
        return _parse(data, source)


def _record_obj(record: FileRecord) -> dict[str, object]:
    obj: dict[str, object] = {"sha256": record.sha256}
    if record.stored is not None:
        obj["stored"] = record.stored
    if record.source is not None:
        obj["source"] = record.source
    if record.mode is not None:
        obj["mode"] = record.mode
    return obj


def dump_json(obj: object) -> bytes:
    """The one JSON style of fixtures: sorted keys, indent 2, final newline, UTF-8.

    A file name that is not UTF-8 holds lone surrogates (``\\udcff``);
    ``backslashreplace`` writes each as that JSON escape, which reads back
    as the same surrogate.
    """
    text = json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return text.encode("utf-8", "backslashreplace")


class Digests:
    """SHA-256 of bytes, computed once per bytes object: a copied or verbatim
    file is the template's own bytes object in every pick's render, so a
    blob is hashed once per check, not once per pick."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[bytes, str]] = {}  # id -> (the object, kept alive; hash)

    def __call__(self, data: bytes) -> str:
        known = self._known.get(id(data))
        if known is not None and known[0] is data:
            return known[1]
        digest = sha256_hex(data)
        self._known[id(data)] = (data, digest)
        return digest


@dataclass(frozen=True)
class Fixture:
    """A template's complete fixture directory, in memory."""

    manifest: GoldenManifest
    files: Mapping[str, bytes]  # fixture-relative path -> bytes, golden.json included


def build_fixture(
    template_id: str,
    renders: Sequence[PickRender],
    *,
    full: bool = False,
    digests: Digests | None = None,
) -> Fixture:
    """Lay out the renders of every pick of a template as fixture files: lean
    (a rendered file that is its template file is only hashed) unless ``full``."""
    digest_of = digests if digests is not None else Digests()
    slugs = [r.slug for r in renders]
    paths = sorted({path for r in renders for path in r.files})
    records: dict[str, dict[str, FileRecord]] = {slug: {} for slug in slugs}
    stored: dict[str, bytes] = {}
    for path in paths:
        present = [(r.slug, r.files[path]) for r in renders if path in r.files]
        kinds = {item.rendered for _, item in present}
        if len(kinds) != 1:
            raise GoldenError(
                f"template {template_id}: {path} is rendered in some picks and copied in others"
            )
        rendered = kinds.pop()
        shared = len(present) == len(renders) and len({item.data for _, item in present}) == 1
        for slug, item in present:
            digest = digest_of(item.data)
            if rendered and item.verbatim and not full:
                records[slug][path] = FileRecord(
                    "rendered", digest, None, source=item.source, mode=OUTPUT_MODE
                )
                continue
            location: str | None = None
            if rendered:
                location = shared_path(path) if shared else pick_path(slug, path)
                stored[location] = item.data
            records[slug][path] = FileRecord(
                kind="rendered" if rendered else "copied", sha256=digest, stored=location
            )
    manifest = GoldenManifest(
        template_id=template_id,
        app_id=CANONICAL_APP_ID,
        picks=tuple(PickRecord(slug=r.slug, answers=dict(r.answers)) for r in renders),
        files=records,
        sample_values=dict(renders[0].sample_values) if renders else {},
    )
    stored[MANIFEST_NAME] = manifest.to_json()
    return Fixture(manifest=manifest, files=dict(sorted(stored.items())))


# --- parsing -------------------------------------------------------------------


def _fail(source: str, what: str) -> GoldenManifestError:
    return GoldenManifestError(f"{source}: not a valid golden manifest: {what}", file=source)


def _as_dict(value: object, source: str, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _fail(source, f"{where} must be an object")
    return cast(dict[str, object], value)


def _as_str(value: object, source: str, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(source, f"{where} must be a string")
    return value


def _parse(data: bytes, source: str) -> GoldenManifest:
    try:
        raw = json_loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _fail(source, f"not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise _fail(source, f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    top = _as_dict(raw, source, "the document")
    version = top.get("format")
    if version != FORMAT_VERSION:
        raise _fail(
            source,
            f'"format" is {json_text(version)}; this wendy-llm reads format {FORMAT_VERSION}',
        )
    template_id = _as_str(top.get("template"), source, '"template"')
    inputs = _as_dict(top.get("canonical_inputs"), source, '"canonical_inputs"')
    app_id = _as_str(inputs.get("app_id"), source, '"canonical_inputs.app_id"')
    samples_raw = _as_dict(
        inputs.get("sample_values", {}), source, '"canonical_inputs.sample_values"'
    )
    samples = {
        k: _as_str(v, source, f'"canonical_inputs.sample_values".{k}')
        for k, v in sorted(samples_raw.items())
    }

    picks_raw = top.get("picks")
    if not isinstance(picks_raw, list):
        raise _fail(source, '"picks" must be a list')
    picks: list[PickRecord] = []
    for index, item in enumerate(picks_raw):
        where = f'"picks"[{index}]'
        obj = _as_dict(item, source, where)
        slug = _as_str(obj.get("slug"), source, f"{where}.slug")
        answers_raw = _as_dict(obj.get("answers"), source, f"{where}.answers")
        answers = {
            k: _as_str(v, source, f"{where}.answers.{k}") for k, v in sorted(answers_raw.items())
        }
        if any(p.slug == slug for p in picks):
            raise _fail(source, f"pick {quoted(slug)} is listed twice")
        picks.append(PickRecord(slug=slug, answers=answers))
    slugs = [p.slug for p in picks]

    files: dict[str, dict[str, FileRecord]] = {slug: {} for slug in slugs}
    for path, entry_raw in _as_dict(top.get("files"), source, '"files"').items():
        where = f'"files"[{quoted(path)}]'
        entry = _as_dict(entry_raw, source, where)
        raw_kind = entry.get("kind")
        if raw_kind not in _KINDS:
            raise _fail(source, f"{where}.kind must be one of {', '.join(_KINDS)}")
        kind: Kind = raw_kind
        if "picks" in entry:
            per_pick = _as_dict(entry["picks"], source, f"{where}.picks")
            for slug, rec_raw in per_pick.items():
                if slug not in files:
                    raise _fail(
                        source, f'{where} names pick {quoted(slug)}, which is not in "picks"'
                    )
                rec = _as_dict(rec_raw, source, f"{where}.picks.{slug}")
                files[slug][path] = _record(rec, kind, pick_path(slug, path), source, where)
        else:
            record = _record(entry, kind, shared_path(path), source, where)
            for slug in slugs:
                files[slug][path] = record
    return GoldenManifest(
        template_id=template_id,
        app_id=app_id,
        picks=tuple(picks),
        files=files,
        sample_values=samples,
    )


def _record(
    obj: Mapping[str, object], kind: Kind, location: str, source: str, where: str
) -> FileRecord:
    sha = _as_str(obj.get("sha256"), source, f"{where}.sha256")
    if not _SHA_RE.fullmatch(sha):
        raise _fail(source, f"{where}.sha256 is not a lowercase hex SHA-256")
    stored = obj.get("stored")
    if kind == "copied":
        if stored is not None or "source" in obj or "mode" in obj:
            raise _fail(source, f"{where}: a copied file is hashed, never stored")
        return FileRecord(kind=kind, sha256=sha, stored=None)
    if stored is None and ("source" in obj or "mode" in obj):
        # lean: the render is its template file, recorded by hash
        origin = _as_str(obj.get("source"), source, f"{where}.source")
        mode = _as_str(obj.get("mode"), source, f"{where}.mode")
        if not origin or origin.startswith("/") or not _MODE_RE.fullmatch(mode):
            raise _fail(source, f"{where}: a lean record needs a template path and an octal mode")
        return FileRecord(kind=kind, sha256=sha, stored=None, source=origin, mode=mode)
    if "source" in obj or "mode" in obj:
        raise _fail(source, f"{where}: a stored file has no source or mode (lean records only)")
    # The location is fixed by the layout; accepting any other string would
    # let a hand-edited manifest point the check outside the fixture.
    if stored != location:
        raise _fail(source, f"{where}.stored must be {quoted(location)}")
    return FileRecord(kind=kind, sha256=sha, stored=location)
