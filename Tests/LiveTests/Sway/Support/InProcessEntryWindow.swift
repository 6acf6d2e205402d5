// A PresentationWindow run in the test process, on a thread of its own, against a headless sway:
// its content is a bare text entry (ProbeEntry) that takes typed text, input-method updates and
// the pasteboard's text, so the platform side of text entry is tested without the content module.
import Foundation
import ModalKit
import ModalKitSession
import ModalKitWayland
import ModalKitWaylandClient
#if canImport(Glibc)
import Glibc
#endif

/// A one-line text entry as content: the whole content is the field (I-beam cursor), the caret at
/// the end of the text; typed text (a key's `text` without Control) and input-method commits are
/// inserted, BackSpace deletes a character, Control+C copies the text, Control+V and a paste from
/// the platform insert the clipboard's. What it holds is published for the test's thread.
final class ProbeEntry: PresentationContent {
    struct Snapshot: Equatable {
        var text = ""
        var preedit: TextInputUpdate.Preedit?
        var updates = 0
        /// Every non-empty preedit shown so far, in order.
        var preedits: [String] = []
    }

    private let lock = NSLock()
    private var published = Snapshot()
    private var text = ""
    private var preedit: TextInputUpdate.Preedit?
    private var updates = 0
    private var preedits: [String] = []
    private(set) var invalidation = ContentInvalidation.all
    /// The field's caret box in the content's points (what the cursor rectangle is made from).
    static let caretBox = Rect(x: 24, y: 40, width: 2, height: 18)

    /// What the loop thread last published.
    var snapshot: Snapshot { lock.lock(); defer { lock.unlock() }; return published }

    private func publish() {
        lock.lock()
        published = Snapshot(text: text, preedit: preedit, updates: updates, preedits: preedits)
        lock.unlock()
        invalidation = .all
    }

    var textInputState: TextInputState? {
        TextInputState(surroundingText: text, cursor: text.utf8.count, anchor: text.utf8.count, cursorRectangle: Self.caretBox)
    }

    func cursorShape(at point: Point) -> CursorShape { .text }

    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xF0F0F0))
        invalidation = .none
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case let .keyboard(key) where key.phase != .release:
            if key.modifiers.contains(.control) {
                switch key.keysym {
                case 0x63: Pasteboard.general.setText(text)   // c
                case 0x76:                                    // v
                    Pasteboard.general.requestText { [weak self] pasted in
                        guard let self, let pasted else { return }
                        text += pasted
                        publish()
                    }
                default: return false
                }
                return true
            }
            if key.keysym == 0xff08 {   // BackSpace
                if !text.isEmpty { text.removeLast() }
            } else if !key.text.isEmpty {
                text += key.text
            } else {
                return false
            }
            publish()
            return true
        case let .textInput(update):
            updates += 1
            preedit = nil
            let bytes = Array(text.utf8)
            if update.deleteBefore <= bytes.count, update.deleteAfter == 0 {
                text = String(decoding: bytes.dropLast(update.deleteBefore), as: UTF8.self)
            }
            if let commit = update.commit { text += commit }
            preedit = update.preedit
            if let p = update.preedit, !p.text.isEmpty { preedits.append(p.text) }
            publish()
            return true
        default:
            return false
        }
    }
}

/// A `PresentationWindow` over a ``ProbeEntry`` on `session`'s compositor, created and run on a
/// thread of its own (a Wayland connection is used from one thread); ``close()`` ends it through a
/// pipe the loop watches.
final class InProcessEntryWindow {
    let entry = ProbeEntry()
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var wake: [Int32] = [-1, -1]
    private let lock = NSLock()
    private var failure: String?
    private var started = false

    /// The error the window's loop ended with, if any.
    var error: String? { lock.lock(); defer { lock.unlock() }; return failure }
    /// Whether the window was made and its loop is running.
    var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return started }

    init(session: WaylandSession, title: String = "text-entry-probe") throws {
        guard pipe(&wake) == 0 else { throw HarnessError("pipe failed") }
        let socket = session.socketPath, readEnd = wake[0]
        let thread = Thread { [unowned self] in
            defer { finished.signal() }
            do {
                let connection = try WaylandConnection(socket: socket)
                var options = PresentationWindowOptions(title: title)
                options.size = (400, 200)
                options.compositing = .pixman
                options.reducedMotion = .never
                options.accessibility = false
                options.closesOnTerminationSignals = false
                let window = try PresentationWindow(content: entry, style: .object(PresentationStyle()), options: options,
                                                    connection: connection)
                connection.watch(fd: readEnd) { _ in window.close() }
                lock.lock(); started = true; lock.unlock()
                try window.run()
            } catch {
                lock.lock(); failure = "\(error)"; lock.unlock()
            }
            lock.lock(); started = false; lock.unlock()
        }
        self.thread = thread
        thread.start()
    }

    deinit { close() }

    /// Ends the window's loop (bounded) and closes the pipe. Idempotent.
    func close() {
        guard thread != nil else { return }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        _ = finished.wait(timeout: .now() + 5)
        thread = nil
        close(wake[0])
        close(wake[1])
    }

    private func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
