import ModalKit
import XCTest

final class PNGSmokeTests: XCTestCase {
    func testWritePictures() throws {
        let dir = "/tmp/mk-engine-png"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for style in BuiltinStyle.allCases {
            let f = try SceneFixture(try style.make(), width: 400, height: 800, scale: 1)
            for p in [0.0, 0.5, 1.0] {
                try f.snapshot(.present, p).writePNG(to: "\(dir)/\(style.rawValue)-\(p).png")
            }
        }
    }
}
