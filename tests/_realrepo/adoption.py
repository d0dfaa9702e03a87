"""The repository as an adopter finds it: true defects already on its main branch (issue 21).

``with_pre_existing_defects(fixture)`` injects :data:`PRE_EXISTING` into a
built repository and commits them, as other teams' templates would hold
them when the gate arrives: a compose ``environment`` value the device
never gets (the image carries another one: wendy-run.md, compose
``environment`` is not sent), an unknown entitlement type and a relative
persist path in ``wendy.json`` (the CLI refuses the app).  The adoption
test records them as suppressions; :data:`NEW_DEFECT` is what a later
pull request adds, and must fail.
"""

from __future__ import annotations

from _realrepo.builder import RepoFixture
from _realrepo.defects import (
    Defect,
    ExpectedFinding,
    _insert_after,
    depends_on_unknown_service,
    persist_relative_path,
    unknown_entitlement,
)

MODEL_TEMPLATE = "node/mqtt-stack"


def model_the_device_never_gets(fixture: RepoFixture) -> ExpectedFinding:
    """The simulator's image says bme280; compose asks for bme680, which only
    Docker Compose would pass: on a device the container simulates a bme280."""
    _insert_after(
        fixture,
        MODEL_TEMPLATE,
        "simulator/Dockerfile",
        "ENV NODE_ENV=production",
        "ENV SENSOR_MODEL=bme280",
    )
    new = '      SENSOR_MODEL: "bme680"'
    line = _insert_after(
        fixture, MODEL_TEMPLATE, "docker-compose.yml", '      MQTT_TOPIC: "{{.MQTT_TOPIC}}"', new
    )
    return ExpectedFinding(MODEL_TEMPLATE, "docker-compose.yml", line, "SENSOR_MODEL", new.strip())


PRE_EXISTING: tuple[Defect, ...] = (
    Defect(
        "model-the-device-never-gets",
        "a compose environment value the image contradicts (the device gets the image's)",
        model_the_device_never_gets,
    ),
    Defect("unknown-entitlement", "an unknown entitlement type", unknown_entitlement),
    Defect(
        "persist-relative-path", "a persist entitlement with a relative path", persist_relative_path
    ),
)

NEW_DEFECT = Defect(
    "depends-on-unknown-service",
    "a dependsOn naming an unknown service",
    depends_on_unknown_service,
)


def with_pre_existing_defects(fixture: RepoFixture) -> dict[str, ExpectedFinding]:
    """Inject :data:`PRE_EXISTING` and commit them; returns what each must be reported as."""
    found = {defect.name: defect.inject(fixture) for defect in PRE_EXISTING}
    fixture.commit("Templates as they are on main: defects included")
    return found
