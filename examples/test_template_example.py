"""Golden and property tests for a templates repository, with wendy-llm's pytest plugin.

Copy this file into the tests of a templates repository (templates at
``<language>/<name>/``, at the root or under ``templates/``; fixtures in
``golden/``) and install wendy-llm: the plugin is active in every pytest
run and finds the templates as ``wendy-llm check`` does. Then:

    pytest                      # every pick matches its fixtures and holds these properties
    pytest --update-golden      # after an intended change: refresh the fixtures, then commit

Other places: ``wendy-llm.toml`` at the repository root, or
``wendy_templates_dir`` / ``wendy_golden_dir`` in the ``[pytest]`` (or
``[tool.pytest.ini_options]``) settings. This file is run
by wendy-llm's own tests, against a small template and against the real
``templates/python/llm``, so it keeps working as the plugin evolves.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import yaml

from wendy_llm import CANONICAL_APP_ID, RenderedTree, Template
from wendy_llm.pytest_plugin import WendyPick


def test_golden_fixtures(wendy_golden: Callable[..., None]) -> None:
    # Every pick of every template renders exactly what golden/ holds; on a
    # mismatch the failure shows the diff and the command that refreshes it.
    wendy_golden()


@pytest.mark.wendy_picks()  # once per pick of every template
def test_structured_files_parse(wendy_tree: RenderedTree) -> None:
    for path, data in wendy_tree.items():
        if path.endswith((".yml", ".yaml")):
            yaml.safe_load(data)
        elif path.endswith(".json"):
            json.loads(data)


@pytest.mark.wendy_picks()
def test_no_missing_values_leak(wendy_pick: WendyPick, wendy_tree: RenderedTree) -> None:
    # `{{index . "X"}}` on a missing key prints "<no value>" instead of failing.
    leaks = [path for path, data in wendy_tree.items() if b"<no value>" in data]
    assert not leaks, f"pick {wendy_pick.slug}: <no value> in {leaks}"


def test_the_app_id_reaches_wendy_json(
    wendy_templates: list[Template], wendy_render: Callable[..., RenderedTree]
) -> None:
    for template in wendy_templates:
        for app_id in (CANONICAL_APP_ID, "my-app"):
            tree = wendy_render(template, app_id=app_id)
            if "wendy.json" in tree:
                assert json.loads(tree["wendy.json"])["appId"] == app_id, template.id
