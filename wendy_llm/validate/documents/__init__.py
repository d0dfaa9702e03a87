"""A render's structured files (the compose file, ``wendy.json``) parsed,
normalised and located by line.
"""
