// swift-tools-version:5.10
// ModalKit: UIKit-style custom modal presentation on Wayland.
//
// Module graph (see docs/design.md, "Module graph"):
//   CWayland/*            system-library module maps (pkg-config) and the wayland-scanner glue
//   CModalKitStyle        the versioned C ABI between the host and style plugins
//   ModalKit              presentation engine, renderer, style protocol, plugin export + loader
//                         (pixman only: no fonts, no PNG)
//   MonotonicClock        the one clock (CLOCK_MONOTONIC seconds) every module reads
//   PixmanText            fcft text drawn onto pixman images (the title bar, the demo and apps' content)
//   WaylandClient         the Wayland client core (no ModalKit types)
//   DesktopSettings       the desktop's settings through the XDG Settings portal and a session-bus
//                         connection, on WaylandClient's loop (libdbus; no ModalKit)
//   ModalKitATK           a host's accessibility snapshots to screen readers (AT-SPI through ATK), driven
//                         from WaylandClient's loop; loads libModalKitATKBridge.so (CModalKitATK: ATK
//                         objects + at-spi2-atk) with dlopen, so nothing links ATK, GObject or X11 at start-up
//   ModalKitWayland       a window on a presentation host: input with event times, damage, frame
//                         pacing, the sub-surface backend and its fallback, the desktop's reduced
//                         motion, the accessibility bridge, SIGTERM/SIGINT (what an app links)
//   ModalDemoKit          the demo app's library: its scene and look, fonts, PNG, command line
//   modal-demo            the demo's command line on ModalKitWayland (thin main)
//   modal-bench           frame pipeline benchmark
//   Plugins/*             the built-in styles, each a dynamic library loaded only through the loader
import PackageDescription

func system(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "CWayland/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "ModalKit",
    products: [
        .executable(name: "modal-demo", targets: ["modal-demo"]),
        .executable(name: "modal-bench", targets: ["modal-bench"]),
        .library(name: "ModalKit", targets: ["ModalKit"]),
        // What an app links: a window presenting its content with ModalKit (Examples/HostApp).
        .library(name: "ModalKitWayland", targets: ["ModalKitWayland"]),
        // Text for an app's content: fcft glyphs drawn onto pixman images, in buffer pixels.
        .library(name: "PixmanText", targets: ["PixmanText"]),
        // The xdg-shell window core (no ModalKit types), for apps that bind a host themselves.
        .library(name: "WaylandClient", targets: ["WaylandClient"]),
        // Screen readers for apps on ModalKit and WaylandClient (AT-SPI): the Swift side, and the C
        // library it loads at run time (libModalKitATKBridge.so, next to the executable).
        .library(name: "ModalKitATK", targets: ["ModalKitATK"]),
        .library(name: "ModalKitATKBridge", type: .dynamic, targets: ["CModalKitATK"]),
        // Style plugins: file names start with libModalKitStyle so the loader can find them by name.
        .library(name: "ModalKitStyleInsetCentered", type: .dynamic, targets: ["InsetCenteredStyle"]),
        .library(name: "ModalKitStyleBottomSheet", type: .dynamic, targets: ["BottomSheetStyle"]),
        .library(name: "ModalKitStyleAdaptive", type: .dynamic, targets: ["AdaptiveStyle"]),
        .library(name: "ModalKitStylePopover", type: .dynamic, targets: ["PopoverStyle"]),
    ],
    targets: [
        system("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        system("CWaylandCursor", pkgConfig: "wayland-cursor", apt: ["libwayland-dev"]),
        system("CXkbCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        system("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        // fcft without pkg-config: its .pc adds `-DUTF8PROC_EXPORTS`, which SwiftPM refuses with a
        // warning on every build; the header lives in /usr/include and needs only pixman's include
        // path, which every target importing CFcft gets from CPixman.
        .systemLibrary(name: "CFcft", path: "CWayland/CFcft"),
        system("CPng", pkgConfig: "libpng", apt: ["libpng-dev"]),
        system("CDBus", pkgConfig: "dbus-1", apt: ["libdbus-1-dev"]),
        // ATK and the at-spi2-atk bridge: only CModalKitATK (a library loaded at run time) links them.
        system("CATK", pkgConfig: "atk", apt: ["libatk1.0-dev", "libatk-bridge2.0-dev"]),
        // libwebp's animation encoder (libwebpmux) and decoder (libwebpdemux): `modal-demo preview`.
        system("CWebP", pkgConfig: "libwebpmux", apt: ["libwebp-dev"]),
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], path: "CWayland/Protocols"),
        .target(name: "CModalKitStyle", path: "Sources/CModalKitStyle"),
        .target(name: "ModalKit", dependencies: ["CPixman", "CModalKitStyle"]),
        .target(name: "MonotonicClock"),
        .target(name: "PixmanText", dependencies: ["CPixman", "CFcft"]),
        .target(name: "WaylandClient",
                dependencies: ["CWaylandClient", "CWaylandCursor", "CXkbCommon", "CWaylandProtocols", "CPixman",
                               "PixmanText", "MonotonicClock"]),
        // Followed from WaylandClient's one loop (WaylandPollLoop), or any PollLoop.
        .target(name: "DesktopSettings", dependencies: ["CDBus", "WaylandClient"]),
        // The C table between ModalKitATK and libModalKitATKBridge.so (plain C types only).
        .target(name: "CModalKitATKInterface"),
        .target(name: "CModalKitATK", dependencies: ["CATK", "CModalKitATKInterface"],
                linkerSettings: [.linkedLibrary("atk-bridge-2.0")]),
        .target(name: "ModalKitATK", dependencies: ["ModalKit", "WaylandClient", "CModalKitATKInterface", "CDBus",
                                                    "DesktopSettings"]),
        .target(name: "ModalKitWayland",
                dependencies: ["ModalKit", "WaylandClient", "DesktopSettings", "ModalKitATK", "MonotonicClock"]),
        .target(name: "ModalDemoKit", dependencies: ["ModalKit", "PixmanText", "CPixman", "CPng", "CWebP"]),
        .executableTarget(name: "modal-demo", dependencies: ["ModalDemoKit", "ModalKitWayland"]),
        // CAllocCounter replaces malloc & co. process-wide: link it into modal-bench only.
        .target(name: "CAllocCounter"),
        .target(name: "ModalBenchSupport"),
        .executableTarget(name: "modal-bench",
                          dependencies: ["ModalDemoKit", "ModalKit", "ModalKitWayland", "ModalBenchSupport", "CAllocCounter",
                                         "CPixman", "MonotonicClock"]),
        .target(name: "InsetCenteredStyle", dependencies: ["ModalKit"], path: "Plugins/InsetCenteredStyle"),
        .target(name: "BottomSheetStyle", dependencies: ["ModalKit"], path: "Plugins/BottomSheetStyle"),
        .target(name: "AdaptiveStyle", dependencies: ["ModalKit"], path: "Plugins/AdaptiveStyle"),
        .target(name: "PopoverStyle", dependencies: ["ModalKit"], path: "Plugins/PopoverStyle"),
        // The built-in styles' doubles (docs/design.md numbers), adopted in process by both unit-test targets.
        .target(name: "BuiltinStyleDoubles", dependencies: ["ModalKit"], path: "Tests/BuiltinStyleDoubles"),
        .testTarget(name: "ModalKitTests", dependencies: ["ModalKit", "BuiltinStyleDoubles"]),
        .testTarget(name: "ModalDemoKitTests", dependencies: ["ModalDemoKit", "ModalKit", "BuiltinStyleDoubles"]),
        .testTarget(name: "WaylandClientTests", dependencies: ["WaylandClient"]),
        .testTarget(name: "ModalKitWaylandTests", dependencies: ["ModalKitWayland", "ModalKit", "WaylandClient"]),
        .testTarget(name: "ModalKitATKTests", dependencies: ["ModalKitATK", "ModalKit", "CModalKitATKInterface",
                                                          "DesktopSettings"]),
        .testTarget(name: "PixmanTextTests", dependencies: ["PixmanText", "CPixman"]),
        .testTarget(name: "ModalBenchTests", dependencies: ["ModalBenchSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ModalKit", "ModalDemoKit", "DesktopSettings", "CWebP"],
                    exclude: ["Fixtures"]),
    ]
)
