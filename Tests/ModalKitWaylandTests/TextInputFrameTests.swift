import ModalKit
import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// The text-input state on a window's frame path (``WireCompositor`` with `zwp_text_input_manager_v3`):
/// frames drawn while a focused field does not change neither read the field's state nor send the
/// input method anything; a change sends what changed, closed by one `commit` (text-input-v3: the
/// client state is double-buffered and applied by `commit`).
final class TextInputFrameTests: XCTestCase {
    /// A focused field's stand-in: a fixed text-input state whose reads are counted; setting
    /// ``text`` invalidates it (as a text field does when the app sets its text).
    final class Field: PresentationContent {
        private(set) var invalidation = ContentInvalidation.all
        private(set) var reads = 0
        var text = "abc" { didSet { invalidation = .all } }
        var textInputState: TextInputState? {
            reads += 1
            return TextInputState(surroundingText: text, cursor: text.utf8.count, anchor: text.utf8.count,
                                  cursorRectangle: Rect(x: 10, y: 10, width: 1, height: 17))
        }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xFFFFFF))
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            guard case let .textInput(update) = input, let commit = update.commit else { return false }
            text += commit
            return true
        }
    }

    /// The presenting content, redrawn on every ``tick()`` (an animation beneath the field).
    final class Ticker: PresentationContent {
        private(set) var invalidation = ContentInvalidation.all
        func tick() { invalidation = .all }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0x204080))
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool { false }
    }

    private var timers: [EventLoopTimer] = []

    private func after(_ seconds: Double, on window: PresentationWindow, _ body: @escaping () -> Void) {
        let timer = EventLoopTimer(connection: window.connection, handler: body)
        timer.schedule(after: seconds)
        timers.append(timer)
    }

    /// The field presented over the ticker; at rest, 20 frames of the ticker alone, then the app
    /// sets the field's text, then an input method commits text (each followed by 3 frames).
    func testFramesWithoutAnEditSendNothingAndAnEditSendsOneCommit() throws {
        let compositor = try WireCompositor(globals: WireCompositor.base + [("zwp_text_input_manager_v3", 1)])
        let connection = try compositor.connect()
        var options = PresentationWindowOptions(title: "test")
        options.size = (200, 300)
        options.compositing = .pixman
        options.reducedMotion = .never
        options.accessibility = false
        options.closesOnTerminationSignals = false
        let style = insetStyle()
        style.transitionDuration = { _ in 0.05 }
        let ticker = Ticker(), field = Field()
        let window = try PresentationWindow(content: ticker, style: .object(style), options: options, connection: connection)

        enum Phase { case start, presenting, ticking(left: Int), edited(framesLeft: Int), imCommitted(framesLeft: Int), done }
        var phase = Phase.start
        var baseline = (requests: 0, reads: 0)
        var afterTicks: (requests: [WireCompositor.TextInputRequest], reads: Int)?
        var afterEdit: [WireCompositor.TextInputRequest]?
        var afterIM: [WireCompositor.TextInputRequest]?
        var timedOut = false
        func requests(since n: Int) -> [WireCompositor.TextInputRequest] { Array(compositor.textInputRequests[n...]) }

        window.host.onStateChange = { state in
            guard state == .presented else { return }
            // The frame that ends the transition follows; then the ticks begin.
            self.after(0.05, on: window) {
                baseline = (compositor.textInputRequests.count, field.reads)
                phase = .ticking(left: 20)
                ticker.tick()
                window.setNeedsRedraw()
            }
        }
        compositor.onCommit = { commit in
            guard commit.buffer != nil else { return }
            switch phase {
            case .start:
                compositor.enterTextInput()
                phase = .presenting
                window.present(field)
            case .presenting, .done:
                break
            case let .ticking(left) where left > 1:
                phase = .ticking(left: left - 1)
                ticker.tick()
                window.setNeedsRedraw()
            case .ticking:
                afterTicks = (requests(since: baseline.requests), field.reads - baseline.reads)
                baseline.requests = compositor.textInputRequests.count
                phase = .edited(framesLeft: 3)
                field.text = "abcd"
                window.setNeedsRedraw()
            case let .edited(left) where left > 1:
                phase = .edited(framesLeft: left - 1)
                ticker.tick()
                window.setNeedsRedraw()
            case .edited:
                afterEdit = requests(since: baseline.requests)
                baseline.requests = compositor.textInputRequests.count
                phase = .imCommitted(framesLeft: 3)
                // Serial = the commits the client sent so far: a current `done`.
                let commits = compositor.textInputRequests.filter { $0 == .commit }.count
                compositor.commitText("e", serial: UInt32(commits))
            case let .imCommitted(left) where left > 1:
                phase = .imCommitted(framesLeft: left - 1)
                ticker.tick()
                window.setNeedsRedraw()
            case .imCommitted:
                afterIM = requests(since: baseline.requests)
                phase = .done
                window.close()
            }
        }
        after(10, on: window) {
            timedOut = true
            window.close()
        }
        defer {
            timers.forEach { $0.invalidate() }
            timers.removeAll()
            compositor.onCommit = nil
            compositor.stop()
            window.host.onStateChange = { _ in }
        }
        try window.run()
        XCTAssertFalse(timedOut, "the scenario did not finish in 10 s")

        let first = Array(compositor.textInputRequests.prefix(6))
        XCTAssertEqual(first, [.enable, .setSurroundingText, .setTextChangeCause, .setContentType, .setCursorRectangle, .commit],
                       "the field's first state: enable, everything, commit")
        let ticks = try XCTUnwrap(afterTicks)
        XCTAssertEqual(ticks.requests, [], "20 frames without an edit send no text-input request")
        XCTAssertEqual(ticks.reads, 0, "nor read the field's state")
        XCTAssertEqual(afterEdit, [.setSurroundingText, .setTextChangeCause, .commit],
                       "the app's edit: the new text, then one commit")
        XCTAssertEqual(afterIM, [.setSurroundingText, .setTextChangeCause, .commit],
                       "the input method's commit: the new text, then one commit")
        XCTAssertEqual(field.text, "abcde")
    }
}
