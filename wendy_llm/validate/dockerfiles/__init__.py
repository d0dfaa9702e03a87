"""Dockerfile checks: a Dockerfile fails only where ``docker build`` would."""
