"""The registry of finding codes (issue 27), as the outputs read it.

The entries live in :mod:`wendy_llm.codes` (a layer below the device view,
which reports findings too); this module keeps the names every output and
``wendy-llm explain`` import: :class:`CodeInfo`, :data:`CODES`, :func:`info`.
"""

from __future__ import annotations

from wendy_llm.codes import CODES, PREFIXES, Check, CodeInfo, codes_of, info, nearest

__all__ = ["CODES", "PREFIXES", "Check", "CodeInfo", "codes_of", "info", "nearest"]
