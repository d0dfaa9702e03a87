"""Which build-argument values a Dockerfile is checked with.

A ``FROM`` built from global arguments (``FROM base-${WENDY_GPU_VENDOR}-${WENDY_JETPACK_MAJOR}``)
must work for every value those arguments can take at build time.  The
values come from this convention, documented in the README:

- a comment line directly above the ``ARG`` (no blank line between) of the
  form ``# values: a|b|c`` declares every value the argument may take;
  Docker has no trailing comments, so the ARG line itself cannot carry it;
- the build arguments the Wendy CLI injects always take every value the
  CLI can inject (``WENDY_GPU_VENDOR``: nvidia, generic;
  ``WENDY_JETPACK_MAJOR``: 0, 6, 7), plus any a ``# values:`` comment adds:
  a comment cannot narrow what the CLI passes;
- any other argument takes its default, as a plain ``docker build`` would.

Only arguments declared before the first ``FROM`` reach a ``FROM`` line
(BuildKit's rule), so only they form the matrix.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping

from wendy_llm.docker.model import ArgDecl, Dockerfile, arg_decls

#: Build arguments the Wendy CLI passes to every build, and their values.
WENDY_BUILD_ARGS: Mapping[str, tuple[str, ...]] = {
    "WENDY_GPU_VENDOR": ("nvidia", "generic"),
    "WENDY_JETPACK_MAJOR": ("0", "6", "7"),
}

_VALUES = re.compile(r"^#\s*values\s*:\s*(?P<values>.+?)\s*$", re.IGNORECASE)
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def variables_in(text: str) -> list[str]:
    """The variable names ``text`` refers to, in order, without repeats."""
    return list(dict.fromkeys(_VARIABLE.findall(text)))


def declared_values(decl: ArgDecl) -> tuple[str, ...]:
    """The values a ``# values:`` comment declares for ``decl`` (none: ``()``)."""
    if len(arg_decls(decl.instruction)) != 1:
        return ()  # a values comment is only unambiguous for a single declaration
    for comment in reversed(decl.instruction.comments):
        match = _VALUES.match(comment)
        if match is not None:
            return tuple(v.strip() for v in match.group("values").split("|") if v.strip())
    return ()


def value_set(decl: ArgDecl) -> tuple[str, ...]:
    """Every value an argument may take at build time; ``()`` for "its default"."""
    declared = declared_values(decl)
    injected = WENDY_BUILD_ARGS.get(decl.name)
    if injected is not None:
        return injected + tuple(v for v in declared if v not in injected)
    return declared


def combinations(dockerfile: Dockerfile) -> Iterator[dict[str, str]]:
    """Every combination of build arguments the ``FROM`` lines must work for.

    One empty combination when no ``FROM`` depends on a valued argument.
    """
    used = {name for stage in dockerfile.stages for name in variables_in(stage.base)}
    axes: dict[str, tuple[str, ...]] = {}
    for decl in dockerfile.global_args:
        values = value_set(decl)
        if decl.name in used and values:
            axes[decl.name] = values  # a later declaration wins, as in BuildKit
    names = sorted(axes)
    for values in itertools.product(*(axes[name] for name in names)):
        yield dict(zip(names, values, strict=True))


def describe(combo: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(combo.items()))
