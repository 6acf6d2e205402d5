import Glibc
import ModalKit
import ModalKitWayland
import ModalKitWaylandClient
import XCTest

/// `PresentationWindow` over ``WireCompositor``: its frame numbers and presentation feedback, the
/// moment it is first on screen, the release of caches at rest, a style swapped mid-transition, and
/// presentations asked for by content during input, at the input event's time. Each scenario runs
/// the window's real loop on the test's thread (the compositor answers from that loop too), bounded
/// by a deadline after which the window is closed and the test fails.
final class PresentationWindowTests: XCTestCase {
    /// Content of one colour that hears the primary button: `onRelease` gets the release's `now`.
    final class Tappable: PresentationContent {
        let color: Color
        private(set) var invalidation = ContentInvalidation.all
        var onPress: (Double) -> Void = { _ in }
        var onRelease: (Double) -> Void = { _ in }
        init(_ rgb: UInt32) { color = Color(rgb: rgb) }
        func draw(into image: OpaquePointer, size: Size, scale: Double) {
            let px = Draw.pixelSize(of: image)
            Draw.fill(image, width: px.width, height: px.height, color: color)
            invalidation = .none
        }
        func handle(_ input: ContentInput, now: Double) -> Bool {
            switch input {
            case .press: onPress(now)
            case .release: onRelease(now)
            default: return false
            }
            return true
        }
    }

    /// The timers of ``after(_:on:_:)``, invalidated when the run ends.
    private var timers: [EventLoopTimer] = []

    /// A window on `compositor`; `feedback`: ask for presentation feedback.
    private func makeWindow(_ compositor: WireCompositor, content: PresentationContent, style: PresentationStyle,
                            feedback: Bool = false) throws -> PresentationWindow {
        let connection = try compositor.connect()
        var options = PresentationWindowOptions(title: "test")
        options.size = (200, 300)
        options.compositing = .pixman
        options.presentationFeedback = feedback
        options.reducedMotion = .never
        options.accessibility = false
        options.closesOnTerminationSignals = false
        return try PresentationWindow(content: content, style: .object(style), options: options, connection: connection)
    }

    /// Runs `window` on `compositor` until it is closed, or `limit` seconds (then closed, and
    /// false); afterwards the scenario's callbacks and timers are dropped (they hold the window).
    private func run(_ window: PresentationWindow, on compositor: WireCompositor, limit: Double = 10) throws -> Bool {
        var timedOut = false
        after(limit, on: window) {
            timedOut = true
            window.close()
        }
        defer {
            timers.forEach { $0.invalidate() }
            timers.removeAll()
            compositor.onCommit = nil
            compositor.stop()
            window.onFrame = nil
            window.onFramePresented = nil
            window.onAppear = nil
            window.onRest = nil
            window.host.onStateChange = { _ in }
        }
        try window.run()
        return !timedOut
    }

    /// Runs `body` `seconds` from now on `window`'s loop.
    private func after(_ seconds: Double, on window: PresentationWindow, _ body: @escaping () -> Void) {
        let timer = EventLoopTimer(connection: window.connection, handler: body)
        timer.schedule(after: seconds)
        timers.append(timer)
    }

    private func style(duration: Double) -> PresentationStyle {
        let s = insetStyle()
        s.transitionDuration = { _ in duration }
        return s
    }

    // MARK: Frame numbers

    /// ``FrameReport/number`` runs 1, 2, … over the frames that changed what the window shows,
    /// each reported once, after its commit; a commit the window makes only to ack a configure (same
    /// size: nothing new drawn) is not numbered and its presentation is not reported; every
    /// presented number is one the window reported, in order.
    func testFramesAreNumberedOnePerChangedCommitAndPresentedByNumber() throws {
        let compositor = try WireCompositor(globals: WireCompositor.base + [("wp_presentation", 1)])
        compositor.presentsWithFrameDone = true
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: style(duration: 0.1), feedback: true)
        var reports: [FrameReport] = []
        var presented: [Int] = []
        var log: [String] = []
        var configureSent = false
        window.onFrame = { report in
            reports.append(report)
            log.append("frame \(report.number)")
        }
        window.onFramePresented = { number, _ in presented.append(number) }
        compositor.onCommit = { commit in
            log.append(commit.buffer != nil ? "commit+buffer" : "commit")
            if commit.buffer != nil, reports.count == 1, window.host.levelCount == 0 {
                window.present(Solid(0xFF8C00))
            }
            if configureSent, commit.buffer != nil {
                self.after(0.2, on: window) { window.close() }
            }
        }
        window.host.onStateChange = { state in
            guard state == .presented else { return }
            // Idle (the last frame of the transition drawn): a configure of the same size.
            self.after(0.1, on: window) {
                configureSent = true
                log.append("configure")
                compositor.configure(width: 200, height: 300)
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "the scenario did not finish: \(log)")
        XCTAssertGreaterThan(reports.count, 2, "\(log)")
        XCTAssertEqual(reports.map(\.number), Array(1...reports.count))
        XCTAssertEqual(reports.map(\.backend), Array(repeating: .pixman, count: reports.count))
        XCTAssertEqual(reports.map(\.time), reports.map(\.time).sorted(), "frame times never go back")
        // Each numbered frame is reported before the compositor reads its commit (a buffer attached).
        for (i, line) in log.enumerated() where line.hasPrefix("frame ") {
            XCTAssertEqual(log.dropFirst(i + 1).first { $0.hasPrefix("commit") }, "commit+buffer", "\(log)")
        }
        // The configure's ack: one commit with a buffer, no frame number.
        let afterConfigure = log.drop { $0 != "configure" }.dropFirst()
        XCTAssertEqual(Array(afterConfigure), ["commit+buffer"], "\(log)")
        XCTAssertFalse(presented.isEmpty)
        XCTAssertEqual(presented, presented.sorted())
        XCTAssertEqual(Set(presented).count, presented.count)
        XCTAssertTrue(Set(presented).isSubset(of: reports.map(\.number)), "\(presented)")
    }

    // MARK: First on screen

    /// Without presentation feedback: on screen at the frame callback after the first committed
    /// frame, not before it, and once.
    func testAppearsAtTheFrameCallbackAfterTheFirstFrame() throws {
        let compositor = try WireCompositor()
        compositor.frameDoneDelay = nil
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: style(duration: 0.1))
        var log: [String] = []
        window.onAppear = { log.append("appear") }
        compositor.onCommit = { commit in
            guard commit.buffer != nil else { return }
            log.append("commit+buffer")
            self.after(0.2, on: window) {
                log.append("done")
                compositor.sendFrameDone()
                self.after(0.2, on: window) { window.close() }
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        XCTAssertEqual(log, ["commit+buffer", "done", "appear"])
    }

    /// A compositor that resizes the window right after its first frame's callback (sway tiling
    /// it): on screen only at the callback after the frame at the new size.
    func testAResizeWithTheFirstCallbackPutsAppearingOffToTheFrameAtTheNewSize() throws {
        let compositor = try WireCompositor()
        compositor.frameDoneDelay = nil
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: style(duration: 0.1))
        var log: [String] = []
        window.onAppear = { log.append("appear") }
        compositor.onCommit = { commit in
            guard let size = commit.buffer else { return }
            log.append("commit \(size.width)x\(size.height)")
            self.after(0.1, on: window) {
                if size.width == 200 {
                    log.append("done+configure")
                    compositor.sendFrameDone()
                    compositor.configure(width: 320, height: 400)   // read together with the done
                } else {
                    log.append("done")
                    compositor.sendFrameDone()
                    self.after(0.2, on: window) { window.close() }
                }
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        XCTAssertEqual(log, ["commit 200x300", "done+configure", "commit 320x400", "done", "appear"])
    }

    /// With presentation feedback: on screen when the first frame is reported shown, without
    /// waiting for a frame callback.
    func testAppearsAtTheFirstPresentationFeedback() throws {
        let compositor = try WireCompositor(globals: WireCompositor.base + [("wp_presentation", 1)])
        compositor.frameDoneDelay = nil
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: style(duration: 0.1), feedback: true)
        var log: [String] = []
        window.onAppear = { log.append("appear") }
        window.onFramePresented = { number, _ in log.append("presented \(number)") }
        compositor.onCommit = { commit in
            guard commit.buffer != nil else { return }
            log.append("commit+buffer")
            self.after(0.1, on: window) {
                log.append("feedback")
                compositor.sendPresented()
                self.after(0.2, on: window) { window.close() }
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        XCTAssertEqual(log, ["commit+buffer", "feedback", "presented 1", "appear"])
    }

    // MARK: Rest

    /// Nothing presented and nothing moving for `restDelay` seconds: the host's caches go once
    /// (`onRest`), not while a presentation is shown, and not before `restDelay` has passed since
    /// the last frame.
    func testCachesGoOnceAtRestAfterADismissalNotWhilePresented() throws {
        let compositor = try WireCompositor()
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: style(duration: 0.1))
        var rests: [Double] = []
        var lastFrame = 0.0
        var log: [String] = []
        window.onFrame = { report in lastFrame = report.time }   // the clock when the frame was drawn
        window.onRest = {
            rests.append(monotonicSeconds())
            log.append("rest")
        }
        window.onAppear = {
            // The first frame's rest is put off by the presentation.
            window.present(Solid(0xFF8C00))
        }
        window.host.onStateChange = { state in
            log.append(state.rawValue)
            switch state {
            case .presented:
                // Shown and still for longer than the delay: no rest.
                self.after(PresentationWindow.restDelay + 0.3, on: window) {
                    log.append("dismiss")
                    window.dismiss()
                }
            case .dismissed:
                self.after(PresentationWindow.restDelay * 2 + 0.5, on: window) { window.close() }
            default: break
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        XCTAssertEqual(log, ["presenting", "presented", "dismiss", "dismissing", "dismissed", "rest"])
        XCTAssertEqual(rests.count, 1)
        if let rest = rests.first {
            XCTAssertGreaterThanOrEqual(rest - lastFrame, PresentationWindow.restDelay)
        }
    }

    // MARK: Style swap

    /// `replaceStyle` during a transition waits for the frame that ends it; a later call replaces
    /// the waiting one (its completion never runs); idle, it applies at once.
    func testAStyleReplacedMidTransitionIsSwappedAfterTheTransitionsLastFrame() throws {
        let compositor = try WireCompositor()
        let first = style(duration: 0.15), second = style(duration: 0.15), third = style(duration: 0.15)
        let window = try makeWindow(compositor, content: Solid(0x2040A0), style: first)
        var log: [String] = []
        var framesWithFirst = 0
        window.onFrame = { _ in
            if window.host.style === first { framesWithFirst += 1 }
            if window.host.style === third, log.last == "third applied" { log.append("frame with third") }
        }
        window.onAppear = {
            window.present(Solid(0xFF8C00))
            window.replaceStyle(second) { log.append("second applied") }
            window.replaceStyle(third) {
                log.append("third applied")
                XCTAssertEqual(window.host.state, .presented)
                XCTAssertFalse(window.host.isAnimating)
            }
            XCTAssertTrue(window.host.style === first, "not while the presentation runs")
        }
        window.host.onStateChange = { state in
            log.append(state.rawValue)
            if state == .presented { self.after(0.3, on: window) { window.close() } }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        XCTAssertEqual(log, ["presenting", "presented", "third applied", "frame with third"])
        XCTAssertTrue(window.host.style === third)
        XCTAssertGreaterThan(framesWithFirst, 1)

        // Idle: at once, the completion within the call.
        var applied = false
        window.replaceStyle(second) { applied = true }
        XCTAssertTrue(applied)
        XCTAssertTrue(window.host.style === second)
    }

    // MARK: Present and dismiss from content, at the input event's time

    /// A content's handler presents and dismisses with the `now` it received: the compositor's time
    /// of the event (the press and the release 300 ms apart as stamped, though read together), and
    /// the transition starts then — not when the client read the events (100 ms later).
    func testContentPresentsAndDismissesAtTheInputEventsTime() throws {
        let compositor = try WireCompositor()
        let root = Tappable(0x2040A0), card = Tappable(0xFF8C00)
        let window = try makeWindow(compositor, content: root, style: style(duration: 0.4))
        var pressed: [Double] = [], released: [Double] = []
        var log: [String] = []
        var presentedAccepted = false, dismissedAccepted = false
        root.onPress = { pressed.append($0) }
        var starts: [(atStart: Double, beforeEnd: Double, atEnd: Double)] = []
        /// The level's linear time fraction at `now`, just before its end and at its end.
        func fractions(from now: Double) {
            let d = window.host.transitionDuration
            starts.append((window.host.fraction(at: now), window.host.fraction(at: now + d - 0.05),
                           window.host.fraction(at: now + d)))
        }
        root.onRelease = { now in
            released.append(now)
            log.append("present")
            presentedAccepted = window.present(card, now: now)
            fractions(from: now)
        }
        card.onPress = { pressed.append($0) }
        card.onRelease = { now in
            released.append(now)
            log.append("dismiss")
            dismissedAccepted = window.dismiss(now: now)
            fractions(from: now)
        }
        func ms() -> UInt32 { UInt32(truncatingIfNeeded: Int(monotonicSeconds() * 1000)) }
        /// A click at (x, y) pressed 400 ms and released 100 ms before it is sent, after a motion
        /// stamped as it is sent: read with the click, that motion is the event that waited least
        /// and sets the window's input clock's base (InputClock). Without it the base was the
        /// appear's motion, and when that one had waited longer (the client busy with its first
        /// frames under load) the click's smaller waits each reset the base: the press and the
        /// release took their read times, 0.23 s apart instead of 0.3.
        func click(x: Double, y: Double) {
            let t = ms()
            compositor.sendPointer([.motion(time: t, x: x, y: y), .frame,
                                    .motion(time: t - 400, x: x, y: y), .button(time: t - 400, pressed: true), .frame,
                                    .button(time: t - 100, pressed: false), .frame])
        }
        window.onAppear = {
            // The pointer enters; its first stamped event (waited least) sets the clock's base.
            compositor.sendPointer([.enter(x: 10, y: 10), .motion(time: ms(), x: 10, y: 10), .frame])
            self.after(0.05, on: window) { click(x: 10, y: 10) }
        }
        window.host.onStateChange = { state in
            log.append(state.rawValue)
            switch state {
            case .presented: self.after(0.05, on: window) { click(x: 100, y: 150) }   // inside the card (20…180 × 110…190)
            case .dismissed: window.close()
            default: break
            }
        }
        XCTAssertTrue(try run(window, on: compositor), "\(log)")
        root.onRelease = { _ in }   // they hold the window
        card.onRelease = { _ in }
        XCTAssertEqual(log, ["present", "presenting", "presented", "dismiss", "dismissing", "dismissed"])
        XCTAssertTrue(presentedAccepted)
        XCTAssertTrue(dismissedAccepted)
        XCTAssertEqual(pressed.count, 2)
        XCTAssertEqual(released.count, 2)
        for (p, r) in zip(pressed, released) {
            XCTAssertEqual(r - p, 0.3, accuracy: 1e-6, "the stamps' interval, not the read's (0)")
        }
        // The transitions run from the release's time: a start at the read (100 ms later) would not
        // have ended at release + duration.
        XCTAssertEqual(starts.count, 2)
        if starts.count == 2 {
            XCTAssertEqual(starts[0].atStart, 0)
            XCTAssertGreaterThan(starts[0].beforeEnd, 0)
            XCTAssertLessThan(starts[0].beforeEnd, 1)
            XCTAssertEqual(starts[0].atEnd, 1)
            XCTAssertEqual(starts[1].atStart, 1)
            XCTAssertGreaterThan(starts[1].beforeEnd, 0)
            XCTAssertLessThan(starts[1].beforeEnd, 1)
            XCTAssertEqual(starts[1].atEnd, 0)
        }
    }
}
