import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc

/// What a window tells the input method while one of its text fields has keyboard focus: the
/// client state of `zwp_text_input_v3` (text-input-unstable-v3.xml), sent with ``Window/setTextInput(_:cause:)``.
public struct TextInputRequest: Equatable, Sendable {
    /// The text around the caret, UTF-8 (`set_surrounding_text`; the protocol allows at most
    /// 4000 bytes: longer text is cut to whole Unicode scalars around the caret when sent).
    public var surroundingText: String
    /// The caret and the other end of the selection: byte offsets into ``surroundingText``.
    public var cursor: Int
    /// The selection's other end (equal to ``cursor``: no selection), bytes.
    public var anchor: Int
    /// `set_content_type`'s `hint` bits and `purpose` value (the protocol's enums).
    public var contentHint: UInt32
    /// `set_content_type`'s purpose.
    public var contentPurpose: UInt32
    /// `set_cursor_rectangle`: the caret box's left edge in the window's surface coordinates
    /// (points, origin at the content's top left), where the input method places its candidates.
    public var cursorX: Int
    /// The caret box's top edge, surface points.
    public var cursorY: Int
    /// The caret box's width, points.
    public var cursorWidth: Int
    /// The caret box's height, points.
    public var cursorHeight: Int

    /// A request from its parts; see each property for its unit.
    public init(surroundingText: String, cursor: Int, anchor: Int, contentHint: UInt32 = 0, contentPurpose: UInt32 = 0,
                cursorX: Int = 0, cursorY: Int = 0, cursorWidth: Int = 0, cursorHeight: Int = 0) {
        self.surroundingText = surroundingText
        self.cursor = cursor
        self.anchor = anchor
        self.contentHint = contentHint
        self.contentPurpose = contentPurpose
        self.cursorX = cursorX
        self.cursorY = cursorY
        self.cursorWidth = cursorWidth
        self.cursorHeight = cursorHeight
    }

    /// The protocol's limit on `set_surrounding_text` (bytes).
    public static let maxSurroundingBytes = 4000

    /// ``surroundingText`` cut to at most ``maxSurroundingBytes`` bytes of whole Unicode scalars
    /// around the caret, with the caret and anchor moved into it (clamped to it).
    var clippedSurrounding: (text: String, cursor: Int32, anchor: Int32) {
        let bytes = Array(surroundingText.utf8)
        let caret = min(max(cursor, 0), bytes.count), other = min(max(anchor, 0), bytes.count)
        guard bytes.count > Self.maxSurroundingBytes else { return (surroundingText, Int32(caret), Int32(other)) }
        func isBoundary(_ i: Int) -> Bool { i <= 0 || i >= bytes.count || bytes[i] & 0xC0 != 0x80 }
        var start = max(0, min(caret - Self.maxSurroundingBytes / 2, bytes.count - Self.maxSurroundingBytes))
        while !isBoundary(start) { start += 1 }
        var end = min(bytes.count, start + Self.maxSurroundingBytes)
        while !isBoundary(end) { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return (text, Int32(min(max(caret - start, 0), end - start)), Int32(min(max(other - start, 0), end - start)))
    }
}

/// Why the field's state changed, for `set_text_change_cause`.
public enum TextChangeCause: Sendable {
    /// The input method's own `done` changed it (the protocol's `input_method`).
    case inputMethod
    /// Anything else: typing through the keyboard, a paste, the pointer (`other`).
    case other
}

/// One `zwp_text_input_v3.done`: the double-buffered events before it, to apply in the protocol's
/// order (drop the preedit; delete around the caret; insert ``commit``; show ``preedit``). Strings
/// from the input method are untrusted: any length, invalid UTF-8 repaired (U+FFFD).
public struct TextInputEvent: Equatable, Sendable {
    /// `preedit_string`'s text (nil: none), and its cursor as byte offsets into it
    /// (`cursor_begin`, `cursor_end`; both −1: hide the cursor). Not checked here.
    public var preedit: String?
    /// The preedit's cursor start (bytes; −1: hidden).
    public var preeditCursorBegin: Int = 0
    /// The preedit's cursor end (bytes; −1: hidden).
    public var preeditCursorEnd: Int = 0
    /// `delete_surrounding_text`: bytes before and after the caret.
    public var deleteBefore: Int = 0
    /// Bytes after the caret to delete.
    public var deleteAfter: Int = 0
    /// `commit_string`'s text (nil: none).
    public var commit: String?
    /// `done`'s serial: the number of `commit` requests the compositor had seen.
    public var serial: UInt32 = 0
    /// Whether ``serial`` equals the commits sent (false: the input method has not seen the
    /// field's latest state; the update is still applied, as the protocol says).
    public var isCurrent = true
    /// The seat whose input method sent it.
    public var seat = SeatID(rawValue: 0)

    /// An empty event (no preedit, nothing deleted or committed).
    public init() {}
}

/// `zwp_text_input_manager_v3`: makes one text input per seat. Owns its proxy.
final class TextInputManager {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { zwp_text_input_manager_v3_destroy(proxy) }
}

/// A seat's `zwp_text_input_v3`: follows keyboard focus (`enter`/`leave` name the window's
/// surface); while its window has a ``TextInputRequest``, it is enabled and sent what changed
/// since the last `commit` (all of it after `enable`, which resets the state), each batch closed
/// by `commit`, which it counts; without one, or on `leave`, `disable` + `commit`. The events are
/// collected until `done` and go to the window as one ``TextInputEvent``. After a `done` whose
/// serial lags the commits sent, the state the update leads to is not sent (the protocol: the
/// client "should not change the current state"; the next change or matching `done` sends it).
/// Owns its proxy (`destroy` in `deinit`).
final class TextInput {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let seatID: SeatID
    private weak var connection: WaylandConnection?
    /// The window whose surface has this seat's text-input focus.
    private(set) weak var focus: Window?
    /// What the compositor has (nil: disabled).
    private(set) var sent: TextInputRequest?
    /// `commit` requests sent on this object (the serial a current `done` carries).
    private(set) var commits: UInt32 = 0
    /// The serial of the last `done` (nil: none yet).
    private var lastDone: UInt32?
    /// The events since the last `done`.
    private var pending = TextInputEvent()

    init(manager: TextInputManager, seat: OpaquePointer, seatID: SeatID, connection: WaylandConnection) {
        proxy = zwp_text_input_manager_v3_get_text_input(manager.proxy, seat)
        display = manager.display
        self.seatID = seatID
        self.connection = connection
        zwp_text_input_v3_add_listener(proxy, TextInput.listener, userData(self))
    }

    deinit { zwp_text_input_v3_destroy(proxy) }

    /// The window was closed: forget it (its surface is gone; the compositor sends `leave`).
    func windowClosed(_ window: Window) {
        if focus === window { focus = nil; sent = nil }
    }

    /// Sends `request` (nil: disable) if it differs from what the compositor has.
    /// - Parameter cause: `.inputMethod` right after a `done`: nothing is sent when that `done`
    ///   lagged behind the commits sent.
    func update(_ request: TextInputRequest?, cause: TextChangeCause) {
        guard focus != nil || request == nil else { return }
        if cause == .inputMethod, let lastDone, lastDone != commits { return }
        guard request != sent else { return }
        guard let request else {
            zwp_text_input_v3_disable(proxy)
            commit()
            sent = nil
            return
        }
        let old = sent
        if old == nil { zwp_text_input_v3_enable(proxy) }
        if old == nil || old!.surroundingText != request.surroundingText || old!.cursor != request.cursor
            || old!.anchor != request.anchor {
            let s = request.clippedSurrounding
            zwp_text_input_v3_set_surrounding_text(proxy, s.text, s.cursor, s.anchor)
            zwp_text_input_v3_set_text_change_cause(proxy, cause == .inputMethod
                ? ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue : ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue)
        }
        if old == nil || old!.contentHint != request.contentHint || old!.contentPurpose != request.contentPurpose {
            zwp_text_input_v3_set_content_type(proxy, request.contentHint, request.contentPurpose)
        }
        if old == nil || old!.cursorX != request.cursorX || old!.cursorY != request.cursorY
            || old!.cursorWidth != request.cursorWidth || old!.cursorHeight != request.cursorHeight {
            zwp_text_input_v3_set_cursor_rectangle(proxy, Self.clamp(request.cursorX), Self.clamp(request.cursorY),
                                                   Self.clamp(request.cursorWidth), Self.clamp(request.cursorHeight))
        }
        commit()
        sent = request
    }

    private static func clamp(_ v: Int) -> Int32 { Int32(clamping: v) }

    private func commit() {
        zwp_text_input_v3_commit(proxy)
        commits &+= 1
    }

    private func enter(_ surface: OpaquePointer?) {
        guard let window = connection?.window(for: surface) else { return }
        focus = window
        pending = TextInputEvent()
        update(window.textInputRequest, cause: .other)
    }

    private func leave() {
        if focus != nil { update(nil, cause: .other) }
        focus = nil
        sent = nil
        pending = TextInputEvent()
    }

    private func done(serial: UInt32) {
        var event = pending
        pending = TextInputEvent()
        lastDone = serial
        event.serial = serial
        event.isCurrent = serial == commits
        event.seat = seatID
        focus?.deliver(event)
    }

    /// A C string from the compositor as a Swift string of any length, invalid UTF-8 repaired.
    static func untrusted(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }

    private static let listener = listenerTable(zwp_text_input_v3_listener(
        enter: { data, _, surface in owner(data, as: TextInput.self).enter(surface) },
        leave: { data, _, _ in owner(data, as: TextInput.self).leave() },
        preedit_string: { data, _, text, begin, end in
            let input = owner(data, as: TextInput.self)
            input.pending.preedit = untrusted(text)
            input.pending.preeditCursorBegin = Int(begin)
            input.pending.preeditCursorEnd = Int(end)
        },
        commit_string: { data, _, text in owner(data, as: TextInput.self).pending.commit = untrusted(text) },
        delete_surrounding_text: { data, _, before, after in
            let input = owner(data, as: TextInput.self)
            input.pending.deleteBefore = Int(before)
            input.pending.deleteAfter = Int(after)
        },
        done: { data, _, serial in withOwner(data, as: TextInput.self) { $0.done(serial: serial) } }))
}
