"""Which build-argument values a Dockerfile is checked with.

A ``FROM`` built from global arguments (``FROM base-${WENDY_GPU_VENDOR}``)
must work for every value those arguments can take at build time.  The
values come from this convention, documented in the README:

- a comment line directly above the ``ARG`` (no blank line between) of the
  form ``# values: a|b|c`` declares every value the argument may take;
  Docker has no trailing comments, so the ARG line itself cannot carry it;
- the build arguments the Wendy CLI passes
  (:data:`wendy_llm.wendycli.compose.WENDY_BUILD_ARGS`: ``WENDY_PLATFORM``,
  ``WENDY_DEBUG``, ``WENDY_DEVICE_TYPE``, ``WENDY_HAS_GPU``,
  ``WENDY_GPU_VENDOR``, ``WENDY_JETPACK_VERSION``, ``WENDY_CUDA_VERSION``)
  take every value a device profile gives them
  (:mod:`wendy_llm.device.profiles`, the same values as the device view:
  ``WENDY_PLATFORM`` ``nvidia-jetson`` and ``generic``, JetPack strings such
  as ``6.1`` and ``L4T 38.2.1``), and are also
  *not passed* (their default) where a profile does not report them and in
  a plain ``docker build``; a ``# values:`` comment adds values, it cannot
  narrow what the CLI passes;
- any other argument takes its default, as a plain ``docker build`` would.

Only arguments declared before the first ``FROM`` reach a ``FROM`` line
(BuildKit's rule), so only they form the matrix.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence

from wendy_llm.device.profiles import PROFILES, DeviceProfile
from wendy_llm.docker.model import ArgDecl, Dockerfile, arg_decls
from wendy_llm.wendycli.compose import WENDY_BUILD_ARGS

#: A value of an argument that is not passed: it takes its default.
NOT_PASSED = None

_VALUES = re.compile(r"^#\s*values\s*:\s*(?P<values>.+?)\s*$", re.IGNORECASE)
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def injected_values(
    devices: Sequence[DeviceProfile] = PROFILES,
) -> Mapping[str, tuple[str | None, ...]]:
    """Each Wendy build arg's values over ``devices``; :data:`NOT_PASSED` included,
    since a plain ``docker build`` (and a device that does not report it) passes none."""
    out: dict[str, tuple[str | None, ...]] = {}
    for name in WENDY_BUILD_ARGS:
        passed = (d.build_args.get(name) for d in devices)
        out[name] = (*dict.fromkeys(v for v in passed if v is not None), NOT_PASSED)
    return out


#: The values of the build arguments the Wendy CLI passes (see the module docstring).
INJECTED: Mapping[str, tuple[str | None, ...]] = injected_values()


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


def value_set(decl: ArgDecl) -> tuple[str | None, ...]:
    """Every value an argument may take at build time (:data:`NOT_PASSED`: its default);
    ``()`` for "its default" only."""
    declared = declared_values(decl)
    injected = INJECTED.get(decl.name)
    if injected is not None:
        return injected + tuple(v for v in declared if v not in injected)
    return declared


def combinations(dockerfile: Dockerfile) -> Iterator[dict[str, str]]:
    """Every combination of build arguments the ``FROM`` lines must work for.

    An argument that is not passed is left out of its combinations.  One
    empty combination when no ``FROM`` depends on a valued argument.
    """
    used = {name for stage in dockerfile.stages for name in variables_in(stage.base)}
    axes: dict[str, tuple[str | None, ...]] = {}
    for decl in dockerfile.global_args:
        values = value_set(decl)
        if decl.name in used and values:
            axes[decl.name] = values  # a later declaration wins, as in BuildKit
    names = sorted(axes)
    for values in itertools.product(*(axes[name] for name in names)):
        yield {k: v for k, v in zip(names, values, strict=True) if v is not NOT_PASSED}


def describe(combo: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(combo.items())) or "no build args"
