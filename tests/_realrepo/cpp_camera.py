"""cpp/opencv-camera: an OpenCV camera streamer with a binary calibration ``.json``.

The camera vendor's tool saves its calibration as ``calibration/intrinsics.json``
although the file is binary (a header, two integers and fourteen doubles:
NUL bytes, not UTF-8).  ``wendy init`` still renders it through the template
engine because of its extension; it contains no ``{{`` so it comes out
unchanged.  The detector is picked with a radio; C++ code and ``wendy.json``
use Go template conditionals on the answer.
"""

from __future__ import annotations

import struct

from _realrepo.spec import (
    BINARY_JSON,
    CONDITIONALS,
    SINGLE_CONTAINER,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

CALIBRATION_MAGIC = b"WCAL\x00\x02\x00\x00"


def calibration_blob() -> bytes:
    """Camera matrix and distortion of a 1280x720 sensor, as the vendor tool writes them."""
    camera_matrix = (1391.25, 0.0, 640.5, 0.0, 1389.75, 360.25, 0.0, 0.0, 1.0)
    distortion = (-0.1121, 0.0874, 0.0003, -0.0002, 0.0)
    blob = CALIBRATION_MAGIC + struct.pack("<2I9d5d", 1280, 720, *camera_matrix, *distortion)
    assert b"{{" not in blob, "the blob must render unchanged"
    return blob


CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project({{.APP_ID}} LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

find_package(OpenCV REQUIRED COMPONENTS core imgproc imgcodecs videoio objdetect)

add_executable({{.APP_ID}} src/main.cpp src/calibration.cpp)
target_include_directories({{.APP_ID}} PRIVATE src)
target_link_libraries({{.APP_ID}} PRIVATE ${OpenCV_LIBS})
install(TARGETS {{.APP_ID}} RUNTIME DESTINATION bin)
"""

CONFIG_H = """\
#pragma once
// Answers given to `wendy init`.
#define APP_NAME "{{.APP_ID}}"
#define HTTP_PORT {{.PORT}}
#define FRAME_WIDTH {{.FRAME_WIDTH}}
#define FRAME_HEIGHT {{.FRAME_HEIGHT}}
#define CALIBRATION_FILE "/opt/{{.APP_ID}}/calibration/intrinsics.json"
{{- if eq .DETECTOR "haar-faces"}}
#define DETECT_FACES 1
#define FACE_CASCADE "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
{{- else if eq .DETECTOR "motion"}}
#define DETECT_MOTION 1
{{- end}}
"""

CALIBRATION_H = """\
#pragma once
#include <opencv2/core.hpp>
#include <string>

struct Calibration {
    cv::Mat camera_matrix;  // 3x3, CV_64F
    cv::Mat distortion;     // 1x5, CV_64F
};

// Reads the vendor's binary calibration file; returns false when it is absent or corrupt.
bool load_calibration(const std::string& path, Calibration& out);
"""

CALIBRATION_CPP = """\
#include "calibration.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>

bool load_calibration(const std::string& path, Calibration& out) {
    std::ifstream in(path, std::ios::binary);
    std::array<char, 8> magic{};
    if (!in.read(magic.data(), magic.size()) || std::memcmp(magic.data(), "WCAL", 4) != 0) {
        return false;
    }
    std::uint32_t size[2] = {0, 0};
    std::array<double, 14> values{};
    in.read(reinterpret_cast<char*>(size), sizeof size);
    in.read(reinterpret_cast<char*>(values.data()), sizeof(double) * values.size());
    if (!in) {
        return false;
    }
    out.camera_matrix = cv::Mat(3, 3, CV_64F, values.data()).clone();
    out.distortion = cv::Mat(1, 5, CV_64F, values.data() + 9).clone();
    return true;
}
"""

MAIN_CPP = """\
// {{.APP_ID}}: streams the camera as MJPEG on http://<device>:{{.PORT}}/stream.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "calibration.h"
#include "config.h"
#ifdef DETECT_FACES
#include <opencv2/objdetect.hpp>
#endif

static bool send_all(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

static void stream(int client, cv::VideoCapture& camera, const Calibration& cal, bool undistort) {
    const std::string header =
        "HTTP/1.1 200 OK\\r\\nContent-Type: multipart/x-mixed-replace; boundary=frame\\r\\n\\r\\n";
    if (!send_all(client, header.data(), header.size())) return;
#ifdef DETECT_FACES
    cv::CascadeClassifier faces(FACE_CASCADE);
#endif
    cv::Mat frame, shown, previous;
    std::vector<unsigned char> jpeg;
    while (camera.read(frame)) {
        if (undistort) cv::undistort(frame, shown, cal.camera_matrix, cal.distortion);
        else shown = frame;
#ifdef DETECT_FACES
        std::vector<cv::Rect> found;
        faces.detectMultiScale(shown, found, 1.1, 4);
        for (const auto& r : found) cv::rectangle(shown, r, cv::Scalar(80, 220, 100), 2);
#elif defined(DETECT_MOTION)
        cv::Mat grey;
        cv::cvtColor(shown, grey, cv::COLOR_BGR2GRAY);
        if (!previous.empty()) {
            cv::Mat delta;
            cv::absdiff(grey, previous, delta);
            const double moved = cv::mean(delta)[0];
            cv::putText(shown, "motion " + std::to_string(moved), cv::Point(16, 32),
                        cv::FONT_HERSHEY_SIMPLEX, 1.0, cv::Scalar(0, 200, 255), 2);
        }
        previous = grey;
#endif
        cv::imencode(".jpg", shown, jpeg);
        const std::string part = "--frame\\r\\nContent-Type: image/jpeg\\r\\nContent-Length: " +
                                 std::to_string(jpeg.size()) + "\\r\\n\\r\\n";
        if (!send_all(client, part.data(), part.size()) ||
            !send_all(client, jpeg.data(), jpeg.size()) || !send_all(client, "\\r\\n", 2)) {
            return;
        }
    }
}

int main() {
    cv::VideoCapture camera(0, cv::CAP_V4L2);
    camera.set(cv::CAP_PROP_FRAME_WIDTH, FRAME_WIDTH);
    camera.set(cv::CAP_PROP_FRAME_HEIGHT, FRAME_HEIGHT);
    if (!camera.isOpened()) {
        std::fprintf(stderr, "%s: no camera at /dev/video0\\n", APP_NAME);
        return 1;
    }
    Calibration cal;
    const bool undistort = load_calibration(CALIBRATION_FILE, cal);
    std::printf("%s: calibration %s\\n", APP_NAME, undistort ? "loaded" : "not found");

    int server = socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(HTTP_PORT);
    if (bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(server, 4) != 0) {
        std::perror("listen");
        return 1;
    }
    std::printf("%s: streaming on port %d\\n", APP_NAME, HTTP_PORT);
    for (;;) {
        int client = accept(server, nullptr, nullptr);
        if (client < 0) continue;
        stream(client, camera, cal, undistort);
        close(client);
    }
}
"""

DOCKERFILE = """\
FROM ubuntu:24.04 AS build
RUN apt-get update \\
    && apt-get install -y --no-install-recommends build-essential cmake libopencv-dev \\
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY src/ ./src/
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"$(nproc)"

FROM ubuntu:24.04
RUN apt-get update \\
    && apt-get install -y --no-install-recommends \\
       libopencv-core406t64 libopencv-imgproc406t64 libopencv-imgcodecs406t64 \\
       libopencv-videoio406t64 \\
       libopencv-objdetect406t64{{if eq .DETECTOR "haar-faces"}} opencv-data{{end}} \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/{{.APP_ID}} /usr/local/bin/{{.APP_ID}}
COPY calibration/ /opt/{{.APP_ID}}/calibration/
EXPOSE {{.PORT}}
CMD ["/usr/local/bin/{{.APP_ID}}"]
"""

WENDY_JSON = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.4.0",
  "platform": "linux",
  "entitlements": [
    {
      "type": "camera"
    },
    {
      "type": "gpu"
    },
    {
      "type": "network"
    },
    {
      "type": "persist",
      "name": "{{.APP_ID}}-snapshots",
      "path": "/var/lib/{{.APP_ID}}/snapshots"
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
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/stream"
    }
  }
}
"""

README = """\
# {{.APP_ID}}

Streams the device's camera as MJPEG: open `http://<device>:{{.PORT}}/stream`.
{{- if eq .DETECTOR "haar-faces"}}
Faces are outlined (OpenCV's Haar cascade).
{{- else if eq .DETECTOR "motion"}}
Each frame is marked with how much it differs from the previous one.
{{- end}}

`calibration/intrinsics.json` is the camera vendor's calibration (a binary
file, despite its name); frames are undistorted with it when it loads.
Replace it with your own camera's file.
"""

PICKER = {
    "phases": [
        {
            "id": "pipeline",
            "title": "Pipeline",
            "questions": [
                {
                    "id": "DETECTOR",
                    "label": "What should be drawn on the stream?",
                    "type": "radio",
                    "default": "haar-faces",
                    "options": [
                        {"value": "none", "label": "Nothing: the plain stream"},
                        {"value": "haar-faces", "label": "Faces (Haar cascade)"},
                        {"value": "motion", "label": "Motion score"},
                    ],
                }
            ],
        }
    ]
}

OPENCV_CAMERA = TemplateSpec(
    language="cpp",
    name="opencv-camera",
    description="Stream the camera as MJPEG with OpenCV, optionally marking faces or motion.",
    shapes=frozenset({SINGLE_CONTAINER, BINARY_JSON, CONDITIONALS}),
    files={
        "template.json": manifest(
            "opencv-camera",
            "Stream the camera as MJPEG with OpenCV, optionally marking faces or motion.",
            port_variable(8081, "HTTP port of the stream."),
            {
                "name": "FRAME_WIDTH",
                "type": "integer",
                "description": "Requested frame width.",
                "default": 1280,
            },
            {
                "name": "FRAME_HEIGHT",
                "type": "integer",
                "description": "Requested frame height.",
                "default": 720,
            },
        ),
        "template.schema.json": json_text(PICKER),
        "CMakeLists.txt": CMAKE,
        "Dockerfile": DOCKERFILE,
        ".dockerignore": "build/\n.git\n",
        ".gitignore": "build/\n",
        "README.md": README,
        "calibration/intrinsics.json": calibration_blob(),
        "src/config.h": CONFIG_H,
        "src/calibration.h": CALIBRATION_H,
        "src/calibration.cpp": CALIBRATION_CPP,
        "src/main.cpp": MAIN_CPP,
        "wendy.json": WENDY_JSON,
    },
)
