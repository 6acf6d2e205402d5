// swift-tools-version:5.10
// ModalKit: UIKit-style custom modal presentation on Wayland.
//
// Module graph (see docs/design.md, "Module graph"):
//   CWayland/*            system-library module maps (pkg-config) and the wayland-scanner glue
//   CModalKitStyle        the versioned C ABI between the host and style plugins
//   ModalKit              presentation engine, renderer, style protocol, plugin export + loader
//                         (pixman only: no fonts, no PNG)
//   PixmanText            fcft text drawn onto pixman images (title bar and demo share it)
//   WaylandClient         the Wayland client core (no ModalKit types)
//   DesktopSettings       the desktop's settings through the XDG Settings portal (libdbus; no ModalKit)
//   ModalDemoKit          the demo app's library: its scene and look, fonts, PNG, command line
//   modal-demo            window <-> demo scene <-> input (thin main)
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
        // The xdg-shell window core, for apps on ModalKit (Examples/HostApp).
        .library(name: "WaylandClient", targets: ["WaylandClient"]),
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
        // libwebp's animation encoder (libwebpmux) and decoder (libwebpdemux): `modal-demo preview`.
        system("CWebP", pkgConfig: "libwebpmux", apt: ["libwebp-dev"]),
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], path: "CWayland/Protocols"),
        .target(name: "CModalKitStyle", path: "Sources/CModalKitStyle"),
        .target(name: "ModalKit", dependencies: ["CPixman", "CModalKitStyle"]),
        .target(name: "PixmanText", dependencies: ["CPixman", "CFcft"]),
        .target(name: "WaylandClient",
                dependencies: ["CWaylandClient", "CWaylandCursor", "CXkbCommon", "CWaylandProtocols", "CPixman",
                               "PixmanText"]),
        .target(name: "DesktopSettings", dependencies: ["CDBus"]),
        .target(name: "ModalDemoKit", dependencies: ["ModalKit", "PixmanText", "CPixman", "CPng", "CWebP"]),
        .executableTarget(name: "modal-demo",
                          dependencies: ["ModalDemoKit", "ModalKit", "WaylandClient", "DesktopSettings", "CWaylandClient"]),
        // CAllocCounter replaces malloc & co. process-wide: link it into modal-bench only.
        .target(name: "CAllocCounter"),
        .target(name: "ModalBenchSupport"),
        .executableTarget(name: "modal-bench",
                          dependencies: ["ModalDemoKit", "ModalKit", "ModalBenchSupport", "CAllocCounter", "CPixman"]),
        .target(name: "InsetCenteredStyle", dependencies: ["ModalKit"], path: "Plugins/InsetCenteredStyle"),
        .target(name: "BottomSheetStyle", dependencies: ["ModalKit"], path: "Plugins/BottomSheetStyle"),
        .target(name: "AdaptiveStyle", dependencies: ["ModalKit"], path: "Plugins/AdaptiveStyle"),
        .target(name: "PopoverStyle", dependencies: ["ModalKit"], path: "Plugins/PopoverStyle"),
        // The built-in styles' doubles (docs/design.md numbers), adopted in process by both unit-test targets.
        .target(name: "BuiltinStyleDoubles", dependencies: ["ModalKit"], path: "Tests/BuiltinStyleDoubles"),
        // Seeded random sequences for the presentation host and the checks after each step, shared
        // by both unit-test targets (HostFuzzTests, DemoSceneFuzzTests); real built-in styles
        // through the loader.
        .target(name: "HostFuzzSupport", dependencies: ["ModalKit", "CPixman"], path: "Tests/HostFuzzSupport"),
        .testTarget(name: "ModalKitTests", dependencies: ["ModalKit", "BuiltinStyleDoubles", "HostFuzzSupport"]),
        .testTarget(name: "ModalDemoKitTests",
                    dependencies: ["ModalDemoKit", "ModalKit", "BuiltinStyleDoubles", "HostFuzzSupport"]),
        .testTarget(name: "WaylandClientTests", dependencies: ["WaylandClient"]),
        .testTarget(name: "PixmanTextTests", dependencies: ["PixmanText", "CPixman"]),
        .testTarget(name: "ModalBenchTests", dependencies: ["ModalBenchSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ModalKit", "ModalDemoKit", "DesktopSettings", "CWebP"],
                    exclude: ["Fixtures"]),
    ]
)
