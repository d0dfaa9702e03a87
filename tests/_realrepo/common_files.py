"""The shared front-end kept in the repository's ``common/`` folder.

Real templates repositories keep one copy of a status page's stylesheet and
logo in ``common/`` and copy it into the templates that serve a page (a
sync script or by hand).  ``common/`` is not a template: it has no
``template.json`` and must never be rendered, checked or listed.
"""

from __future__ import annotations

STATUS_PAGE_CSS = """\
:root {
  --wendy-ink: #1d1b2f;
  --wendy-accent: #6c4cf5;
  --wendy-muted: #6b6880;
  --wendy-paper: #fbfaff;
}

* { box-sizing: border-box; }

body {
  margin: 0;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--wendy-ink);
  background: var(--wendy-paper);
}

header {
  padding: 1rem 2rem;
  background: var(--wendy-accent);
  color: white;
}

main { padding: 1rem 2rem; max-width: 48rem; }
code { background: #efecff; padding: 0 0.25rem; border-radius: 3px; }
.muted { color: var(--wendy-muted); }
"""

WENDY_LOGO_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <title>Wendy</title>
  <circle cx="32" cy="32" r="30" fill="#6c4cf5"/>
  <path d="M14 22l8 22 10-16 10 16 8-22" fill="none" stroke="#fff" stroke-width="5"
        stroke-linecap="round" stroke-linejoin="round"/>
</svg>
"""

STATUS_PAGE_HTML = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Status</title>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <header><img src="wendy-logo.svg" alt="" width="32" height="32"> Status</header>
  <main><p class="muted">Copy this page into a template's static folder.</p></main>
</body>
</html>
"""

COMMON_README = """\
# common/

Front-end files shared by several templates: the status page's stylesheet
and the Wendy logo. This folder is not a template (there is no
`template.json`); templates carry their own copy, kept in sync by hand:

```sh
cp common/status-page/style.css python/simple-api/app/static/style.css
cp common/status-page/wendy-logo.svg node/dashboard/public/wendy-logo.svg
```
"""

COMMON_FILES: dict[str, str | bytes] = {
    "common/README.md": COMMON_README,
    "common/status-page/index.html": STATUS_PAGE_HTML,
    "common/status-page/style.css": STATUS_PAGE_CSS,
    "common/status-page/wendy-logo.svg": WENDY_LOGO_SVG,
}
