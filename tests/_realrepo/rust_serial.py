"""rust/serial-bridge: a USB serial device bridged to TCP clients (usb entitlement).

No picker, no web page (so no ``hooks``); a readiness probe on the TCP
port, and ``"debug": false`` (a known ``wendy.json`` key).
"""

from __future__ import annotations

from _realrepo.spec import NO_PICKER, SINGLE_CONTAINER, TemplateSpec, manifest, port_variable

CARGO = """\
[package]
name = "{{.APP_ID}}"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
serialport = "4.6"
"""

MAIN_RS = """\
//! {{.APP_ID}}: copies every line read from a USB serial device to all TCP clients,
//! and every line a client sends to the device.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

type Clients = Arc<Mutex<Vec<TcpStream>>>;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn main() -> std::io::Result<()> {
    let device = env_or("SERIAL_DEVICE", "{{.SERIAL_DEVICE}}");
    let baud: u32 = env_or("BAUD_RATE", "{{.BAUD_RATE}}").parse().expect("BAUD_RATE");
    let port = serialport::new(&device, baud)
        .timeout(Duration::from_millis(200))
        .open()
        .unwrap_or_else(|e| panic!("cannot open {device}: {e}"));
    let writer = Arc::new(Mutex::new(port.try_clone().expect("clone serial port")));
    let clients: Clients = Arc::new(Mutex::new(Vec::new()));

    let fanout = Arc::clone(&clients);
    thread::spawn(move || {
        let mut lines = BufReader::new(port);
        let mut line = String::new();
        loop {
            line.clear();
            match lines.read_line(&mut line) {
                Ok(0) => thread::sleep(Duration::from_millis(50)),
                Ok(_) => fanout
                    .lock()
                    .unwrap()
                    .retain_mut(|c| c.write_all(line.as_bytes()).is_ok()),
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(e) => panic!("serial read failed: {e}"),
            }
        }
    });

    let listener = TcpListener::bind(("0.0.0.0", env_or("PORT", "{{.PORT}}").parse().unwrap()))?;
    println!("bridging {device} at {baud} baud on {}", listener.local_addr()?);
    for stream in listener.incoming() {
        let stream = stream?;
        clients.lock().unwrap().push(stream.try_clone()?);
        let writer = Arc::clone(&writer);
        thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let mut port = writer.lock().unwrap();
                let _ = port.write_all(format!("{line}\\n").as_bytes());
            }
        });
    }
    Ok(())
}
"""

DOCKERFILE = """\
FROM rust:1.83-slim AS build
RUN apt-get update \\
    && apt-get install -y --no-install-recommends libudev-dev pkg-config \\
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Cargo.toml ./
COPY src/ ./src/
RUN cargo build --release

FROM debian:bookworm-slim
RUN apt-get update \\
    && apt-get install -y --no-install-recommends libudev1 \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/{{.APP_ID}} /usr/local/bin/serial-bridge
ENV SERIAL_DEVICE={{.SERIAL_DEVICE}} \\
    BAUD_RATE={{.BAUD_RATE}} \\
    PORT={{.PORT}}
EXPOSE {{.PORT}}
CMD ["serial-bridge"]
"""

WENDY_JSON = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "debug": false,
  "entitlements": [
    {
      "type": "usb"
    },
    {
      "type": "network"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 20
  }
}
"""

README = """\
# {{.APP_ID}}

Bridges `{{.SERIAL_DEVICE}}` ({{.BAUD_RATE}} baud) to TCP port {{.PORT}}: every
line from the device goes to every connected client, and every line a client
sends goes to the device.

```sh
wendy run
nc <device> {{.PORT}}
```
"""

SERIAL_BRIDGE = TemplateSpec(
    language="rust",
    name="serial-bridge",
    description="Bridge a USB serial device (Arduino, GPS, ...) to TCP clients.",
    shapes=frozenset({SINGLE_CONTAINER, NO_PICKER}),
    files={
        "template.json": manifest(
            "serial-bridge",
            "Bridge a USB serial device (Arduino, GPS, ...) to TCP clients.",
            port_variable(9000, "TCP port clients connect to."),
            {
                "name": "SERIAL_DEVICE",
                "type": "string",
                "description": "The serial device.",
                "default": "/dev/ttyUSB0",
                "validate": {"pattern": "^/dev/tty[A-Za-z0-9]+$"},
            },
            {
                "name": "BAUD_RATE",
                "type": "integer",
                "description": "Baud rate of the device.",
                "default": 115200,
                "validate": {"min": 300, "max": 921600},
            },
        ),
        "Cargo.toml": CARGO,
        "Dockerfile": DOCKERFILE,
        ".dockerignore": "target\n.git\n",
        ".gitignore": "/target\n",
        "README.md": README,
        "src/main.rs": MAIN_RS,
        "wendy.json": WENDY_JSON,
    },
)
