// swift-tools-version:5.10
// A minimal app on ModalKit, built outside ModalKit's package:
//   swift build && .build/debug/host-app [style]   (style: a name or a plugin's path, default inset-centered)
// A window whose content (a blue field) presents its own content (an orange card) with a style
// loaded by name, on Return, space or a click; Escape or a tap on the dim dismisses.
import PackageDescription

let package = Package(
    name: "HostApp",
    dependencies: [
        // ModalKit itself, by path; a copy elsewhere would point at a checkout or a tag instead.
        .package(name: "ModalKit", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "host-app", dependencies: [
            .product(name: "ModalKitWayland", package: "ModalKit"),
        ], path: "Sources/HostApp"),
    ]
)
