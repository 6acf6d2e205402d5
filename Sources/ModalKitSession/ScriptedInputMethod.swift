// A deterministic input method for end-to-end tests: an input-method-unstable-v2 client on the
// session's compositor (sway relays it to the focused client's text-input-v3), driven by the test.
import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Foundation
import ModalKitSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// An input method the test scripts: it binds `zwp_input_method_manager_v2` on the session's
/// compositor (sway offers it; one input method per seat) and, on the test's word, sends a preedit
/// (``showPreedit(_:cursorBegin:cursorEnd:)``), commits text (``commit(_:)``) or deletes around the
/// caret, each closed by `zwp_input_method_v2.commit` with the count of `done` events received (the
/// protocol's serial). What the compositor relays from the focused text field is logged, one line
/// per event (``log``): `activate`, `deactivate`, `surrounding "TEXT" CURSOR ANCHOR`,
/// `change_cause N`, `content_type HINT PURPOSE`, `done N`, `unavailable`.
///
/// It runs its own connection on a thread of its own (the only one calling into it), polling every
/// 20 ms; ``stop()`` (and `deinit`) ends the thread and disconnects.
public final class ScriptedInputMethod {
    private let lock = NSLock()
    private var lines: [String] = []
    private var queue: [(OpaquePointer) -> Void] = []
    private var running = true
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var display: OpaquePointer?
    private var manager: OpaquePointer?
    private var seat: OpaquePointer?
    private var inputMethod: OpaquePointer?
    /// `done` events received (the serial of the next `commit`).
    private var doneCount: UInt32 = 0

    /// Connects to `session` (as the test's user: root may open the session's socket), binds the
    /// first seat and the input-method manager, and starts the thread.
    /// - Throws: `HarnessError` when the compositor cannot be reached or offers no
    ///   `zwp_input_method_manager_v2`.
    public init(session: WaylandSession) throws {
        guard let display = wl_display_connect(session.socketPath) else {
            throw HarnessError("input method: cannot connect to \(session.socketPath)")
        }
        self.display = display
        let registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, ScriptedInputMethod.registryListener, Unmanaged.passUnretained(self).toOpaque())
        _ = wl_display_roundtrip(display)
        wl_registry_destroy(registry)
        guard let manager, let seat else {
            wl_display_disconnect(display)
            self.display = nil
            throw HarnessError("input method: the compositor offers no zwp_input_method_manager_v2 or wl_seat")
        }
        let im = zwp_input_method_manager_v2_get_input_method(manager, seat)!
        inputMethod = im
        zwp_input_method_v2_add_listener(im, ScriptedInputMethod.listener, Unmanaged.passUnretained(self).toOpaque())
        _ = wl_display_roundtrip(display)
        let thread = Thread { [unowned self] in loop() }
        thread.name = "ScriptedInputMethod"
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    /// The lines logged so far.
    public var log: [String] { lock.lock(); defer { lock.unlock() }; return lines }

    /// Waits (bounded) until a logged line satisfies `predicate`.
    public func waitForLine(timeout: Double = 10, _ predicate: (String) -> Bool) -> Bool {
        waitUntil(timeout: timeout, interval: 0.02) { log.contains(where: predicate) }
    }

    /// `set_preedit_string(text, begin, end)` + `commit`.
    public func showPreedit(_ text: String, cursorBegin: Int32, cursorEnd: Int32) {
        enqueue { im in zwp_input_method_v2_set_preedit_string(im, text, cursorBegin, cursorEnd) }
    }

    /// `commit_string(text)` (the preedit goes: an empty one is sent first) + `commit`.
    public func commit(_ text: String) {
        enqueue { im in
            zwp_input_method_v2_set_preedit_string(im, "", 0, 0)
            zwp_input_method_v2_commit_string(im, text)
        }
    }

    /// `delete_surrounding_text(before, after)` + `commit`.
    public func deleteSurrounding(before: UInt32, after: UInt32) {
        enqueue { im in zwp_input_method_v2_delete_surrounding_text(im, before, after) }
    }

    /// Ends the thread (bounded) and disconnects. Idempotent.
    public func stop() {
        lock.lock()
        let wasRunning = running && thread != nil
        running = false
        lock.unlock()
        if wasRunning { _ = finished.wait(timeout: .now() + 5) }
        thread = nil
        if let display {
            if let inputMethod { zwp_input_method_v2_destroy(inputMethod) }
            if let manager { zwp_input_method_manager_v2_destroy(manager) }
            if let seat { wl_seat_destroy(seat) }
            wl_display_disconnect(display)
        }
        inputMethod = nil
        manager = nil
        seat = nil
        display = nil
    }

    private func enqueue(_ request: @escaping (OpaquePointer) -> Void) {
        lock.lock()
        queue.append(request)
        lock.unlock()
    }

    private func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    private func loop() {
        defer { finished.signal() }
        guard let display else { return }
        while true {
            lock.lock()
            let keepGoing = running
            let requests = queue
            queue.removeAll()
            lock.unlock()
            guard keepGoing else { return }
            if let im = inputMethod {
                for request in requests {
                    request(im)
                    zwp_input_method_v2_commit(im, doneCount)
                }
            }
            if wl_display_flush(display) < 0 && errno != EAGAIN { append("error flush"); return }
            while wl_display_prepare_read(display) != 0 { _ = wl_display_dispatch_pending(display) }
            var fd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 20) > 0 {
                if wl_display_read_events(display) < 0 { append("error read"); return }
            } else {
                wl_display_cancel_read(display)
            }
            if wl_display_dispatch_pending(display) < 0 { append("error dispatch"); return }
        }
    }

    private static func text(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: strlen(p)), as: UTF8.self)
    }

    private static func me(_ data: UnsafeMutableRawPointer?) -> ScriptedInputMethod {
        Unmanaged<ScriptedInputMethod>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        let table = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        table.initialize(to: wl_registry_listener(
            global: { data, registry, name, interface, _ in
                let im = me(data)
                switch interface.map({ String(cString: $0) }) {
                case "zwp_input_method_manager_v2"? where im.manager == nil:
                    im.manager = OpaquePointer(wl_registry_bind(registry, name, cwl_zwp_input_method_manager_v2_interface(), 1))
                case "wl_seat"? where im.seat == nil:
                    im.seat = OpaquePointer(wl_registry_bind(registry, name, cwl_wl_seat_interface(), 1))
                default: break
                }
            },
            global_remove: { _, _, _ in }))
        return table
    }()

    private static let listener: UnsafeMutablePointer<zwp_input_method_v2_listener> = {
        let table = UnsafeMutablePointer<zwp_input_method_v2_listener>.allocate(capacity: 1)
        table.initialize(to: zwp_input_method_v2_listener(
            activate: { data, _ in me(data).append("activate") },
            deactivate: { data, _ in me(data).append("deactivate") },
            surrounding_text: { data, _, text, cursor, anchor in
                me(data).append("surrounding \(jsonQuoted(ScriptedInputMethod.text(text))) \(cursor) \(anchor)")
            },
            text_change_cause: { data, _, cause in me(data).append("change_cause \(cause)") },
            content_type: { data, _, hint, purpose in me(data).append("content_type \(hint) \(purpose)") },
            done: { data, _ in
                let im = me(data)
                im.doneCount &+= 1
                im.append("done \(im.doneCount)")
            },
            unavailable: { data, _ in me(data).append("unavailable") }))
        return table
    }()
}

/// `text` in double quotes with JSON's escapes (`JSONString.quoted`).
func jsonQuoted(_ text: String) -> String { JSONString.quoted(text) }
