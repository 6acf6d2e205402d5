// swift-tools-version:6.2
// ModalKit: UIKit-style custom modal presentation on Wayland.
//
// What each target is and what it depends on: docs/design.md, "Module graph" (the one place).
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
    .target(name: "ModalKit\(name)Style", dependencies: ["ModalKitStyle"], path: "Plugins/\(name)Style", exclude: ["Entry"],
            swiftSettings: runtime)
}

/// A built-in style's entry target (`Plugins/<name>Style/Entry`): the `modalkit_style_entry` function and,
/// generated at build time by ModalKitStyleNotePlugin, the library's note.
func entry(_ name: String) -> Target {
    .target(name: "ModalKit\(name)StyleEntry", dependencies: ["ModalKitStyle", .target(name: "ModalKit\(name)Style")],
            path: "Plugins/\(name)Style/Entry", swiftSettings: runtime, plugins: ["ModalKitStyleNotePlugin"])
}

let package = Package(
    name: "ModalKit",
    products: [
        .executable(name: "modal-demo", targets: ["modal-demo"]),
        .executable(name: "modal-bench", targets: ["modal-bench"]),
        .executable(name: "modalkit-session", targets: ["modalkit-session"]),
        // A private headless Wayland session with real input, for an app's own end-to-end tests.
        .library(name: "ModalKitSession", targets: ["ModalKitSession"]),
        .library(name: "ModalKit", targets: ["ModalKit"]),
        // What a style package links: the style hooks and the export to the C style ABI, nothing of the host.
        .library(name: "ModalKitStyle", targets: ["ModalKitStyle"]),
        // The host's style loader (search path, listing, trust rules), for apps that list or load styles themselves.
        .library(name: "ModalKitPlugins", targets: ["ModalKitPlugins"]),
        // What an app links: a window presenting its content with ModalKit (Examples/HostApp).
        .library(name: "ModalKitWayland", targets: ["ModalKitWayland"]),
        // Text for an app's content: fcft glyphs drawn onto pixman images, in buffer pixels.
        .library(name: "ModalKitText", targets: ["ModalKitText"]),
        // Ready-made content drawn with ModalKitText: Alert, ActionSheet, List and their pieces (Label,
        // Button, VStack); ModalKitContentConcurrency adds `choose() async` (it links Swift concurrency).
        .library(name: "ModalKitContent", targets: ["ModalKitContent", "ModalKitContentConcurrency"]),
        // The build step that gives a style package's library its note: a style target names it in
        // `plugins:` (docs/design.md, "The note of a style package"; Examples/CustomStyle).
        .plugin(name: "ModalKitStyleNote", targets: ["ModalKitStyleNote"]),
        // The note generator's work (`StyleNoteTool.main`), for style packages made before ModalKitStyleNote.
        .library(name: "ModalKitNoteTool", targets: ["ModalKitNoteTool"]),
        // The xdg-shell window core (no ModalKit types, no fonts), for apps that bind a host themselves.
        .library(name: "ModalKitWaylandClient", targets: ["ModalKitWaylandClient"]),
        // Client-side decorations for such a window (title bar, resize borders; text through
        // ModalKitText): `WindowOptions.clientSideDecorations = .standard`.
        .library(name: "ModalKitWaylandDecorations", targets: ["ModalKitWaylandDecorations"]),
        // Screen readers for apps on ModalKit and ModalKitWaylandClient (AT-SPI): the Swift side, and the C
        // library it loads at run time (libModalKitATKBridge.so, next to the executable).
        .library(name: "ModalKitATK", targets: ["ModalKitATK"]),
        .library(name: "ModalKitATKBridge", type: .dynamic, targets: ["CModalKitATK"]),
        // Style plugins: file names start with libModalKitStyle so the loader can find them by name.
        .library(name: "ModalKitStyleInsetCentered", type: .dynamic, targets: ["ModalKitInsetCenteredStyleEntry"]),
        .library(name: "ModalKitStyleBottomSheet", type: .dynamic, targets: ["ModalKitBottomSheetStyleEntry"]),
        .library(name: "ModalKitStyleAdaptive", type: .dynamic, targets: ["ModalKitAdaptiveStyleEntry"]),
        .library(name: "ModalKitStylePopover", type: .dynamic, targets: ["ModalKitPopoverStyleEntry"]),
        .library(name: "ModalKitStyleAlert", type: .dynamic, targets: ["ModalKitAlertStyleEntry"]),
    ],
    targets: [
        system("CModalKitWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        system("CModalKitWaylandCursor", pkgConfig: "wayland-cursor", apt: ["libwayland-dev"]),
        system("CModalKitXkbCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        system("CModalKitPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        // fcft through dlopen at the first font (its header for the types and a dlsym table):
        // nothing links libfcft and its chain of ten libraries. Its header lives in /usr/include
        // and needs only pixman's include path, from CModalKitPixman (fcft's .pc is not used: it adds
        // `-DUTF8PROC_EXPORTS`, which SwiftPM refuses with a warning on every build).
        .target(name: "CModalKitFcft", dependencies: ["CModalKitPixman"], path: "Sources/CModalKitFcft"),
        // libpng through dlopen at the first PNG written or read (its header for the types, wrappers
        // calling through a dlsym table): `--version` and a window's start-up before its first font
        // map neither libpng16 nor zlib (FreeType, loaded with fcft, brings both later). The header
        // comes from /usr/include (Debian: libpng-dev).
        .target(name: "CModalKitPng", path: "Sources/CModalKitPng"),
        // libdbus through dlopen at the first bus connection (its declarations and a dlsym table):
        // nothing links libdbus-1 and its chain of seven libraries.
        .target(name: "CModalKitDBus", path: "Sources/CModalKitDBus"),
        // ATK and the at-spi2-atk bridge: only CModalKitATK (a library loaded at run time) links them.
        system("CModalKitATKSystem", pkgConfig: "atk", apt: ["libatk1.0-dev", "libatk-bridge2.0-dev"]),
        // libwebp's animation encoder (libwebpmux) and decoder (libwebpdemux) through dlopen when
        // `modal-demo preview` first encodes (its headers for the types and a dlsym table): a window
        // maps none of the three libraries. The headers come from /usr/include (Debian: libwebp-dev).
        .target(name: "CModalKitWebP", path: "Sources/CModalKitWebP"),
        // The glue scripts/generate-protocols makes; the XML vendored beside it is its source only.
        .target(name: "CModalKitWaylandProtocols", dependencies: ["CModalKitWaylandClient"], path: "CWayland/Protocols",
                exclude: ["input-method-unstable-v2.xml", "wlr"]),
        .target(name: "CModalKitStyle", path: "Sources/CModalKitStyle"),
        // Glibc-only stand-ins for the bits of Foundation the run-time modules need (`package` access).
        .target(name: "ModalKitSystemSupport", swiftSettings: runtime),
        // Geometry and colour in both spaces (docs/design.md, module graph): `Point`, `Size`, `Rect` in
        // points, `PixelRect` in buffer pixels, `Color`; re-exported by ModalKitStyle, ModalKitText and
        // ModalKitWaylandClient, so each of their public signatures uses types its importer sees.
        .target(name: "ModalKitGeometry", swiftSettings: runtime),
        // What a style links (docs/design.md, module graph): its hooks and their contexts, geometry, options
        // and declarations, chrome, timing, and the export to the C style ABI. No loader.
        .target(name: "ModalKitStyle", dependencies: ["ModalKitGeometry", "CModalKitStyle", "ModalKitSystemSupport"], swiftSettings: runtime),
        // The presentation host, controllers and renderer, over ModalKitStyle (which it re-exports).
        .target(name: "ModalKit", dependencies: ["ModalKitStyle", "CModalKitPixman", "ModalKitSystemSupport"], swiftSettings: runtime),
        // The host's side of the style ABI: loader, ELF and note reader, trust rules, listing.
        .target(name: "ModalKitPlugins", dependencies: ["ModalKitStyle", "CModalKitStyle", "ModalKitSystemSupport"],
                swiftSettings: runtime),
        .target(name: "ModalKitNoteTool", dependencies: ["ModalKitPlugins"]),
        .target(name: "ModalKitClock", swiftSettings: runtime),
        .target(name: "ModalKitText", dependencies: ["ModalKitGeometry", "CModalKitPixman", "CModalKitFcft"], swiftSettings: runtime),
        .target(name: "ModalKitContent", dependencies: ["ModalKit", "ModalKitText", "CModalKitPixman", "ModalKitClock"], swiftSettings: runtime),
        // Not a run-time module: it imports Swift concurrency (for apps; modal-demo does not link it).
        .target(name: "ModalKitContentConcurrency", dependencies: ["ModalKitContent", "ModalKit"]),
        .target(name: "ModalKitWaylandClient",
                dependencies: ["CModalKitWaylandClient", "CModalKitWaylandCursor", "CModalKitXkbCommon", "CModalKitWaylandProtocols", "CModalKitPixman",
                               "ModalKitGeometry", "ModalKitClock", "ModalKitSystemSupport"],
                swiftSettings: runtime),
        // The title bar and resize borders over the core's `package` API; the only Wayland module with fonts.
        .target(name: "ModalKitWaylandDecorations",
                dependencies: ["ModalKitWaylandClient", "ModalKitText", "CModalKitPixman"], swiftSettings: runtime),
        // Followed from ModalKitWaylandClient's one loop (WaylandPollLoop), or any PollLoop.
        .target(name: "ModalKitDesktopSettings", dependencies: ["CModalKitDBus", "ModalKitWaylandClient"], swiftSettings: runtime),
        // The C table between ModalKitATK and libModalKitATKBridge.so (plain C types only).
        .target(name: "CModalKitATKInterface"),
        .target(name: "CModalKitATK", dependencies: ["CModalKitATKSystem", "CModalKitATKInterface"],
                linkerSettings: [.linkedLibrary("atk-bridge-2.0")]),
        .target(name: "ModalKitATK", dependencies: ["ModalKit", "ModalKitWaylandClient", "CModalKitATKInterface",
                                                    "ModalKitDesktopSettings", "ModalKitSystemSupport"],
                swiftSettings: runtime),
        .target(name: "ModalKitWayland",
                dependencies: ["ModalKit", "ModalKitPlugins", "ModalKitWaylandClient", "ModalKitWaylandDecorations", "ModalKitDesktopSettings",
                               "ModalKitATK", "ModalKitClock", "ModalKitSystemSupport"],
                swiftSettings: runtime),
        // The command-line table, its scanner and help layout that modal-demo, modal-bench and
        // modalkit-session share (the standard library only: nothing of Wayland or Foundation).
        .target(name: "ModalKitCommandLine", swiftSettings: runtime),
        .target(name: "ModalKitDemo", dependencies: ["ModalKitCommandLine", "ModalKit", "ModalKitPlugins", "ModalKitText", "ModalKitContent", "CModalKitPixman", "CModalKitPng", "CModalKitWebP", "ModalKitSystemSupport"],
                swiftSettings: runtime),
        // What `modal-demo new-style` writes: a style package of one target.
        .target(name: "ModalKitStyleTemplate", dependencies: ["ModalKitDemo", "ModalKitSystemSupport"], swiftSettings: runtime),
        .executableTarget(name: "modal-demo", dependencies: ["ModalKitDemo", "ModalKitStyleTemplate", "ModalKitWayland", "ModalKitSystemSupport"],
                          swiftSettings: runtime),
        // CModalKitAllocCounter replaces malloc & co. process-wide: link it into modal-bench only.
        .target(name: "CModalKitAllocCounter"),
        .target(name: "ModalKitBenchSupport", dependencies: ["ModalKitCommandLine"]),
        .executableTarget(name: "modal-bench",
                          dependencies: ["ModalKitDemo", "ModalKit", "ModalKitPlugins", "ModalKitWayland", "ModalKitBenchSupport", "CModalKitAllocCounter",
                                         "CModalKitPixman", "ModalKitClock", "ModalKitText", "ModalKitSession"]),
        // The built-in styles: each a plain target (tests link the style type) and an entry target,
        // the one its dynamic library is made of, which gets the generated note.
        style("InsetCentered"), entry("InsetCentered"),
        style("BottomSheet"), entry("BottomSheet"),
        style("Adaptive"), entry("Adaptive"),
        style("Popover"), entry("Popover"),
        style("Alert"), entry("Alert"),
        .executableTarget(name: "modalkit-style-note",
                          dependencies: ["ModalKitNoteTool", "ModalKitInsetCenteredStyle", "ModalKitBottomSheetStyle", "ModalKitAdaptiveStyle", "ModalKitPopoverStyle",
                                         "ModalKitAlertStyle"]),
        .plugin(name: "ModalKitStyleNotePlugin", capability: .buildTool(), dependencies: ["modalkit-style-note"],
                path: "BuildPlugins/ModalKitStyleNotePlugin"),
        // A style package's note step: compiles the style target on the side, loads it and writes its note.
        .executableTarget(name: "modalkit-style-note-builder", dependencies: ["ModalKitNoteTool"]),
        .plugin(name: "ModalKitStyleNote", capability: .buildTool(), dependencies: ["modalkit-style-note-builder"],
                path: "BuildPlugins/ModalKitStyleNote"),
        // Seeded random sequences for the presentation host and the checks after each step, shared
        // by both unit-test targets (HostFuzzTests, DemoSceneFuzzTests), on the real built-in styles.
        .target(name: "ModalKitHostFuzzSupport",
                dependencies: ["ModalKit", "CModalKitPixman", "ModalKitInsetCenteredStyle", "ModalKitBottomSheetStyle", "ModalKitAdaptiveStyle", "ModalKitPopoverStyle",
                               "ModalKitAlertStyle"],
                path: "Tests/ModalKitHostFuzzSupport"),
        .testTarget(name: "ModalKitTests",
                    dependencies: ["ModalKit", "ModalKitPlugins", "ModalKitInsetCenteredStyle", "ModalKitBottomSheetStyle", "ModalKitAdaptiveStyle", "ModalKitHostFuzzSupport"],
                    swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "ModalKitDemoTests",
                    dependencies: ["ModalKitDemo", "ModalKitStyleTemplate", "ModalKitCommandLine", "ModalKit", "ModalKitInsetCenteredStyle", "ModalKitBottomSheetStyle", "ModalKitAdaptiveStyle",
                                   "ModalKitHostFuzzSupport"]),
        .testTarget(name: "ModalKitWaylandClientTests", dependencies: ["ModalKitWaylandClient", "ModalKitWaylandDecorations"]),
        .testTarget(name: "ModalKitWaylandDecorationsTests",
                    dependencies: ["ModalKitWaylandDecorations", "ModalKitWaylandClient", "ModalKitText"]),
        .testTarget(name: "ModalKitWaylandTests", dependencies: ["ModalKitWayland", "ModalKit", "ModalKitWaylandClient", "ModalKitText"]),
        .testTarget(name: "ModalKitATKTests", dependencies: ["ModalKitATK", "ModalKit", "CModalKitATKInterface",
                                                          "ModalKitDesktopSettings", "CModalKitDBus"]),
        .testTarget(name: "ModalKitContentTests", dependencies: ["ModalKitContent", "ModalKitContentConcurrency", "ModalKit", "ModalKitText",
                                                              "CModalKitPixman", "ModalKitAlertStyle", "ModalKitBottomSheetStyle"]),
        .testTarget(name: "ModalKitTextTests", dependencies: ["ModalKitText", "CModalKitPixman"]),
        .testTarget(name: "ModalKitBenchTests", dependencies: ["ModalKitBenchSupport", "ModalKitCommandLine"]),
        .testTarget(name: "ModalKitCommandLineTests", dependencies: ["ModalKitCommandLine"]),
        // End-to-end tests: what users install (scripts/install's prefix, MODALKIT_TEST_PREFIX), never
        // the build next to the test binary. The harness (child processes, private headless
        // compositors and session buses, screenshots, the installed products) is a library of its
        // own; the tests are grouped so that `swift test --filter` picks a group: CommandTests runs
        // the binaries without a compositor, Live<Compositor>Tests under one compositor each
        // (`--filter '^Live'` all of them), LiveSessionBusTests on a private D-Bus session
        // (portal settings, screen readers), LiveHarnessTests checks the harness itself. The
        // harness is optimised even in the debug test build: it compares megapixel screenshots
        // pixel by pixel, which unoptimised took most of the suite's CPU.
        // A private headless session (sway, weston, mutter or KWin; real input; screenshots; session
        // buses), one child-process type: what the tests, modal-bench and `modalkit-session` start.
        .target(name: "ModalKitSession", dependencies: ["CModalKitPng", "CModalKitWaylandClient", "CModalKitWaylandProtocols", "ModalKitSystemSupport"], exclude: ["Helpers"],
                swiftSettings: [.unsafeFlags(["-O"])]),
        // Runs an app in a private headless session and drives it with a script of steps.
        .executableTarget(name: "modalkit-session", dependencies: ["ModalKitSession", "ModalKitCommandLine"]),
        .target(name: "ModalKitTestHarness", dependencies: ["ModalKit", "CModalKitPng", "ModalKitSession"], path: "Tests/ModalKitTestHarness", exclude: ["Fixtures"],
                swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "CommandTests", dependencies: ["ModalKitTestHarness", "ModalKit", "ModalKitPlugins", "ModalKitDemo", "ModalKitStyleTemplate", "ModalKitNoteTool", "ModalKitCommandLine"]),
        .testTarget(name: "LiveSwayTests", dependencies: ["ModalKitTestHarness", "ModalKit", "ModalKitPlugins", "ModalKitWayland", "ModalKitWaylandClient", "ModalKitSession"],
                    path: "Tests/LiveTests/Sway"),
        .testTarget(name: "LiveWestonTests", dependencies: ["ModalKitTestHarness"], path: "Tests/LiveTests/Weston"),
        .testTarget(name: "LiveMutterTests", dependencies: ["ModalKitTestHarness"], path: "Tests/LiveTests/Mutter"),
        .testTarget(name: "LiveKWinTests", dependencies: ["ModalKitTestHarness"], path: "Tests/LiveTests/KWin"),
        .testTarget(name: "LiveSessionBusTests", dependencies: ["ModalKitTestHarness", "ModalKitDesktopSettings"],
                    path: "Tests/LiveTests/SessionBus"),
        .testTarget(name: "LiveHarnessTests", dependencies: ["ModalKitTestHarness"], path: "Tests/LiveTests/Harness"),
        .testTarget(name: "ModalKitSystemSupportTests", dependencies: ["ModalKitSystemSupport"]),
    ],
    // Swift 5 language mode: the sources predate Swift 6's strict concurrency checking, which
    // tools-version 6 would otherwise turn on.
    swiftLanguageModes: [.v5]
)

// The fuzz targets (Fuzz/Targets: the parsers of untrusted bytes, the text entry model) are
// compiled into one of two targets. Ordinarily into ModalKitFuzzTests, which replays the seed
// corpus and the inputs that once failed through them. With MODALKIT_LIBFUZZER=1 in the
// environment (scripts/fuzz, in a scratch directory of its own, with `-sanitize=fuzzer,address`)
// into the executable `modalkit-fuzz` instead, libFuzzer's driver around them.
let fuzzDependencies: [Target.Dependency] = ["ModalKitPlugins", "ModalKitStyle", "ModalKit", "ModalKitHostFuzzSupport",
                                             "ModalKitDesktopSettings", "CModalKitDBus", "ModalKitText", "CModalKitPixman",
                                             "ModalKitContent", "ModalKitWayland", "ModalKitWaylandClient"]
if Context.environment["MODALKIT_LIBFUZZER"] == "1" {
    package.targets.append(.executableTarget(name: "modalkit-fuzz", dependencies: fuzzDependencies, path: "Fuzz",
                                             exclude: ["Corpus", "Regressions", "Tests"], sources: ["Targets", "Driver"]))
} else {
    package.targets.append(.testTarget(name: "ModalKitFuzzTests", dependencies: fuzzDependencies, path: "Fuzz",
                                       exclude: ["Corpus", "Regressions", "Driver"], sources: ["Targets", "Tests"]))
}
