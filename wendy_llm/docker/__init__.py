"""Dockerfiles as BuildKit reads them, for the validators and a device's view.

``syntax`` (BuildKit's own parser), ``expand`` (its word expansion),
``model`` (stages, ``ARG``/``ENV`` scoping, base images), ``dockerignore``
and ``context`` (what ``COPY`` finds).  Depends on nothing above ``errors``.
"""
