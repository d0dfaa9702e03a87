"""Every located finding of a ``check`` run at a line of its file (issue 37).

:func:`misplaced` runs the library's ``check`` on a repository and returns
what is wrong with the lines of its findings: a finding that names a file
but no line, a line past the end of that file (the pick's rendered file,
or for a template-wide finding the template's or repository's file), and a
template source line (through the source map, as annotations and SARIF
read it) past the end of the source file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from wendy_llm.golden.fixture_files import PICK_PLACEHOLDER
from wendy_llm.render.files.tree import RenderedTree
from wendy_llm.repo.layout import Layout, find_layout
from wendy_llm.reports.github.sources import SourceLocator
from wendy_llm.validate.findings import TEMPLATE_WIDE, Finding
from wendy_llm.validate.run import run_check


@contextmanager
def inside(root: Path) -> Iterator[None]:
    """Run in ``root`` (findings name files as the user would type them from there)."""
    before = Path.cwd()
    os.chdir(root)
    try:
        yield
    finally:
        os.chdir(before)


def _rows(data: bytes) -> int:
    return len(data.splitlines())


def _file_rows(layout: Layout, locator: SourceLocator, finding: Finding) -> int | None:
    """How many lines the file a finding names holds (None: it names no file there)."""
    if finding.pick != TEMPLATE_WIDE:
        tree: RenderedTree | None = locator.tree(finding.template, finding.pick, finding.variant)
        if tree is not None and finding.file is not None and finding.file in tree:
            return _rows(tree[finding.file])
    template = locator.template(finding.template)
    bases = [template.root] if template is not None and template.root is not None else []
    names = [str(finding.file)]
    if PICK_PLACEHOLDER in names[0] and template is not None:
        # Every pick's copy of a fixture: the same change, at the same line, in each.
        names = [names[0].replace(PICK_PLACEHOLDER, p.slug) for p in template.picks()]
    for name in names:
        for base in [*bases, layout.root, Path.cwd()]:
            path = base / name
            if path.is_file():
                return _rows(path.read_bytes())
    return None


def misplaced(root: Path, *, templates: Sequence[str] = (), picks: Sequence[str] = ()) -> list[str]:
    """What is wrong with the lines of the findings of ``check`` at ``root``."""
    out: list[str] = []
    with inside(root):
        layout = find_layout()
        report = run_check(templates=templates, picks=picks, layout=layout, cache=True)
        locator = SourceLocator(layout)
        for f in report.findings:
            if f.file is None:
                continue  # about nothing in a file: not a located finding
            who = f"{f.template} {f.pick or '(template)'} {f.code} {f.location}"
            rows = _file_rows(layout, locator, f)
            if f.line is None:
                out.append(f"{who}: no line")
            elif rows is None:
                out.append(f"{who}: {f.file} is no file of the render or the repository")
            elif not 1 <= f.line <= max(rows, 1):
                out.append(f"{who}: line {f.line} of a {rows}-line file")
            place = locator.locate(f)
            if place is None or place.line is None:
                continue
            source = locator.root / place.path
            count = _rows(source.read_bytes()) if source.is_file() else 0
            if not 1 <= place.line <= max(count, 1):
                out.append(f"{who}: source {place.where} of a {count}-line file")
    return out
