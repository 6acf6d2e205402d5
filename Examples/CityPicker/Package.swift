// swift-tools-version:5.10
// A city picker on ModalKitContent, built outside ModalKit's package:
//   swift build && .build/debug/city-picker
// Return or a click on "Choose a city" presents 40 cities in a bottom sheet (detents 0.5 and 0.9);
// choosing one (click, tap, or arrows + Return) dismisses it, shows it in the window and prints
// `selected CITY`. "Delete file…" presents an alert; its choice prints `response delete|cancel`.
import PackageDescription

let package = Package(
    name: "CityPicker",
    dependencies: [
        // ModalKit itself, by path; a copy elsewhere would point at a checkout or a tag instead.
        .package(name: "ModalKit", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "city-picker", dependencies: [
            .product(name: "ModalKitWayland", package: "ModalKit"),
            .product(name: "ModalKitContent", package: "ModalKit"),
        ], path: "Sources/CityPicker"),
    ]
)
