"""What the command line says while it waits on something slow (a Go helper build)."""
