// swift-tools-version:5.10
// A presentation style built outside ModalKit's package, loaded by the prebuilt modal-demo:
//   swift build            → .build/debug/libModalKitStyleFadeScale.so
//   modal-demo --style .build/debug/libModalKitStyleFadeScale.so
// The product name must start with ModalKitStyle (the loader looks for libModalKitStyle*.so)
// and be .dynamic, so that SwiftPM links a shared library.
//
// One target: the style and its C entry (modalkit_style_entry, at the end of FadeScaleStyle.swift).
// The library carries an ELF note with the style's name, summary and options, which hosts read
// without loading it. ModalKit's ModalKitStyleNote build step writes it from the style's own
// declarations: it compiles the target on the side, loads that as a host would, and adds the
// note's source to the target. A target without the entry fails that step, naming the function.
import PackageDescription

let package = Package(
    name: "CustomStyle",
    products: [
        .library(name: "ModalKitStyleFadeScale", type: .dynamic, targets: ["FadeScaleStyle"]),
    ],
    dependencies: [
        // ModalKit itself, by path; a copy elsewhere would point at a checkout or a tag instead.
        .package(name: "ModalKit", path: "../.."),
    ],
    targets: [
        // The style: plain Swift on ModalKitStyle (what a style links; none of the host's code).
        .target(name: "FadeScaleStyle", dependencies: [.product(name: "ModalKitStyle", package: "ModalKit")],
                plugins: [.plugin(name: "ModalKitStyleNote", package: "ModalKit")]),
    ]
)
