"""Real defects, injected into a built repository: what ``check`` must still catch.

Each injector edits one template (or ``meta.json``) of a ``RepoFixture`` in
place and returns the ``ExpectedFinding``: the template the failure belongs
to, the file and line it must name, a phrase its message must contain, and
the text that line now holds (the evidence that the defect is in the
render, which the fixture's own tests verify).  These are the defects
listed under "Done when" in issue 13; each one makes the Wendy CLI refuse
the app or breaks ``wendy init``/``docker build`` (spec: wendy-run.md
sections 2 and 4, wendy-init.md section 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from _realrepo.builder import META_FILE, RepoFixture
from _realrepo.catalog import meta_json


@dataclass(frozen=True)
class ExpectedFinding:
    """What the failure for an injected defect must say.

    ``file`` is relative to the template directory (the render has the same
    path: none of these files is renamed); ``line`` is 1-based, or None when
    no line can be named (an entry missing from ``meta.json``).
    """

    template: str
    file: str
    line: int | None
    phrase: str
    evidence: str | None

    def matches(self, row_template: str, finding: Mapping[str, object]) -> bool:
        """Whether one error of a ``check --json`` result row is this finding."""
        message = str(finding.get("message", ""))
        if finding.get("severity") != "error" or self.phrase not in message:
            return False
        name = self.template.rsplit("/", 1)[-1]
        if row_template != self.template and self.template not in message and name not in message:
            return False
        file = str(finding.get("file") or "")
        names_file = file == self.file or file.endswith("/" + self.file) or self.file in message
        if not names_file:
            return False
        return self.line is None or finding.get("line") == self.line


@dataclass(frozen=True)
class Defect:
    name: str
    description: str
    inject: Callable[[RepoFixture], ExpectedFinding]


def _replace_line(fixture: RepoFixture, template_id: str, path: str, old: str, new: str) -> int:
    """Replace the first line equal to ``old`` (stripped); returns its 1-based number."""
    target = fixture.template_dir(template_id) / path
    lines = target.read_text(encoding="utf-8").split("\n")
    for index, line in enumerate(lines):
        if line.strip() == old:
            lines[index] = line[: len(line) - len(line.lstrip())] + new
            target.write_text("\n".join(lines), encoding="utf-8")
            return index + 1
    raise AssertionError(f"{template_id}/{path}: no line {old!r} to replace")


def _insert_after(fixture: RepoFixture, template_id: str, path: str, anchor: str, new: str) -> int:
    """Insert ``new`` after the first line equal to ``anchor``; returns the new line's number."""
    target = fixture.template_dir(template_id) / path
    lines = target.read_text(encoding="utf-8").split("\n")
    index = lines.index(anchor) + 1
    lines.insert(index, new)
    target.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


def persist_relative_path(fixture: RepoFixture) -> ExpectedFinding:
    template = "rust/simple-api"
    line = _replace_line(fixture, template, "wendy.json", '"path": "/data"', '"path": "data"')
    return ExpectedFinding(template, "wendy.json", line, "absolute", '"path": "data"')


def depends_on_unknown_service(fixture: RepoFixture) -> ExpectedFinding:
    template = "python/sensor-hub"
    new = '"dependsOn": ["store", "cache"]'
    line = _replace_line(fixture, template, "wendy.json", '"dependsOn": ["store"]', new)
    return ExpectedFinding(template, "wendy.json", line, "cache", new)


def unknown_entitlement(fixture: RepoFixture) -> ExpectedFinding:
    template = "cpp/opencv-camera"
    line = _replace_line(fixture, template, "wendy.json", '"type": "gpu"', '"type": "lidar"')
    return ExpectedFinding(template, "wendy.json", line, "lidar", '"type": "lidar"')


def template_missing_from_meta(fixture: RepoFixture) -> ExpectedFinding:
    template = "cpp/audio-monitor"
    listed = [spec for spec in fixture.templates if spec.id != template]
    (fixture.root / META_FILE).write_text(meta_json(listed), encoding="utf-8")
    return ExpectedFinding(template, META_FILE, None, "audio-monitor", None)


def copy_of_missing_file(fixture: RepoFixture) -> ExpectedFinding:
    template = "node/simple-api"
    new = "COPY tsconfig.json ./"
    line = _insert_after(fixture, template, "Dockerfile", "COPY src/ ./src/", new)
    return ExpectedFinding(template, "Dockerfile", line, "tsconfig.json", new)


def unrendered_action(fixture: RepoFixture) -> ExpectedFinding:
    # {{"{{"}} renders as {{, so the output keeps a literal {{.PORT}}: the author
    # escaped what should have been rendered.  README.md has no multi-line
    # actions, so the source line is the rendered line.
    template = "python/simple-api"
    new = 'Then open http://<device>:{{"{{"}}.PORT}}/ in a browser.'
    anchor = "connections, then opens the status page."
    line = _insert_after(fixture, template, "README.md", anchor, new)
    return ExpectedFinding(template, "README.md", line, "{{.", "http://<device>:{{.PORT}}/")


DEFECTS: tuple[Defect, ...] = (
    Defect(
        "persist-relative-path", "a persist entitlement with a relative path", persist_relative_path
    ),
    Defect(
        "depends-on-unknown-service",
        "a dependsOn naming an unknown service",
        depends_on_unknown_service,
    ),
    Defect("unknown-entitlement", "an unknown entitlement type", unknown_entitlement),
    Defect(
        "template-missing-from-meta",
        "a template directory missing from meta.json",
        template_missing_from_meta,
    ),
    Defect(
        "copy-of-missing-file",
        "a Dockerfile COPY of a file no render contains",
        copy_of_missing_file,
    ),
    Defect("unrendered-action", "a {{. left in a rendered file", unrendered_action),
)
