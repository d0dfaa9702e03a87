"""Commands over a repository's history (``replay``), kept apart so cli/ stays small."""
