// What the dynamic loader opens for `modal-demo --version` (ld.so(8), LD_DEBUG=files): the libraries
// a window needs only later — fcft and its chain (loaded at the first font), libdbus (at the first
// bus connection), ATK (with a screen reader) —, libwebp (only `preview` encodes), libpng and zlib
// (only a PNG written or read) and the Swift
// libraries no run-time module uses (concurrency, regular expressions, libdispatch) are not among
// them (docs/design.md, start-up and footprint).
import Foundation
import ModalKitTestHarness
import XCTest

final class StartupLibrariesTests: XCTestCase {
    /// The file names the dynamic loader opened for `arguments`, in order.
    private func librariesOpened(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let r = try PluginTestSupport.runDemo(arguments, environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)), file: file, line: line)
        var opened: [String] = []
        for entry in r.stderrLines where entry.contains("file=") && (entry.contains("needed by") || entry.contains("dynamically loaded by")) {
            guard let start = entry.range(of: "file=")?.upperBound else { continue }
            let path = String(entry[start...].prefix { $0 != " " })
            let name = String(path.split(separator: "/").last ?? Substring(path))
            if !opened.contains(name) { opened.append(name) }
        }
        return opened
    }

    func testVersionOpensNeitherTextNorBusNorUnusedSwiftLibraries() throws {
        let opened = try librariesOpened(["--version"])
        XCTAssertTrue(opened.contains("libswiftCore.so"), "the loader's log was read: \(opened)")
        for absent in ["libfcft", "libfontconfig", "libfreetype", "libharfbuzz", "libglib-2.0", "libdbus-1", "libatk", "libwebp",
                       "libpng", "libz.so",
                       "libswift_Concurrency", "libswift_StringProcessing", "libswift_RegexParser", "libdispatch",
                       "libBlocksRuntime", "libFoundation"] {
            XCTAssertFalse(opened.contains { $0.hasPrefix(absent) }, "\(absent) opened for --version: \(opened)")
        }
    }

    /// `render` draws the demo's text: fcft is loaded then, by the first font; it writes a PNG:
    /// libpng is loaded then (by `dlopen`, or already by FreeType with the fonts), not linked.
    func testRenderLoadsFcftWhenItDrawsTextAndLibpngWhenItWrites() throws {
        let dir = try PluginTestSupport.temporaryDirectory(self, "startup-libraries")
        let r = try PluginTestSupport.runDemo(["render", "--size", "200x200", "--progress", "0", "--output", dir + "/x.png"],
                                              environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)))
        let opened = try librariesOpened(["render", "--size", "200x200", "--progress", "0", "--output", dir + "/y.png"])
        XCTAssertTrue(opened.contains("libfcft.so.4"), "\(opened)")
        XCTAssertFalse(opened.contains { $0.hasPrefix("libswift_Concurrency") }, "\(opened)")
        let png = r.stderrLines.filter { $0.contains("file=") && $0.contains("libpng16.so.16") }
        XCTAssertFalse(png.isEmpty, "libpng16 loaded for the PNG (FreeType needs it too, at the first font)")
        XCTAssertFalse(png.contains { $0.contains("needed by") && $0.contains("modal-demo") }, "libpng16 is linked by modal-demo: \(png)")
        XCTAssertEqual(Array(FileManager.default.contents(atPath: dir + "/x.png")?.prefix(4) ?? Data()), [UInt8]([0x89, 0x50, 0x4E, 0x47]), "a PNG was written")
    }

    /// `preview` encodes an animated WebP: libwebp, libwebpmux and libwebpdemux are loaded then, by
    /// `dlopen` (ld.so's "dynamically loaded by"), not at start.
    func testPreviewLoadsWebPWhenItEncodes() throws {
        let dir = try PluginTestSupport.temporaryDirectory(self, "startup-libraries")
        let r = try PluginTestSupport.runDemo(["preview", "--size", "60x100", "--fps", "4", "--output", dir + "/x.webp"],
                                              environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)))
        for soname in ["libwebp.so.7", "libwebpmux.so.3", "libwebpdemux.so.2"] {
            let lines = r.stderrLines.filter { $0.contains("file=") && $0.contains(soname) }
            XCTAssertFalse(lines.isEmpty, "\(soname) opened for preview")
            XCTAssertFalse(lines.contains { $0.contains("needed by") && $0.contains("modal-demo") },
                           "\(soname) is linked by modal-demo: \(lines)")
        }
    }
}
