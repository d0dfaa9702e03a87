"""Compose cases, part 4: build and the YAML-level facts (wendy-run.md 3)."""

from __future__ import annotations

from _compose_cases import ENTRYPOINT, Case, case, svc

V = "volumes row"
E = "entitlements consequence"
O = "creation order consequence"  # noqa: E741
B = "build row"
D = "depends_on row"
Y = "YAML-level facts"
DF = {"Dockerfile": ENTRYPOINT}
APP = {"app/Dockerfile": ENTRYPOINT}


BUILD: list[Case] = [
    Case(
        "build-scalar",
        f"{B}: a scalar is the context",
        svc("build: ./app"),
        {"dir": "app", "image": "localhost:5000/demo-a:latest", "argv": ["/e", "-x", "c"]},
        APP,
    ),
    Case(
        "build-absolute",
        f"{B}: /srv/app is joined under the project",
        svc("build: /app"),
        {"dir": "app", "errors": 0},
        APP,
    ),
    Case(
        "build-empty",
        f"{B}: an empty build: is the project",
        svc("build:"),
        {"dir": ".", "argv": ["/e", "-x", "c"]},
        DF,
    ),
    Case(
        "build-empty-string", f"{B}: build: '' is the project", svc("build: ''"), {"dir": "."}, DF
    ),
    Case(
        "build-mapping",
        f"{B}: a mapping's context",
        svc("build:", "  context: app"),
        {"dir": "app"},
        APP,
    ),
    Case(
        "build-mapping-no-context",
        f"{B}: a mapping without context: the project",
        svc("build:", "  args: {A: '1'}"),
        {"dir": ".", "args": {"A": "1"}},
        DF,
    ),
    Case(
        "build-args-map",
        f"{B}: args as a mapping",
        svc("build:", "  context: .", "  args:", "    A: 1", "    B: true"),
        {"args": {"A": "1", "B": "true"}},
        DF,
    ),
    Case(
        "build-args-list",
        f"{B}: args as a list fails wendy run",
        svc("build:", "  context: .", "  args: ['A=1']"),
        {"error": "service a: decoding build config"},
        DF,
    ),
    Case(
        "build-args-null-value",
        f"{B}: a null arg value is Go's empty string",
        svc("build:", "  context: .", "  args: {A: }"),
        {"args": {"A": ""}, "warning": "no value"},
        DF,
    ),
    Case(
        "build-context-list",
        f"{B}: context as a list fails",
        svc("build:", "  context: [a]"),
        {"error": "cannot unmarshal !!seq into string"},
    ),
    Case(
        "build-dockerfile-custom",
        f"{B}: a Dockerfile name other than Dockerfile fails",
        svc("build:", "  context: .", "  dockerfile: Dockerfile.dev"),
        {"error": 'custom Dockerfile path "Dockerfile.dev" is not yet supported'},
        DF,
    ),
    Case(
        "build-dockerfile-plain",
        f"{B}: dockerfile: Dockerfile is fine",
        svc("build:", "  context: .", "  dockerfile: Dockerfile"),
        {"errors": 0},
        DF,
    ),
    Case(
        "build-alias",
        f"{B}: an alias fails (kind 16)",
        "x-b: &b ./app\nservices:\n  a:\n    build: *b\n",
        {"error": "unsupported build directive (yaml kind 16)"},
        APP,
    ),
    Case(
        "build-sequence",
        f"{B}: a sequence fails (kind 2)",
        svc("build: [app]"),
        {"error": "unsupported build directive (yaml kind 2)"},
    ),
    Case(
        "build-target-ignored",
        f"{B}: target is not read",
        svc("build:", "  context: .", "  target: dev"),
        {"warning": "the last stage of the Dockerfile is built"},
        DF,
    ),
    Case(
        "build-null-context",
        f"{B}: build: null is a scalar (the project)",
        svc("build: null"),
        {"errors": 0, "dir": "null"},
        {"null/Dockerfile": ENTRYPOINT},
    ),
    Case(
        "build-remote",
        f"{B}: a URL is joined under the project like any context",
        svc("build: https://github.com/x/y.git"),
        {"dir": "https:/github.com/x/y.git", "warning": "joins the context under the project"},
    ),
    Case(
        "build-name",
        "consequence: built image localhost:5000/<project>-<service>:latest",
        svc("build: .", name="Web"),
        {"Web.image": "localhost:5000/demo-Web:latest"},
        DF,
    ),
]

YAML: list[Case] = [
    case(
        "yaml-duplicate-top",
        f"{Y}: a duplicate key fails the load",
        "services:\n  a:\n    image: x\nservices:\n  b:\n    image: y\n",
        error='mapping key "services" already defined at line 1',
    ),
    case(
        "yaml-duplicate-service-key",
        f"{Y}: a duplicate key in a service",
        svc("image: x", "image: y"),
        error='mapping key "image" already defined at line 3',
    ),
    case(
        "yaml-duplicate-anywhere",
        f"{Y}: anywhere, even in an ignored key",
        svc("image: x", "labels:", "  k: 1", "  k: 2"),
        error='mapping key "k" already defined',
    ),
    case(
        "yaml-duplicate-service",
        f"{Y}: a duplicate service name",
        "services:\n  a:\n    image: x\n  a:\n    image: y\n",
        error='mapping key "a"',
    ),
    case(
        "yaml-second-document",
        f"{Y}: only the first document",
        "services:\n  a:\n    image: x\n---\nservices:\n  b:\n    image: y\n",
        services=["a"],
        errors=0,
    ),
    case(
        "yaml-second-document-broken",
        f"{Y}: a second document is not even parsed",
        "services:\n  a:\n    image: x\n---\n: [\n",
        services=["a"],
        errors=0,
    ),
    case(
        "yaml-tag-reset",
        f"{Y}: tags do not stop it",
        svc("image: !reset x"),
        image="docker.io/library/x:latest",
        errors=0,
    ),
    case(
        "yaml-tag-custom",
        f"{Y}: a custom tag on a list",
        svc("image: x", "ports: !override ['1:2']"),
        ports=["1:2"],
    ),
    case(
        "yaml-float",
        f"{Y}: a float decodes as its text",
        svc("image: x", "command: [sleep, 1.50]"),
        argv=["sleep", "1.50"],
    ),
    case(
        "yaml-bool",
        f"{Y}: a bool decodes as its text",
        svc("image: x", "command: [flag, true]"),
        argv=["flag", "true"],
    ),
    case(
        "yaml-interpolation",
        "consequence: ${VAR} is not interpolated",
        svc("image: x", "command: echo ${HOME}"),
        argv=["echo", "${HOME}"],
        warning="not interpolated",
    ),
    case(
        "yaml-merge-key",
        f"{Y}: merge keys are followed",
        "x-d: &d {restart: always}\nservices:\n  a:\n    <<: *d\n    image: x\n",
        restart=("unless-stopped", False),
    ),
    case(
        "yaml-no-services",
        "a file with no services fails",
        "version: '3'\n",
        error="has no services",
    ),
    case("yaml-empty-file", "a file with no services fails (empty)", "", error="has no services"),
    case(
        "yaml-list-root",
        f"{Y}: a list at the top fails the load",
        "- a\n",
        error="cannot unmarshal !!seq",
    ),
    case(
        "yaml-unknown-anchor",
        f"{Y}: an unknown alias fails",
        svc("image: *nope"),
        error="unknown anchor",
    ),
    case(
        "yaml-ignored-key",
        "every other key is ignored",
        svc("image: x", "healthcheck: {}"),
        warning="services.a.healthcheck: ignored on a device",
    ),
    case(
        "yaml-environment-not-sent",
        "environment parsed, not sent",
        svc("image: x", "environment: {A: '1'}"),
        warning="not sent to the device",
    ),
    case(
        "yaml-service-null",
        "a service with neither build nor image fails",
        "services:\n  a:\n",
        error="service a has neither image nor build",
    ),
    case(
        "yaml-app-name",
        "consequence: app <project>-<service>",
        svc("image: x", name="web"),
        **{"web.image": "docker.io/library/x:latest"},
    ),
]

CASES: list[Case] = [*BUILD, *YAML]
