import ModalKit
import ModalKitWaylandClient

/// The window driver's part between the host's text entry and the window's input method
/// (text-input-v3) and pointer cursor: the focused field's ``TextInputState`` becomes the window's
/// `TextInputRequest` (sent when it changed, after input and before each frame); an input method's
/// `TextInputEvent` becomes one ``TextInputUpdate`` for ``PresentationHost/deliverTextInput(_:now:)``;
/// the content's ``CursorShape`` under the pointer becomes the window's content cursor names.
///
/// After input it always asks the host; after a frame only when something the state depends on
/// moved since it last asked (``SyncKey``): a frame drawn while a focused field does not change
/// (another view animating, a hover elsewhere) neither reads the field's state nor sends anything.
struct TextInputBridge {
    /// Where the pointer was last over the content (container points); nil: not over it.
    private(set) var pointer: Point?

    /// What the host's text-input state and content cursor depend on: the host's
    /// ``PresentationHost/textInputVersion`` (input, levels, layout, the focused content's
    /// invalidation), the number of levels, where the top level's presented view is, the pointer.
    struct SyncKey: Equatable {
        var version: Int
        var levels: Int
        var topRect: Rect?
        var pointer: Point?
    }
    /// The key of the last sync (nil: none yet).
    private(set) var synced: SyncKey?

    private func key(_ host: PresentationHost, version: Int, now: Double) -> SyncKey {
        let n = host.levelCount
        return SyncKey(version: version, levels: n, topRect: n > 0 ? host.presentedViewRect(at: now, level: n) : nil,
                       pointer: pointer)
    }

    /// The request for `state`: the same text, offsets and content type; the cursor rectangle in
    /// surface coordinates — the window's content surface, whose origin is the container's (a
    /// client-side title bar is a sub-surface above it) — rounded outwards to whole points.
    static func request(for state: TextInputState?) -> TextInputRequest? {
        guard let state else { return nil }
        let r = state.cursorRectangle
        func whole(_ v: Double, _ round: FloatingPointRoundingRule) -> Int {
            v.isFinite ? Int(max(-1e9, min(1e9, v.rounded(round)))) : 0
        }
        let x0 = whole(r.minX, .down), y0 = whole(r.minY, .down)
        let x1 = max(x0, whole(r.maxX, .up)), y1 = max(y0, whole(r.maxY, .up))
        return TextInputRequest(surroundingText: state.surroundingText, cursor: state.cursor, anchor: state.anchor,
                                contentHint: state.hints.rawValue, contentPurpose: state.purpose.rawValue,
                                cursorX: x0, cursorY: y0, cursorWidth: x1 - x0, cursorHeight: y1 - y0)
    }

    /// `event` as the host's update. The preedit's cursor must be a byte range inside its text on
    /// character boundaries (both −1: hidden, the protocol's rule); one that is not is shown as a
    /// caret at the preedit's end. Delete lengths and the commit string pass as they came (the
    /// content refuses lengths outside its text).
    static func update(for event: TextInputEvent) -> TextInputUpdate {
        var preedit: TextInputUpdate.Preedit?
        if let text = event.preedit, !text.isEmpty {
            let begin = event.preeditCursorBegin, end = event.preeditCursorEnd
            let cursor: Range<Int>?
            if begin == -1 && end == -1 {
                cursor = nil
            } else if 0 <= begin, begin <= end, end <= text.utf8.count,
                      isBoundary(begin, in: text), isBoundary(end, in: text) {
                cursor = begin..<end
            } else {
                cursor = text.utf8.count..<text.utf8.count
            }
            preedit = TextInputUpdate.Preedit(text: text, cursor: cursor)
        }
        return TextInputUpdate(preedit: preedit, deleteBefore: event.deleteBefore, deleteAfter: event.deleteAfter,
                               commit: event.commit.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether byte `offset` of `text` starts a character (or is its end).
    private static func isBoundary(_ offset: Int, in text: String) -> Bool {
        let utf8 = text.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        return index.samePosition(in: text.unicodeScalars) != nil
    }

    /// The libwayland-cursor names for `shape`, most wanted first (CSS name, then the X11 one).
    static func cursorNames(_ shape: CursorShape) -> [String] {
        switch shape {
        case .default: return []   // the window's arrow: left_ptr, default
        case .text: return ["text", "xterm"]
        case .pointer: return ["pointer", "hand2", "hand1"]   // hand1: libwayland-cursor's built-in set
        }
    }

    /// Follows the pointer over the content from a frame's events (the last position wins).
    mutating func follow(_ frame: PointerFrame) {
        for event in frame.events {
            switch event.kind {
            case let .enter(x, y), let .motion(x, y): pointer = Point(x: x, y: y)
            case .leave: pointer = nil
            default: break
            }
        }
    }

    /// Whether `frame` has a middle-button press (Linux `BTN_MIDDLE`: paste the primary selection).
    static func pressesMiddleButton(_ frame: PointerFrame) -> Bool {
        frame.events.contains { if case .button(0x112, true) = $0.kind { return true } else { return false } }
    }

    /// Sends the host's text-input state and content cursor at `now` to `window` (after input: the
    /// window sends the input method only what changed).
    mutating func sync(_ window: Window, host: PresentationHost, now: Double, cause: TextChangeCause = .other) {
        synced = key(host, version: host.textInputVersion, now: now)
        window.setTextInput(Self.request(for: host.textInputState(at: now)), cause: cause)
        let shape = pointer.map { host.cursorShape(at: $0, now: now) } ?? .default
        window.setContentCursor(Self.cursorNames(shape))
    }

    /// After a frame at `now`: ``sync(_:host:now:cause:)`` only when the key changed — `version`
    /// is the host's ``PresentationHost/textInputVersion`` read before the frame was drawn (drawing
    /// clears the content's invalidation).
    mutating func frameDrawn(_ window: Window, host: PresentationHost, version: Int, now: Double) {
        let k = key(host, version: version, now: now)
        guard k != synced else { return }
        sync(window, host: host, now: now)
        synced = k
    }
}
