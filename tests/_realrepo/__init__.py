"""A realistic Wendy templates repository, built as a test fixture (issue 13).

``build_repository(root)`` writes thirteen templates in five languages at
``<language>/<name>/`` next to ``meta.json``, ``common/``, ``docs/`` and a
README, as a committed git repository; every template is valid for the
Wendy CLI and renders with ``wendy init`` semantics.  ``defects`` holds the
injectors of the real defects ``check`` must still catch.

Modules: ``spec`` (what a template is), one content module per template
family (``python_apps``, ``node_dashboard``, ...), ``catalog`` (the list and
``meta.json``), ``builder``, ``defects``, ``cli_oracle`` (the CLI's rules,
read from the spec, to judge the fixture itself).  ``python -m _realrepo
DIR`` builds it by hand.
"""

from _realrepo.builder import (
    META_FILE,
    NON_TEMPLATE_DIRS,
    SETTINGS_FILE,
    RepoFixture,
    build_repository,
    write_settings,
)
from _realrepo.catalog import TEMPLATES
from _realrepo.defects import DEFECTS, Defect, ExpectedFinding
from _realrepo.spec import TemplateSpec

__all__ = [
    "DEFECTS",
    "META_FILE",
    "NON_TEMPLATE_DIRS",
    "SETTINGS_FILE",
    "TEMPLATES",
    "Defect",
    "ExpectedFinding",
    "RepoFixture",
    "TemplateSpec",
    "build_repository",
    "write_settings",
]
