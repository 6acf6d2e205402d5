import Foundation
import XCTest

/// The client core's shape (docs/design.md, module graph): it links no font library — the title
/// bar's text lives in ModalKitWaylandDecorations —, its input devices report to the decorations
/// instead of driving them, and no source file of either module is over 500 lines. Read from the
/// package's own files, as the build sees them.
final class ModuleLayoutTests: XCTestCase {
    /// The package root (this file is Tests/ModalKitWaylandClientTests/ModuleLayoutTests.swift).
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func swiftFiles(in module: String) throws -> [URL] {
        let dir = root.appendingPathComponent("Sources/\(module)")
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertFalse(files.isEmpty, "no sources in \(dir.path)")
        return files
    }

    /// The dependencies Package.swift gives `target` (the names in its `dependencies:` list).
    private func dependencies(of target: String) throws -> [String] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try XCTUnwrap(manifest.range(of: ".target(name: \"\(target)\","), "\(target) in Package.swift")
        let rest = manifest[start.upperBound...]
        let list = try XCTUnwrap(rest.range(of: "dependencies: ["))
        let end = try XCTUnwrap(rest[list.upperBound...].firstIndex(of: "]"))
        return rest[list.upperBound..<end].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    func testTheCoreLinksNoFontsAndTheDecorationsDo() throws {
        let core = try dependencies(of: "ModalKitWaylandClient")
        XCTAssertTrue(core.contains("CModalKitWaylandClient"), "the list was read: \(core)")
        for font in ["ModalKitText", "CModalKitFcft"] {
            XCTAssertFalse(core.contains(font), "ModalKitWaylandClient depends on \(font): \(core)")
        }
        XCTAssertTrue(try dependencies(of: "ModalKitWaylandDecorations").contains("ModalKitText"))
        for file in try swiftFiles(in: "ModalKitWaylandClient") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in ["ModalKitText", "CModalKitFcft"] {
                XCTAssertFalse(text.contains("import \(module)"), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    /// Pointer and touch report events on decoration surfaces (`WindowDecorating`); what a press
    /// on the title bar or a border does is the decorations' to decide.
    func testInputDevicesNameNoDecorationPart() throws {
        for name in ["Pointer.swift", "Touch.swift"] {
            let text = try String(contentsOf: root.appendingPathComponent("Sources/ModalKitWaylandClient/Input/\(name)"),
                                  encoding: .utf8)
            for part in ["titleBar", "TitleBar", "beginResize", "resizeEdge(", "ResizeBorder"] {
                XCTAssertFalse(text.contains(part), "\(name) names \(part)")
            }
        }
    }

    func testNoSourceFileIsOver500Lines() throws {
        for module in ["ModalKitWaylandClient", "ModalKitWaylandDecorations"] {
            for file in try swiftFiles(in: module) {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                let count = lines.last == "" ? lines.count - 1 : lines.count
                XCTAssertLessThanOrEqual(count, 500, "\(module)/\(file.lastPathComponent)")
            }
        }
    }
}
