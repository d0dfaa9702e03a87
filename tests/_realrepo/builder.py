"""``build_repository``: write the realistic templates repository into a directory.

The result is what a Wendy templates repository looks like (issue 13): the
templates at ``<language>/<name>/`` at the root, ``meta.json``, ``common/``,
``docs/``, a README, and a git repository with everything committed.
``RepoFixture`` describes what was built, so tests ask it (which templates
need a sample value, which have a compose file, ...) instead of naming
templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from _golden_helpers import commit_all, init_repo, write_files

from _realrepo.catalog import ROOT_FILES, TEMPLATES, meta_json
from _realrepo.spec import TemplateSpec

META_FILE = "meta.json"
#: Top-level folders that are not languages (never templates).
NON_TEMPLATE_DIRS = ("common", "docs")
#: Where the settings with the sample values go: ``wendy-llm.toml`` at the
#: repository root (``wendy_llm.repo.config``; README "wendy-llm.toml").
#: The tests use only ``SETTINGS_FILE`` and ``settings_text``.
SETTINGS_FILE = "wendy-llm.toml"


@dataclass(frozen=True)
class RepoFixture:
    """A built repository: its root and the templates it holds."""

    root: Path
    templates: tuple[TemplateSpec, ...]

    @property
    def template_ids(self) -> tuple[str, ...]:
        return tuple(sorted(spec.id for spec in self.templates))

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted({spec.language for spec in self.templates}))

    def spec(self, template_id: str) -> TemplateSpec:
        for spec in self.templates:
            if spec.id == template_id:
                return spec
        raise KeyError(f"no template {template_id} in the fixture repository")

    def template_dir(self, template_id: str) -> Path:
        return self.root / self.spec(template_id).language / self.spec(template_id).name

    def with_shape(self, shape: str) -> tuple[str, ...]:
        """Ids of the templates tagged with ``shape`` (see ``spec``)."""
        return tuple(sorted(spec.id for spec in self.templates if shape in spec.shapes))

    @property
    def sample_values(self) -> dict[str, Mapping[str, str]]:
        """Template id -> the values it cannot render without (only those that need some)."""
        return {spec.id: spec.sample_values for spec in self.templates if spec.sample_values}

    def commit(self, message: str) -> str:
        return commit_all(self.root, message)


def build_repository(
    root: Path, *, templates: Sequence[TemplateSpec] = TEMPLATES, git: bool = True
) -> RepoFixture:
    """Write the repository into ``root`` (created; must be empty or absent).

    With ``git`` (the default) ``root`` is a git repository with one commit
    holding everything, as a clone would be.
    """
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, str | bytes] = {**ROOT_FILES, META_FILE: meta_json(templates)}
    for spec in templates:
        files.update({f"{spec.id}/{path}": data for path, data in spec.files.items()})
    write_files(root, files)
    fixture = RepoFixture(root=root, templates=tuple(templates))
    if git:
        init_repo(root)
        fixture.commit("Wendy templates")
    return fixture


def settings_text(sample_values: Mapping[str, Mapping[str, str]]) -> str:
    """The settings file giving each template its sample values (issue 13 item 6)."""
    lines = ["# wendy-llm settings for this templates repository.", ""]
    for template_id, values in sorted(sample_values.items()):
        lines.append(f'[sample-values."{template_id}"]')
        lines += [f'{name} = "{value}"' for name, value in values.items()]
        lines.append("")
    return "\n".join(lines)


def write_settings(fixture: RepoFixture) -> Path:
    """Write the sample values of ``fixture`` into its settings file; returns its path."""
    path = fixture.root / SETTINGS_FILE
    path.write_text(settings_text(fixture.sample_values), encoding="utf-8")
    return path
