"""The template texts a helper keeps between requests, so each crosses the pipe once.

The protocol (``gohelper/main.go``) lets a render request keep a text under
an id (``k``) and later requests refer to it (``r``); this is the Python
side's record of what one helper holds.
"""

from __future__ import annotations

from collections.abc import Mapping

Text = str | bytes


class KeptTexts:
    """What one helper keeps: text -> id, ids ``0..len(ids)-1``.

    A compose file costs 3 KB of pipe a render when sent in full; kept, a
    render sends five bytes for it.  Python decides what is kept, so it
    always knows what its helper holds: a new helper comes with a new, empty
    table; a request whose new texts would pass ``max_texts`` texts or
    ``max_bytes`` bytes forgets all first (wholesale, as the parse cache
    does: it costs one re-send each); a text larger than ``max_bytes`` is
    sent in full every time.  A request's choices take effect only once it
    is encoded whole (``commit``), so one that failed to encode leaves the
    table as the helper has it.
    """

    __slots__ = ("ids", "max_bytes", "max_texts", "size")

    def __init__(self, max_texts: int, max_bytes: int) -> None:
        self.ids: dict[Text, int] = {}
        self.size = 0
        self.max_texts = max_texts
        self.max_bytes = max_bytes

    def plan(self, raws: Mapping[Text, bytes]) -> dict[Text, int] | None:
        """Ids for the new texts ``raws`` (their bytes), to keep beside those
        kept; None if they do not all fit."""
        keep: dict[Text, int] = {}
        count, size = len(self.ids), self.size
        for text, raw in raws.items():
            if len(raw) > self.max_bytes:
                continue  # never kept
            if count >= self.max_texts or size + len(raw) > self.max_bytes:
                return None
            keep[text] = count
            count, size = count + 1, size + len(raw)
        return keep

    def plan_afresh(self, raws: Mapping[Text, bytes]) -> dict[Text, int]:
        """Ids for the texts ``raws`` once all kept ones are forgotten: those that fit."""
        keep: dict[Text, int] = {}
        size = 0
        for text, raw in raws.items():
            if len(keep) < self.max_texts and size + len(raw) <= self.max_bytes:
                keep[text] = len(keep)
                size += len(raw)
        return keep

    def commit(self, forget: bool, keep: Mapping[Text, int], raws: Mapping[Text, bytes]) -> None:
        """Record what a request sent: ``forget`` all first, then ``keep``."""
        if forget:
            self.ids, self.size = {}, 0
        for text, text_id in keep.items():
            self.ids[text] = text_id
            self.size += len(raws[text])
