"""Directories a tree write must never replace: the guard behind ``--force``.

Writing a tree over an existing directory replaces it: whatever it held is
deleted. ``RenderedTree.write`` (and so ``wendy-llm render --force``)
refuses, whether or not replacing was allowed, when the output directory
is, or contains:

- the template directory the tree was rendered from (``template``), or it
  lies inside that directory (``inside-template``: the output would also
  become part of the template);
- the root of a git work tree (``repository``): the one holding the
  template or the current directory, or any directory holding ``.git``;
- the current directory (``cwd``): even empty, replacing it would leave
  the shell in a deleted directory;
- the home directory (``home``).

Every path is compared with symbolic links resolved, so an output
directory named through a link to the template is refused too. What the
output directory *is* is reported before what it contains, each in the
order above.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from wendy_llm.errors import OutputDirRefused

_WHAT = {
    "template": "the template directory",
    "repository": "the root of the git work tree",
    "cwd": "the current directory",
    "home": "your home directory",
}


def _work_tree_root(start: Path) -> Path | None:
    """The nearest directory from ``start`` upwards holding ``.git`` (a repository's root)."""
    for directory in (start, *start.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return None


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except (RuntimeError, KeyError, OSError):  # no HOME and no password entry
        return None


def _protected(template_root: Path | None) -> Iterator[tuple[str, Path]]:
    """(reason, resolved directory) for every directory the guard protects, in order."""
    cwd = Path.cwd().resolve()
    root = None if template_root is None else template_root.resolve()
    if root is not None:
        yield "template", root
    for start in (root, cwd):
        found = None if start is None else _work_tree_root(start)
        if found is not None:
            yield "repository", found
    yield "cwd", cwd
    home = _home()
    if home is not None:
        yield "home", home


def check_out_dir(target: Path, *, template_root: Path | None, exists: bool) -> None:
    """Raise :class:`OutputDirRefused` when writing to ``target`` could destroy a
    protected directory; ``exists`` says whether ``target`` would be replaced."""
    real = target.resolve()
    shown = str(target)
    if template_root is not None:
        root = template_root.resolve()
        if root in real.parents:
            raise OutputDirRefused(
                f"refusing to write to {shown}: it is inside the template directory {root}, "
                "so the output would become part of the template; write the tree somewhere "
                "else",
                path=shown,
                reason="inside-template",
                protected=str(root),
            )
    if not exists:
        return  # a new directory cannot hold anything
    protected = list(_protected(template_root))
    if os.path.lexists(real / ".git"):
        protected.insert(0, ("repository", real))
    # What OUT is says more than what it contains, so equality is tried first.
    for reason, directory in protected:
        if directory == real:
            _refuse(shown, reason, directory, real)
    for reason, directory in protected:
        if real in directory.parents:
            _refuse(shown, reason, directory, real)


def _refuse(shown: str, reason: str, protected: Path, real: Path) -> None:
    same = protected == real
    relation = f"it {'is' if same else 'contains'} {_WHAT[reason]}"
    if not (same and reason in ("cwd", "home")):  # those need no path when they are OUT
        relation += f" {protected}"
    raise OutputDirRefused(
        f"refusing to replace {shown}: {relation}; write the tree somewhere else",
        path=shown,
        reason=reason,
        protected=str(protected),
    )
