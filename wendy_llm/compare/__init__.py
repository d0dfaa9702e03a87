"""The one comparison engine: renders against renders, file by file, grouped and capped."""
