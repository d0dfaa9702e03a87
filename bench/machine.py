"""What the benchmarks print about the machine they ran on."""

from __future__ import annotations

import os


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (figures are only comparable at like loads)."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # not every platform can tell
        return "unknown"
