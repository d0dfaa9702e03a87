"""History: what the gate would have said of each commit of a repository (``replay``)."""
