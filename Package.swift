// swift-tools-version:5.10
// ModalKit: UIKit-style custom modal presentation on Wayland.
//
// Module graph (see docs/design.md, "Module graph"):
//   CWayland/*            system-library module maps (pkg-config) and the wayland-scanner glue
//   CModalKitStyle        the versioned C ABI between the host and style plugins
//   SystemSupport         Glibc-only stand-ins for Foundation (locks, environment, paths, files,
//                         printf formatting): nothing modal-demo or a style plugin loads links
//                         Foundation (docs/design.md, start-up and footprint)
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
//   Plugins/<Name>Style   the built-in styles: each a plain library target (its style type, which
//                         tests link) and, in Entry/, the entry target its dynamic library is made of
//   ModalKitNoteTool      the note generator's work (StyleNoteTool), for every style package's build step
//   modalkit-style-note   the build-time note generator: runs the styles' declarations and writes
//                         each library's ELF note source (docs/design.md, plugin metadata and trust)
//   BuildPlugins/StyleNotePlugin  the SwiftPM build-tool plugin that runs it for each entry target
//                         (not in Plugins/, SwiftPM's default plugin folder, which holds the styles)
import PackageDescription

func system(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "CWayland/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// The run-time modules (what modal-demo and a style plugin load) use neither Swift concurrency nor
/// regular expressions: without the compiler's implicit imports of `_Concurrency` and
/// `_StringProcessing`, nothing links them, libdispatch or BlocksRuntime, so the dynamic linker
/// maps five libraries fewer at every start (docs/design.md, start-up and footprint).
let runtime: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import",
                                             "-Xfrontend", "-disable-implicit-string-processing-module-import"])]

/// A built-in style's own target: `Plugins/<name>Style`, its entry in `Entry/` excluded.
func style(_ name: String) -> Target {
    .target(name: "\(name)Style", dependencies: ["ModalKit"], path: "Plugins/\(name)Style", exclude: ["Entry"],
            swiftSettings: runtime)
}

/// A built-in style's entry target (`Plugins/<name>Style/Entry`): the `modalkit_style_entry` function and,
/// generated at build time by StyleNotePlugin, the library's note.
func entry(_ name: String) -> Target {
    .target(name: "\(name)StyleEntry", dependencies: ["ModalKit", .target(name: "\(name)Style")],
            path: "Plugins/\(name)Style/Entry", swiftSettings: runtime, plugins: ["StyleNotePlugin"])
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
        // The note generator's work, for style packages' build step (`StyleNoteTool.main`).
        .library(name: "ModalKitNoteTool", targets: ["ModalKitNoteTool"]),
        // The xdg-shell window core (no ModalKit types), for apps that bind a host themselves.
        .library(name: "WaylandClient", targets: ["WaylandClient"]),
        // Screen readers for apps on ModalKit and WaylandClient (AT-SPI): the Swift side, and the C
        // library it loads at run time (libModalKitATKBridge.so, next to the executable).
        .library(name: "ModalKitATK", targets: ["ModalKitATK"]),
        .library(name: "ModalKitATKBridge", type: .dynamic, targets: ["CModalKitATK"]),
        // Style plugins: file names start with libModalKitStyle so the loader can find them by name.
        .library(name: "ModalKitStyleInsetCentered", type: .dynamic, targets: ["InsetCenteredStyleEntry"]),
        .library(name: "ModalKitStyleBottomSheet", type: .dynamic, targets: ["BottomSheetStyleEntry"]),
        .library(name: "ModalKitStyleAdaptive", type: .dynamic, targets: ["AdaptiveStyleEntry"]),
        .library(name: "ModalKitStylePopover", type: .dynamic, targets: ["PopoverStyleEntry"]),
        .library(name: "ModalKitStyleAlert", type: .dynamic, targets: ["AlertStyleEntry"]),
    ],
    targets: [
        system("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        system("CWaylandCursor", pkgConfig: "wayland-cursor", apt: ["libwayland-dev"]),
        system("CXkbCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        system("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        // fcft through dlopen at the first font (its header for the types and a dlsym table):
        // nothing links libfcft and its chain of ten libraries. Its header lives in /usr/include
        // and needs only pixman's include path, from CPixman (fcft's .pc is not used: it adds
        // `-DUTF8PROC_EXPORTS`, which SwiftPM refuses with a warning on every build).
        .target(name: "CFcftDynamic", dependencies: ["CPixman"], path: "Sources/CFcftDynamic"),
        system("CPng", pkgConfig: "libpng", apt: ["libpng-dev"]),
        // libdbus through dlopen at the first bus connection (its declarations and a dlsym table):
        // nothing links libdbus-1 and its chain of seven libraries.
        .target(name: "CDBusDynamic", path: "Sources/CDBusDynamic"),
        // ATK and the at-spi2-atk bridge: only CModalKitATK (a library loaded at run time) links them.
        system("CATK", pkgConfig: "atk", apt: ["libatk1.0-dev", "libatk-bridge2.0-dev"]),
        // libwebp's animation encoder (libwebpmux) and decoder (libwebpdemux): `modal-demo preview`.
        system("CWebP", pkgConfig: "libwebpmux", apt: ["libwebp-dev"]),
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"], path: "CWayland/Protocols"),
        .target(name: "CModalKitStyle", path: "Sources/CModalKitStyle"),
        // Glibc-only stand-ins for the bits of Foundation the run-time modules need (`package` access).
        .target(name: "SystemSupport", swiftSettings: runtime),
        .target(name: "ModalKit", dependencies: ["CPixman", "CModalKitStyle", "SystemSupport"], swiftSettings: runtime),
        .target(name: "ModalKitNoteTool", dependencies: ["ModalKit"]),
        .target(name: "MonotonicClock", swiftSettings: runtime),
        .target(name: "PixmanText", dependencies: ["CPixman", "CFcftDynamic"], swiftSettings: runtime),
        .target(name: "WaylandClient",
                dependencies: ["CWaylandClient", "CWaylandCursor", "CXkbCommon", "CWaylandProtocols", "CPixman",
                               "PixmanText", "MonotonicClock", "SystemSupport"],
                swiftSettings: runtime),
        // Followed from WaylandClient's one loop (WaylandPollLoop), or any PollLoop.
        .target(name: "DesktopSettings", dependencies: ["CDBusDynamic", "WaylandClient"], swiftSettings: runtime),
        // The C table between ModalKitATK and libModalKitATKBridge.so (plain C types only).
        .target(name: "CModalKitATKInterface"),
        .target(name: "CModalKitATK", dependencies: ["CATK", "CModalKitATKInterface"],
                linkerSettings: [.linkedLibrary("atk-bridge-2.0")]),
        .target(name: "ModalKitATK", dependencies: ["ModalKit", "WaylandClient", "CModalKitATKInterface",
                                                    "DesktopSettings", "SystemSupport"],
                swiftSettings: runtime),
        .target(name: "ModalKitWayland",
                dependencies: ["ModalKit", "WaylandClient", "DesktopSettings", "ModalKitATK", "MonotonicClock",
                               "SystemSupport"],
                swiftSettings: runtime),
        .target(name: "ModalDemoKit", dependencies: ["ModalKit", "PixmanText", "CPixman", "CPng", "CWebP", "SystemSupport"],
                swiftSettings: runtime),
        .executableTarget(name: "modal-demo", dependencies: ["ModalDemoKit", "ModalKitWayland", "SystemSupport"],
                          swiftSettings: runtime),
        // CAllocCounter replaces malloc & co. process-wide: link it into modal-bench only.
        .target(name: "CAllocCounter"),
        .target(name: "ModalBenchSupport"),
        .executableTarget(name: "modal-bench",
                          dependencies: ["ModalDemoKit", "ModalKit", "ModalKitWayland", "ModalBenchSupport", "CAllocCounter",
                                         "CPixman", "MonotonicClock", "PixmanText"]),
        // The built-in styles: each a plain target (tests link the style type) and an entry target,
        // the one its dynamic library is made of, which gets the generated note.
        style("InsetCentered"), entry("InsetCentered"),
        style("BottomSheet"), entry("BottomSheet"),
        style("Adaptive"), entry("Adaptive"),
        style("Popover"), entry("Popover"),
        style("Alert"), entry("Alert"),
        .executableTarget(name: "modalkit-style-note",
                          dependencies: ["ModalKitNoteTool", "InsetCenteredStyle", "BottomSheetStyle", "AdaptiveStyle", "PopoverStyle",
                                         "AlertStyle"]),
        .plugin(name: "StyleNotePlugin", capability: .buildTool(), dependencies: ["modalkit-style-note"],
                path: "BuildPlugins/StyleNotePlugin"),
        // Seeded random sequences for the presentation host and the checks after each step, shared
        // by both unit-test targets (HostFuzzTests, DemoSceneFuzzTests), on the real built-in styles.
        .target(name: "HostFuzzSupport",
                dependencies: ["ModalKit", "CPixman", "InsetCenteredStyle", "BottomSheetStyle", "AdaptiveStyle", "PopoverStyle",
                               "AlertStyle"],
                path: "Tests/HostFuzzSupport"),
        .testTarget(name: "ModalKitTests",
                    dependencies: ["ModalKit", "InsetCenteredStyle", "BottomSheetStyle", "AdaptiveStyle", "HostFuzzSupport"],
                    swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "ModalDemoKitTests",
                    dependencies: ["ModalDemoKit", "ModalKit", "InsetCenteredStyle", "BottomSheetStyle", "AdaptiveStyle",
                                   "HostFuzzSupport"]),
        .testTarget(name: "WaylandClientTests", dependencies: ["WaylandClient"]),
        .testTarget(name: "ModalKitWaylandTests", dependencies: ["ModalKitWayland", "ModalKit", "WaylandClient"]),
        .testTarget(name: "ModalKitATKTests", dependencies: ["ModalKitATK", "ModalKit", "CModalKitATKInterface",
                                                          "DesktopSettings", "CDBusDynamic"]),
        .testTarget(name: "PixmanTextTests", dependencies: ["PixmanText", "CPixman"]),
        .testTarget(name: "ModalBenchTests", dependencies: ["ModalBenchSupport"]),
        // End-to-end tests: what users install (scripts/install's prefix, MODALKIT_TEST_PREFIX), never
        // the build next to the test binary. The harness (child processes, private headless
        // compositors and session buses, screenshots, the installed products) is a library of its
        // own; the tests are grouped so that `swift test --filter` picks a group: CommandTests runs
        // the binaries without a compositor, Live<Compositor>Tests under one compositor each
        // (`--filter '^Live'` all of them), LiveSessionBusTests on a private D-Bus session
        // (portal settings, screen readers), LiveHarnessTests checks the harness itself. The
        // harness is optimised even in the debug test build: it compares megapixel screenshots
        // pixel by pixel, which unoptimised took most of the suite's CPU.
        .target(name: "EndToEndHarness", dependencies: ["ModalKit", "CPng"], path: "Tests/EndToEndHarness", exclude: ["Fixtures"],
                swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "CommandTests", dependencies: ["EndToEndHarness", "ModalKit", "ModalDemoKit", "CWebP"]),
        .testTarget(name: "LiveSwayTests", dependencies: ["EndToEndHarness", "ModalKit"],
                    path: "Tests/LiveTests/Sway"),
        .testTarget(name: "LiveWestonTests", dependencies: ["EndToEndHarness"], path: "Tests/LiveTests/Weston"),
        .testTarget(name: "LiveMutterTests", dependencies: ["EndToEndHarness"], path: "Tests/LiveTests/Mutter"),
        .testTarget(name: "LiveKWinTests", dependencies: ["EndToEndHarness"], path: "Tests/LiveTests/KWin"),
        .testTarget(name: "LiveSessionBusTests", dependencies: ["EndToEndHarness", "DesktopSettings"],
                    path: "Tests/LiveTests/SessionBus"),
        .testTarget(name: "LiveHarnessTests", dependencies: ["EndToEndHarness"], path: "Tests/LiveTests/Harness"),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
    ]
)
