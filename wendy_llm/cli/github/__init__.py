"""Commands for the GitHub Action's own steps (``summary``), kept apart so cli/ stays small."""
