import XCTest
final class ModalKitTestsPlaceholder: XCTestCase { func testNothing() {} }
