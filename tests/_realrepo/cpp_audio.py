"""cpp/audio-monitor: an ALSA sound-level monitor (audio entitlement).

A boolean variable (``RECORD_CLIPS``, default ``false``) switches clip
recording on; ``wendy.json`` then adds a persist entitlement through a Go
template conditional, keeping the JSON valid either way.  The entrypoint
script is made executable in the Dockerfile (``wendy init`` writes 0644).
"""

from __future__ import annotations

from _realrepo.spec import (
    CONDITIONALS,
    NO_PICKER,
    SINGLE_CONTAINER,
    TemplateSpec,
    manifest,
    port_variable,
)

CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project({{.APP_ID}} LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
find_package(ALSA REQUIRED)
find_package(Threads REQUIRED)

add_executable(audio-monitor src/main.cpp)
target_compile_definitions(audio-monitor PRIVATE
  HTTP_PORT={{.PORT}}
  SAMPLE_RATE={{.SAMPLE_RATE}}
  THRESHOLD_DB={{.THRESHOLD_DB}}
{{- if .RECORD_CLIPS}}
  RECORD_CLIPS=1
{{- end}}
)
target_link_libraries(audio-monitor PRIVATE ALSA::ALSA Threads::Threads)
"""

MAIN_CPP = """\
// {{.APP_ID}}: measures the sound level and serves it as JSON on port {{.PORT}}.
#include <alsa/asoundlib.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

static std::atomic<double> level_db(-120.0);

static void capture(const char* device) {
    snd_pcm_t* pcm = nullptr;
    if (snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0) < 0 ||
        snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
                           SAMPLE_RATE, 1, 500000) < 0) {
        std::fprintf(stderr, "cannot open capture device %s\\n", device);
        std::exit(1);
    }
    std::vector<short> buffer(SAMPLE_RATE / 10);
    for (;;) {
        snd_pcm_sframes_t n = snd_pcm_readi(pcm, buffer.data(), buffer.size());
        if (n < 0) {
            snd_pcm_recover(pcm, static_cast<int>(n), 1);
            continue;
        }
        double sum = 0;
        for (snd_pcm_sframes_t i = 0; i < n; ++i) sum += double(buffer[i]) * buffer[i];
        const double rms = std::sqrt(sum / std::max<snd_pcm_sframes_t>(n, 1)) / 32768.0;
        level_db = 20.0 * std::log10(std::max(rms, 1e-6));
#ifdef RECORD_CLIPS
        if (level_db > THRESHOLD_DB) {
            // Loud: append the raw samples to the clip of the current minute.
            const std::string path = "/recordings/" + std::to_string(time(nullptr) / 60) + ".raw";
            if (FILE* f = std::fopen(path.c_str(), "ab")) {
                std::fwrite(buffer.data(), sizeof(short), n, f);
                std::fclose(f);
            }
        }
#endif
    }
}

int main() {
    const char* device = std::getenv("ALSA_DEVICE") ? std::getenv("ALSA_DEVICE") : "default";
    std::thread(capture, device).detach();
    int server = socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(HTTP_PORT);
    if (bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(server, 8)) {
        std::perror("listen");
        return 1;
    }
    for (;;) {
        int client = accept(server, nullptr, nullptr);
        if (client < 0) continue;
        char body[96];
        const int len = std::snprintf(body, sizeof body, "{\\"level_db\\": %.1f, \\"loud\\": %s}",
                                      level_db.load(), level_db > THRESHOLD_DB ? "true" : "false");
        const std::string reply = "HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\n"
                                  "Content-Length: " + std::to_string(len) + "\\r\\n\\r\\n" + body;
        send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
        close(client);
    }
}
"""

ENTRYPOINT = """\
#!/usr/bin/env bash
# Picks the first capture card when ALSA_DEVICE is not set: devices differ in
# which card number the USB microphone gets.
set -euo pipefail

if [[ -z "${ALSA_DEVICE:-}" ]]; then
  card="$(arecord -l 2>/dev/null | sed -n 's/^card \\([0-9]*\\):.*/\\1/p' | head -n 1)"
  if [[ -n "$card" ]]; then
    export ALSA_DEVICE="plughw:${card},0"
  else
    echo "no capture card found; using ALSA's default device" >&2
  fi
fi
{{- if .RECORD_CLIPS}}

mkdir -p /recordings
{{- end}}

exec /usr/local/bin/audio-monitor "$@"
"""

DOCKERFILE = """\
FROM debian:bookworm-slim AS build
RUN apt-get update \\
    && apt-get install -y --no-install-recommends g++ cmake make libasound2-dev \\
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY src/ ./src/
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build

FROM debian:bookworm-slim
RUN apt-get update \\
    && apt-get install -y --no-install-recommends libasound2 alsa-utils \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/audio-monitor /usr/local/bin/audio-monitor
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
RUN chmod +x /usr/local/bin/entrypoint.sh
EXPOSE {{.PORT}}
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
"""

WENDY_JSON = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "audio"
    },
    {
      "type": "network"
    }
{{- if .RECORD_CLIPS}},
    {
      "type": "persist",
      "name": "{{.APP_ID}}-recordings",
      "path": "/recordings"
    }
{{- end}}
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    }
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/"
    }
  }
}
"""

README = """\
# {{.APP_ID}}

Measures the sound level ({{.SAMPLE_RATE}} Hz, mono) and serves it as JSON:
`curl http://<device>:{{.PORT}}/` gives `{"level_db": -42.0, "loud": false}`.
Anything above {{.THRESHOLD_DB}} dB counts as loud.
{{- if .RECORD_CLIPS}}

Loud moments are recorded as raw 16-bit samples in `/recordings` (the
`{{.APP_ID}}-recordings` volume), one file per minute.
{{- end}}
"""

AUDIO_MONITOR = TemplateSpec(
    language="cpp",
    name="audio-monitor",
    description="Measure the sound level with ALSA; optionally record loud moments.",
    shapes=frozenset({SINGLE_CONTAINER, NO_PICKER, CONDITIONALS}),
    files={
        "template.json": manifest(
            "audio-monitor",
            "Measure the sound level with ALSA; optionally record loud moments.",
            port_variable(8090, "HTTP port of the level endpoint."),
            {
                "name": "SAMPLE_RATE",
                "type": "integer",
                "description": "Capture rate in Hz.",
                "default": 48000,
                "validate": {"min": 8000, "max": 192000},
            },
            {
                "name": "THRESHOLD_DB",
                "type": "integer",
                "description": "Level (dBFS) above which a moment counts as loud.",
                "default": -30,
                "validate": {"min": -90, "max": 0},
            },
            {
                "name": "RECORD_CLIPS",
                "type": "boolean",
                "description": "Record loud moments to a persistent volume.",
                "default": False,
            },
        ),
        "CMakeLists.txt": CMAKE,
        "Dockerfile": DOCKERFILE,
        ".dockerignore": "build/\n.git\n",
        "README.md": README,
        "entrypoint.sh": ENTRYPOINT,
        "src/main.cpp": MAIN_CPP,
        "wendy.json": WENDY_JSON,
    },
)
