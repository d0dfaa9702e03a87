"""The rules language: a template's rules file, its selectors, traits,
assertions and relations, evaluated on a render.
"""
