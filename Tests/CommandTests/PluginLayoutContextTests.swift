// Style ABI 1.2 across the plugin boundary (modalkit_style.h): the frame asked with a layout
// context that answers the presented content's preferred size, from a Swift style and from a
// plugin written in C against the 1.2 header (kept in Fixtures/abi-1.2); genuine 1.1 and 1.0
// plugin binaries (built in the test from the headers kept in Fixtures/abi-1.1 and
// Fixtures/abi-1.0) keep loading into this host and draw what they drew; a 1.1 host refuses a
// 1.2 plugin with the one-line newer-minor message.
import Foundation
import ModalKitTestHarness
import XCTest
import CModalKitStyle
@testable import ModalKit
@testable import ModalKitPlugins

/// A style whose frame is 300 pt wide and as tall as the content says at that width (60 pt
/// when it does not say), at (5, 6).
enum ContentSizedStyle: LoadablePresentationStyle {
    static let name = "content-sized"
    static let summary = "as tall as the content"
    static let options: [StyleOption] = []
    static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let style = PresentationStyle()
        style.frameOfPresentedView = { c in
            Rect(x: 5, y: 6, width: 300, height: c.preferredContentSize(fittingWidth: 300)?.height ?? 60)
        }
        return style
    }
}

final class PluginLayoutContextTests: XCTestCase {
    typealias Support = PluginTestSupport

    private func loader(_ dirs: String...) -> StyleLoader { StyleLoader(searchPath: dirs) }
    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)

    /// A layout context whose content prefers `height` at any width (nil: no preference), and
    /// the widths it was asked at.
    private func context(preferring height: Double?) -> (LayoutContext, () -> [Double]) {
        final class Asked { var widths: [Double] = [] }
        let asked = Asked()
        let c = LayoutContext(containerBounds: bounds, preferredContentSize: { w in
            asked.widths.append(w)
            return height.map { Size(width: w, height: $0) }
        })
        return (c, { asked.widths })
    }

    func testABI1Point2EndsWithTheFrameInContext() {
        XCTAssertEqual(Int(modalkit_style_descriptor_min_size(2)), Int(modalkit_style_descriptor_min_size(1)) + 8)
        XCTAssertEqual(modalkit_style_option_min_size(2), modalkit_style_option_min_size(1), "1.2 added no option field")
    }

    /// Swift → C → Swift: the frame hook's question crosses the table as a C callback and its
    /// answer comes back; no answer is nil on the plugin's side too.
    func testThePreferredSizeCrossesTheTable() throws {
        let library = try PluginLibrary.adopt(exportStyle(ContentSizedStyle.self), path: "in-process").get()
        XCTAssertNotNil(library.table.frame_in_context, "a Swift style exports the 1.2 entry")
        let style = try StyleModule(library: library, path: "in-process").makeStyle()
        let (sized, asked) = context(preferring: 432.5)
        XCTAssertEqual(style.frameOfPresentedView(sized), Rect(x: 5, y: 6, width: 300, height: 432.5))
        XCTAssertEqual(asked(), [300])
        let (silent, _) = context(preferring: nil)
        XCTAssertEqual(style.frameOfPresentedView(silent), Rect(x: 5, y: 6, width: 300, height: 60))
        XCTAssertEqual(style.frameOfPresentedView(LayoutContext(containerBounds: bounds)).height, 60,
                       "no content to ask")
    }

    /// A plugin written in C against the 1.2 header sizes its frame from the context's callback.
    func testAC12PluginAsksTheContentThroughTheContext() throws {
        let dir = try Support.temporaryDirectory(self, "abi12")
        let fixture = try Support.compileFixture("libModalKitStyleSized.so", in: dir, defines: ["FIXTURE_CONTENT_SIZED"],
                                                 headers: Support.abi12HeaderDirectory)
        let module = try loader(dir).load(fixture.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 2))
        let style = try module.makeStyle(options: ["inset": "30"])
        let (sized, asked) = context(preferring: 250)
        XCTAssertEqual(style.frameOfPresentedView(sized), Rect(x: 30, y: 30, width: 200, height: 250))
        XCTAssertEqual(asked(), [200])
        let (silent, _) = context(preferring: nil)
        XCTAssertEqual(style.frameOfPresentedView(silent).height, 77)
    }

    /// A genuine 1.1 binary: its descriptor ends before the 1.2 field (read as NULL), its 1.0
    /// frame entry is used, and `render` draws it exactly as the same source built against the 1.2
    /// header, and as the 1.0 binary.
    func testA11PluginBinaryLoadsAndDrawsAsBefore() throws {
        let dir = try Support.temporaryDirectory(self, "abi11in12")
        let v11 = try Support.compileFixture("libModalKitStyleV11.so", in: dir, headers: Support.abi11HeaderDirectory)
        let v10 = try Support.compileFixture("libModalKitStyleV10.so", in: dir, headers: Support.abi10HeaderDirectory)
        let v12 = try Support.compileFixture("libModalKitStyleV12.so", in: dir, headers: Support.abi12HeaderDirectory)
        let module = try loader(dir).load(v11.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 1))
        let head = UnsafeRawPointer(module.library.descriptor)
        XCTAssertEqual(Int(head.load(fromByteOffset: 8, as: UInt32.self)), Int(modalkit_style_descriptor_min_size(1)),
                       "struct_size: the descriptor ends where 1.1 ends")
        XCTAssertNil(module.library.table.frame_in_context, "the 1.2 field past struct_size reads as NULL")
        XCTAssertNotNil(module.library.table.frame_of_presented_view)
        let style = try module.makeStyle(options: ["inset": "30"])
        let (sized, asked) = context(preferring: 250)
        XCTAssertEqual(style.frameOfPresentedView(sized), Rect(x: 30, y: 30, width: 340, height: 740),
                       "the 1.0 frame: the container inset 30 pt")
        XCTAssertEqual(asked(), [], "a 1.1 plugin cannot ask")
        XCTAssertEqual(try loader(dir).load(v10.library).abiVersion, StyleABIVersion(major: 1, minor: 0))

        func render(_ library: String, _ progress: String) throws -> Image {
            let output = dir + "/\((library as NSString).lastPathComponent)-\(progress).png"
            let r = try PluginCLITests.demo(["render", "--style", library, "--size", "200x300", "--progress", progress,
                                             "--output", output])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "")
            return try Image(pngFile: output)
        }
        for progress in ["0.5", "1"] {
            let a = try render(v11.library, progress), b = try render(v12.library, progress)
            let c = try render(v10.library, progress)
            var same = true
            for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y)
                || a.pixel(x: x, y: y) != c.pixel(x: x, y: y) { same = false } }
            XCTAssertTrue(same, "1.0, 1.1 and 1.2 builds draw the same at \(progress)")
        }
        // The 1.0 rules: the card inset 10 pt, white, corner radius 4.
        XCTAssertEqual(try render(v11.library, "1").pixel(x: 12, y: 150), 0xFFFF_FFFF)
    }

    /// A 1.2 host takes 1.0 and 1.1 plugins; a 1.1 host refuses a 1.2 plugin with the newer-minor
    /// line, before its entry could run.
    func testVersionChecks() throws {
        let sizes = (0...2).map { Int(modalkit_style_descriptor_min_size(UInt32($0))) }
        let host12 = StyleABIVersion(major: 1, minor: 2), host11 = StyleABIVersion(major: 1, minor: 1)
        for minor in 0...2 {
            let v = modalkit_style_abi_version_t(major: 1, minor: UInt32(minor), descriptor_size: UInt32(sizes[minor]),
                                                 reserved: 0)
            XCTAssertEqual(try PluginLibrary.checkVersion(v, host: host12, path: "/p.so").get(), sizes[minor])
        }
        let plugin12 = modalkit_style_abi_version_t(major: 1, minor: 2, descriptor_size: UInt32(sizes[2]), reserved: 0)
        guard case let .failure(error) = PluginLibrary.checkVersion(plugin12, host: host11, path: "/p.so") else {
            return XCTFail("a 1.1 host must refuse a 1.2 plugin")
        }
        XCTAssertEqual(error, .newerMinor(path: "/p.so", plugin: host12, host: host11))
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertTrue(error.description.contains("ABI 1.2") && error.description.contains("ABI 1.1"), error.description)
        // A 1.2 plugin whose descriptor stops at 1.1's end is refused (too small for its minor).
        let short = modalkit_style_abi_version_t(major: 1, minor: 2, descriptor_size: UInt32(sizes[1]), reserved: 0)
        XCTAssertEqual(PluginLibrary.checkVersion(short, host: host12, path: "/p.so").failureValue,
                       .badStructSize(path: "/p.so", size: sizes[1], minimum: sizes[2], version: host12))
    }
}
