"""What a pull request on GitHub shows of a check: findings at their template source.

:mod:`.sources` maps a finding to its template source file and line,
:mod:`.located` groups a run's findings into distinct ones there,
:mod:`.annotations` and :mod:`.sarif` write them as workflow annotations and
SARIF 2.1.0, and :mod:`.topology` draws each pick's device topology for the
Markdown summary (:mod:`wendy_llm.reports.markdown`).
"""
