"""The Swift templates: a Hummingbird server and a macOS menu-bar app.

Both are Swift packages whose executable target lives in
``Sources/<template name>/``: ``wendy init`` renames that path component
to the app id, and ``Package.swift`` names the target ``{{.APP_ID}}``.
``wendy.json`` carries ``language``, ``xcode: {scheme}`` and
``run: {args}``.  Neither has a Dockerfile, so ``wendy run`` takes the swift
path (spec: wendy-run.md section 1).  The menu-bar app is for macOS:
``"platform": "darwin"`` (listed with ``targets: ["darwin"]`` in
``meta.json``, an assumption: the spec names only ``wendy-lite`` as a target).
"""

from __future__ import annotations

from _realrepo.spec import (
    DARWIN,
    NO_PICKER,
    PATH_RENAMED,
    SWIFT_PROJECT,
    TemplateSpec,
    json_text,
    manifest,
    port_variable,
)

SWIFT_GITIGNORE = ".build/\n.swiftpm/\nPackages/\n*.xcodeproj\nxcuserdata/\n.DS_Store\n"

# --- swift/simple-api ------------------------------------------------------------------

SERVER_PACKAGE = """\
// swift-tools-version:5.10
import PackageDescription

let package = Package(
    name: "{{.APP_ID}}",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "{{.APP_ID}}",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/{{.APP_ID}}"
        ),
    ]
)
"""

SERVER_APP = """\
import Foundation
import Hummingbird

/// {{.APP_ID}}: a small Hummingbird API. `wendy run` passes the arguments in wendy.json.
@main
struct App {
    static func main() async throws {
        let options = Options(arguments: CommandLine.arguments)
        let router = Router()
        router.get("health") { _, _ in "ok" }
        router.get("api/hello") { request, _ -> String in
            let name = request.uri.queryParameters.get("name") ?? "world"
            return "Hello, \\(name), from {{.APP_ID}}!"
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(options.hostname, port: options.port))
        )
        try await app.runService()
    }
}

/// `--hostname HOST --port PORT`, with the template's defaults.
struct Options {
    var hostname = "0.0.0.0"
    var port = {{.PORT}}

    init(arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            switch flag {
            case "--hostname": hostname = rest.popFirst() ?? hostname
            case "--port": port = rest.popFirst().flatMap(Int.init) ?? port
            default: print("ignoring unknown argument \\(flag)")
            }
        }
    }
}
"""

SERVER_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "linux",
  "language": "swift",
  "xcode": {
    "scheme": "{{.APP_ID}}"
  },
  "run": {
    "args": ["--hostname", "0.0.0.0", "--port", "{{.PORT}}"]
  },
  "entitlements": [
    {
      "type": "network"
    }
  ],
  "readiness": {
    "tcpSocket": {
      "port": {{.PORT}}
    },
    "timeoutSeconds": 300
  },
  "hooks": {
    "postStart": {
      "openURL": "http://${WENDY_HOSTNAME}:{{.PORT}}/api/hello"
    }
  }
}
"""

SWIFT_SIMPLE_API = TemplateSpec(
    language="swift",
    name="simple-api",
    description="A Hummingbird HTTP API in Swift.",
    shapes=frozenset({SWIFT_PROJECT, PATH_RENAMED, NO_PICKER}),
    files={
        "template.json": manifest(
            "simple-api",
            "A Hummingbird HTTP API in Swift.",
            port_variable(8080, "HTTP port of the API."),
        ),
        "Package.swift": SERVER_PACKAGE,
        ".swift-version": "6.0\n",
        ".gitignore": SWIFT_GITIGNORE,
        "README.md": "# {{.APP_ID}}\n\nA [Hummingbird](https://hummingbird.codes) API.\n\n"
        "```sh\nwendy run        # builds with Swift on the device, then starts it\n"
        "curl 'http://<device>:{{.PORT}}/api/hello?name=Wendy'\n```\n\n"
        "Open `Package.swift` in Xcode and run the `{{.APP_ID}}` scheme to debug locally.\n",
        "Sources/simple-api/App.swift": SERVER_APP,
        "wendy.json": SERVER_WENDY,
    },
)

# --- swift/menu-bar (macOS) ------------------------------------------------------------

MENU_PACKAGE = """\
// swift-tools-version:5.10
import PackageDescription

let package = Package(
    name: "{{.APP_ID}}",
    platforms: [.macOS(.v14)],
    targets: [
        .executableTarget(name: "{{.APP_ID}}", path: "Sources/{{.APP_ID}}"),
    ]
)
"""

MENU_APP = """\
import SwiftUI

/// {{.APP_ID}}: shows this Mac's load in the menu bar.
@main
struct MenuBarApp: App {
    @StateObject private var monitor = LoadMonitor(
        interval: Options(arguments: CommandLine.arguments).refreshSeconds
    )

    var body: some Scene {
        MenuBarExtra("{{.APP_ID}}", systemImage: "{{.ICON}}") {
            StatusView(monitor: monitor)
        }
        .menuBarExtraStyle(.window)
    }
}

struct Options {
    var refreshSeconds: TimeInterval = {{.REFRESH_SECONDS}}

    init(arguments: [String]) {
        if let i = arguments.firstIndex(of: "--refresh"), i + 1 < arguments.count,
           let value = TimeInterval(arguments[i + 1]) {
            refreshSeconds = value
        }
    }
}
"""

MENU_STATUS = """\
import Foundation
import SwiftUI

final class LoadMonitor: ObservableObject {
    @Published var load: [Double] = [0, 0, 0]
    private var timer: Timer?

    init(interval: TimeInterval) {
        refresh()
        timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { [weak self] _ in
            self?.refresh()
        }
    }

    func refresh() {
        var values = [Double](repeating: 0, count: 3)
        if getloadavg(&values, 3) == 3 {
            load = values
        }
    }
}

struct StatusView: View {
    @ObservedObject var monitor: LoadMonitor

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(ProcessInfo.processInfo.hostName).font(.headline)
            let rows = Array(zip(["1 min", "5 min", "15 min"], monitor.load))
            ForEach(rows, id: \\.0) { label, value in
                HStack {
                    Text(label)
                    Spacer()
                    Text(String(format: "%.2f", value)).monospacedDigit()
                }
            }
            Divider()
            Button("Quit") { NSApplication.shared.terminate(nil) }
        }
        .padding()
        .frame(width: 220)
    }
}
"""

MENU_WENDY = """\
{
  "appId": "{{.APP_ID}}",
  "version": "0.1.0",
  "platform": "darwin",
  "language": "swift",
  "xcode": {
    "scheme": "{{.APP_ID}}"
  },
  "run": {
    "args": ["--refresh", "{{.REFRESH_SECONDS}}"]
  }
}
"""

MENU_PICKER = {
    "phases": [
        {
            "id": "appearance",
            "title": "Appearance",
            "questions": [
                {
                    "id": "ICON",
                    "label": "Menu bar icon (an SF Symbol)",
                    "type": "radio",
                    "default": "gauge.with.dots.needle.33percent",
                    "options": [
                        {"value": "gauge.with.dots.needle.33percent", "label": "Gauge"},
                        {"value": "cpu", "label": "Processor"},
                        {"value": "waveform.path.ecg", "label": "Heartbeat"},
                    ],
                }
            ],
        }
    ]
}

MENU_BAR = TemplateSpec(
    language="swift",
    name="menu-bar",
    description="A macOS menu-bar app showing the Mac's load (SwiftUI).",
    shapes=frozenset({SWIFT_PROJECT, DARWIN, PATH_RENAMED}),
    targets=("darwin",),
    files={
        "template.json": manifest(
            "menu-bar",
            "A macOS menu-bar app showing the Mac's load (SwiftUI).",
            {
                "name": "REFRESH_SECONDS",
                "type": "integer",
                "description": "Seconds between two refreshes.",
                "default": 5,
                "validate": {"min": 1, "max": 600},
            },
        ),
        "template.schema.json": json_text(MENU_PICKER),
        "Package.swift": MENU_PACKAGE,
        ".gitignore": SWIFT_GITIGNORE,
        "README.md": "# {{.APP_ID}}\n\nA menu-bar app for macOS. `wendy run` builds and starts "
        "it on this Mac; or open `Package.swift` in Xcode and run the `{{.APP_ID}}` scheme.\n",
        "Sources/menu-bar/MenuBarApp.swift": MENU_APP,
        "Sources/menu-bar/StatusView.swift": MENU_STATUS,
        "wendy.json": MENU_WENDY,
    },
)
