"""The Go helper's identity and its build's news: the source files and their
digests (:mod:`.sources`), the binary a platform wheel ships (:mod:`.shipped`,
with the binary itself in ``bin/``), and who hears of a build (:mod:`.announce`)."""
