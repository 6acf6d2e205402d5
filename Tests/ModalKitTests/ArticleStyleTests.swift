import Foundation
import ModalKit
import XCTest

// The two styles the article "Writing a style" writes out (Sources/ModalKit/ModalKit.docc/
// WritingAStyle.md, "What a style can say") — a confirmation card after UIKit's alert, and UIKit's
// page sheet — are these, character for character (testTheArticleShowsTheseStylesVerbatim…), each
// in at most 30 lines of Swift, blanks and comments aside; the side drawer, the third, is
// new-style's template, shown by README (StyleAuthoringTests). The tests below check what the
// article says they do. The confirm card has a name of its own: the shipped alert is another style.

// article: confirm card
/// A confirmation card after UIKit's alert: 270 pt wide and as tall as its content, centred over a
/// light dim, growing from 1.2× as it fades in and fading out where it is; a tap on the dim does
/// not dismiss it (Escape still does).
public enum ConfirmCardStyle: LoadablePresentationStyle {
    public static let name = "confirm-card"
    public static let summary = "270 pt card as tall as its content over a black dim 0 → 0.2, fades in from 1.2×"
    static let height = StyleOption.number("height", "card height when the content does not say", unit: "points",
                                           default: 150, in: 44...1000)
    public static let options = [height, .duration(default: "0.3")]

    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let cardHeight = try options.number(height)
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: .easeOut)
        // As tall as the content needs at that width (UIKit's preferredContentSize), else `height`;
        // never taller than the container less 40 pt (a taller content is clipped).
        style.frameOfPresentedView = { c in
            let b = c.containerBounds, w = max(0, min(270, b.width - 40))
            let h = max(0, min(c.preferredContentSize(fittingWidth: w)?.height ?? cardHeight, b.height - 40))
            return Rect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
        }
        style.cornerStyle = { _ in CornerStyle(radius: 14) }
        style.chrome = { _ in PresentedViewChrome(backgroundColor: .white) }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.2 * progress) }
        // Presenting: from 1.2× to 1× as it fades in; dismissing: the fade alone.
        style.presentedViewTransform = { progress, _, c in
            ViewTransform(scale: c.phase == .present ? 1.2 - 0.2 * progress : 1, alpha: progress)
        }
        style.shouldDismissOnTap = { _, _ in false }
        return style
    }
}
// article: end

// article: page sheet
/// UIKit's page sheet: a sheet resting at half or 90 % of the container, a grabber, dragged down
/// to dismiss, while the view underneath recedes (shrinks, rounds its corners).
public enum PageSheetStyle: LoadablePresentationStyle {
    public static let name = "page-sheet"
    public static let summary = "sheet at 50 % or 90 % height with a grabber; the view underneath recedes"
    public static let options: [StyleOption] = [.duration(), .curve(), .dismissible()]

    public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
        let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())
        let interaction = InteractionDeclaration(dismissGesture: .drag(.down), detents: [.fraction(0.5), .fraction(0.9)],
                                                 isDismissible: try options.dismissible())
        // The frame is the largest detent's; at the smaller one the host makes the sheet that tall.
        style.frameOfPresentedView = { c in
            let b = c.containerBounds, h = Detent.fraction(0.9).resolved(containerLength: b.height)
            return Rect(x: b.minX, y: b.maxY - h, width: b.width, height: h)
        }
        style.cornerStyle = { _ in CornerStyle(radius: 10, corners: .top) }
        style.chrome = { _ in PresentedViewChrome(backgroundColor: .white, grabber: PresentedViewChrome.grabberColor) }
        style.interaction = { _ in interaction }
        style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: 0.4 * progress) }
        style.presentingViewAppearance = { progress, _ in
            PresentingViewAppearance(transform: ViewTransform(scale: 1 - 0.08 * progress), cornerRadius: 10 * progress)
        }
        return style
    }
}
// article: end

final class ArticleStyleTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 390, height: 844)

    /// The text between `// article: NAME` and the next `// article: end` in this file.
    private func block(_ name: String) throws -> String {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        guard let start = source.range(of: "// article: \(name)\n"),
              let end = source.range(of: "// article: end\n", range: start.upperBound..<source.endIndex) else {
            throw XCTSkip("no block \(name)")
        }
        return String(source[start.upperBound..<end.lowerBound])
    }

    func testTheArticleShowsTheseStylesVerbatimInThirtyLinesEach() throws {
        let articlePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ModalKit/ModalKit.docc/WritingAStyle.md").path
        let article = try String(contentsOfFile: articlePath, encoding: .utf8)
        for name in ["confirm card", "page sheet"] {
            let code = try block(name)
            XCTAssertTrue(article.contains("```swift\n" + code + "```\n"), "the article shows the \(name) as it is here")
            let lines = code.split(separator: "\n").filter {
                let t = $0.trimmingCharacters(in: .whitespaces)
                return !t.isEmpty && !t.hasPrefix("//")
            }
            XCTAssertLessThanOrEqual(lines.count, 30, "\(name): at most 30 lines of Swift")
        }
    }

    func testTheConfirmCard() throws {
        let style = try ConfirmCardStyle.makeStyle(options: StyleOptions([:], declared: ConfirmCardStyle.options))
        let layout = LayoutContext(containerBounds: bounds)
        XCTAssertEqual(style.frameOfPresentedView(layout), Rect(x: 60, y: 347, width: 270, height: 150))
        XCTAssertEqual(style.cornerStyle(layout), CornerStyle(radius: 14, corners: .all))
        let present = TransitionContext(phase: .present, containerBounds: bounds)
        let dismiss = TransitionContext(phase: .dismiss, containerBounds: bounds)
        XCTAssertEqual(style.transitionDuration(present), 0.3)
        XCTAssertEqual(style.dimmingAppearance(0.5, present), DimmingAppearance(color: .black, alpha: 0.1))
        let frame = style.frameOfPresentedView(layout)
        XCTAssertEqual(style.presentedViewTransform(0, frame, present), ViewTransform(scale: 1.2, alpha: 0))
        XCTAssertEqual(style.presentedViewTransform(1, frame, present), .identity)
        XCTAssertEqual(style.presentedViewTransform(0.5, frame, dismiss), ViewTransform(scale: 1, alpha: 0.5))
        // Through a host: a tap on the dim leaves it presented; Escape dismisses.
        let host = PresentationHost(style: style, presenting: Empty())
        host.layout(containerSize: bounds.size, scale: 1)
        host.present(Empty(), now: 0)
        host.update(now: 1)
        XCTAssertEqual(host.state, .presented)
        host.handle(.touchDown(id: 1, Point(x: 195, y: 60)), now: 2)
        host.handle(.touchUp(id: 1), now: 2.1)
        host.update(now: 3)
        XCTAssertEqual(host.state, .presented, "the tap does not dismiss")
        host.handle(.key(.escape, pressed: true), now: 4)
        XCTAssertEqual(host.state, .dismissing)
    }

    /// At rest on a detent the dim and the view underneath get the same progress: 1 at a dimmed
    /// detent (here both: no undimmed detent), 0 at or below the largest undimmed one.
    func testThePageSheetRecedesAtItsDetents() throws {
        let style = try PageSheetStyle.makeStyle(options: StyleOptions([:], declared: PageSheetStyle.options))
        let controller = PresentationController(style: style)
        controller.layout(containerBounds: bounds)
        controller.present(now: 0)
        controller.update(now: 1)
        XCTAssertEqual(controller.styleFrame.height, 759.6, accuracy: 1e-9, "the frame: 90 % of 844")
        XCTAssertEqual(controller.currentDetent, 0, "it presents onto the smaller detent")
        XCTAssertEqual(controller.presentedViewFrame, Rect(x: 0, y: 422, width: 390, height: 422),
                       "resting at 50 %, that tall")
        var snap = controller.snapshot(at: 1)
        XCTAssertEqual(snap.presentedRect, Rect(x: 0, y: 422, width: 390, height: 422))
        XCTAssertEqual(snap.presentingAppearance, PresentingViewAppearance(transform: ViewTransform(scale: 0.92), cornerRadius: 10))
        XCTAssertEqual(snap.dim.alpha, 0.4, accuracy: 1e-12)
        XCTAssertEqual(snap.chrome.grabber, PresentedViewChrome.grabberColor)

        // With the smaller detent undimmed (UIKit's largestUndimmedDetentIdentifier), resting there
        // the view underneath is as if uncovered.
        style.interaction = { _ in
            InteractionDeclaration(dismissGesture: .drag(.down), detents: [.fraction(0.5), .fraction(0.9)], largestUndimmedDetent: 0)
        }
        controller.layout(containerBounds: bounds)
        snap = controller.snapshot(at: 2)
        XCTAssertEqual(snap.presentingAppearance, PresentingViewAppearance(transform: ViewTransform(scale: 1), cornerRadius: 0))
        XCTAssertEqual(snap.dim.alpha, 0, accuracy: 1e-12)
    }
}

/// A content that draws nothing and takes no input.
private final class Empty: PresentationContent {
    var invalidation: ContentInvalidation = .none
    func draw(into image: OpaquePointer, size: Size, scale: Double) { invalidation = .none }
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}
