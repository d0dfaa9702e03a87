"""What one template of the realistic repository is: its files and its shape.

A ``TemplateSpec`` is data only.  The content modules (``python_apps``,
``node_apps``, ...) each define a tuple of them; ``builder`` writes them to
disk, ``catalog`` derives ``meta.json`` from them, ``defects`` edits them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Shape tags: what makes a template interesting for issue 13.  Tests select
#: templates by tag instead of by name, so renaming a template breaks nothing.
SINGLE_CONTAINER = "single-container"  # a Dockerfile, no compose file
MULTI_SERVICE = "multi-service"  # `services` in wendy.json
COMPOSE = "compose"  # has a docker-compose.yml (the CLI then ignores wendy.json)
SWIFT_PROJECT = "swift-project"  # wendy.json with language / xcode / run
WENDY_LITE = "wendy-lite"  # a microcontroller app
DARWIN = "darwin"  # a macOS app
NEEDS_VALUE = "needs-value"  # a variable without default: the CLI needs --var
TEXT_QUESTION = "text-question"  # a picker question of a type the CLI does not list
BINARY_JSON = "binary-json"  # a .json file that is not text (rendered anyway)
NPM_LOCK_GLOB = "npm-lock-glob"  # COPY package.json package-lock.json* ./ without a lock
NO_PICKER = "no-picker"  # no template.schema.json
PATH_RENAMED = "path-renamed"  # a directory named like the template (renamed to the app id)
CONDITIONALS = "conditionals"  # Go template conditionals in rendered files
ESCAPED_BRACES = "escaped-braces"  # {{"{{"}} for a literal {{ in a rendered file
COPIED_BRACES = "copied-braces"  # a copied (unrendered) file containing {{
BASE_PLATFORM = "base-platform"  # a Dockerfile selecting FROM base-${WENDY_PLATFORM} stages
LOST_SETTINGS = "lost-settings"  # multi-service with top-level settings the path applies nowhere

ALL_SHAPES = frozenset(
    {
        SINGLE_CONTAINER,
        MULTI_SERVICE,
        COMPOSE,
        SWIFT_PROJECT,
        WENDY_LITE,
        DARWIN,
        NEEDS_VALUE,
        TEXT_QUESTION,
        BINARY_JSON,
        NPM_LOCK_GLOB,
        NO_PICKER,
        PATH_RENAMED,
        CONDITIONALS,
        ESCAPED_BRACES,
        COPIED_BRACES,
        BASE_PLATFORM,
        LOST_SETTINGS,
    }
)


@dataclass(frozen=True)
class TemplateSpec:
    """One template directory ``<language>/<name>/`` and what it exercises.

    ``files`` maps paths relative to the template directory to contents
    (``str`` is written as UTF-8, ``bytes`` verbatim).  ``sample_values``
    are the ``--var`` answers the template cannot render without (variables
    with no default); ``targets`` is its ``meta.json`` entry's ``targets``
    (empty: WendyOS devices only, spec section 4).
    """

    language: str
    name: str
    description: str
    files: Mapping[str, str | bytes]
    shapes: frozenset[str]
    targets: tuple[str, ...] = ()
    sample_values: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = self.shapes - ALL_SHAPES
        if unknown:
            raise ValueError(f"{self.id}: unknown shape tags {sorted(unknown)}")
        if "template.json" not in self.files:
            raise ValueError(f"{self.id}: no template.json")

    @property
    def id(self) -> str:
        return f"{self.language}/{self.name}"


def json_text(data: object) -> str:
    """A JSON file as people write it: two-space indent, final newline."""
    return json.dumps(data, indent=2) + "\n"


def manifest(name: str, description: str, *variables: Mapping[str, object]) -> str:
    """A ``template.json``: ``APP_ID`` first (the CLI sets it; listed for users)."""
    app_id = {
        "name": "APP_ID",
        "type": "string",
        "description": "The app id: names the image, the volumes and the project.",
        "required": True,
    }
    return json_text({"name": name, "description": description, "variables": [app_id, *variables]})


def port_variable(default: int, description: str) -> dict[str, object]:
    return {
        "name": "PORT",
        "type": "integer",
        "description": description,
        "default": default,
        "validate": {"min": 1024, "max": 65535},
    }
