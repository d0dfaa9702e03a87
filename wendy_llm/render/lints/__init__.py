"""Lints: template constructs that make ``wendy init`` misbehave, or that it
accepts without a word.
"""
