// Style ABI 1.3 across the plugin boundary (modalkit_style.h): detents that fit the content (two
// detent kinds) and whether scrolling expands a sheet (one descriptor entry at the end), from a
// plugin written in C (the bottom sheet exported by Swift: SheetSizingTests); a genuine 1.2 binary
// (built from the header kept in Fixtures/abi-1.2) keeps loading, its unknown detent kind dropped.
import Foundation
import ModalKitTestHarness
import XCTest
import CModalKitStyle
@testable import ModalKit
@testable import ModalKitPlugins

final class PluginContentFitTests: XCTestCase {
    typealias Support = PluginTestSupport

    private let bounds = Rect(x: 0, y: 0, width: 400, height: 800)

    func testTheCurrentABIIs1Point3AndEndsWithTheScrollPreference() {
        XCTAssertEqual(StyleABIVersion.current, StyleABIVersion(major: 1, minor: 3))
        XCTAssertEqual(Int(modalkit_style_descriptor_min_size(3)), MemoryLayout<modalkit_style_descriptor>.size)
        XCTAssertEqual(Int(modalkit_style_descriptor_min_size(3)), Int(modalkit_style_descriptor_min_size(2)) + 8,
                       "1.3 appended one function pointer")
        XCTAssertEqual(modalkit_style_option_min_size(3), modalkit_style_option_min_size(2), "1.3 added no option field")
    }

    /// A C plugin built against today's header: its kind-2 detent is the content, at most 0.9,
    /// and its scroll preference (false) reaches the declaration.
    func testAC13PluginDeclaresAFitDetent() throws {
        let dir = try Support.temporaryDirectory(self, "abi13")
        let fixture = try Support.compileFixture("libModalKitStyleFit13.so", in: dir, defines: ["FIXTURE_FIT_DETENTS"])
        let module = try StyleLoader(searchPath: [dir]).load(fixture.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 3))
        let i = try module.makeStyle(options: [:]).interaction(LayoutContext(containerBounds: bounds))
        XCTAssertEqual(i.detents, [.fraction(0.25), .fitsContent(atMost: .fraction(0.9))])
        XCTAssertFalse(i.prefersScrollingExpandsWhenScrolledToEdge)
    }

    /// The same source built against the 1.2 header: a genuine 1.2 binary loads; kind 2 meant
    /// nothing in 1.2, so it is dropped (an unknown constant), and scrolling expands (the default).
    func testA12PluginBinaryKeepsLoading() throws {
        let dir = try Support.temporaryDirectory(self, "abi12in13")
        let fixture = try Support.compileFixture("libModalKitStyleFit12.so", in: dir, defines: ["FIXTURE_FIT_DETENTS"],
                                                 headers: Support.abi12HeaderDirectory)
        let module = try StyleLoader(searchPath: [dir]).load(fixture.library)
        XCTAssertEqual(module.abiVersion, StyleABIVersion(major: 1, minor: 2))
        let head = UnsafeRawPointer(module.library.descriptor)
        XCTAssertEqual(Int(head.load(fromByteOffset: 8, as: UInt32.self)), Int(modalkit_style_descriptor_min_size(2)),
                       "struct_size: the descriptor ends where 1.2 ends")
        XCTAssertNil(module.library.table.prefers_scrolling_expands_when_scrolled_to_edge)
        let i = try module.makeStyle(options: [:]).interaction(LayoutContext(containerBounds: bounds))
        XCTAssertEqual(i.detents, [.fraction(0.25)])
        XCTAssertTrue(i.prefersScrollingExpandsWhenScrolledToEdge)
    }

    /// A 1.3 host takes 1.0 … 1.3 plugins; a 1.2 host refuses a 1.3 plugin with the newer-minor line.
    func testVersionChecks() throws {
        let sizes = (0...3).map { Int(modalkit_style_descriptor_min_size(UInt32($0))) }
        let host13 = StyleABIVersion(major: 1, minor: 3), host12 = StyleABIVersion(major: 1, minor: 2)
        for minor in 0...3 {
            let v = modalkit_style_abi_version_t(major: 1, minor: UInt32(minor), descriptor_size: UInt32(sizes[minor]),
                                                 reserved: 0)
            XCTAssertEqual(try PluginLibrary.checkVersion(v, host: host13, path: "/p.so").get(), sizes[minor])
        }
        let plugin13 = modalkit_style_abi_version_t(major: 1, minor: 3, descriptor_size: UInt32(sizes[3]), reserved: 0)
        guard case let .failure(error) = PluginLibrary.checkVersion(plugin13, host: host12, path: "/p.so") else {
            return XCTFail("a 1.2 host must refuse a 1.3 plugin")
        }
        XCTAssertEqual(error, .newerMinor(path: "/p.so", plugin: host13, host: host12))
        XCTAssertFalse(error.description.contains("\n"))
    }
}
