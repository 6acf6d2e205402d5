import ModalKit
import XCTest

/// The `detents` option: resting sizes smallest first, each once (UIKit's sheet detents), as
/// the option table of the article "Built-in styles" says; fractions (≤ 1) and points (> 1) are
/// each compared with their kind.
final class DetentOptionTests: XCTestCase {
    private func detents(_ text: String) throws -> [Detent] {
        try StyleOptions(["detents": text], declared: [.detents()]).detents()
    }

    func testSmallestFirstIsRead() throws {
        XCTAssertEqual(try detents("0.5,0.9"), [.fraction(0.5), .fraction(0.9)])
        XCTAssertEqual(try detents("200, 400"), [.points(200), .points(400)])
        XCTAssertEqual(try detents("0.5,300"), [.fraction(0.5), .points(300)], "a fraction and points: compared only in a container")
        XCTAssertEqual(try detents(""), [])
    }

    func testOutOfOrderOrRepeatedIsABadValue() {
        for text in ["0.9,0.5", "0.5,0.5", "400,200", "0.25,0.5,0.5"] {
            XCTAssertThrowsError(try detents(text), text) { error in
                XCTAssertTrue("\(error)".contains("smallest first"), "\(text): \(error)")
            }
        }
    }
}
