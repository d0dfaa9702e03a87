"""``wendy-llm plan``: the device view of a pick as text and JSON, exit codes, errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from _check_helpers import TEMPLATE_COMPOSE, write_template
from _cli_helpers import SCHEMAS, validate_report

from wendy_llm.cli import main
from wendy_llm.device import model
from wendy_llm.device.runtime import model as runtime_model

LLM = str(Path(__file__).resolve().parents[2] / "templates" / "python" / "llm")


def plan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["plan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_dflash_plan_reads_like_a_deployment_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, LLM, "--pick", "laguna-s-2.1-dflash")
    assert (code, err) == (0, "")
    assert out.startswith("wendy run on a WendyOS device: llm, pick laguna-s-2.1-dflash")
    assert "path: compose (docker-compose.yml); project llm-app" in out
    # Apps in creation order, each with what it gets.
    assert out.index("1. vllm -> app llm-app-vllm") < out.index("2. open-webui -> app")
    assert '   restart  unless-stopped (compose restart: "unless-stopped")' in out
    assert "   entitle  network ports=8000:8000" in out
    assert "            VLLM_API_KEY=wendy-local-dflash" in out
    # Open WebUI's image carries the pick's wiring to vLLM, as compose does.
    assert "            OPENAI_API_BASE_URL=http://vllm:8000/v1\n" in out
    assert "OPENAI_API_BASE_URL=http://vllm:8000/v1: the image sets the same" in out
    # Then what is ignored, then the verdict.
    ignored = out.index("Ignored on the device:")
    assert out.index("docker-compose.yml:20: services.vllm.healthcheck") > ignored
    # 5 ignored items, and vLLM's 64 MiB /dev/shm (wendy-run.md section 9).
    assert "service vllm runs vLLM, and its /dev/shm is 64 MiB on a device" in out
    assert out.rstrip().splitlines()[-1].startswith("wendy run deploys it: 0 error(s), 6 warning")
    assert "\x1b[" not in out


def test_json_follows_the_schema_and_device_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plan(capsys, LLM, "--pick", "gemma4-e4b", "--device", "thor", "--json")
    assert code == 0
    doc = validate_report(out, "plan")
    assert [p["name"] for p in doc["profiles"]] == ["thor"]
    assert doc["view"]["devices"] == ["thor"]
    ollama = doc["view"]["services"][0]
    args = {a["name"]: a for a in ollama["build"]["args"]}
    # One device: every value is plain, none per device.
    assert args["WENDY_JETPACK_VERSION"] == {
        "name": "WENDY_JETPACK_VERSION",
        "value": "L4T 38.2.1",
        "by_device": {},
        "source": "wendy",
        "assumed": True,
    }
    assert doc["answers"] == {"OLLAMA_MODEL": "gemma4:e4b"}


def test_vars_and_app_id_reach_the_view(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plan(
        capsys, LLM, "--app-id", "Chat.Box", "--var", "PORT=3000", "--json", "--no-strict"
    )
    assert code == 0
    view = json.loads(out)["view"]
    webui = view["services"][-1]
    assert (view["project"], webui["app"]) == ("chat.box", "chat.box-open-webui")
    assert webui["ports"] == [{"host": 3000, "container": 3000, "entry": "3000:3000"}]


def test_exit_1_when_wendy_run_would_fail(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    compose = TEMPLATE_COMPOSE.replace(
        '      - "{{.PORT}}:{{.PORT}}"', "      - target: {{.PORT}}\n        published: {{.PORT}}"
    )
    templates, _ = write_template(tmp_path, files={"docker-compose.yml": compose})
    code, out, _ = plan(capsys, str(templates / "py" / "mini"))
    assert code == 1
    assert "error docker-compose.yml:" in out and "long syntax" in out
    assert out.rstrip().splitlines()[-1].startswith("wrong on a device: 1 error(s)")
    code, out, _ = plan(capsys, str(templates / "py" / "mini"), "--json")
    assert code == 1 and json.loads(out)["ok"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pick", "nope"], "nope"),
        (["--device", "jetson-nano"], "no device profile 'jetson-nano' (profiles: thor, orin"),
        (["--var", "PORT=http"], "PORT"),
    ],
)
def test_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = plan(capsys, LLM, *args)
    assert (code, out) == (2, "")
    assert err.startswith("wendy-llm: error: ") and message in err


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plan", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "--pick laguna-s-2.1-dflash" in out and "Exit status" in out


def _defs_of(node: Any) -> dict[str, set[str]]:
    return {name: set(d["properties"]) for name, d in node["$defs"].items()}


def test_the_schema_names_exactly_the_views_fields() -> None:
    schema = json.loads((SCHEMAS / "report-plan.v2.schema.json").read_text(encoding="utf-8"))
    defs = _defs_of(schema)
    classes = {
        "view": model.DeviceView,
        "service": model.Service,
        "build": model.Build,
        "build_arg": model.BuildArg,
        "command": model.Command,
        "environment": model.Environment,
        "dropped_variable": model.DroppedVariable,
        "port": model.Port,
        "volume": model.Volume,
        "entitlement": model.Entitlement,
        "restart": model.Restart,
        "ignored": model.Ignored,
        "finding": model.DeviceFinding,
        "runtime": runtime_model.Runtime,
        "runtime_env_entry": runtime_model.EnvEntry,
        "runtime_gpu": runtime_model.Gpu,
        "runtime_network": runtime_model.Network,
        "runtime_mount": runtime_model.Mount,
        "runtime_process": runtime_model.Process,
        "runtime_program": runtime_model.Resolution,
    }
    for name, cls in classes.items():
        assert defs[name] == {f.name for f in dataclasses.fields(cls)}, name


def test_the_plan_shows_each_containers_runtime(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plan(capsys, LLM, "--pick", "laguna-s-2.1-dflash", "--device", "thor")
    assert code == 0
    # The agent's PATH wins over the image's (Wendy run facts, section 9).
    assert "PATH=(depends on its base image's ENV) [image] (replaced by a later entry)" in out
    assert "* PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin [agent]" in out
    assert "   gpu      not granted by the CLI\n" in out
    assert "   network  host networking; reachable on 8000\n" in out
    assert "hostname wendy; /dev/shm 64 MiB" in out
    code, out, _ = plan(capsys, LLM, "--pick", "laguna-s-2.1-dflash", "--json")
    document = validate_report(out, "plan")
    assert document["version"] == 2
    vllm = document["view"]["services"][0]["runtime"]
    assert vllm["gpu"]["granted"] is False and "unknown" in vllm["gpu"]["open"]
    assert vllm["mounts"][0]["options"] == ["nosuid", "noexec"]
    winners = {e["name"]: e["value"] for e in vllm["environment"] if e["wins"]}
    assert winners["PATH"] == "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    # How each service's argv resolves on a device (issue 35), in the image model.
    entry = "/usr/local/bin/wendy-vllm-entrypoint.sh"
    (argv,) = [p for p in vllm["programs"] if p["program"] == entry]
    assert (argv["state"], argv["path"], argv["file"]) == ("found", entry, "vllm/Dockerfile")
    webui = document["view"]["services"][1]["runtime"]["programs"]
    assert {(p["program"], p["state"], p["note"]) for p in webui} >= {
        ("bash", "found", "ubuntu:24.04 holds it (docs/base-images.md)")
    }
    code, out, _ = plan(capsys, LLM, "--pick", "laguna-s-2.1-dflash")
    assert f"   programs {entry} [its argv ['{entry}'] at vllm/Dockerfile:" in out
    assert "found at /bin/bash: ubuntu:24.04 holds it (docs/base-images.md)" in out
