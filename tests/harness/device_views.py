"""The pinned device views of python/llm (``tests/data/device_views/``), and how to refresh them.

``tests/test_device_view_llm.py`` compares the ``plan --json`` document of
each pick in :data:`PINNED` with its committed file and fails on any
difference.  When a change is intended (the template, the device facts or
the view's shape changed), review the diff the test prints, then rewrite
the files and commit them with the change that explains why::

    PYTHONPATH=tests .venv/bin/python -m harness.device_views

Nothing rewrites them otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

from wendy_llm.device import PROFILES
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.render.template import load_template
from wendy_llm.reports.json import dumps, plan_json
from wendy_llm.validate.device import build_view

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "templates" / "python" / "llm"
DATA = ROOT / "tests" / "data" / "device_views"
#: The DFlash pick and an Ollama pick whose model is not the image's default.
PINNED: Final = ("laguna-s-2.1-dflash", "gemma4-e4b")
REFRESH: Final = "PYTHONPATH=tests .venv/bin/python -m harness.device_views"


def pinned_path(slug: str) -> Path:
    return DATA / f"python-llm.{slug}.json"


def document(slug: str) -> str:
    """The ``plan --json`` document of a pick of python/llm, over every device profile."""
    template = load_template(TEMPLATE)
    answers = dict(template.pick(slug).answers)
    tree = template.render(CANONICAL_APP_ID, answers)
    view = build_view(tree, CANONICAL_APP_ID)
    doc = plan_json(
        view,
        template=template.id,
        pick=slug,
        app_id=CANONICAL_APP_ID,
        answers=answers,
        devices=PROFILES,
    )
    return dumps(doc)


def main() -> int:
    DATA.mkdir(parents=True, exist_ok=True)
    for slug in PINNED:
        path = pinned_path(slug)
        path.write_text(document(slug), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
