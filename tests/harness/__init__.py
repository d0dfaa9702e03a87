"""Test tooling for the bundled python/llm template.

Script stubs, entrypoint behaviours and the mutant catalogue.
"""
