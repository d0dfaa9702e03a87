"""Compose cases, part 1: restart and command/argv (wendy-run.md 3)."""

from __future__ import annotations

from _compose_cases import CMD_ONLY, EMPTY, ENTRYPOINT, Case, built, case, svc

R = "restart table"
C = "command row + argv consequence"
I = "image row"  # noqa: E741
P = "ports row"

RESTART: list[Case] = [
    case(
        "restart-absent",
        f"{R}: no restart -> device default",
        svc("image: x"),
        restart=("unless-stopped", True),
        nowarn="restart",
    ),
    case(
        "restart-always",
        f"{R}: always -> unless-stopped",
        svc("image: x", "restart: always"),
        restart=("unless-stopped", False),
    ),
    case(
        "restart-unless-stopped",
        f"{R}: unless-stopped",
        svc("image: x", "restart: unless-stopped"),
        restart=("unless-stopped", False),
    ),
    case(
        "restart-on-failure",
        f"{R}: exactly on-failure",
        svc("image: x", "restart: on-failure"),
        restart=("on-failure", False),
    ),
    case(
        "restart-no",
        f"{R}: no -> never",
        svc("image: x", 'restart: "no"'),
        restart=("never", False),
    ),
    case(
        "restart-on-failure-3",
        f"{R}: on-failure:3 -> device default",
        svc("image: x", "restart: on-failure:3"),
        restart=("unless-stopped", True),
        warning='restart "on-failure:3" is not one the Wendy CLI knows',
    ),
    case(
        "restart-typo",
        f"{R}: a typo -> device default",
        svc("image: x", "restart: allways"),
        restart=("unless-stopped", True),
        warning="Docker Compose refuses it",
    ),
    case(
        "restart-empty",
        f"{R}: empty is not used -> device default",
        svc("image: x", 'restart: ""'),
        restart=("unless-stopped", True),
        warning='Docker Compose reads "no"',
    ),
    case(
        "restart-null",
        f"{R}: null decodes to Go's empty string",
        svc("image: x", "restart: ~"),
        restart=("unless-stopped", True),
    ),
    case(
        "restart-bool",
        f"{R}: YAML false (not quoted) is the text false",
        svc("image: x", "restart: false"),
        restart=("unless-stopped", True),
    ),
    case(
        "restart-case",
        f"{R}: Always (case differs) -> device default",
        svc("image: x", "restart: Always"),
        restart=("unless-stopped", True),
    ),
    case(
        "restart-list",
        "YAML: a list for a string field fails the load",
        svc("image: x", "restart: [always]"),
        error="cannot unmarshal !!seq",
    ),
]

COMMAND: list[Case] = [
    case(
        "cmd-replaces-entrypoint",
        f"{C}: a command replaces ENTRYPOINT and CMD",
        built("command: serve --port 80"),
        argv=["serve", "--port", "80"],
        source="compose",
        warning="ENTRYPOINT ['/e', '-x'] does not run on a device",
    ),
    case(
        "cmd-absent-image-argv",
        f"{C}: no command -> ENTRYPOINT + CMD",
        built(),
        argv=["/e", "-x", "c"],
        source="image",
    ),
    case(
        "cmd-empty",
        f"{C}: an empty command -> the image's",
        built("command: ''"),
        argv=["/e", "-x", "c"],
        source="image",
    ),
    case(
        "cmd-blank",
        f"{C}: an all-blank command -> the image's",
        built("command: '   '"),
        argv=["/e", "-x", "c"],
    ),
    case(
        "cmd-blank-list",
        f"{C}: an all-blank list -> the image's",
        built("command: [' ', '']"),
        argv=["/e", "-x", "c"],
    ),
    case(
        "cmd-empty-list",
        f"{C}: an empty list -> the image's",
        built("command: []"),
        argv=["/e", "-x", "c"],
    ),
    case(
        "cmd-key-no-value",
        f"{C}: command: with no value is empty",
        built("command:"),
        argv=["/e", "-x", "c"],
    ),
    case(
        "cmd-shell-default",
        f"{C}: neither ENTRYPOINT nor CMD -> /bin/sh",
        built(dockerfile=EMPTY),
        argv=["/bin/sh"],
        source="shell",
    ),
    case("cmd-cmd-only", f"{C}: CMD only", built(dockerfile=CMD_ONLY), argv=["c", "x"]),
    case("cmd-null-text", f"{C}: null is the text null", built("command: null"), argv=["null"]),
    case("cmd-tilde-text", f"{C}: ~ is the text ~", built("command: ~"), argv=["~"]),
    case(
        "cmd-quotes-group",
        f"{C}: quotes group a run",
        built("""command: sh -c 'echo "a b"'"""),
        argv=["sh", "-c", 'echo "a b"'],
    ),
    case(
        "cmd-double-quotes",
        f"{C}: double quotes group",
        built('command: run "two words"'),
        argv=["run", "two words"],
    ),
    case(
        "cmd-empty-pair",
        f"{C}: an empty pair is an empty token",
        built("command: a '' b"),
        argv=["a", "", "b"],
    ),
    case(
        "cmd-no-backslash",
        f"{C}: no backslash escapes",
        svc("image: x", r"command: echo a\ b"),
        argv=["echo", "a\\", "b"],
        warning="splits differently on a device",
    ),
    case(
        "cmd-tab-newline",
        f"{C}: tab and newline separate",
        built('command: "a\\tb\\nc"'),
        argv=["a", "b", "c"],
    ),
    case(
        "cmd-list",
        f"{C}: a sequence decoded as strings",
        built("command: [echo, 'a  b']"),
        argv=["echo", "a  b"],
    ),
    case(
        "cmd-list-first-split",
        f"{C}: the first token split again on whitespace",
        built("command: ['python -u', 'app.py']"),
        argv=["python", "-u", "app.py"],
        warning='Docker Compose runs "python -u" as one program name',
    ),
    case(
        "cmd-list-rest-verbatim",
        f"{C}: the other tokens verbatim",
        built("command: ['x', 'a b']"),
        argv=["x", "a b"],
    ),
    case(
        "cmd-list-numbers",
        f"{C}: int items decode as their text",
        built("command: [sleep, 10]"),
        argv=["sleep", "10"],
    ),
    case(
        "cmd-list-null-dropped",
        f"{C}: null items dropped",
        built("command: [a, null, b]"),
        argv=["a", "b"],
    ),
    case(
        "cmd-list-lenient",
        f"{C}: decode errors ignored, what decoded kept",
        built("command: [a, {x: 1}, b]"),
        argv=["a", "b"],
        errors=0,
        warning="the Wendy CLI drops it",
    ),
    case(
        "cmd-mapping",
        f"{C}: a mapping -> no command",
        built("command: {a: b}"),
        argv=["/e", "-x", "c"],
        source="image",
        errors=0,
    ),
    case(
        "cmd-alias",
        f"{C}: an alias -> no command",
        (
            "x-c: &c serve\nservices:\n  a:\n    build: .\n    command: *c\n",
            {"Dockerfile": ENTRYPOINT},
        ),
        argv=["/e", "-x", "c"],
        source="image",
    ),
    case(
        "cmd-image-service",
        f"{C}: an image: service with a command shows its argv",
        svc("image: busybox", "command: echo hi"),
        argv=["echo", "hi"],
        warning="if the image has an ENTRYPOINT (not in the render)",
    ),
    case(
        "cmd-image-service-no-command",
        f"{C}: an image: service without one: unknown",
        svc("image: busybox"),
        argv=None,
        source="unknown",
    ),
    case(
        "cmd-entrypoint-key-ignored",
        f"{C}: entrypoint: is ignored",
        built("entrypoint: /other"),
        argv=["/e", "-x", "c"],
        warning="services.a.entrypoint: ignored on a device",
    ),
    case(
        "cmd-first-token-blank",
        f"{C}: a blank first token splits to nothing",
        built("command: [' ', 'x']"),
        argv=["x"],
    ),
    case(
        "cmd-unterminated",
        f"{C}: an unterminated quote runs to the end (inferred)",
        built("command: say 'a b"),
        argv=["say", "a b"],
    ),
]

CASES: list[Case] = [*RESTART, *COMMAND]
