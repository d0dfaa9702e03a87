"""The wendy-json validator: ``wendy.json`` judged as the Wendy CLI judges it (spec section 2).

One case per validation error and warning of the CLI, each with the JSON
path in the message and the line; then what the validator no longer says
(the rules that were not the CLI's).
"""

from __future__ import annotations

import json

import pytest
from _check_helpers import WENDY_JSON, good_tree, with_files

from wendy_llm.validate.checks.wendy_json import validate_wendy_json
from wendy_llm.validate.findings import CheckResult, Finding, Report


def check(wendy: str = WENDY_JSON, app_id: str = "app", **files: str) -> list[Finding]:
    tree = with_files(good_tree(), **{"wendy.json": wendy, **files})
    return validate_wendy_json(tree, app_id)


def found(findings: list[Finding]) -> list[tuple[str, str, int | None]]:
    return [(f.severity, f.message, f.line) for f in findings]


def app(**extra: object) -> str:
    """A minimal valid wendy.json plus ``extra``, one key per line."""
    return json.dumps({"appId": "app", **extra}, indent=2) + "\n"


def test_a_valid_render_passes() -> None:
    assert check() == []


def test_a_render_without_wendy_json_has_nothing_to_check() -> None:
    tree = good_tree()
    del tree["wendy.json"]
    assert validate_wendy_json(tree, "app") == []


def test_findings_name_the_check_and_the_file() -> None:
    (finding,) = check(app(entitlements=[{"type": "lidar"}]))
    assert (finding.check, finding.file) == ("wendy-json", "wendy.json")


# --- the CLI's validation errors -----------------------------------------------

ERRORS = {
    "app-id-missing": ('{\n  "version": "1"\n}\n', "appId: appId is required", 1),
    "app-id-empty": ('{\n  "appId": ""\n}\n', "appId: appId is required", 2),
    "entitlement-type-missing": (
        app(entitlements=[{"mode": "host"}]),
        "entitlements[0]: entitlement type is required",
        4,
    ),
    "entitlement-type-unknown": (
        app(entitlements=[{"type": "lidar"}]),
        'entitlements[0].type: unknown entitlement type "lidar" (known: network, bluetooth, '
        "video, camera, gpu, persist, audio, usb, i2c, gpio, spi, input, mcp)",
        5,
    ),
    "network-mode": (
        app(entitlements=[{"type": "network", "mode": "bridge"}]),
        'entitlements[0].mode: network mode "bridge" is not valid (empty, "host" or "none")',
        6,
    ),
    "persist-without-name": (
        app(entitlements=[{"type": "persist", "path": "/data"}]),
        "entitlements[0]: a persist entitlement needs a name",
        4,
    ),
    "persist-without-path": (
        app(entitlements=[{"type": "persist", "name": "data"}]),
        "entitlements[0]: a persist entitlement needs a path",
        4,
    ),
    "persist-relative-path": (
        app(entitlements=[{"type": "persist", "name": "d", "path": "data"}]),
        'entitlements[0].path: persist path "data" must be absolute',
        7,
    ),
    "persist-dot-dot": (
        app(entitlements=[{"type": "persist", "name": "d", "path": "/data/../etc"}]),
        'entitlements[0].path: persist path "/data/../etc" must not contain a ".." component',
        7,
    ),
    "i2c-without-device": (
        app(entitlements=[{"type": "i2c"}]),
        "entitlements[0]: an i2c entitlement needs a device",
        4,
    ),
    "i2c-bad-device": (
        app(entitlements=[{"type": "i2c", "device": "/dev/i2c-1"}]),
        'entitlements[0].device: i2c device "/dev/i2c-1" must be i2c-<number>',
        6,
    ),
    "mcp-port": (
        app(entitlements=[{"type": "mcp", "port": 70000}]),
        "entitlements[0].port: mcp port 70000 is outside 1..65535",
        6,
    ),
    "mcp-twice": (
        app(entitlements=[{"type": "mcp", "port": 1}, {"type": "mcp", "port": 2}]),
        "entitlements[1]: only one mcp entitlement is allowed in a list",
        8,
    ),
    "service-entitlements": (
        app(services={"web": {"context": ".", "entitlements": [{"type": "lidar"}]}}),
        'services.web.entitlements[0].type: unknown entitlement type "lidar" (known: network, '
        "bluetooth, video, camera, gpu, persist, audio, usb, i2c, gpio, spi, input, mcp)",
        8,
    ),
    "service-null": (app(services={"web": None}), 'services.web: service "web" is null', 4),
    "service-context-missing": (
        app(services={"web": {"dependsOn": []}}),
        'services.web: service "web" needs a context',
        4,
    ),
    "service-context-absolute": (
        app(services={"web": {"context": "/srv/web"}}),
        'services.web.context: context "/srv/web" must be relative',
        5,
    ),
    "service-context-escapes": (
        app(services={"web": {"context": "web/../../x"}}),
        'services.web.context: context "web/../../x" is refused: cleaned ("../x") it starts '
        'with ".."',
        5,
    ),
    "depends-on-unknown": (
        app(services={"web": {"context": "web", "dependsOn": ["db"]}}),
        'services.web.dependsOn[0]: service "web" depends on "db", which is not a service '
        "(services: web)",
        7,
    ),
    "readiness-port": (
        app(readiness={"tcpSocket": {"port": 0}}),
        "readiness.tcpSocket.port: readiness tcpSocket port 0 is outside 1..65535",
        5,
    ),
    "readiness-timeout": (
        app(readiness={"tcpSocket": {"port": 80}, "timeoutSeconds": -1}),
        "readiness.timeoutSeconds: readiness timeoutSeconds -1 must not be negative",
        7,
    ),
    "files-path-missing": (app(files=[{"to": "x"}]), "files[0]: a files entry needs a path", 4),
    "files-path-absolute": (
        app(files=[{"path": "/etc/x"}]),
        'files[0].path: files path "/etc/x" must be relative',
        5,
    ),
    "files-to-dot-dot": (
        app(files=[{"path": "x", "to": "../x"}]),
        'files[0].to: files to "../x" must not contain a ".." component',
        6,
    ),
}


@pytest.mark.parametrize("case", ERRORS, ids=str)
def test_each_validation_error_of_the_cli_fails(case: str) -> None:
    text, message, line = ERRORS[case]
    assert found(check(text)) == [("error", message, line)]


# --- the CLI's warnings ----------------------------------------------------------

WARNINGS = {
    "video-deprecated": (
        app(entitlements=[{"type": "video"}]),
        'entitlements[0].type: entitlement "video" is deprecated: use "camera"',
        5,
    ),
    "entitlement-extra-key": (
        app(entitlements=[{"type": "gpu", "mode": "host"}]),
        'entitlements[0].mode: "mode" is not a key of a gpu entitlement (it takes type)',
        6,
    ),
    "open-in-post-start": (
        app(hooks={"postStart": {"cli": "xdg-open http://localhost:8080"}}),
        'hooks.postStart.cli: "xdg-open" opens a URL on one platform only: '
        "hooks.postStart.openURL is the portable field",
        5,
    ),
}


@pytest.mark.parametrize("case", WARNINGS, ids=str)
def test_each_warning_of_the_cli_warns(case: str) -> None:
    text, message, line = WARNINGS[case]
    assert found(check(text)) == [("warning", message, line)]


def test_every_known_entitlement_with_its_keys_is_valid() -> None:
    entitlements = [
        {"type": "network", "mode": "host", "ports": [{"host": 8080, "container": 80}]},
        {"type": "bluetooth", "mode": "le"},
        {"type": "camera", "mode": "ro", "allowlist": ["/dev/video0"]},
        {"type": "gpu"},
        {"type": "persist", "name": "data", "path": "/data"},
        {"type": "audio"},
        {"type": "usb"},
        {"type": "i2c", "device": "i2c-1"},
        {"type": "gpio", "pins": [17, 27]},
        {"type": "spi"},
        {"type": "input"},
        {"type": "mcp", "port": 9000},
    ]
    assert check(app(entitlements=entitlements)) == []


def test_the_shapes_of_real_templates_are_valid() -> None:
    # Single-container with openURL, swift keys, wendy-lite, debug, python, files:
    # the false failures of the census (docs/realrepo-census.md).
    text = app(
        version="1.0.0",
        platform="wendy-lite",
        language="swift",
        xcode={"scheme": "App"},
        run={"args": ["--verbose"]},
        python={"sourceRoot": "src"},
        debug=True,
        files=[{"path": "config/app.toml", "to": "etc/app.toml"}],
        readiness={"tcpSocket": {"port": 8080}, "timeoutSeconds": 60},
        hooks={"postStart": {"openURL": "http://localhost:8080", "agent": "x"}},
        services={"api": {"context": "./api", "dependsOn": ["db"]}, "db": {"context": "db"}},
    )
    assert check(text) == []


# --- Go's decoding -------------------------------------------------------------


def test_keys_match_fields_case_insensitively() -> None:
    assert check('{\n  "APPID": "app",\n  "Entitlements": [{"type": "gpu"}]\n}\n') == []


def test_an_entitlement_type_key_in_another_case_is_decoded_without_warnings() -> None:
    """s2: Go's decoder reads "TYPE" as type; the CLI's warnings read the raw keys
    case-sensitively, so an entitlement without a "type" key gets none."""
    assert check('{\n  "appId": "app",\n  "entitlements": [{"TYPE": "gpu"}]\n}\n') == []


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ('"8080"', "string"),
        ("8080.5", "number 8080.5"),
        ("8080.0", "number 8080.0"),
        ("1e3", "number 1e3"),
        ("true", "bool"),
        ("[8080]", "array"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_decode_error(value: str, what: str) -> None:
    text = '{\n  "appId": "app",\n  "readiness": {\n    "tcpSocket": {\n      "port": '
    text += value + "\n    }\n  }\n}\n"
    assert found(check(text)) == [
        (
            "error",
            f"readiness.tcpSocket.port: json: cannot unmarshal {what} into Go value of type int",
            5,
        )
    ]


def test_a_decode_error_stops_validation_as_in_the_cli() -> None:
    text = app(appId=5, entitlements=[{"type": "lidar"}])
    assert found(check(text)) == [
        ("error", "appId: json: cannot unmarshal number into Go value of type string", 2)
    ]


def test_an_object_where_a_string_belongs() -> None:
    assert found(check(app(platform={"os": "linux"}))) == [
        ("error", "platform: json: cannot unmarshal object into Go value of type string", 3)
    ]


def test_null_leaves_a_field_at_its_zero_value() -> None:
    assert check(app(debug=None, version=None, readiness=None, services=None)) == []
    assert found(check('{\n  "appId": null\n}\n')) == [("error", "appId: appId is required", 2)]


REPEATED = (
    "appId: set more than once; the Wendy CLI accepts it and decodes each into the same "
    "value (a plain value takes the last; objects, maps and lists of objects merge field "
    "by field)"
)


def test_a_repeated_key_keeps_the_last_with_a_warning() -> None:
    text = '{\n  "appId": "",\n  "appId": "app"\n}\n'
    assert found(check(text)) == [("warning", REPEATED, 3)]


def test_syntax_error_has_line_and_column() -> None:
    text = WENDY_JSON.replace('"version": "0.1.0",', '"version": "0.1.0"')
    assert found(check(text)) == [("error", "JSON: Expecting ',' delimiter (line 4, column 3)", 4)]


def test_nan_is_not_json_for_go() -> None:
    ((severity, message, _),) = found(check('{"appId": "app", "debug": NaN}'))
    assert severity == "error" and message.startswith("JSON: invalid character 'N'")


# --- unknown keys: notes, never failures --------------------------------------------


def test_unknown_keys_are_notes() -> None:
    text = app(**{"$schema": "x"}, readiness={"tcpSocket": {"port": 80}, "timeoutSecs": 5})
    assert found(check(text)) == [
        ("note", '["$schema"]: not a key the Wendy CLI reads (it ignores it)', 3),
        ("note", "readiness.timeoutSecs: not a key the Wendy CLI reads (it ignores it)", 8),
    ]


def test_a_note_does_not_fail_a_run_even_with_strict() -> None:
    findings = check(app(entitlement=[{"type": "gpu"}]))
    result = CheckResult("t/x", "p", "wendy-json", tuple(findings))
    assert [f.severity for f in findings] == ["note"] and result.status == "ok"
    assert Report((result,)).passed(strict=True)


# --- appId and the app id -----------------------------------------------------------


def test_an_app_id_built_from_the_app_id_passes() -> None:
    assert check(app(appId="com.example.app"), app_id="app") == []


def test_an_app_id_ignoring_the_app_id_warns() -> None:
    assert found(check(app(), app_id="other")) == [
        (
            "warning",
            'appId: "app" does not contain the app id "other": every project made from this '
            "template gets the same appId (render it from {{.APP_ID}})",
            2,
        )
    ]


# --- rules that were not the CLI's are gone -------------------------------------------


def test_services_and_readiness_need_no_compose_file() -> None:
    tree = good_tree()
    del tree["docker-compose.yml"]
    assert validate_wendy_json(tree, "app") == []


def test_wendy_json_is_not_cross_checked_with_compose() -> None:
    # On the compose path the CLI does not read wendy.json at all.
    text = WENDY_JSON.replace('"open-webui": {', '"webui": {').replace('"port": 8080', '"port": 1')
    assert check(text) == []
