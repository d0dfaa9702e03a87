"""The Rust templates: an axum API (one container) and a Wendy Lite blinker.

``Cargo.toml``, ``.rs`` and ``.yml`` files are rendered by ``wendy init``,
so Rust's own escaped brace ``{{`` in a format string and a GitHub Actions
expression ``${{ ... }}`` are written ``{{"{{"}}``.  The Wendy Lite app is
a WebAssembly module for a microcontroller: ``"platform": "wendy-lite"`` in
``wendy.json`` and ``targets: ["wendy-lite"]`` in ``meta.json`` (spec:
wendy-run.md section 4).
"""

from __future__ import annotations

from _realrepo.spec import (
    ESCAPED_BRACES,
    NO_PICKER,
    SINGLE_CONTAINER,
    WENDY_LITE,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

# --- rust/simple-api -------------------------------------------------------------------

API_CARGO = """\
[package]
name = "{{.APP_ID}}"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
axum = "0.7"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
tokio = { version = "1", features = ["macros", "rt-multi-thread", "signal", "fs"] }
tracing = "0.1"
tracing-subscriber = { version = "0.3", features = ["env-filter"] }
"""

API_MAIN = """\
//! {{.APP_ID}}: a small axum API whose notes survive restarts (persist entitlement).

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{extract::State, http::StatusCode, routing::get, Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

#[derive(Clone, Serialize, Deserialize)]
struct Note {
    text: String,
}

struct AppState {
    path: PathBuf,
    notes: Mutex<Vec<Note>>,
}

async fn health() -> String {
    // wendy init renders this file, so the first escaped brace is a template action.
    format!("{{"{{"}}\\"status\\":\\"ok\\",\\"app\\":\\"{}\\"}}", env!("CARGO_PKG_NAME"))
}

async fn list(State(state): State<Arc<AppState>>) -> Json<Vec<Note>> {
    Json(state.notes.lock().await.clone())
}

async fn add(
    State(state): State<Arc<AppState>>,
    Json(note): Json<Note>,
) -> Result<StatusCode, StatusCode> {
    let mut notes = state.notes.lock().await;
    notes.push(note);
    let body = serde_json::to_vec(&*notes).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    tokio::fs::write(&state.path, body)
        .await
        .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    Ok(StatusCode::CREATED)
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(std::env::var("RUST_LOG").unwrap_or_else(|_| "{{.LOG_LEVEL}}".into()))
        .init();
    let data_dir = std::env::var("DATA_DIR").unwrap_or_else(|_| "/data".into());
    let path = PathBuf::from(data_dir).join("notes.json");
    let notes = match tokio::fs::read(&path).await {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let state = Arc::new(AppState { path, notes: Mutex::new(notes) });
    let app = Router::new()
        .route("/health", get(health))
        .route("/api/notes", get(list).post(add))
        .with_state(state);
    let port: u16 = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or({{.PORT}});
    let addr = SocketAddr::from(([0, 0, 0, 0], port));
    tracing::info!("{{.APP_ID}} listening on {addr}");
    let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
        .expect("server");
}
"""

API_DOCKERFILE = """\
FROM rust:1.83-slim AS build
WORKDIR /src
COPY Cargo.toml ./
COPY src/ ./src/
RUN cargo build --release

FROM debian:bookworm-slim
RUN apt-get update \\
    && apt-get install -y --no-install-recommends ca-certificates \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/{{.APP_ID}} /usr/local/bin/{{.APP_ID}}
ENV RUST_LOG={{.LOG_LEVEL}} \\
    DATA_DIR=/data \\
    PORT={{.PORT}}
EXPOSE {{.PORT}}
CMD ["/usr/local/bin/{{.APP_ID}}"]
"""

API_WORKFLOW = """\
name: build

on:
  push:
    branches: [main]
  pull_request:

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@stable
      - run: cargo build --release
      - run: cargo test
      - name: Container image
        run: docker build -t {{.APP_ID}}:${{"{{"}} github.sha }} .
"""

API_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "network"
    },
    {
      "type": "persist",
      "name": "{{.APP_ID}}-data",
      "path": "/data"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 30
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/api/notes"
    }
  }
}
"""

API_PICKER = {
    "phases": [
        {
            "id": "logging",
            "title": "Logging",
            "questions": [
                {
                    "id": "LOG_LEVEL",
                    "label": "How much should the app log?",
                    "type": "radio",
                    "default": "info",
                    "options": [
                        {"value": "warn", "label": "Warnings only"},
                        {"value": "info", "label": "Info (recommended)"},
                        {"value": "debug", "label": "Debug"},
                    ],
                }
            ],
        }
    ]
}

RUST_SIMPLE_API = TemplateSpec(
    language="rust",
    name="simple-api",
    description="An axum JSON API whose data survives restarts.",
    shapes=frozenset({SINGLE_CONTAINER, ESCAPED_BRACES}),
    files={
        "template.json": manifest(
            "simple-api",
            "An axum JSON API whose data survives restarts.",
            port_variable(8080, "HTTP port of the API."),
        ),
        "template.schema.json": json_text(API_PICKER),
        "Cargo.toml": API_CARGO,
        "Dockerfile": API_DOCKERFILE,
        ".dockerignore": "target\n.git\n",
        ".gitignore": "/target\n",
        ".github/workflows/build.yml": API_WORKFLOW,
        "README.md": "# {{.APP_ID}}\n\nAn [axum](https://docs.rs/axum) API on port "
        "{{.PORT}}. Notes are kept in `/data/notes.json`, on the `{{.APP_ID}}-data` "
        "volume.\n\n```sh\nwendy run\ncurl http://<device>:{{.PORT}}/api/notes\n```\n",
        "src/main.rs": API_MAIN,
        "wendy.json": API_WENDY,
    },
)

# --- rust/lite-blink (Wendy Lite) --------------------------------------------------------

LITE_CARGO = """\
[package]
name = "{{.APP_ID}}"
version = "0.1.0"
edition = "2021"
publish = false

[lib]
crate-type = ["cdylib"]

[profile.release]
opt-level = "s"
lto = true
panic = "abort"
"""

LITE_LIB = """\
//! {{.APP_ID}}: blinks the LED on GPIO {{.LED_PIN}} every {{.BLINK_MS}} ms.
//!
//! Built as a WebAssembly module; the Wendy Lite runtime on the microcontroller
//! provides the `wendy` imports below and calls `start` once.
#![no_std]

#[link(wasm_import_module = "wendy")]
extern "C" {
    fn gpio_configure_output(pin: i32) -> i32;
    fn gpio_write(pin: i32, level: i32) -> i32;
    fn sleep_ms(ms: i32);
}

const LED_PIN: i32 = {{.LED_PIN}};
const BLINK_MS: i32 = {{.BLINK_MS}};

#[no_mangle]
pub extern "C" fn start() {
    // SAFETY: the runtime validates pin numbers and returns an error code.
    unsafe {
        if gpio_configure_output(LED_PIN) != 0 {
            return;
        }
        let mut level = 0;
        loop {
            level ^= 1;
            gpio_write(LED_PIN, level);
            sleep_ms(BLINK_MS);
        }
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
"""

LITE_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "wendy-lite",
  "entitlements": [
    {
      "type": "gpio"
    }
  ]
}
"""

LITE_README = """\
# {{.APP_ID}}

Blinks the LED on GPIO {{.LED_PIN}} of a Wendy Lite microcontroller board.

```sh
rustup target add wasm32-unknown-unknown
cargo build --release
wendy run
```

`wendy run` flashes `target/wasm32-unknown-unknown/release/*.wasm` to the board.
"""

LITE_BLINK = TemplateSpec(
    language="rust",
    name="lite-blink",
    description="Blink an LED on a Wendy Lite microcontroller (WebAssembly).",
    shapes=frozenset({WENDY_LITE, NO_PICKER}),
    targets=("wendy-lite",),
    files={
        "template.json": manifest(
            "lite-blink",
            "Blink an LED on a Wendy Lite microcontroller (WebAssembly).",
            {
                "name": "LED_PIN",
                "type": "integer",
                "description": "GPIO number of the LED (8 on ESP32-C6 boards).",
                "default": 8,
                "validate": {"min": 0, "max": 48},
            },
            {
                "name": "BLINK_MS",
                "type": "integer",
                "description": "Half period of the blink, in milliseconds.",
                "default": 500,
                "validate": {"min": 50, "max": 10000},
            },
        ),
        "Cargo.toml": LITE_CARGO,
        ".cargo/config.toml": '[build]\ntarget = "wasm32-unknown-unknown"\n',
        ".gitignore": "/target\n",
        "README.md": LITE_README,
        "src/lib.rs": LITE_LIB,
        "wendy.json": LITE_WENDY,
    },
)
