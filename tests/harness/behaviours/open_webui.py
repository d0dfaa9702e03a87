"""The Open WebUI entrypoint (``open-webui/entrypoint.sh``): backend URLs
rewritten to loopback on a device only, and the server started on PORT.

"On a device" is WENDY_HOSTNAME set, or the URL's service name not resolving
(``getent hosts NAME`` fails: an app group on a device has no service DNS).
``getent`` is a stub: each scenario says whether names resolve."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from harness.behaviours.base import (
    RENDERED_PORT,
    RUN_TIMEOUT_S,
    STUBBED_COMMANDS,
    WEBUI_SCRIPT,
    Behaviour,
    Expect,
)
from harness.scripttest import Outcome, Rule, ScriptRun, run_script

DEVICE: Final = "thor-7"
_WEBUI_VARS: Final = ("OLLAMA_BASE_URL", "OPENAI_API_BASE_URL")


def _run_webui(
    script: Path, work: Path, env: Mapping[str, str], *, resolves: bool | None
) -> ScriptRun:
    """``resolves``: whether ``getent hosts`` finds a name (None: it must not be asked)."""
    rules = [Rule("open-webui", prefix=("serve",), outcomes=(Outcome(),), then=None)]
    if resolves is not None:
        rules.append(Rule("getent", prefix=("hosts",), then=Outcome(exit=0 if resolves else 2)))
    full = {"DATA_DIR": str(work / "data"), **env}
    return run_script(
        script,
        rules=rules,
        stubs=STUBBED_COMMANDS,
        env=full,
        record_env=_WEBUI_VARS,
        timeout=RUN_TIMEOUT_S,
        workdir=work,
    )


def _check_webui(
    script: Path,
    work: Path,
    env: Mapping[str, str],
    expected: Mapping[str, str],
    port: str,
    *,
    resolves: bool | None = None,
    looked_up: Sequence[str] = (),
) -> list[str]:
    """Run with ``env``; Open WebUI must get ``expected`` URLs on ``port``, after
    ``getent hosts`` was asked about exactly ``looked_up`` (in order)."""
    run = _run_webui(script, work, env, resolves=resolves)
    expect = Expect()
    expect.clean_run(run, status=0)
    lookups = [c.args for c in run.calls_of("getent")]
    expect.equal("getent calls", lookups, [("hosts", name) for name in looked_up])
    serves = run.calls_of("open-webui")
    if expect.equal("open-webui calls", len(serves), 1):
        call = serves[0]
        expect.equal(
            "open-webui arguments", list(call.args), ["serve", "--host", "0.0.0.0", "--port", port]
        )
        seen = {k: v for k, v in call.env.items() if k in _WEBUI_VARS}
        expect.equal("backend URLs Open WebUI got", seen, dict(expected))
    expect.that((work / "data").is_dir(), "DATA_DIR was not created")
    changed = {k for k in expected if env.get(k) != expected[k]}
    if not changed:
        expect.not_logged(run, r"->", "a rewrite although no URL changed")
    for name in sorted(changed):
        expect.logged(run, rf"{name} .* -> ", f"reporting the rewrite of {name}")
    return expect.problems


def webui_rewrites_on_device(script: Path, work: Path) -> list[str]:
    """On a device (WENDY_HOSTNAME set) both backends' compose URLs become loopback."""
    env = {
        "WENDY_HOSTNAME": DEVICE,
        "OLLAMA_BASE_URL": "http://ollama:11434",
        "OPENAI_API_BASE_URL": "http://vllm:8000/v1",
    }
    expected = {
        "OLLAMA_BASE_URL": "http://127.0.0.1:11434",
        "OPENAI_API_BASE_URL": "http://127.0.0.1:8000/v1",
    }
    return _check_webui(script, work, env, expected, RENDERED_PORT)


def webui_rewrites_device_hostname(script: Path, work: Path) -> list[str]:
    """The same backend URLs with the device's host name become loopback too."""
    env = {
        "WENDY_HOSTNAME": DEVICE,
        "OLLAMA_BASE_URL": f"http://{DEVICE}:11434",
        "OPENAI_API_BASE_URL": f"http://{DEVICE}:8000/v1",
    }
    expected = {
        "OLLAMA_BASE_URL": "http://127.0.0.1:11434",
        "OPENAI_API_BASE_URL": "http://127.0.0.1:8000/v1",
    }
    return _check_webui(script, work, env, expected, RENDERED_PORT)


def webui_rewrites_keep_the_port(script: Path, work: Path) -> list[str]:
    """A backend moved to another port (changed in every place together) is
    reached on loopback at that port: the rewrite keeps port and path."""
    env = {
        "WENDY_HOSTNAME": DEVICE,
        "OLLAMA_BASE_URL": "http://ollama:11500",
        "OPENAI_API_BASE_URL": "http://vllm:8001/v1",
    }
    expected = {
        "OLLAMA_BASE_URL": "http://127.0.0.1:11500",
        "OPENAI_API_BASE_URL": "http://127.0.0.1:8001/v1",
    }
    return _check_webui(script, work, env, expected, RENDERED_PORT)


def webui_rewrites_one_backend(script: Path, work: Path) -> list[str]:
    """Each backend alone (the Ollama pick sets one URL, DFlash the other)."""
    problems = []
    for name, url, loopback in (
        ("OLLAMA_BASE_URL", "http://ollama:11434", "http://127.0.0.1:11434"),
        ("OPENAI_API_BASE_URL", "http://vllm:8000/v1", "http://127.0.0.1:8000/v1"),
    ):
        sub = work / name.lower()
        sub.mkdir()
        env = {"WENDY_HOSTNAME": DEVICE, name: url}
        found = _check_webui(script, sub, env, {name: loopback}, RENDERED_PORT)
        problems += [f"only {name} set: {p}" for p in found]
    return problems


def webui_off_device_untouched(script: Path, work: Path) -> list[str]:
    """Under Docker Compose (no WENDY_HOSTNAME, the service names resolve)
    nothing is rewritten; PORT overrides the rendered port."""
    env = {"OLLAMA_BASE_URL": "http://ollama:11434", "OPENAI_API_BASE_URL": "http://vllm:8000/v1"}
    return _check_webui(
        script,
        work,
        {**env, "PORT": "9000"},
        env,
        "9000",
        resolves=True,
        looked_up=("ollama", "vllm"),
    )


def webui_rewrites_where_names_do_not_resolve(script: Path, work: Path) -> list[str]:
    """Without WENDY_HOSTNAME (the Wendy CLI's facts do not say a device sets
    it), a service name that does not resolve means a device: the URLs the
    image's ENV holds become loopback."""
    problems = []
    for name, url, loopback, service in (
        ("OLLAMA_BASE_URL", "http://ollama:11434", "http://127.0.0.1:11434", "ollama"),
        ("OPENAI_API_BASE_URL", "http://vllm:8000/v1", "http://127.0.0.1:8000/v1", "vllm"),
    ):
        sub = work / name.lower()
        sub.mkdir()
        found = _check_webui(
            script,
            sub,
            {name: url},
            {name: loopback},
            RENDERED_PORT,
            resolves=False,
            looked_up=(service,),
        )
        problems += [f"only {name} set: {p}" for p in found]
    return problems


def webui_other_urls_untouched(script: Path, work: Path) -> list[str]:
    """On a device, URLs that are not the compose backends' stay as they are."""
    env = {
        "WENDY_HOSTNAME": DEVICE,
        "OLLAMA_BASE_URL": "http://gpu-box.lan:11434",
        "OPENAI_API_BASE_URL": "https://api.example.com/v1",
    }
    kept = {k: v for k, v in env.items() if k != "WENDY_HOSTNAME"}
    problems = _check_webui(script, work, env, kept, RENDERED_PORT)
    # Without WENDY_HOSTNAME, names that do not resolve: still not ours to touch.
    off = work / "unresolved"
    off.mkdir()
    found = _check_webui(script, off, kept, kept, RENDERED_PORT, resolves=False)
    return problems + [f"no WENDY_HOSTNAME, names unresolved: {p}" for p in found]


BEHAVIOURS: Final[tuple[Behaviour, ...]] = (
    Behaviour("webui-rewrites-on-device", WEBUI_SCRIPT, webui_rewrites_on_device),
    Behaviour("webui-rewrites-device-hostname", WEBUI_SCRIPT, webui_rewrites_device_hostname),
    Behaviour("webui-rewrites-keep-the-port", WEBUI_SCRIPT, webui_rewrites_keep_the_port),
    Behaviour("webui-rewrites-one-backend", WEBUI_SCRIPT, webui_rewrites_one_backend),
    Behaviour("webui-off-device-untouched", WEBUI_SCRIPT, webui_off_device_untouched),
    Behaviour(
        "webui-rewrites-where-names-do-not-resolve",
        WEBUI_SCRIPT,
        webui_rewrites_where_names_do_not_resolve,
    ),
    Behaviour("webui-other-urls-untouched", WEBUI_SCRIPT, webui_other_urls_untouched),
)
