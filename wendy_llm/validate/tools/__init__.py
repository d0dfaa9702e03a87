"""The external programs the checks run (Docker Compose, ShellCheck), found
once and their answers cached by content.
"""
