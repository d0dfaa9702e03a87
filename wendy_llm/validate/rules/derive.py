"""Values derived from what a relation's reference reaches: a key, a URL's part, a table entry.

A relation (``same:``) compares values; some decisions relate values that
are not equal as written but by what they mean:

- ``key: true``: the name under which the path found its value (the last
  key): ``{path: compose.services.@vllm, key: true}`` is the name of the
  service that *is* vLLM, so a URL's host can be compared with it;
- ``url: scheme | host | port | path``: a part of a URL
  (``http://vllm:8000/v1``) or of a listen address (``0.0.0.0:11434``,
  ``:8000``, as ``OLLAMA_HOST`` writes one); a URL without a port has its
  scheme's (http 80, https 443);
- ``map: TABLE``: the entry for the value in a table the rules file
  declares under ``tables:``, so "the draft model is the drafter of the
  served target" is a relation (``target -> drafter``), and a new target
  brings its own drafter in one reviewed line of the rules file.

They apply in that order (a key, then its URL part, then its table entry).
A value that cannot be derived (not a URL, no port, no entry in the table)
is a :class:`DeriveProblem`: the relation fails, saying why.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import SplitResult, urlsplit

from wendy_llm.errors import quoted

URL_PARTS = ("scheme", "host", "port", "path")
DEFAULT_PORTS: Mapping[str, int] = {"http": 80, "https": 443}


class DeriveProblem(ValueError):
    """A value a reference reached cannot give what the reference asks of it."""


def _split(text: str) -> SplitResult:
    # A listen address (host:port, :port) has no scheme; read it as a network
    # location, which is what it is.
    return urlsplit(text if "://" in text else f"//{text}")


def url_part(text: str, part: str) -> str:
    """``part`` (one of :data:`URL_PARTS`) of the URL or address ``text``."""
    if not text.strip() or any(c.isspace() for c in text):
        raise DeriveProblem(f"{quoted(text)} is not a URL or an address")
    try:
        split = _split(text)
        port = split.port
    except ValueError as exc:
        raise DeriveProblem(f"{quoted(text)} is not a URL or an address ({exc})") from exc
    if part == "scheme":
        if not split.scheme:
            raise DeriveProblem(f"{quoted(text)} has no scheme")
        return split.scheme
    if part == "host":
        if not split.hostname:
            raise DeriveProblem(f"{quoted(text)} names no host")
        return split.hostname
    if part == "port":
        if port is None:
            port = DEFAULT_PORTS.get(split.scheme)
        if port is None:
            raise DeriveProblem(f"{quoted(text)} has no port")
        return str(port)
    return split.path


def table_entry(text: str, name: str, table: Mapping[str, str]) -> str:
    """The entry of ``table`` (declared as ``name``) for ``text``."""
    if text not in table:
        known = ", ".join(quoted(k) for k in table) or "none"
        raise DeriveProblem(
            f"{quoted(text)} has no entry in the table {quoted(name)} "
            f"(it has {known}; add one to the rules file's tables)"
        )
    return table[text]
