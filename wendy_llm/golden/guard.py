"""Fixtures are regenerated on a developer's machine, never silently in CI.

An update in CI would make any template change pass its own golden check,
so both ``wendy-llm golden --update`` and ``pytest --update-golden`` refuse
to write when the environment says CI, unless forced. One rule and one
message for both, worded for whichever way the user asked.
"""

from __future__ import annotations

from collections.abc import Mapping

from wendy_llm.errors import GoldenUpdateRefused

_TRUE = {"1", "true", "yes", "on"}


def in_ci(environ: Mapping[str, str]) -> bool:
    """``CI`` is set to a true value (``true``, ``1``, ``yes``, ``on``; any case)."""
    return environ.get("CI", "").strip().lower() in _TRUE


def refuse_update_in_ci(
    environ: Mapping[str, str],
    *,
    force: bool,
    force_flag: str = "--force",
    local_command: str = "wendy-llm golden --update",
    check_command: str = "wendy-llm golden --check",
) -> None:
    """Raise :class:`GoldenUpdateRefused` when in CI and not ``force``d.

    ``force_flag``, ``local_command`` and ``check_command`` word the way out
    for the caller's interface (the CLI, or pytest's ``--update-golden``).
    """
    if not in_ci(environ) or force:
        return
    raise GoldenUpdateRefused(
        f"refusing to write fixtures: CI={environ.get('CI')} is set. In CI the fixtures "
        "must be checked, not regenerated: an update there would make any template change "
        f"pass. Run `{local_command}` locally and commit the result, use "
        f"`{check_command}` in CI, or pass {force_flag} if you really mean to write here."
    )
