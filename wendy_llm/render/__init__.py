"""Rendering a template exactly as ``wendy init`` does.

``manifest`` (template.json, template.schema.json) -> ``values`` (the data
map) -> ``picks`` (every reachable answer set) -> ``tree`` (which files, where)
-> ``template`` (load and render) ; ``lint`` and ``canonical`` build on them.
"""
