"""Which path `wendy run` takes (wendy-run.md section 1), one case per rule."""

from __future__ import annotations

import pytest

from wendy_llm.wendycli.project import ProjectPath, project_path


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (
            ["docker-compose.yml", "Dockerfile", "wendy.json"],
            ProjectPath("compose", "docker-compose.yml"),
        ),
        (["compose.yaml", "docker-compose.yaml"], ProjectPath("compose", "docker-compose.yaml")),
        (["compose.yml", "compose.yaml"], ProjectPath("compose", "compose.yml")),
        (["Dockerfile", "Package.swift", "wendy.json"], ProjectPath("docker", "Dockerfile")),
        (["Package.swift", "Sources/app/main.swift"], ProjectPath("swift", "Package.swift")),
        (["App.xcodeproj/project.pbxproj", "wendy.json"], ProjectPath("xcode", "App.xcodeproj")),
        (
            ["A.xcodeproj/project.pbxproj", "B.xcodeproj/project.pbxproj"],
            ProjectPath("unknown", None),
        ),
        (["requirements.txt", "main.py"], ProjectPath("python", "requirements.txt")),
        (["svc/Dockerfile", "svc/docker-compose.yml"], ProjectPath("unknown", None)),
    ],
)
def test_the_first_kind_that_exists_decides(paths: list[str], expected: ProjectPath) -> None:
    assert project_path(paths) == expected


def test_only_the_compose_path_ignores_wendy_json() -> None:
    assert not project_path(["docker-compose.yml"]).reads_wendy_json
    assert project_path(["Dockerfile"]).reads_wendy_json
