"""What the Wendy CLI does with a rendered app, as data, at one named revision.

The facts are read off the CLI's source (see :data:`REVISION`); when the CLI
changes, these modules change, and nothing else in the package encodes a
Wendy behaviour.  ``project`` says which path ``wendy run`` takes for a
project directory; ``wendy_json`` is ``wendy.json``'s Go struct and the
CLI's validation of it; ``single_builds`` the images ``wendy run`` makes
without a render's Dockerfile (the generated python Dockerfile, the swift
container plugin's image); ``catalog`` is the ``meta.json`` catalog
``wendy init`` offers templates from.
"""

from __future__ import annotations

from typing import Final

#: The Wendy CLI revision these facts describe.
REVISION: Final = "f919a252 (2026-05-21)"
