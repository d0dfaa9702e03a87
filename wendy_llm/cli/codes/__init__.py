"""Commands about the finding codes (``explain``), kept apart so cli/ stays small."""
