"""``check``, the main job: every pick of every template rendered and judged by
each check, into a report. Layers, lowest first: ``findings``,
``documents``, ``tools``, ``rules``, ``dockerfiles``, ``stored``,
``checks``, then the orchestration (``run``, ``pickrun``, ``rulerun``,
``stored_rows``, ``rows``).
"""
