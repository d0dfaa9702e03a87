"""Slugs: a pick's name, safe as a directory name on every OS.

The rule (docs/wendy-init-semantics.md, "Picks and slugs"): per answered
question with more than one choice, :func:`slugify` the answer; join the
parts with ``__``; then :func:`finish_slug` (Windows device names, the
``.json`` ending, the length cap) and :func:`unique_slugs` (a hash on
colliding slugs only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

#: A slug is cut to this length (plus a hash) so that fixture paths stay short.
MAX_SLUG_LENGTH = 64

_UNSAFE = re.compile(r"[^a-z0-9._]+")
_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)


def _digest(text: str, length: int) -> str:
    import hashlib  # lazy: loading OpenSSL costs 2 ms, and most slugs need no hash

    # surrogatepass: an answer may hold a lone surrogate (a JSON "\\udc80").
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def slugify(answer: str) -> str:
    """One slug part (steps 1-3 of the slug rule)."""
    text = _UNSAFE.sub("-", answer.lower())
    text = re.sub(r"_+", "_", text)
    text = re.sub(r"\.+", ".", text).strip("-._")
    if text:
        return text
    return "none" if not answer.strip() else f"v-{_digest(answer, 6)}"


def finish_slug(slug: str) -> str:
    """The joined parts made safe on every OS and no longer than the cap."""
    base, dot, rest = slug.partition(".")
    if base in _RESERVED:
        slug = f"{base}_{dot}{rest}"
    if slug.endswith(".json"):
        slug = slug[: -len(".json")] + "-json"
    if len(slug) > MAX_SLUG_LENGTH:
        slug = slug[: MAX_SLUG_LENGTH - 9].rstrip("-._") + "-" + _digest(slug, 8)
    return slug


def _answers_key(answers: Mapping[str, str]) -> str:
    return json.dumps(dict(answers), sort_keys=True, ensure_ascii=False)


def unique_slugs(slugs: list[str], answers: list[dict[str, str]]) -> list[str]:
    """Append an answers hash to every slug that is not unique."""
    length = 6
    result = list(slugs)
    while True:
        counts: dict[str, int] = {}
        for slug in result:
            counts[slug] = counts.get(slug, 0) + 1
        clashing = [i for i, slug in enumerate(result) if counts[slug] > 1]
        if not clashing:
            return result
        for i in clashing:
            digest = _digest(_answers_key(answers[i]), length)
            head = slugs[i][: MAX_SLUG_LENGTH - length - 1].rstrip("-._")
            result[i] = f"{head}-{digest}"
        length += 2
