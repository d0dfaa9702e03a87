"""The paths without a compose file: multi-service (``wendy.json`` services)
and single-container (one image from the project root), and which one a
project takes.
"""
