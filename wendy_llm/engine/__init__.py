"""The engine: Go's ``text/template`` (and Go's value rules) behind a framed pipe.

``client`` is the :class:`Renderer` callers use; ``process`` owns one helper
process; ``wire`` is the frame format; ``toolchain`` finds Go and builds
``gohelper/main.go`` into a cache.  Nothing here knows about templates.
"""
