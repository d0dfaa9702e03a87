"""Template's per-instance caches are shared by every thread that renders."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from wendy_llm.render.template import load_template

LLM = Path(__file__).resolve().parents[2] / "templates" / "python" / "llm"


@pytest.fixture
def tiny_switch_interval() -> Iterator[None]:
    # Switching threads every microsecond makes a racy cache fail within a
    # few thousand calls instead of once in a blue moon.
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.usefixtures("tiny_switch_interval")
def test_output_paths_from_many_threads_with_many_app_ids() -> None:
    template = load_template(LLM)
    failures: list[BaseException] = []
    wrong: list[str] = []

    def work(worker: int) -> None:
        try:
            for i in range(1500):
                app_id = f"app{worker}-{i}"
                paths = template.output_paths(app_id)
                if len(paths) != len(template.sources):
                    wrong.append(app_id)
        except BaseException as exc:  # the race surfaced as KeyError before
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert wrong == []
