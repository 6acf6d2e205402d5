// Sheets sized by their content and capped in width: a detent that fits the content's preferred
// height, at most F of the container (UIKit's `Detent.custom(resolver:)` answering the content's
// height, resolved again on `invalidateDetents()`); the bottom sheet at most 640 pt wide, centred
// (Material 3's bottom-sheet width cap); the `scrolling-expands` option
// (UIKit's `prefersScrollingExpandsWhenScrolledToEdge`).
import CModalKitStyle
import ModalKitBottomSheetStyle
@testable import ModalKit
@testable import ModalKitPlugins
import XCTest

/// A content whose preferred height (at any width) the test sets; records the widths asked and
/// the sizes it was laid out at.
private final class SizedContent: PresentationContent {
    var invalidation: ContentInvalidation = .all
    var preferredHeight: Double?
    var askedWidths: [Double] = []
    var laidOut: [Size] = []
    init(_ height: Double?) { preferredHeight = height }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: .white)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
    func didLayout(size: Size) { laidOut.append(size) }
    func preferredContentSize(fittingWidth width: Double) -> Size? {
        askedWidths.append(width)
        return preferredHeight.map { Size(width: width, height: $0) }
    }
}

final class SheetSizingTests: XCTestCase {
    private func context(_ bounds: Rect, preferring height: Double?) -> LayoutContext {
        LayoutContext(containerBounds: bounds, preferredContentSize: { w in height.map { Size(width: w, height: $0) } })
    }

    // MARK: The detent

    /// min(content, cap); the cap when the content does not say (or says nonsense); never more
    /// than the container.
    func testAFitDetentIsTheContentsLengthAtMostItsCap() {
        let fit = Detent.fitsContent(atMost: .fraction(0.9))
        let cases: [(Double?, Double)] = [(0, 0), (200, 200), (719, 719), (720, 720), (721, 720), (5000, 720),
                                          (nil, 720), (-3, 720), (.infinity, 720), (.nan, 720)]
        for (content, expected) in cases {
            XCTAssertEqual(fit.resolved(containerLength: 800, contentLength: content), expected, "\(String(describing: content))")
        }
        XCTAssertEqual(Detent.fitsContent(atMost: .points(300)).resolved(containerLength: 800, contentLength: 420), 300)
        XCTAssertEqual(Detent.fitsContent(atMost: .points(300)).resolved(containerLength: 250, contentLength: 420), 250)
        XCTAssertEqual(Detent.fitsContent(atMost: .fraction(1)).resolved(containerLength: 800, contentLength: 420), 420)
        XCTAssertEqual(fit.resolved(containerLength: 800), 720, "without a content: the cap")
        XCTAssertEqual(Detent.fraction(0.5).resolved(containerLength: 800, contentLength: 10), 400, "fractions ignore the content")
    }

    /// `detents=fit:0.9` on a 400 × 800 container: the sheet is as tall as the content prefers at
    /// the sheet's width (400), at most 720 pt, anchored to the bottom edge.
    func testTheBottomSheetFitsItsContentUpToTheCap() throws {
        let style = try BottomSheetStyle.make(["detents": "fit:0.9"])
        let b = Rect(x: 0, y: 0, width: 400, height: 800)
        for (content, height) in [(120.0, 120.0), (333.5, 333.5), (720, 720), (900, 720)] {
            XCTAssertEqual(style.frameOfPresentedView(context(b, preferring: content)),
                           Rect(x: 0, y: 800 - height, width: 400, height: height), "content \(content)")
        }
        XCTAssertEqual(style.frameOfPresentedView(context(b, preferring: nil)).height, 720, "no preference: the cap")
        XCTAssertEqual(style.interaction(LayoutContext(containerBounds: b)).detents, [.fitsContent(atMost: .fraction(0.9))])
        // `fit` alone: at most the container; points as the cap.
        XCTAssertEqual(try BottomSheetStyle.make(["detents": "fit"]).frameOfPresentedView(context(b, preferring: 950)).height, 800)
        XCTAssertEqual(try BottomSheetStyle.make(["detents": "fit:250"]).frameOfPresentedView(context(b, preferring: 400)).height, 250)
    }

    /// With a smaller detent too (`0.25,fit:0.9`): the sheet rests at 200 pt, and the fit detent
    /// is the content's 500 pt (offset 0: the frame).
    func testAFitDetentBesideAFraction() throws {
        let style = try BottomSheetStyle.make(["detents": "0.25,fit:0.9"])
        let c = PresentationController(style: style)
        c.contentSizing = { w in Size(width: w, height: 500) }
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800))
        c.present(now: 0)
        c.update(now: 5)
        XCTAssertEqual(c.styleFrame, Rect(x: 0, y: 300, width: 400, height: 500))
        XCTAssertEqual(c.detentLayout?.offsets, [300, 0])
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 0, y: 600, width: 400, height: 200), "at rest at the smallest")
    }

    /// A fit detent below a larger one (`fit:0.5,0.9`): the frame is the 0.9 detent (720 pt); the
    /// fit detent rests the sheet at the content's 200 pt (under its 400 pt cap), resolved by the
    /// host from the content at the sheet's width — and again at 400 pt when the content grows past it.
    func testAFitDetentBelowTheFrameRestsAtTheContentsHeight() throws {
        let style = try BottomSheetStyle.make(["detents": "fit:0.5,0.9"])
        let c = PresentationController(style: style)
        var preferred = 200.0
        c.contentSizing = { w in Size(width: w, height: preferred) }
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800))
        c.present(now: 0)
        c.update(now: 5)
        XCTAssertEqual(c.styleFrame, Rect(x: 0, y: 80, width: 400, height: 720))
        XCTAssertEqual(c.detentLayout?.offsets, [520, 0])
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 0, y: 600, width: 400, height: 200))
        preferred = 650
        c.layout(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800))
        XCTAssertEqual(c.detentLayout?.offsets, [320, 0])
        XCTAssertEqual(c.presentedViewFrame, Rect(x: 0, y: 400, width: 400, height: 400), "capped at 0.5")
    }

    // MARK: Resolved again

    /// A host presenting a content whose preferred height changes: after `invalidateDetents()`
    /// the sheet at rest is the new height (capped at 0.9 × 800 = 720), and the content is laid
    /// out at it.
    func testInvalidatingDetentsResolvesTheFitAgain() throws {
        let content = SizedContent(300)
        let host = PresentationHost(style: try BottomSheetStyle.make(["detents": "fit:0.9"]), presenting: SolidContent())
        host.layout(containerSize: Size(width: 400, height: 800), scale: 1)
        XCTAssertTrue(host.present(content, now: 0))
        host.update(now: 5)
        XCTAssertEqual(host.state, .presented)
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 500, width: 400, height: 300))
        XCTAssertEqual(host.presentedViewRect(at: 5), Rect(x: 0, y: 500, width: 400, height: 300))
        XCTAssertEqual(content.askedWidths.last, 400)

        content.preferredHeight = 450
        XCTAssertEqual(host.presentedViewFrame.height, 300, "not watched: resolved when told")
        host.invalidateDetents()
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 350, width: 400, height: 450))
        host.update(now: 6)
        XCTAssertEqual(host.presentedViewRect(at: 6), Rect(x: 0, y: 350, width: 400, height: 450))
        XCTAssertEqual(content.laidOut.last, Size(width: 400, height: 450))

        content.preferredHeight = 1000
        host.invalidateDetents()
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 80, width: 400, height: 720), "capped at 0.9")
        content.preferredHeight = 64
        host.invalidateDetents()
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 0, y: 736, width: 400, height: 64))
        XCTAssertEqual(host.state, .presented)
    }

    // MARK: The width cap

    /// On a 1000 pt container the sheet is 640 pt wide (Material 3's cap), centred:
    /// x = (1000 − 640) / 2 = 180; on a 640 pt or narrower one, full width; `max-width` moves
    /// the cap, 0 removes it.
    func testTheSheetIsAtMost640PointsWideAndCentred() throws {
        let sheet = try BottomSheetStyle.make()
        XCTAssertEqual(sheet.frameOfPresentedView(layout(x: 0, y: 0, width: 1000, height: 600)),
                       Rect(x: 180, y: 300, width: 640, height: 300))
        XCTAssertEqual(sheet.frameOfPresentedView(layout(x: 10, y: 20, width: 1000, height: 600)),
                       Rect(x: 190, y: 320, width: 640, height: 300), "centred in the container's own bounds")
        XCTAssertEqual(sheet.frameOfPresentedView(layout(x: 0, y: 0, width: 640, height: 600)).width, 640)
        XCTAssertEqual(sheet.frameOfPresentedView(layout(x: 0, y: 0, width: 390, height: 844)),
                       Rect(x: 0, y: 422, width: 390, height: 422))
        XCTAssertEqual(try BottomSheetStyle.make(["max-width": "500"]).frameOfPresentedView(layout(x: 0, y: 0, width: 1000, height: 600)),
                       Rect(x: 250, y: 300, width: 500, height: 300))
        XCTAssertEqual(try BottomSheetStyle.make(["max-width": "0"]).frameOfPresentedView(layout(x: 0, y: 0, width: 1000, height: 600)),
                       Rect(x: 0, y: 300, width: 1000, height: 300))
        XCTAssertEqual(BottomSheetStyle.sheetWidth(1000, maxWidth: 640), 640)
    }

    /// A capped sheet that fits its content asks the content at the sheet's width, not the window's.
    func testACappedSheetAsksTheContentAtItsOwnWidth() throws {
        let content = SizedContent(200)
        let host = PresentationHost(style: try BottomSheetStyle.make(["detents": "fit:0.9"]), presenting: SolidContent())
        host.layout(containerSize: Size(width: 1000, height: 600), scale: 1)
        host.present(content, now: 0)
        host.update(now: 5)
        XCTAssertEqual(host.presentedViewFrame, Rect(x: 180, y: 400, width: 640, height: 200))
        XCTAssertEqual(Set(content.askedWidths), [640])
    }

    // MARK: Options

    func testScrollingExpandsIsAnOption() throws {
        let b = LayoutContext(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800))
        XCTAssertTrue(try BottomSheetStyle.make().interaction(b).prefersScrollingExpandsWhenScrolledToEdge)
        XCTAssertTrue(try BottomSheetStyle.make(["scrolling-expands": "true"]).interaction(b).prefersScrollingExpandsWhenScrolledToEdge)
        XCTAssertFalse(try BottomSheetStyle.make(["scrolling-expands": "false"]).interaction(b).prefersScrollingExpandsWhenScrolledToEdge)
        XCTAssertTrue(BottomSheetStyle.options.contains { $0.key == "scrolling-expands" && $0.defaultValue == "true" })
        XCTAssertTrue(BottomSheetStyle.options.contains { $0.key == "max-width" && $0.defaultValue == "640" && $0.unit == "points" })
    }

    /// Each bad value is one line naming the option and what it accepts.
    func testBadValuesAreOneClearLine() {
        let bad: [(String, String, String)] = [
            ("detents", "fit:", "fit / fit:SIZE"), ("detents", "fit:0", "fit / fit:SIZE"),
            ("detents", "fit:abc", "fit / fit:SIZE"), ("detents", "fits", "fit / fit:SIZE"),
            ("detents", "fit:200000", "fit / fit:SIZE"), ("detents", "0.5,,fit", "fit / fit:SIZE"),
            ("scrolling-expands", "maybe", "true or false"), ("max-width", "-1", "0"), ("max-width", "wide", "0"),
        ]
        for (key, value, mentions) in bad {
            XCTAssertThrowsError(try BottomSheetStyle.make([key: value]), "\(key)=\(value)") { error in
                let line = String(describing: error)
                XCTAssertFalse(line.contains("\n"), line)
                XCTAssertTrue(line.contains("'\(key)'"), line)
                XCTAssertTrue(line.contains(mentions), "\(line) should mention \(mentions)")
            }
        }
        XCTAssertEqual(try StyleOptions(["detents": " FIT:0.5 , 0.9 "], declared: [.detents()]).detents(),
                       [.fitsContent(atMost: .fraction(0.5)), .fraction(0.9)])
        XCTAssertEqual(try StyleOptions(["detents": "fit:600"], declared: [.detents()]).detents(),
                       [.fitsContent(atMost: .points(600))])
    }

    // MARK: Across the style ABI (1.3)

    /// Swift → C → Swift: the bottom sheet's `fit:0.9` and `fit:300` detents and
    /// `scrolling-expands=false` come back as they were declared; the sheet fits its content
    /// through the 1.2 frame entry.
    func testFitDetentsAndTheScrollPreferenceCrossTheTable() throws {
        let library = try PluginLibrary.adopt(exportStyle(BottomSheetStyle.self), path: "in-process").get()
        XCTAssertNotNil(library.table.prefers_scrolling_expands_when_scrolled_to_edge, "a Swift style exports the 1.3 entry")
        let module = StyleModule(library: library, path: "in-process")
        let style = try module.makeStyle(options: ["detents": "0.25,fit:0.9,fit:300", "scrolling-expands": "false"])
        let layout = LayoutContext(containerBounds: Rect(x: 0, y: 0, width: 400, height: 800), preferredContentSize: { w in Size(width: w, height: 610) })
        XCTAssertEqual(style.frameOfPresentedView(layout), Rect(x: 0, y: 190, width: 400, height: 610))
        let i = style.interaction(layout)
        XCTAssertEqual(i.detents, [.fraction(0.25), .fitsContent(atMost: .fraction(0.9)), .fitsContent(atMost: .points(300))])
        XCTAssertFalse(i.prefersScrollingExpandsWhenScrolledToEdge)
        let expanding = try module.makeStyle(options: ["detents": "fit"])
        XCTAssertTrue(expanding.interaction(layout).prefersScrollingExpandsWhenScrolledToEdge)
        XCTAssertEqual(expanding.interaction(layout).detents, [.fitsContent(atMost: .fraction(1))])
    }
}
