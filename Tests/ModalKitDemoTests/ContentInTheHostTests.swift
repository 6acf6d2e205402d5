import ModalKitHostFuzzSupport
import ModalKitDemo
import ModalKit
import ModalKitContent
import XCTest

/// ModalKitContent through a `PresentationHost`, as an app (Examples/CityPicker, `modal-demo
/// --content alert`) presents it: a finger's tap on a sheet's row chooses it; a tap on the dim
/// that dismisses an alert reports its close response; an alert's extra content sits between its
/// message and its buttons, draws there and gets its presses in its own points; an action sheet
/// is a sheet as tall as its actions, a dialog to assistive technology.
final class ContentInTheHostTests: XCTestCase {
    /// A window's own content under the presented one: white, nothing to do.
    private final class Blank: PresentationContent {
        var invalidation: ContentInvalidation = .all
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xFFFFFF))
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { false }
        func didLayout(size: Size) {}
        var accessibilityElement: AccessibilityElement? { nil }
    }

    /// The city picker's sheet (detents 0.5 and 0.9) in an 800 × 600 window rests with its top at
    /// 300 pt; rows are 44 pt: a touch down and up at y = 300 + 5 × 44 + 22 chooses row 5.
    func testATouchTapOnASheetsRowChoosesIt() throws {
        let host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "0.5,0.9"]), presenting: Blank())
        host.layout(containerSize: Size(width: 800, height: 600), scale: 1)
        let list = List(rows: ["Amsterdam", "Athens", "Bangkok", "Barcelona", "Beijing 北京", "Berlin", "Bogotá"].map { ListRow($0) },
                        title: "Cities")
        var chosen: [Int] = []
        list.onChoose = { row, now in chosen.append(row); host.dismiss(now: now) }
        host.present(list, now: 0)
        host.update(now: 10)
        XCTAssertEqual(host.presentedViewRect(at: 10)?.minY, 300)
        host.handle(.touchDown(id: 1, Point(x: 400, y: 300 + 5 * 44 + 22)), now: 10)
        host.handle(.touchUp(id: 1), now: 10.05)
        XCTAssertEqual(chosen, [5])
        XCTAssertEqual(list.selectedRows, [5])
        XCTAssertEqual(host.state, .dismissing, "the choice dismisses the sheet")
    }

    /// `--content alert` on a style whose dim dismisses (inset-centered: the card is inset 20 pt,
    /// so (5, 5) is dim): the tap dismisses and the alert answers with its close response, Cancel.
    func testATapOnTheDimIsTheAlertsCloseResponse() throws {
        var responses: [String] = []
        var events: [SceneEvent] = []
        let scene = try DemoScene(style: try BuiltinStyle.insetCentered.make()) { events.append($0) }
        scene.presentsAlert = true
        scene.onAlertResponse = { responses.append($0) }
        scene.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        scene.present(now: 0)
        scene.update(now: 10)
        scene.handle(.pointerMotion(Point(x: 5, y: 5)), now: 10)
        scene.handle(.pointerButton(pressed: true), now: 10)
        scene.handle(.pointerButton(pressed: false), now: 10.05)
        scene.update(now: 20)
        XCTAssertEqual(responses, ["cancel"])
        XCTAssertEqual(events.filter { $0 == .dismissed }.count, 1, "\(events)")
    }

    /// An extra piece 60 pt tall, red: in a 270 pt alert it is the text's width (230 pt) at
    /// x = 20, between the message and the buttons (the title and message 8 pt apart, the piece
    /// 8 pt under the message, the buttons 20 pt under it); a press on it arrives in its points;
    /// its element joins the alert's at its place.
    func testAnExtraPieceSitsBetweenTheMessageAndTheButtons() throws {
        final class Piece: PresentationContent {
            var invalidation: ContentInvalidation = .all
            var presses: [Point] = []
            func draw(into image: OpaquePointer, size: Size, scale: Double) {
                let px = Draw.pixelSize(of: image)
                Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xFF0000))
                invalidation = .none
            }
            func handle(_ input: ContentInput, now: Double) -> Bool {
                if case let .press(p) = input { presses.append(p) }
                return true
            }
            func didLayout(size: Size) {}
            func preferredContentSize(fittingWidth width: Double) -> Size? { Size(width: width, height: 60) }
            var accessibilityElement: AccessibilityElement? {
                .text("piece", "Piece", frame: Rect(x: 0, y: 0, width: 230, height: 60))
            }
        }
        let piece = Piece()
        let alert = Alert(title: "Delete file?", message: "It will be gone.",
                          responses: [Response("cancel", label: "Cancel"), Response("delete", label: "Delete")])
        let plainHeight = try XCTUnwrap(alert.preferredContentSize(fittingWidth: 270)?.height)
        alert.extraContent = piece
        let height = try XCTUnwrap(alert.preferredContentSize(fittingWidth: 270)?.height)
        XCTAssertEqual(height, plainHeight + 8 + 60, "the piece and its spacing")
        alert.didLayout(size: Size(width: 270, height: height))
        let buttonsTop = alert.buttonFrames(width: 270)[0].minY
        let pieceTop = buttonsTop - 20 - 60
        // Drawn: red across 20…250 pt in its rows, the alert's white beside it.
        let image = try Image(width: 270, height: Int(height))
        alert.draw(into: image.pixmanImage, size: Size(width: 270, height: height), scale: 1)
        let midRow = Int(pieceTop) + 30
        XCTAssertEqual(image.pixel(x: 20, y: midRow), 0xFFFF_0000)
        XCTAssertEqual(image.pixel(x: 249, y: midRow), 0xFFFF_0000)
        XCTAssertEqual(image.pixel(x: 19, y: midRow), 0xFFFF_FFFF)
        XCTAssertEqual(image.pixel(x: 250, y: midRow), 0xFFFF_FFFF)
        XCTAssertEqual(image.pixel(x: 100, y: Int(pieceTop) - 1), 0xFFFF_FFFF, "above it")
        // A press at (30, top + 10) arrives at (10, 10).
        XCTAssertTrue(alert.handle(.press(Point(x: 30, y: pieceTop + 10)), now: 1))
        XCTAssertEqual(piece.presses, [Point(x: 10, y: 10)])
        let element = try XCTUnwrap(alert.accessibilityElement?.children.first { $0.identifier == "piece" })
        XCTAssertEqual(element.frame, Rect(x: 20, y: pieceTop, width: 230, height: 60))
    }

    /// An action sheet on a bottom sheet that fits its content (`detents=fit`) in 390 × 844: its
    /// preferred height at 390 pt is 20 + 44 + 8 + 44 + 16 + 44 + 20 = 196 pt, so the sheet's top
    /// rests at 844 − 196 = 648; a tap on Copy (648 + 20 … 648 + 64) answers `copy`.
    func testAnActionSheetIsASheetAsTallAsItsActions() throws {
        let host = PresentationHost(style: try BuiltinStyle.bottomSheet.make(options: ["detents": "fit"]), presenting: Blank())
        host.layout(containerSize: Size(width: 390, height: 844), scale: 1)
        let sheet = ActionSheet(actions: [Response("copy", label: "Copy"), Response("delete", label: "Delete", appearance: .destructive)],
                                cancel: Response("cancel", label: "Cancel"))
        var responses: [String] = []
        sheet.onResponse = { id, _ in responses.append(id) }
        sheet.dismiss = { host.dismiss(now: $0) }
        host.present(sheet, now: 0)
        host.update(now: 10)
        XCTAssertEqual(host.presentedViewRect(at: 10), Rect(x: 0, y: 648, width: 390, height: 196))
        XCTAssertEqual(host.accessibilitySnapshot().levels.last?.role, .dialog)
        host.handle(.pointerMotion(Point(x: 195, y: 670)), now: 10)
        host.handle(.pointerButton(pressed: true), now: 10)
        host.handle(.pointerButton(pressed: false), now: 10.05)
        XCTAssertEqual(responses, ["copy"])
        XCTAssertEqual(host.state, .dismissing)
    }
}
