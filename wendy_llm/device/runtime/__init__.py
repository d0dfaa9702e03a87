"""The container as the Wendy agent runs it (Wendy run facts, section 9).

- :mod:`model`: the data (environment, GPU, network, mounts, process);
- :mod:`dockerfacts`: what a service's Dockerfile shows about run time;
- :mod:`build`: one service's :class:`~model.Runtime`;
- :mod:`scripts`: what a render's entry scripts run and read;
- :mod:`checks`: the findings judged by it, attached to the view.
"""
