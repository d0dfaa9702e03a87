"""The exact revision of this copy of wendy-llm: ``0.1.0+g<commit>`` between releases.

Written at build time into ``wendy_llm/VERSION`` by the build backend
(tools/wendy_backend.py: a wheel, the sdist, an editable install, and
``make install`` each time it runs), and read from there rather than from
the installed metadata: reading a file costs less than ``importlib.metadata``,
and an editable install's metadata keeps the commit it was installed at.
"""

from __future__ import annotations

from pathlib import Path

_STAMP = Path(__file__).resolve().parent / "VERSION"
UNKNOWN = "0+unknown"


def package_version() -> str:
    """The version this copy was built as (``0+unknown``: never built, e.g. a
    source tree on ``PYTHONPATH``)."""
    try:
        stamped = _STAMP.read_text(encoding="utf-8").strip()
    except OSError:
        return UNKNOWN
    return stamped or UNKNOWN
