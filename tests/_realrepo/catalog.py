"""Every template of the repository, and the root files derived from them.

``TEMPLATES`` is the catalogue in ``meta.json`` order.  ``meta_json`` builds
the catalog as the CLI reads it (spec: wendy-run.md section 4): one entry
per template *name*, with the languages it exists in; ``targets`` only
where a template is not for WendyOS devices.  ``ROOT_FILES`` are the
repository's own files: README, docs, ``.gitignore`` (none is a template).
"""

from __future__ import annotations

from collections.abc import Sequence

from _realrepo.common_files import COMMON_FILES
from _realrepo.cpp_audio import AUDIO_MONITOR
from _realrepo.cpp_camera import OPENCV_CAMERA
from _realrepo.device_paths import DEVICE_PATH_TEMPLATES
from _realrepo.node_apps import NODE_SIMPLE_API
from _realrepo.node_dashboard import DASHBOARD
from _realrepo.node_mqtt_stack import MQTT_STACK
from _realrepo.python_apps import OPENAI_CHAT, SIMPLE_API
from _realrepo.python_sensor_hub import SENSOR_HUB
from _realrepo.rust_apps import LITE_BLINK, RUST_SIMPLE_API
from _realrepo.rust_serial import SERIAL_BRIDGE
from _realrepo.spec import TemplateSpec, json_text
from _realrepo.swift_apps import MENU_BAR, SWIFT_SIMPLE_API

TEMPLATES: tuple[TemplateSpec, ...] = (
    SIMPLE_API,
    NODE_SIMPLE_API,
    RUST_SIMPLE_API,
    SWIFT_SIMPLE_API,
    OPENAI_CHAT,
    SENSOR_HUB,
    DASHBOARD,
    MQTT_STACK,
    SERIAL_BRIDGE,
    LITE_BLINK,
    OPENCV_CAMERA,
    AUDIO_MONITOR,
    MENU_BAR,
    *DEVICE_PATH_TEMPLATES,
)

#: The catalogue entry of a name that exists in several languages describes them all.
SHARED_DESCRIPTIONS = {
    "simple-api": "A small HTTP API with a health check, in Python, Node, Rust or Swift.",
}

LANGUAGE_NAMES = {
    "cpp": "C++",
    "node": "Node.js",
    "python": "Python",
    "rust": "Rust",
    "swift": "Swift",
}


def meta_json(templates: Sequence[TemplateSpec]) -> str:
    """The ``meta.json`` catalogue listing every template of ``templates``."""
    entries: dict[str, dict[str, object]] = {}
    for spec in templates:
        entry = entries.setdefault(spec.name, {"name": spec.name})
        if len(entry) == 1:
            entry["description"] = SHARED_DESCRIPTIONS.get(spec.name, spec.description)
            if spec.targets:
                entry["targets"] = list(spec.targets)
            entry["languages"] = []
        languages = entry["languages"]
        assert isinstance(languages, list)
        languages.append(spec.language)
    used = sorted({spec.language for spec in templates})
    return json_text(
        {
            "templates": list(entries.values()),
            "languages": [{"key": key, "name": LANGUAGE_NAMES[key]} for key in used],
        }
    )


README = """\
# Wendy templates

The templates `wendy init` offers. Each lives in `<language>/<name>/` and is
listed in `meta.json`; `common/` holds front-end files several templates
copy, and `docs/` the authoring guide.

```sh
wendy init --template simple-api --language python
```

## Adding a template

1. Create `<language>/<name>/` with a `template.json` (and a
   `template.schema.json` when it asks questions).
2. Add it to `meta.json` (a new name gets a new entry; a new language for an
   existing name goes into that entry's `languages`).
3. Every file is a Go template: see [docs/authoring.md](docs/authoring.md).
"""

AUTHORING = """\
# Writing a template

`wendy init` renders text files through Go's `text/template` with
`missingkey=error`: `{{.APP_ID}}` is the app id, and every variable of
`template.json` and answer of `template.schema.json` is available by name.

- Conditionals: `{{if eq .DETECTOR "motion"}}...{{end}}`.
- A literal `{{` (Jinja, Rust format strings, GitHub Actions) is written
  `{{"{{"}}`.
- Files with other extensions (`.jsx`, `.tsx`, `.conf`, `.dockerignore`)
  are copied as they are.
- A directory named like the template (`Sources/simple-api/`) is renamed to
  the app id.
- Files are written with mode 0644: `chmod +x` scripts in the Dockerfile.
"""

ENTITLEMENTS = """\
# Entitlements used by these templates

| entitlement | templates |
|---|---|
| network | most |
| camera, gpu | cpp/opencv-camera |
| audio | cpp/audio-monitor |
| persist | rust/simple-api, python/sensor-hub, cpp/opencv-camera |
| usb | rust/serial-bridge |
| gpio, i2c | python/sensor-hub, rust/lite-blink |

A persist entitlement needs a `name` and an absolute `path`.
"""

ROOT_FILES: dict[str, str | bytes] = {
    "README.md": README,
    "LICENSE": "Apache License, Version 2.0 (the full text is in the upstream repository).\n",
    ".gitignore": ".DS_Store\nnode_modules/\ntarget/\n.build/\n__pycache__/\n",
    "docs/authoring.md": AUTHORING,
    "docs/entitlements.md": ENTITLEMENTS,
    **COMMON_FILES,
}
