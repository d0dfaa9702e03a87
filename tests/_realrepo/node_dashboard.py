"""node/dashboard: a React (Vite) dashboard served by a small Node server.

Its picker has a question of ``type: text``, which the CLI does not list
and collects as an input (spec: wendy-run.md section 5).  ``.jsx`` files
are copied unrendered by ``wendy init``, ``{{`` and all; ``.js``, ``.css``,
``.html`` and ``.svg`` files are rendered.  The Dockerfile uses the npm
lock-file wildcard like node/simple-api.
"""

from __future__ import annotations

from _realrepo.common_files import WENDY_LOGO_SVG
from _realrepo.node_apps import NODE_DOCKERIGNORE, NODE_GITIGNORE
from _realrepo.spec import (
    COPIED_BRACES,
    NPM_LOCK_GLOB,
    SINGLE_CONTAINER,
    TEXT_QUESTION,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

DASHBOARD_DOCKERFILE = """\
FROM node:22-alpine AS build
WORKDIR /app
COPY package.json package-lock.json* ./
RUN npm install
COPY index.html vite.config.js ./
COPY src/ ./src/
COPY public/ ./public/
RUN npm run build

FROM node:22-alpine
WORKDIR /app
ENV NODE_ENV=production \\
    PORT={{.PORT}}
COPY server/ ./server/
COPY --from=build /app/dist ./dist
EXPOSE {{.PORT}}
CMD ["node", "server/server.js"]
"""

DASHBOARD_PACKAGE = {
    "name": "{{.APP_ID}}",
    "version": "0.1.0",
    "private": True,
    "type": "module",
    "scripts": {"dev": "vite", "build": "vite build", "start": "node server/server.js"},
    "dependencies": {"react": "^18.3.1", "react-dom": "^18.3.1"},
    "devDependencies": {"@vitejs/plugin-react": "^4.3.4", "vite": "^6.0.7"},
}

VITE_CONFIG = """\
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// `npm run dev` serves the UI; API calls go to `npm start` on port {{.PORT}}.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { "/api": "http://localhost:{{.PORT}}" },
  },
});
"""

INDEX_HTML = """\
<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/wendy-logo.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>{{.DASHBOARD_TITLE}}</title>
  </head>
  <body class="theme-{{.THEME}}">
    <div id="root"></div>
    <script type="module" src="/src/main.jsx"></script>
  </body>
</html>
"""

MAIN_JSX = """\
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App.jsx";
import "./app.css";

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
"""

APP_JSX = """\
import { useEffect, useState } from "react";
import { REFRESH_MS, TITLE } from "./config.js";

const card = { padding: 16, borderRadius: 8, border: "1px solid" };

function Gauge({ label, value, unit, warnAbove }) {
  const borderColor = value > warnAbove ? "#e5484d" : "#30a46c";
  return (
    <div style={{ ...card, borderColor }}>
      <div className="label">{label}</div>
      <div className="value">
        {value.toFixed(1)} {unit}
      </div>
    </div>
  );
}

export default function App() {
  const [metrics, setMetrics] = useState(null);

  useEffect(() => {
    const load = () =>
      fetch("/api/metrics")
        .then((r) => r.json())
        .then(setMetrics)
        .catch(() => setMetrics(null));
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  return (
    <main>
      <h1>{TITLE}</h1>
      {metrics ? (
        <section className="grid">
          <Gauge label="Load (1 min)" value={metrics.load[0]} unit="" warnAbove={metrics.cpus} />
          <Gauge label="Memory used" value={metrics.memUsedPct} unit="%" warnAbove={90} />
          <Gauge label="Uptime" value={metrics.uptimeHours} unit="h" warnAbove={Infinity} />
        </section>
      ) : (
        <p style={{ opacity: 0.6 }}>Waiting for the device...</p>
      )}
    </main>
  );
}
"""

CONFIG_JS = """\
// Answers given to `wendy init`; edit freely.
export const TITLE = "{{.DASHBOARD_TITLE}}";
export const THEME = "{{.THEME}}";
export const REFRESH_MS = 2000;
"""

APP_CSS = """\
body { margin: 0; font-family: system-ui, sans-serif; }
.theme-dark { background: #111018; color: #ecebf5; }
.theme-light { background: #fbfaff; color: #1d1b2f; }
main { padding: 2rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 1rem; }
.label { font-size: 0.8rem; opacity: 0.7; }
.value { font-size: 2rem; font-variant-numeric: tabular-nums; }
"""

SERVER_JS = """\
// Serves the built dashboard and /api/metrics (Node built-ins only).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { cpus, freemem, loadavg, totalmem, uptime } from "node:os";
import { extname, join, normalize } from "node:path";

const port = Number(process.env.PORT || {{.PORT}});
const root = join(import.meta.dirname, "..", "dist");
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
  ".svg": "image/svg+xml" };

function metrics() {
  const used = totalmem() - freemem();
  return { load: loadavg(), cpus: cpus().length, memUsedPct: (100 * used) / totalmem(),
    uptimeHours: uptime() / 3600 };
}

createServer(async (req, res) => {
  if (req.url === "/api/metrics") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(metrics()));
  }
  const path = normalize(req.url === "/" ? "/index.html" : req.url.split("?")[0]);
  try {
    const body = await readFile(join(root, path));
    res.writeHead(200, { "content-type": types[extname(path)] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
}).listen(port, "0.0.0.0", () => console.log(`dashboard on port ${port}`));
"""

DASHBOARD_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.3.1",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network",
      "mode": "host"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 45
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/"
    }
  }
}
"""

DASHBOARD_PICKER = {
    "phases": [
        {
            "id": "look",
            "title": "Look and feel",
            "questions": [
                {
                    "id": "DASHBOARD_TITLE",
                    "label": "Title shown at the top of the dashboard",
                    "type": "text",
                    "default": "Device dashboard",
                    "placeholder": "My robot",
                },
                {
                    "id": "THEME",
                    "label": "Colour theme",
                    "type": "radio",
                    "default": "dark",
                    "options": [
                        {"value": "dark", "label": "Dark"},
                        {"value": "light", "label": "Light"},
                    ],
                },
            ],
        }
    ]
}

DASHBOARD = TemplateSpec(
    language="node",
    name="dashboard",
    description="A React dashboard of the device's load, memory and uptime.",
    shapes=frozenset({SINGLE_CONTAINER, NPM_LOCK_GLOB, TEXT_QUESTION, COPIED_BRACES}),
    files={
        "template.json": manifest(
            "dashboard",
            "A React dashboard of the device's load, memory and uptime.",
            port_variable(8080, "HTTP port of the dashboard."),
        ),
        "template.schema.json": json_text(DASHBOARD_PICKER),
        "Dockerfile": DASHBOARD_DOCKERFILE,
        ".dockerignore": NODE_DOCKERIGNORE,
        ".gitignore": NODE_GITIGNORE,
        "README.md": "# {{.DASHBOARD_TITLE}}\n\nA dashboard for `{{.APP_ID}}`: `wendy run`, "
        "then open port {{.PORT}}.\n\nDevelop with `npm install && npm run dev`.\n",
        "package.json": json_text(DASHBOARD_PACKAGE),
        "vite.config.js": VITE_CONFIG,
        "index.html": INDEX_HTML,
        "public/wendy-logo.svg": WENDY_LOGO_SVG,
        "src/main.jsx": MAIN_JSX,
        "src/App.jsx": APP_JSX,
        "src/config.js": CONFIG_JS,
        "src/app.css": APP_CSS,
        "server/server.js": SERVER_JS,
        "wendy.json": DASHBOARD_WENDY,
    },
)
