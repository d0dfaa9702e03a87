"""The device view's entitlements: volumes (named, bind, modes), network
mode, ports, no GPU on the compose path, and wendy.json's entitlements lost
or granted anyway.

Each test writes the smallest compose file showing one fact of wendy-run.md
section 3 and checks the view (what the device gets) and the finding (file,
line, severity, words a reviewer understands); ``tests/_device_helpers.py``
builds the view.
"""

from __future__ import annotations

from _device_helpers import only, view

from wendy_llm.device import Entitlement, Port


def test_a_bind_mount_is_not_mounted() -> None:
    found = view("services:\n  web:\n    image: nginx\n    volumes:\n      - ./site:/usr/share\n")
    finding = only(found, "warning", '"./site:/usr/share"', "bind mount", "the device does not")
    assert finding.line == 5
    volume = found.services[0].volumes[0]
    assert (volume.kind, volume.mounted) == ("bind", False)
    assert found.services[0].entitlements == ()


def test_a_named_volume_becomes_a_persist_entitlement() -> None:
    found = view("services:\n  db:\n    image: postgres\n    volumes: ['demo-data:/var/lib/pg']\n")
    assert found.findings == ()
    assert found.services[0].entitlements == (
        Entitlement("persist", name="demo-data", path="/var/lib/pg"),
    )


def test_a_named_volume_mode_is_not_applied() -> None:
    found = view("services:\n  db:\n    image: postgres\n    volumes: ['data:/d:ro']\n")
    only(found, "warning", 'the mode "ro" is not applied')


def test_network_mode_host_gives_the_host_network_entitlement() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    network_mode: host\n    ports: ['80:80']\n"
    )
    assert found.services[0].entitlements == (Entitlement("network", mode="host"),)
    assert found.findings == ()


def test_another_network_mode_is_ignored() -> None:
    found = view("services:\n  web:\n    image: nginx\n    network_mode: bridge\n")
    only(found, "warning", "services.web.network_mode", 'only "host" matters')
    assert found.services[0].entitlements == ()


def test_ports_give_a_network_entitlement_with_the_mappings() -> None:
    found = view("services:\n  web:\n    image: nginx\n    ports: ['8080:80', '9000', 443]\n")
    ports = (Port(8080, 80, "8080:80"), Port(9000, 9000, "9000"), Port(443, 443, "443"))
    assert found.services[0].ports == ports
    assert found.services[0].entitlements == (Entitlement("network", ports=ports),)


def test_ports_are_read_with_sscanf_as_the_cli_reads_them() -> None:
    found = view(
        "services:\n  web:\n    image: nginx\n    ports:\n"
        "      - '127.0.0.1:8080:80'\n      - '53:53/udp'\n      - '8080:80'\n"
        "      - '70000:82'\n"
    )
    first = only(found, "warning", '"127.0.0.1:8080:80"', "host 127 -> container 8080")
    only(found, "warning", '"53:53/udp"', "keeps no protocol")
    only(found, "warning", '"70000:82"', "the device drops it")
    assert first.line == 5
    web = found.services[0]
    assert web.dropped_ports == ("70000:82",)
    assert web.ports == (
        Port(127, 8080, "127.0.0.1:8080:80"),
        Port(53, 53, "53:53/udp"),
        Port(8080, 80, "8080:80"),
    )


def test_no_gpu_entitlement_on_the_compose_path() -> None:
    found = view(
        "services:\n  llm:\n    image: vllm/vllm-openai\n    gpus: all\n    runtime: nvidia\n"
        "    deploy:\n      resources:\n        reservations:\n          devices:\n"
        "            - capabilities: [gpu]\n    ports: ['8000:8000']\n"
    )
    only(found, "warning", "services.llm.gpus", "grants no gpu entitlement")
    only(found, "warning", "services.llm.runtime", "grants no gpu entitlement")
    only(found, "warning", "services.llm.deploy", "device reservations (a GPU)")
    assert {e.type for e in found.services[0].entitlements} == {"network"}


def test_wendy_json_is_ignored_on_the_compose_path_with_what_it_held() -> None:
    wendy = (
        '{\n  "appId": "demo",\n  "services": {\n    "llm": {\n      "context": "./llm",\n'
        '      "entitlements": [{"type": "gpu"}]\n    }\n  },\n'
        '  "readiness": {"tcpSocket": {"port": 80}},\n'
        '  "hooks": {"postStart": {"cli": "echo"}}\n}\n'
    )
    found = view("services:\n  llm:\n    image: vllm/vllm-openai\n", {"wendy.json": wendy})
    head = only(found, "warning", "wendy.json: not read on the compose path")
    assert (head.file, head.line) == ("wendy.json", 1)
    gpu = only(found, "warning", "the gpu entitlement of service llm is lost", "no GPU")
    assert (gpu.file, gpu.line) == ("wendy.json", 6)
    only(found, "warning", "the readiness check is lost")
    only(found, "warning", "the post-start hook is lost")
    assert all(e.type != "gpu" for s in found.services for e in s.entitlements)


def test_a_wendy_json_entitlement_the_compose_path_grants_anyway_is_not_a_warning() -> None:
    wendy = (
        '{"appId": "demo", "services": {"db": {"context": "./db", "entitlements": [\n'
        '  {"type": "network"},\n'
        '  {"type": "persist", "name": "data", "path": "/d"},\n'
        '  {"type": "persist", "name": "logs", "path": "/l"}\n]}}}\n'
    )
    found = view(
        "services:\n  db:\n    image: postgres\n    ports: ['5432:5432']\n"
        "    volumes: ['data:/d']\n",
        {"wendy.json": wendy},
    )
    lost = [f for f in found.findings if "is lost" in f.message]
    assert [(f.line, f.message.split(":")[0]) for f in lost] == [(4, "services.db.entitlements[2]")]
    granted = [i for i in found.ignored if "grants the same" in i.reason]
    assert [i.what for i in granted] == [
        "services.db.entitlements[0]",
        "services.db.entitlements[1]",
    ]


def test_a_wendy_json_network_entitlement_is_compared_by_what_the_process_gets() -> None:
    """s9 (issue 35): mode host in wendy.json and a compose service whose ports give a
    network entitlement with no mode are both host networking: nothing is lost; mode
    none and no network entitlement are both loopback only; host against none is lost."""
    wendy = (
        '{"appId": "demo", "services": {\n'
        ' "web": {"context": "./web", "entitlements": [{"type": "network", "mode": "host"}]},\n'
        ' "job": {"context": "./job", "entitlements": [{"type": "network", "mode": "none"}]},\n'
        ' "db": {"context": "./db", "entitlements": [{"type": "network", "mode": "host"}]}}}\n'
    )
    found = view(
        "services:\n  web:\n    image: nginx\n    ports: ['8080:8080']\n"
        "  job:\n    image: busybox\n  db:\n    image: postgres\n",
        {"wendy.json": wendy},
    )
    lost = [f for f in found.findings if "is lost" in f.message]
    assert [(f.line, f.message.split(":")[0]) for f in lost] == [(4, "services.db.entitlements[0]")]
    granted = [i.what for i in found.ignored if "grants the same" in i.reason]
    assert granted == ["services.web.entitlements[0]", "services.job.entitlements[0]"]


def test_x_wendy_entitlements_is_never_read() -> None:
    """s3 (issue 35): the CLI reads no x- key, so what a service's x-wendy-entitlements
    asks for is never granted, save what the compose path grants anyway (here the
    network: its ports give host networking); a top-level x-wendy key is never read."""
    found = view(
        "x-wendy-app: {gpu: true}\n"
        "services:\n  llm:\n    image: ollama/ollama\n    ports: ['11434:11434']\n"
        "    x-wendy-entitlements:\n      - type: gpu\n      - type: network\n"
        "  ui:\n    image: web\n    ports: ['80:80']\n"
        "    x-wendy-entitlements: [{type: network, mode: host}]\n"
    )
    gpu = only(found, "warning", "services.llm.x-wendy-entitlements", "the gpu entitlement is")
    assert (gpu.code, gpu.file, gpu.line) == ("DEV051", "docker-compose.yml", 6)
    assert "network" not in gpu.message.split("so ")[1].split(" is never")[0]
    top = only(found, "warning", "x-wendy-app: never read")
    assert (top.code, top.line) == ("DEV051", 1)
    assert not [f for f in found.findings if "services.ui" in f.message]
    assert [i.what for i in found.ignored if "grants the same" in i.reason] == [
        "services.ui.x-wendy-entitlements"
    ]
