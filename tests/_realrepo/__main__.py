"""``python -m _realrepo DIR``: build the realistic repository into DIR (for a census by hand).

Run from the project root with ``PYTHONPATH=tests``.  ``--settings`` also
writes the settings file with the sample values.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _realrepo.builder import build_repository, write_settings


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m _realrepo", description=__doc__)
    parser.add_argument("directory", type=Path, help="where to build it (empty or absent)")
    parser.add_argument("--settings", action="store_true", help="write the sample values too")
    args = parser.parse_args()
    fixture = build_repository(args.directory)
    if args.settings:
        write_settings(fixture)
    print(f"built {len(fixture.templates)} templates in {args.directory}")


if __name__ == "__main__":
    main()
