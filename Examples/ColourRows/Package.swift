// swift-tools-version:5.10
// Three coloured, named rows; a tap on a row (or Return) presents a bottom sheet of that colour,
// resting at half the window's height, draggable up to 0.9 of it:
//   swift build                     (in ModalKit's checkout first: it builds the style libraries)
//   swift build && MODALKIT_STYLE_PATH=$PWD/../../.build/debug .build/debug/colour-rows
import PackageDescription

let package = Package(
    name: "ColourRows",
    dependencies: [.package(name: "ModalKit", path: "../..")],
    targets: [
        .executableTarget(name: "colour-rows", dependencies: [
            .product(name: "ModalKitWayland", package: "ModalKit"),
            .product(name: "ModalKitText", package: "ModalKit"),
        ], path: "Sources/ColourRows"),
    ]
)
