"""``python -m wendy_llm`` and the ``wendy-llm`` console script (:func:`run`).

This module imports nothing of its own, so that a Ctrl-C arriving while
the command line itself imports ends as every other one does (``wendy-llm:
interrupted``, status 130), not with a traceback.
"""

import sys


def run() -> int:
    """The ``wendy-llm`` program: :func:`wendy_llm.cli.program`, once imported."""
    try:
        # lazy: imported under the handler below, not before this function runs.
        from wendy_llm.cli import program
    except KeyboardInterrupt:
        print("wendy-llm: interrupted", file=sys.stderr)
        return 130  # the shell's 128 + SIGINT, as wendy_llm.cli.EXIT_INTERRUPTED
    return program()


if __name__ == "__main__":
    sys.exit(run())
