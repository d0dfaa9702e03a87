"""The images ``wendy run`` makes without a render's Dockerfile (spec section 5)."""

from __future__ import annotations

import pytest

from wendy_llm.wendycli.single_builds import (
    python_dockerfile,
    python_entry,
    swift_image,
    swift_product,
)


@pytest.mark.parametrize(
    ("top", "entry"),
    [
        ({"app.py", "main.py"}, "app.py"),  # app.py first
        ({"main.py"}, "main.py"),  # else main.py
        ({"server.py"}, "app.py"),  # else app.py, which is not there
        (set(), "app.py"),
    ],
)
def test_the_generated_cmd_runs_app_py_else_main_py_else_app_py(top: set[str], entry: str) -> None:
    assert python_entry(top) == entry


def test_the_generated_dockerfile_installs_requirements_only_when_they_exist() -> None:
    assert python_dockerfile({"requirements.txt", "main.py"}) == (
        "FROM python:3.11-slim\nWORKDIR /app\nCOPY requirements.txt .\n"
        "RUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\n"
        'CMD ["python", "main.py"]\n'
    )
    assert python_dockerfile({"pyproject.toml", "app.py"}) == (
        'FROM python:3.11-slim\nWORKDIR /app\nCOPY . .\nCMD ["python", "app.py"]\n'
    )


@pytest.mark.parametrize(
    ("package", "product"),
    [
        ('products: [.executable(name: "Srv", targets: ["Core"])]', "Srv"),
        ('.executable(name: "Srv", targets: ["A"]), .executableTarget(name: "A")', "Srv"),
        ('targets: [.executableTarget(name: "My.App", path: "x")]', "My.App"),
        ('.executable(name: "A", targets: []), .executable(name: "B", targets: [])', None),
        ('.executableTarget(name: "A"), .executableTarget(name: "B")', None),
        ('.library(name: "L", targets: ["L"])', None),
    ],
)
def test_the_swift_product_is_the_one_executable(package: str, product: str | None) -> None:
    assert swift_product(package) == product


def test_the_swift_plugin_image_is_the_lowercased_product() -> None:
    assert swift_image("My.App") == "localhost:5000/my.app:latest"
