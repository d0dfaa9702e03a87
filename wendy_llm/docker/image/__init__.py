"""What each build stage's image holds: one model every check reads (issue 35).

- :mod:`facts`: the data (entries, virtualenvs, installs, opaque directories);
- :mod:`bases`: documented facts of common base images (docs/base-images.md);
- :mod:`shell`: a ``RUN``'s simple commands;
- :mod:`runwrites`, :mod:`installers`, :mod:`linked`: what a ``RUN`` writes,
  installs and links;
- :mod:`state`, :mod:`walk`: the model built, once per distinct content.
"""
