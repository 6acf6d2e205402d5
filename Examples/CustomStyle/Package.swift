// swift-tools-version:5.10
// A presentation style built outside ModalKit's package, loaded by the prebuilt modal-demo:
//   swift build            → .build/debug/libModalKitStyleFadeScale.so
//   modal-demo --style .build/debug/libModalKitStyleFadeScale.so
// The product name must start with ModalKitStyle (the loader looks for libModalKitStyle*.so)
// and be .dynamic, so that SwiftPM links a shared library.
//
// The library carries an ELF note with the style's name, summary and options, which hosts read
// without loading it. It is written at build time from the style's own declarations:
// FadeScaleStyleNotePlugin runs FadeScaleStyleNote, a small program linking the style, and
// compiles what it writes into FadeScaleStyleEntry.
import PackageDescription

let package = Package(
    name: "CustomStyle",
    products: [
        .library(name: "ModalKitStyleFadeScale", type: .dynamic, targets: ["FadeScaleStyleEntry"]),
    ],
    dependencies: [
        // ModalKit itself, by path; a copy elsewhere would point at a checkout or a tag instead.
        .package(name: "ModalKit", path: "../.."),
    ],
    targets: [
        // The style: plain Swift on ModalKitStyle (what a style links; none of the host's code).
        .target(name: "FadeScaleStyle", dependencies: [.product(name: "ModalKitStyle", package: "ModalKit")]),
        // The shared library: the entry the host calls and the generated note.
        .target(name: "FadeScaleStyleEntry",
                dependencies: ["FadeScaleStyle", .product(name: "ModalKitStyle", package: "ModalKit")],
                // Without the entry function modalkit_style_entry the library would build and then
                // fail to load; this makes the link fail instead: "undefined symbol 'modalkit_style_entry'".
                linkerSettings: [.unsafeFlags(["-Xlinker", "--defsym=modalkit_style_entry_required=modalkit_style_entry"])],
                plugins: ["FadeScaleStyleNotePlugin"]),
        // The note, written at build time.
        .executableTarget(name: "FadeScaleStyleNote",
                          dependencies: ["FadeScaleStyle", .product(name: "ModalKitNoteTool", package: "ModalKit")]),
        .plugin(name: "FadeScaleStyleNotePlugin", capability: .buildTool(), dependencies: ["FadeScaleStyleNote"]),
    ]
)
