"""The wendy-json validator on the decoding facts of issue 32 (spec section 2).

Go's decoder as the CLI runs it: network ports are ``uint16`` values; a
service context is refused when Go's ``filepath.Clean`` of it starts with
``..``; a ``readiness`` without ``tcpSocket`` is valid; an object given twice
merges; the CLI's entitlement warnings read the raw keys case-sensitively.
"""

from __future__ import annotations

import json

import pytest
from _check_helpers import good_tree, with_files

from wendy_llm.validate.checks.wendy_json import validate_wendy_json
from wendy_llm.validate.findings import Finding


def check(wendy: str) -> list[Finding]:
    return validate_wendy_json(with_files(good_tree(), **{"wendy.json": wendy}), "app")


def found(findings: list[Finding]) -> list[tuple[str, str, int | None]]:
    return [(f.severity, f.message, f.line) for f in findings]


def app(**extra: object) -> str:
    """A minimal valid wendy.json plus ``extra``, one key per line."""
    return json.dumps({"appId": "app", **extra}, indent=2) + "\n"


ERRORS = {
    "service-context-cleaned-starts-with-dotdot": (  # s2: filepath.Clean(context), ".." prefix
        app(services={"web": {"context": "./..data"}}),
        'services.web.context: context "./..data" is refused: cleaned ("..data") it starts '
        'with ".."',
        5,
    ),
    "network-port-string": (  # s2: ports values decode into uint16
        app(entitlements=[{"type": "network", "ports": [{"host": 80, "container": "80"}]}]),
        "entitlements[0].ports[0].container: json: cannot unmarshal string into Go value of "
        "type uint16",
        9,
    ),
    "network-port-above-65535": (
        app(entitlements=[{"type": "network", "ports": [{"host": 65536, "container": 80}]}]),
        "entitlements[0].ports[0].host: json: cannot unmarshal number 65536 into Go value of "
        "type uint16",
        8,
    ),
}


@pytest.mark.parametrize("case", ERRORS, ids=str)
def test_each_decoding_error_of_the_cli_fails(case: str) -> None:
    text, message, line = ERRORS[case]
    assert found(check(text)) == [("error", message, line)]


def test_warnings_read_the_raw_keys_case_sensitively() -> None:
    """s2: "Type" decodes but its entitlement gets no warnings; "MODE" is applied (an
    invalid mode is refused) and warned about as an unknown key."""
    quiet = check(app(entitlements=[{"Type": "video", "x": 1}]))
    assert [f.severity for f in quiet] == ["note"]  # x: a key nothing reads, not a warning
    assert found(check(app(entitlements=[{"type": "network", "MODE": "bogus"}]))) == [
        (
            "warning",
            'entitlements[0].MODE: "MODE" is not a key of a network entitlement (it takes '
            "mode, ports, type)",
            6,
        ),
        (
            "error",
            'entitlements[0].mode: network mode "bogus" is not valid (empty, "host" or "none")',
            6,
        ),
    ]


def test_a_readiness_without_tcp_socket_is_valid() -> None:
    """s2: the port is checked only when tcpSocket is given; without it nothing is waited for."""
    assert check(app(readiness={"timeoutSeconds": 5})) == []


def test_a_repeated_object_merges_and_is_valid() -> None:
    """s2: readiness given twice is merged: the port of the first is kept (valid)."""
    text = (
        '{\n  "appId": "app",\n  "readiness": {"tcpSocket": {"port": 80}},\n'
        '  "readiness": {"timeoutSeconds": 5}\n}\n'
    )
    assert [f.severity for f in check(text)] == ["warning"]
