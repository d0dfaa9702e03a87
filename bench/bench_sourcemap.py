"""What the source map costs (issue 27): the render the annotations, SARIF and
summary ask for, beside the plain render of the same file.

For every pick of the bundled template, renders ``docker-compose.yml`` and
``wendy.json`` once through the engine (``render_many``, what ``check``
does) and once through the source map (``'m'``: a render, the marked
render, the comparison and the spans), each ``--runs`` times, and prints
the median per file.  Then the whole of what a CI run adds: the located
findings of a check of the bundled template (maps of every rendered file a
finding names, grouped), the SARIF document and the Markdown summary with
its topologies, timed after the check itself.

    .venv/bin/python bench/bench_sourcemap.py
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from wendy_llm.engine.client import shared_renderer
from wendy_llm.engine.sourcemap import source_map
from wendy_llm.engine.wire import RenderJob
from wendy_llm.render.template import load_template
from wendy_llm.repo.layout import find_layout
from wendy_llm.reports.github.outputs import PullRequestOutputs
from wendy_llm.validate.run import run_check

REPO = Path(__file__).resolve().parent.parent
FILES = ("docker-compose.yml", "wendy.json")


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_sourcemap", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per measure (default 5)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    renderer = shared_renderer()
    template = load_template(REPO / "templates" / "python" / "llm", id="python/llm")
    values = [template.values("llm-app", p.answers) for p in template.picks()]
    for name in FILES:
        text = template.files[name]
        jobs = [RenderJob(text=text, data=v, name=name) for v in values]

        def render(jobs: list[RenderJob] = jobs) -> object:
            return renderer.render_many(jobs)

        def trace(text: bytes = text, name: str = name) -> object:
            return [source_map(text, v, name) for v in values]

        plain = median_ms(render, args.runs) / len(jobs)
        mapped = median_ms(trace, args.runs) / len(values)
        print(f"{name:20s} render {plain:6.3f} ms   source map {mapped:6.3f} ms   per pick")
    where = find_layout(start=REPO)
    report = run_check(layout=where)
    made: tuple[tuple[str, Callable[[], object]], ...] = (
        ("located findings", lambda: PullRequestOutputs(report, where).findings),
        ("SARIF", lambda: PullRequestOutputs(report, where).sarif()),
        ("Markdown summary", lambda: PullRequestOutputs(report, where).markdown()),
    )
    for what, make in made:
        took = median_ms(make, args.runs)
        print(f"{what:20s} {took:7.1f} ms after a check of {report.timings['total'] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
