"""The policy a verdict is judged by, read at a base revision (issue 38).

A pull request must not choose the policy it is judged by.  With a base
revision (``check --base REV``, ``diff --base REV``), the files that decide
a verdict are read as the base holds them, through git (the work tree is
not touched):

- ``wendy-llm.toml``: the ``[findings]`` selection, the templates it
  ignores, ``rules-files``, the fixtures' form, the places (its sample
  values are the work tree's: they are the inputs a template needs to
  render, not a judgment of it, and a change to them alone is no policy
  change);
- each template's rules file: its rules, ``gate.files``, its sentinels;
- the suppressions file.

:func:`base_policy` returns both sides of every such file, and the run's
layout as the base decides it, with those files pinned to the base
(:class:`~wendy_llm.repo.pinned.Pinned`): a reader asks the layout, never
the work tree.  A file the work tree changes, adds or removes is a policy
change, which the gate reports as a finding of its own
(:mod:`wendy_llm.validate.checks.policy`).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wendy_llm.errors import SettingsError, SuppressionsError
from wendy_llm.repo.config import SETTINGS_FILE, Settings, parse_settings
from wendy_llm.repo.gitsource import files_at_revision, repo_root
from wendy_llm.repo.layout import Layout, display_path, with_settings
from wendy_llm.repo.pinned import Pinned
from wendy_llm.repo.suppressions_file import parse_suppressions
from wendy_llm.safe_read import ReadRefused, read_bytes

#: The table of sample values in ``wendy-llm.toml``: inputs, not policy.
SAMPLE_VALUES = "sample-values"

#: What a policy file decides: the settings, a template's rules, the suppressions.
PolicyKind = Literal["settings", "rules", "suppressions"]


@dataclass(frozen=True)
class PolicyFile:
    """One policy file on both sides: its bytes at the base and in the work tree
    (None: no regular file there); ``template``: whose rules it holds."""

    kind: PolicyKind
    path: Path
    shown: str
    base: bytes | None
    head: bytes | None
    template: str | None = None
    #: The two sides differ in nothing that could pass what the base fails: in
    #: the settings' sample values only, or a suppressions file that only
    #: lowers counts and drops entries (``--prune-suppressions`` after a fix).
    same_policy: bool = False

    @property
    def changed(self) -> bool:
        return self.base != self.head and not self.same_policy

    @property
    def judged(self) -> bytes | None:
        """What the run reads: the base's, or the work tree's where it only tightens
        (a suppressions file kept at the base would call the fix's entries unused)."""
        return self.head if self.kind == "suppressions" and self.same_policy else self.base


@dataclass(frozen=True)
class BasePolicy:
    """The policy at a base revision: ``layout`` is the run's under it (the base's
    settings and places, its policy files pinned); ``files`` every policy file
    either side reads, on both sides."""

    layout: Layout
    files: tuple[PolicyFile, ...]

    @property
    def pinned(self) -> Pinned:
        assert self.layout.pinned is not None  # base_policy always pins
        return self.layout.pinned

    def changes(self) -> list[PolicyFile]:
        """The files the work tree changes, adds or removes."""
        return [f for f in self.files if f.changed]


def base_policy(layout: Layout, revision: str) -> BasePolicy:
    """The policy of ``layout``'s repository at ``revision``; raises
    :class:`~wendy_llm.errors.GitError` (and its kin) when the revision cannot
    be read, :class:`SettingsError` when the base's own ``wendy-llm.toml`` is
    invalid."""
    repo = repo_root(layout.root)
    settings_path = layout.root / SETTINGS_FILE
    settings_data, _ = files_at_revision(repo, revision, [settings_path])
    base_settings = _settings_at(settings_data[settings_path], settings_path, revision)
    base = with_settings(layout, _with_samples(base_settings, layout.settings))
    kinds: dict[Path, tuple[PolicyKind, str | None]] = {
        settings_path: ("settings", None),
        layout.suppressions_path: ("suppressions", None),
    }
    for each in (base, layout):  # what either side's policy reads
        for found in each.find_templates():
            kinds.setdefault(each.rules_path(found.id), ("rules", found.id))
    at_base, rev = files_at_revision(repo, revision, list(kinds))
    files = tuple(
        _file(kind, path, at_base[path], template, base.root)
        for path, (kind, template) in kinds.items()
    )
    read_by_base = {settings_path, base.suppressions_path}
    read_by_base |= {base.rules_path(t.id) for t in base.find_templates()}
    pinned = Pinned(
        revision, rev.commit, tuple((f.path, f.judged) for f in files if f.path in read_by_base)
    )
    return BasePolicy(
        Layout(base.root, base.templates_root, base.golden_dir, base.settings, pinned), files
    )


def _file(
    kind: PolicyKind, path: Path, base: bytes | None, template: str | None, root: Path
) -> PolicyFile:
    head = _work_tree(path, root)
    decided = _judgment(head) if kind == "settings" else None
    same = decided is not None and decided == _judgment(base)
    if kind == "suppressions":
        same = _only_tightens(base, head, display_path(path))
    return PolicyFile(kind, path, display_path(path), base, head, template, same)


def _only_tightens(base: bytes | None, head: bytes | None, shown: str) -> bool:
    """Whether the work tree's suppressions accept nothing the base's do not: each
    entry recorded at the base, at most as often (a file gone accepts nothing)."""
    if head is None:
        return True
    try:
        now = parse_suppressions(head.decode("utf-8"), shown=shown)
        if base is None:
            return not now.entries
        before = parse_suppressions(base.decode("utf-8"), shown=shown)
    except (UnicodeDecodeError, SuppressionsError):
        return False
    if now.entries and now.version != before.version:
        return False  # keyed differently: no claim
    allowed = {entry.key: entry.count for entry in before.entries}
    return all(entry.count <= allowed.get(entry.key, 0) for entry in now.entries)


def _judgment(data: bytes | None) -> dict[str, object] | None:
    """What a settings file decides about a verdict: all but its sample values
    (None when it does not parse: no claim that two such files agree)."""
    try:
        parsed = tomllib.loads((data or b"").decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    parsed.pop(SAMPLE_VALUES, None)
    return parsed


def _with_samples(base: Settings, head: Settings) -> Settings:
    """The base's settings with the work tree's sample values, named as the work
    tree's file (a missing value is added there)."""
    lines = {k: v for k, v in base.lines.items() if k[:1] != (SAMPLE_VALUES,)}
    lines |= {k: v for k, v in head.lines.items() if k[:1] == (SAMPLE_VALUES,)}
    return dataclasses.replace(
        base, sample_values=head.sample_values, shown=head.shown, lines=lines
    )


def _settings_at(data: bytes | None, path: Path, revision: str) -> Settings:
    """The base's settings (all defaults when it has no file)."""
    shown = f"{display_path(path)} at {revision}"
    if data is None:
        return Settings(shown=display_path(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{shown}: not valid UTF-8 (byte {exc.start})", file=shown) from exc
    return parse_settings(text, path=path, shown=shown)


def _work_tree(path: Path, root: Path) -> bytes | None:
    """The work tree's side of a policy file, as git would commit it: a symbolic
    link is no file (its target, maybe a host file, is never quoted in a diff),
    nor is anything the one reader refuses (a device, a FIFO, an oversized file)."""
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return read_bytes(path, root, shown=display_path(path))
    except (ReadRefused, OSError):
        return None
