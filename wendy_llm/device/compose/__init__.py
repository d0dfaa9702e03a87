"""The compose path: the compose file read as the Wendy CLI reads it (go-yaml
v3), key by key, into apps; and where Docker Compose reads the same file
otherwise.
"""
