"""The ``device`` check: what ``wendy run`` would do with the render on a WendyOS device.

The render's device view (:mod:`wendy_llm.device`) is built from the
documents ``check`` already parsed; its findings become the check's: what
makes ``wendy run`` fail is an error, what the device silently drops or
ignores is a warning (warnings fail ``check`` only with ``--strict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wendy_llm.device import PROFILES, DeviceProfile, DeviceView, compose_file, device_view
from wendy_llm.validate.documents.parse import Documents, parse_documents, parse_yaml
from wendy_llm.validate.findings import Finding

CHECK = "device"


def build_view(
    tree: Mapping[str, bytes],
    project: str,
    docs: Documents | None = None,
    devices: Sequence[DeviceProfile] = PROFILES,
) -> DeviceView:
    """The device view of a render whose project directory is named ``project``."""
    if docs is None:
        docs = parse_documents(tree)
    path = compose_file(tree)
    compose = docs.compose
    if path is not None and (compose is None or compose.path != path):
        # wendy run and Docker Compose disagree on which file to read.
        compose = parse_yaml(path, tree[path])
    return device_view(tree, project=project, compose=compose, wendy=docs.wendy, devices=devices)


def device_findings(view: DeviceView) -> list[Finding]:
    """The view's findings as ``device`` check findings."""
    return [
        Finding(check=CHECK, severity=f.severity, message=f.message, file=f.file, line=f.line)
        for f in view.findings
    ]
