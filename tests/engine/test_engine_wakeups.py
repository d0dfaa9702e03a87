"""A single render waits for its answer awake before it sleeps in poll
(``options.RENDER_ANSWER_SPIN_S``): a process asleep in the kernel is woken
on an idle CPU, which cost a single render about 10 us (docs/performance.md).
The polls are recorded by a poller that stands in for the helper's, and
whose zero-timeout poll waits for the answer itself, so what these tests see
does not depend on how fast the helper answers."""

from __future__ import annotations

import select

import pytest

from wendy_llm import Renderer, options


class RecordingPoller:
    """The helper's poller, recording each poll's timeout."""

    def __init__(self, real: select.poll, *, looks_wait: bool) -> None:
        self.real = real
        self.looks_wait = looks_wait
        self.timeouts: list[int | None] = []

    def poll(self, timeout: int | None = None) -> list[tuple[int, int]]:
        self.timeouts.append(timeout)
        if timeout == 0 and self.looks_wait:
            # The answer is there when the render looks: wait for it (a
            # minute is the hang guard).
            return self.real.poll(60_000)
        return self.real.poll(timeout)


def _recording(renderer: Renderer, *, looks_wait: bool) -> RecordingPoller:
    renderer.render("warm-up", {})
    helper = renderer._slot.helper
    assert helper is not None
    poller = RecordingPoller(helper.poller, looks_wait=looks_wait)
    helper.poller = poller  # type: ignore[assignment]
    return poller


def test_a_single_render_looks_for_its_answer_before_sleeping() -> None:
    with Renderer() as renderer:
        poller = _recording(renderer, looks_wait=True)
        assert renderer.render("{{.A}}", {"A": 7}) == b"7"
    assert poller.timeouts == [0]


def test_without_a_spin_a_render_sleeps_until_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "RENDER_ANSWER_SPIN_S", 0.0)
    with Renderer(timeout=5) as renderer:
        poller = _recording(renderer, looks_wait=False)
        for _ in range(20):
            assert renderer.render("{{.A}}", {"A": 7}) == b"7"
    # Each render looks once, then (unless the answer was there) waits as
    # long as the render's timeout allows: no render looks twice.
    assert set(poller.timeouts) <= {0, 5001}
    assert poller.timeouts.count(0) == 20


def test_records_split_anywhere_are_parsed_whole_and_in_order() -> None:
    """The answer parser takes records however the pipe cuts them (a header,
    a payload in pieces), and leaves an incomplete one for the next read."""
    from wendy_llm.engine.answers import parse_records

    stream = b"".join(
        (len(payload) + 1).to_bytes(4, "big") + bytes([kind]) + payload
        for kind, payload in ((0, b"first"), (7, b"\0\0\0\1"), (0, b""), (2, b"x" * 70_000))
    )
    for cut in (1, 3, 5, 9, 13, 4096, 65_536):
        buf, pos = bytearray(), 0
        records: list[tuple[int, bytes]] = []
        for start in range(0, len(stream), cut):
            buf += stream[start : start + cut]
            pos = parse_records(buf, pos, records)
        assert pos == len(buf) == len(stream)
        assert records == [(0, b"first"), (7, b"\0\0\0\1"), (0, b""), (2, b"x" * 70_000)]
        assert all(type(payload) is bytes for _, payload in records)
