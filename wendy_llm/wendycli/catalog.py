"""The template catalog, ``meta.json``, as ``wendy init`` reads it.

``{"templates": [{name, description, targets?, languages?}], "languages":
[{key, name}]}`` at the root of a templates repository, decoded with Go's
``encoding/json`` (:mod:`wendy_llm.render.manifest.gojson`; unknown keys ignored).

- ``wendy init --template NAME`` refuses a name that is not listed;
- an entry's ``languages``, when given, lists where the template exists
  (a language missing from it is not offered); otherwise the repository
  layout ``<language>/<name>/`` is the truth;
- an entry without ``targets`` is offered for WendyOS devices only; a
  Wendy Lite (microcontroller) app must list ``wendy-lite``;
- the CLI knows only the targets :data:`KNOWN_TARGETS`: an entry whose
  ``targets`` name neither (``["darwin"]``) is never offered by the
  picker, only reachable with ``--template NAME``.

Assumption: names and language keys compare exactly (case-sensitive), as
the CLI compares the ``--template`` argument with a Go string.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from wendy_llm.render.manifest.gojson import Decoded, decode
from wendy_llm.render.manifest.gotypes import STRING, Slice, struct
from wendy_llm.render.manifest.jsonpos import JsonPath

META_FILE: Final = "meta.json"
#: The target (and ``wendy.json`` platform) of Wendy Lite microcontroller apps.
WENDY_LITE: Final = "wendy-lite"
#: The target of WendyOS device apps.
WENDYOS: Final = "wendyos"
#: The only targets the CLI knows (the picker offers a template under them).
KNOWN_TARGETS: Final = (WENDYOS, WENDY_LITE)

_ENTRY: Final = struct(
    "TemplateEntry",
    name=STRING,
    description=STRING,
    targets=Slice(STRING),
    languages=Slice(STRING),
)
_LANGUAGE: Final = struct("Language", key=STRING, name=STRING)
CATALOG_MODEL: Final = struct("Meta", templates=Slice(_ENTRY), languages=Slice(_LANGUAGE))


@dataclass(frozen=True)
class Entry:
    """One ``templates`` entry; ``languages`` None: not given or empty (the layout decides)."""

    name: str
    description: str
    targets: tuple[str, ...]
    languages: tuple[str, ...] | None
    path: JsonPath

    def offers(self, language: str) -> bool:
        """Whether ``wendy init`` offers this template in ``language`` (listed, if a list)."""
        return self.languages is None or language in self.languages

    @property
    def for_wendy_lite(self) -> bool:
        return WENDY_LITE in self.targets

    @property
    def offered_by_picker(self) -> bool:
        """No targets (WendyOS devices), or at least one target the CLI knows."""
        return not self.targets or any(t in KNOWN_TARGETS for t in self.targets)

    def describe_targets(self) -> str:
        return ", ".join(self.targets) if self.targets else "none: WendyOS devices only"


@dataclass(frozen=True)
class Catalog:
    """A decoded ``meta.json``; ``languages`` (the keys) is None when the list is absent."""

    entries: tuple[Entry, ...]
    languages: tuple[str, ...] | None
    decoded: Decoded

    def entry(self, name: str) -> Entry | None:
        """The entry ``wendy init --template NAME`` finds (the first of that name)."""
        return next((e for e in self.entries if e.name == name), None)


def _strings(value: object) -> tuple[str, ...] | None:
    # An empty list is a nil slice's twin in Go: both have length 0.
    if not isinstance(value, Sequence) or not value:
        return None
    return tuple(str(item) for item in value)


def load_catalog(text: str | bytes) -> Catalog:
    """Decode ``meta.json`` (raises GoJsonSyntaxError; decode errors are in ``decoded``)."""
    decoded = decode(CATALOG_MODEL, text)
    meta = decoded.value
    assert isinstance(meta, Mapping)
    entries = []
    raw_entries: Sequence[Mapping[str, object]] = meta["templates"] or ()
    for index, raw in enumerate(raw_entries):
        entries.append(
            Entry(
                name=str(raw["name"]),
                description=str(raw["description"]),
                targets=_strings(raw["targets"]) or (),
                languages=_strings(raw["languages"]),
                path=("templates", index),
            )
        )
    languages = meta["languages"]
    keys = None if languages is None else tuple(str(item["key"]) for item in languages)
    return Catalog(tuple(entries), keys, decoded)
