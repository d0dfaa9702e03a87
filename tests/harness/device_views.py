"""The pinned device views of python/llm (``tests/data/device_views/``), and how to refresh them.

``tests/templates/test_device_view_llm.py`` compares the ``plan --json`` document of
each pick in :data:`PINNED` with its committed file and fails on any
difference.  When a change is intended (the template, the device facts or
the view's shape changed), review the diff the test prints, then rewrite
the files and commit them with the change that explains why::

    PYTHONPATH=tests .venv/bin/python -m harness.device_views

Nothing rewrites them otherwise.

The template README lists, per pick, what a device ignores (the device
check's warnings); ``tests/templates/test_llm_device.py`` compares that list with the
device view of every pick.  To regenerate it from the view (each distinct
list once, with the picks it holds for)::

    PYTHONPATH=tests .venv/bin/python -m harness.device_views --readme
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from wendy_llm.device import PROFILES, DeviceView, Ignored
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import Template, load_template
from wendy_llm.reports.json import dumps, plan_json
from wendy_llm.validate.checks.device import build_view

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "templates" / "python" / "llm"
DATA = ROOT / "tests" / "data" / "device_views"
#: The DFlash pick and an Ollama pick whose model is not the image's default.
PINNED: Final = ("laguna-s-2.1-dflash", "gemma4-e4b")
REFRESH: Final = "PYTHONPATH=tests .venv/bin/python -m harness.device_views"


def pinned_path(slug: str) -> Path:
    return DATA / f"python-llm.{slug}.json"


def view_of(template: Template, slug: str) -> DeviceView:
    """The device view of a pick (canonical inputs, every device profile)."""
    tree = template.render(CANONICAL_APP_ID, dict(template.pick(slug).answers))
    return build_view(tree, CANONICAL_APP_ID)


def document(slug: str) -> str:
    """The ``plan --json`` document of a pick of python/llm, over every device profile."""
    template = load_template(TEMPLATE)
    doc = plan_json(
        view_of(template, slug),
        template=template.id,
        pick=slug,
        app_id=CANONICAL_APP_ID,
        answers=dict(template.pick(slug).answers),
        devices=PROFILES,
    )
    del doc["wendy_llm_version"]  # pinned: the view, not the revision that computed it
    return dumps(doc)


def warned_items(view: DeviceView) -> tuple[list[Ignored], list[str]]:
    """The ignored items the view warns about, and the warnings that are no such item."""
    by_message = {f"{i.what}: {i.reason}": i for i in view.ignored}
    items, others = [], []
    for finding in view.findings:
        if finding.severity != "warning":
            continue
        item = by_message.get(finding.message)
        if item is None:
            others.append(finding.message)
        else:
            items.append(item)
    return items, others


def readme_lines(view: DeviceView) -> list[str]:
    """The README's list for a view: ``- `file` `what`: reason`` (the file alone when
    the item is the file)."""
    items, others = warned_items(view)
    lines = [
        f"- `{i.file}`" + (f" `{i.what}`" if i.what != i.file else "") + f": {i.reason}"
        for i in items
    ]
    return lines + [f"- (not an ignored item; the README cannot list it) {m}" for m in others]


def print_readme_lists() -> None:
    template = load_template(TEMPLATE)
    groups: dict[tuple[str, ...], list[str]] = {}
    for pick in template.picks():
        groups.setdefault(tuple(readme_lines(view_of(template, pick.slug))), []).append(pick.slug)
    for lines, slugs in groups.items():
        print(f"# {', '.join(slugs)}")
        print("\n".join(lines) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    if list(argv if argv is not None else sys.argv[1:]) == ["--readme"]:
        print_readme_lists()
        return 0
    DATA.mkdir(parents=True, exist_ok=True)
    for slug in PINNED:
        path = pinned_path(slug)
        path.write_text(document(slug), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
