"""python/llm as a device runs its containers (wendy-run.md section 9): the PATH fix.

A device appends the agent's ``PATH`` after the image's ``ENV`` and the
later entry wins, so ``open-webui`` (installed into the virtualenv
``/opt/open-webui/bin``, which only the image's ``PATH`` names) is found
there only through the link the Dockerfile makes into ``/usr/local/bin``.
The rendered entrypoint runs with real bash under the device's
environment as the device model computes it, ``/usr/local/bin`` standing
in as a directory of the test's own; without the link bash cannot find
the program, and the device check fails naming it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _cli_helpers import run_module
from harness.behaviours.base import RENDER_APP_ID, RENDER_OVERRIDES
from harness.scripttest import Outcome, Rule, run_script

from wendy_llm import Template
from wendy_llm.render.picks import CANONICAL_APP_ID
from wendy_llm.validate.checks.device import build_view
from wendy_llm.wendycli.runtime import AGENT_PATH

REPO = Path(__file__).resolve().parents[2]
LINK = "RUN ln -s /opt/open-webui/bin/open-webui /usr/local/bin/open-webui\n"


def device_env(template: Template, slug: str, work: Path) -> dict[str, str]:
    """Open WebUI's environment on a device (the winning entries the model knows),
    with the agent's PATH whose /usr/local/bin is ``work/usr/local/bin``."""
    tree = template.render(CANONICAL_APP_ID, dict(template.pick(slug).answers))
    service = build_view(tree, CANONICAL_APP_ID).service("open-webui")
    assert service is not None and service.runtime is not None
    env = {e.name: e.value for e in service.runtime.environment if e.wins and e.value is not None}
    assert env["PATH"] == AGENT_PATH
    env["PATH"] = AGENT_PATH.replace("/usr/local/bin", str(work / "usr" / "local" / "bin"))
    env["HOME"] = str(work)
    env["WENDY_HOSTNAME"] = "thor-7.local"
    env["DATA_DIR"] = str(work / "data")
    return env


def run_entrypoint(
    template: Template, tmp_path: Path, *, linked: bool
) -> tuple[int | None, str, int]:
    """The rendered open-webui entrypoint under the device's environment; ``linked``:
    ``/usr/local/bin/open-webui`` links to the virtualenv's (a stub) as the Dockerfile does."""
    script = template.render(RENDER_APP_ID, RENDER_OVERRIDES).write(tmp_path / "render")
    work = tmp_path / "work"
    local_bin = work / "usr" / "local" / "bin"
    local_bin.mkdir(parents=True)
    if linked:
        (local_bin / "open-webui").symlink_to(work / "stubs" / "open-webui")
    run = run_script(
        script / "open-webui" / "entrypoint.sh",
        rules=[Rule("open-webui", prefix=("serve",), outcomes=(Outcome(),), then=None)],
        env=device_env(template, "laguna-s-2.1-dflash", work),
        workdir=work,
        timeout=60.0,
    )
    return run.exit_code, run.stderr, len(run.calls_of("open-webui", "serve"))


def test_open_webui_starts_with_the_device_path(template: Template, tmp_path: Path) -> None:
    code, err, serves = run_entrypoint(template, tmp_path, linked=True)
    assert (code, serves) == (0, 1), err


def test_without_the_link_bash_cannot_find_open_webui(template: Template, tmp_path: Path) -> None:
    code, err, serves = run_entrypoint(template, tmp_path, linked=False)
    assert (code, serves) == (127, 0)
    assert "exec: open-webui: not found" in err


@pytest.mark.parametrize("slug", ["laguna-s-2.1-dflash", "gemma4-e2b"])
def test_without_the_link_the_device_check_fails(tmp_path: Path, slug: str) -> None:
    root = tmp_path / "repo"
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "golden", root / "golden")
    dockerfile = root / "templates" / "python" / "llm" / "open-webui" / "Dockerfile"
    text = dockerfile.read_text(encoding="utf-8")
    assert text.count(LINK) == 1
    dockerfile.write_text(text.replace(LINK, ""), encoding="utf-8")
    run = run_module("check", str(root / "templates"), "--template", "python/llm", "--pick", slug)
    assert run.code == 1
    # wendy-run.md section 9: the agent's PATH wins over the image's.
    assert (
        "[device] open-webui/entrypoint.sh:85: DEV046 service open-webui runs open-webui "
        "by bare name" in run.out
    )
    assert "installs it only into /opt/open-webui/bin, which open-webui/Dockerfile:" in run.out
    assert "(Wendy run facts, section 9)" in run.out
    assert "Run it as /opt/open-webui/bin/open-webui, or symlink it into /usr/local/bin" in run.out
