"""A templates repository shaped like a real one, generated for ``bench_repo``.

40 templates in five languages, built from the catalogue of the realistic
repository of the tests (``tests/_realrepo``: its ``builder`` writes the
files, ``meta.json`` and the git commit): its 13 templates, then copies of
them under other names until there are 40.  Each template also gets what a
real repository carries and no check needs to read: an audio asset, every
fourth an SDK blob, every Node template a ``package-lock.json`` (a
``.json``, so ``wendy init`` renders it like any template file).  All bytes
come from a fixed seed (SHAKE-256), so every run builds the same repository.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent.parent / "tests"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

from _realrepo.builder import RepoFixture, build_repository, write_settings  # noqa: E402
from _realrepo.catalog import TEMPLATES  # noqa: E402
from _realrepo.spec import TemplateSpec  # noqa: E402

TEMPLATE_COUNT = 40
AUDIO_BYTES = 64 * 1024
SDK_BYTES = 512 * 1024
LOCK_PACKAGES = 600  # about 140 KB of lockfile


def seeded_bytes(seed: str, size: int) -> bytes:
    """``size`` bytes that depend only on ``seed``."""
    return hashlib.shake_256(seed.encode()).digest(size)


def wav_file(seed: str, size: int) -> bytes:
    """A 16-bit mono WAV header over seeded samples (the shape of a notification sound)."""
    data = seeded_bytes(seed, size - 44)
    header = b"RIFF" + (size - 8).to_bytes(4, "little") + b"WAVEfmt "
    header += (16).to_bytes(4, "little") + (1).to_bytes(2, "little") + (1).to_bytes(2, "little")
    header += (16000).to_bytes(4, "little") + (32000).to_bytes(4, "little")
    header += (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
    return header + b"data" + len(data).to_bytes(4, "little") + data


def sdk_blob(seed: str, size: int) -> bytes:
    """A shared-library-looking blob: an ELF magic, then seeded bytes."""
    return b"\x7fELF\x02\x01\x01" + seeded_bytes(seed, size - 7)


def package_lock(name: str) -> str:
    """An npm v3 lockfile with ``LOCK_PACKAGES`` entries (versions, hashes, numbers)."""
    packages: dict[str, object] = {"": {"name": name, "version": "1.0.0"}}
    for index in range(LOCK_PACKAGES):
        digest = seeded_bytes(f"{name}/{index}", 24).hex()
        package = f"dep-{digest[:8]}"
        packages[f"node_modules/{package}"] = {
            "version": f"{index % 7}.{index % 13}.{index % 29}",
            "resolved": f"https://registry.npmjs.org/{package}/-/{package}-{index}.tgz",
            "integrity": f"sha512-{digest}",
            "engines": {"node": f">={12 + index % 9}"},
        }
    lock = {"name": name, "version": "1.0.0", "lockfileVersion": 3, "packages": packages}
    return json.dumps(lock, indent=2) + "\n"


def _renamed(spec: TemplateSpec, copy: int) -> TemplateSpec:
    if copy == 0:
        return spec
    name = f"{spec.name}-{copy + 1}"
    # A directory named like the template is renamed with it (the CLI
    # replaces that component with the app id).
    files = {
        "/".join(name if part == spec.name else part for part in path.split("/")): data
        for path, data in spec.files.items()
    }
    return dataclasses.replace(spec, name=name, files=files)


def _with_assets(spec: TemplateSpec, index: int) -> TemplateSpec:
    files = dict(spec.files)
    files["assets/sounds/notify.wav"] = wav_file(f"{spec.id}/wav", AUDIO_BYTES)
    if index % 4 == 0:
        files["vendor/sdk/libwendy-sensor.so"] = sdk_blob(f"{spec.id}/sdk", SDK_BYTES)
    if spec.language == "node":
        files["package-lock.json"] = package_lock(spec.name)
    return dataclasses.replace(spec, files=files)


def real_shaped_templates(count: int = TEMPLATE_COUNT) -> tuple[TemplateSpec, ...]:
    """The catalogue: the realistic templates, then renamed copies, with their assets."""
    specs = [
        _renamed(TEMPLATES[index % len(TEMPLATES)], index // len(TEMPLATES))
        for index in range(count)
    ]
    return tuple(_with_assets(spec, index) for index, spec in enumerate(specs))


def build_real_shaped(root: Path, count: int = TEMPLATE_COUNT) -> RepoFixture:
    """Write the repository (with its sample values) into ``root``, committed in git."""
    fixture = build_repository(root, templates=real_shaped_templates(count))
    write_settings(fixture)
    fixture.commit("sample values")
    return fixture


def repository_size(root: Path) -> tuple[int, int]:
    """(bytes, files) of the repository's files, ``.git`` aside."""
    files = [p for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts]
    return sum(p.stat().st_size for p in files), len(files)
