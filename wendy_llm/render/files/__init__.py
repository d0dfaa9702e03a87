"""A template's files as ``wendy init`` reads them, and the rendered tree it
writes (atomically, guarded).
"""
