"""The engine: Go's ``text/template`` (and Go's value rules) behind a framed pipe.

``client`` is the :class:`Renderer` callers use; ``gofuncs`` asks the helper
for the Go functions the CLI's value rules call (``Atoi``, ``%v``, regexp,
...); ``process`` owns one helper process; ``wire`` is the frame format;
``toolchain`` finds Go and builds ``gohelper/`` into a cache.  Nothing here
knows about templates.
"""
