"""The real-shaped repository of ``bench/run.py repo`` (its timings are the benchmark's)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from realshape import TEMPLATE_COUNT, real_shaped_templates


def test_forty_templates_of_several_languages_with_megabytes_of_assets() -> None:
    specs = real_shaped_templates()
    assert len(specs) == TEMPLATE_COUNT == 40
    assert len({spec.id for spec in specs}) == 40
    assert {spec.language for spec in specs} >= {"python", "node", "rust", "swift", "cpp"}
    sizes = [len(data) for spec in specs for data in spec.files.values()]
    assert sum(sizes) > 5_000_000
    locks = [spec for spec in specs if "package-lock.json" in spec.files]
    assert locks and all(spec.language == "node" for spec in locks)
    assert any("vendor/sdk/libwendy-sensor.so" in spec.files for spec in specs)


def test_the_repository_is_the_same_every_time() -> None:
    first, second = real_shaped_templates(), real_shaped_templates()
    assert [dict(s.files) for s in first] == [dict(s.files) for s in second]
