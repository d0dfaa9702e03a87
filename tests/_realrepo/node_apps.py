"""node/simple-api: an Express API in one container, no picker.

The Dockerfile uses the npm idiom ``COPY package.json package-lock.json* ./``
with no lock file in the template (``npm install`` makes one on first use):
BuildKit accepts a wildcard source that matches nothing.
"""

from __future__ import annotations

from _realrepo.spec import (
    NO_PICKER,
    NPM_LOCK_GLOB,
    SINGLE_CONTAINER,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

NODE_DOCKERIGNORE = "node_modules\nnpm-debug.log\ndist\n.git\n"
NODE_GITIGNORE = "node_modules/\ndist/\nnpm-debug.log*\n"

API_DOCKERFILE = """\
FROM node:22-alpine

WORKDIR /usr/src/app
ENV NODE_ENV=production

# The lock file is optional: npm writes one on the first `npm install`.
COPY package.json package-lock.json* ./
RUN if [ -f package-lock.json ]; then npm ci --omit=dev; else npm install --omit=dev; fi \\
    && npm cache clean --force

COPY src/ ./src/

ENV PORT={{.PORT}}
EXPOSE {{.PORT}}
USER node
CMD ["node", "src/server.js"]
"""

API_SERVER = """\
// {{.APP_ID}}: a small Express API made with `wendy init`.
const express = require("express");
const items = require("./items");

const app = express();
const port = Number(process.env.PORT || {{.PORT}});

app.use(express.json());
app.get("/health", (_req, res) => res.json({ status: "ok" }));
app.use("/api/items", items);

app.use((err, _req, res, _next) => {
  console.error(err);
  res.status(500).json({ error: "internal error" });
});

const server = app.listen(port, "0.0.0.0", () => {
  console.log(`{{.APP_ID}} listening on port ${port}`);
});

// wendy stops apps with SIGTERM: finish in-flight requests, then exit.
process.on("SIGTERM", () => server.close(() => process.exit(0)));
"""

API_ITEMS = """\
const { Router } = require("express");

const router = Router();
const items = new Map();
let nextId = 1;

router.get("/", (_req, res) => res.json([...items.values()]));

router.post("/", (req, res) => {
  const name = typeof req.body.name === "string" ? req.body.name.trim() : "";
  if (!name) {
    return res.status(400).json({ error: "name is required" });
  }
  const item = { id: nextId++, name, createdAt: new Date().toISOString() };
  items.set(item.id, item);
  return res.status(201).json(item);
});

router.delete("/:id", (req, res) => {
  const deleted = items.delete(Number(req.params.id));
  res.status(deleted ? 204 : 404).end();
});

module.exports = router;
"""

API_PACKAGE = {
    "name": "{{.APP_ID}}",
    "version": "0.1.0",
    "private": True,
    "description": "An Express API made with wendy init.",
    "main": "src/server.js",
    "scripts": {"start": "node src/server.js", "dev": "node --watch src/server.js"},
    "engines": {"node": ">=20"},
    "dependencies": {"express": "^4.21.2"},
}

API_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    }
  },
  "hooks": {
    "postStart": {
      "cli": "wendy utils open-browser http://${WENDY_HOSTNAME}:{{.PORT}}/api/items"
    }
  }
}
"""

API_README = """\
# {{.APP_ID}}

An [Express](https://expressjs.com) API on port {{.PORT}}.

```sh
wendy run
curl -X POST -H 'content-type: application/json' -d '{"name":"first"}' \\
  http://<device>:{{.PORT}}/api/items
```

Add a lock file for reproducible builds: `npm install` once and commit
`package-lock.json`; the Dockerfile then uses `npm ci`.
"""

NODE_SIMPLE_API = TemplateSpec(
    language="node",
    name="simple-api",
    description="An Express JSON API with a health check.",
    shapes=frozenset({SINGLE_CONTAINER, NO_PICKER, NPM_LOCK_GLOB}),
    files={
        "template.json": manifest(
            "simple-api",
            "An Express JSON API with a health check.",
            port_variable(3000, "HTTP port of the API."),
        ),
        "Dockerfile": API_DOCKERFILE,
        ".dockerignore": NODE_DOCKERIGNORE,
        ".gitignore": NODE_GITIGNORE,
        "README.md": API_README,
        "package.json": json_text(API_PACKAGE),
        "src/server.js": API_SERVER,
        "src/items.js": API_ITEMS,
        "wendy.json": API_WENDY,
    },
)
