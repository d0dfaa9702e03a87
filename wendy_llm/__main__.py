"""``python -m wendy_llm`` is the ``wendy-llm`` command."""

import sys

from wendy_llm.cli import program

sys.exit(program())
