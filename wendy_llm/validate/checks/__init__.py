"""One module per ``check`` column: each judges one aspect of a pick's render."""
