"""Turning results into text, JSON, JUnit XML and Markdown (only these and ``cli`` print)."""
