"""Where things are in a templates repository: templates, fixtures, git revisions."""
