import ModalKit
import ModalKitContent
@testable import ModalKitWayland
@testable import ModalKitWaylandClient

/// A focused `TextField` edited by a sequence of operations the input decodes: typed text, the
/// input method's events (text-input-v3 `preedit_string` with its cursor's begin and end bytes,
/// `commit_string`, `delete_surrounding_text` with its before and after lengths, applied at `done`
/// through the window's `TextInputBridge`), pastes of arbitrary bytes (cut at a cap as the selection
/// reader cuts them), keys, selections and pointer clicks at arbitrary offsets, edits by an app and
/// by assistive technology (`ContentInput.editText`), undo and redo, secure on and off, the maximum
/// length, focus. Offsets and lengths are anything an `Int` holds:
/// negative, past the text, inside a UTF-8 sequence or a grapheme cluster, the extremes.
///
/// After every operation the target checks what the field promises (``TextEditingModel``,
/// ``TextField``, text-input-v3): the text is one line (no control characters, no line breaks);
/// the caret and the anchor are inside it on grapheme cluster boundaries; the preedit is one line
/// and its cursor inside it on scalar boundaries; an insertion never grows a text past the maximum
/// length; a secure field never offers its text (copy, cut, the primary selection), tells the input
/// method no surrounding text and shows bullets; the surrounding text sent is a window of the text
/// of at most 4000 bytes with the caret and anchor inside it.
enum TextEntryFuzzTarget {
    /// The operations, by the low four bits of an operation byte.
    enum Operation: UInt8 {
        case type = 0, preedit, commit, deleteSurrounding, done, paste, key, select, pointer, undoRedo,
             secure, maximumLength, focus, edit, clipboard, largePaste
    }

    /// At most this many operations per input (a longer input's rest is ignored).
    static let maximumSteps = 64
    /// The text's length (bytes) up to which each step also shapes the line for the input method's
    /// caret rectangle (`TextField.textInputState`); a longer text is not shaped: its colour emoji
    /// glyphs are scaled with pixman as they are shaped, and a few hundred take seconds under
    /// AddressSanitizer (the `text` target shapes any text).
    static let shapedLength = 512
    /// The text's length (bytes) past which an input ends (the steps' checks and a click's shaping
    /// are linear in it: 64 steps on a text that doubles with each paste would take minutes).
    static let maximumTextLength = 32 << 10

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let pasteboard = FuzzPasteboard()
        var now = 1.0
        let field = TextField(placeholder: "Name")
        field.pasteboard = Pasteboard()
        field.pasteboard.backend = pasteboard
        field.clock = { now }
        field.didLayout(size: Size(width: 160, height: TextField.height))
        field.isFocused = true
        var steps = 0
        // A text past `maximumTextLength` ends the input: each step's checks are linear in it.
        while !input.rest.isEmpty && steps < maximumSteps && field.model.text.utf8.count <= maximumTextLength {
            steps += 1
            let code = input.byte()
            // Bit 7 keeps a paste's text pending across this operation (it arrives later on the loop).
            if code & 0x80 == 0 { deliver(pasteboard, to: field) }
            let op = Operation(rawValue: code & 0x0F)!
            let before = field.model, wasSecure = field.isSecure, offers = pasteboard.offers.count
            now += Double(input.byte() & 0x3F) / 16
            apply(op, code: code, to: field, input: &input, pasteboard: pasteboard, now: now)
            check(field, after: op, code: code, before: before, shaping: field.model.text.utf8.count <= shapedLength)
            if wasSecure && field.isSecure {
                precondition(pasteboard.offers.count == offers, "a secure field offered \(pasteboard.offers.last!) after \(op)")
            }
        }
        deliver(pasteboard, to: field)
        check(field, after: .focus, code: 0, before: field.model, shaping: field.model.text.utf8.count <= shapedLength)
    }

    /// Delivers the pending pastes; one alone is checked: its text (one line) in place of the selection.
    private static func deliver(_ pasteboard: FuzzPasteboard, to field: TextField) {
        let before = field.model
        let texts = pasteboard.deliver()
        if texts.count == 1, let text = texts[0], !text.isEmpty {
            checkInsertion(TextEditingModel.oneLine(text), into: before, gave: field.model)
        } else if texts.allSatisfy({ $0?.isEmpty ?? true }) {
            precondition(field.model.text == before.text, "an empty paste changed the text")
        }
    }

    // MARK: Operations

    private static func apply(_ op: Operation, code: UInt8, to field: TextField, input: inout FuzzInput,
                              pasteboard: FuzzPasteboard, now: Double) {
        let length = field.model.text.utf8.count
        switch op {
        case .type:
            let text = String(decoding: input.bytes(), as: UTF8.self)
            let key = KeyInput(keysym: KeyInput.Keysym.noSymbol, phase: .press, text: text,
                               modifiers: KeyInput.Modifiers(rawValue: UInt32(code >> 4) & 0x7))
            let before = field.model
            _ = field.handle(.keyboard(key), now: now)
            if key.typedText.isEmpty {
                precondition(field.model.text == before.text, "a key that types nothing changed the text")
            } else {
                checkInsertion(TextEditingModel.oneLine(key.typedText), into: before, gave: field.model)
            }
        case .preedit, .commit, .deleteSurrounding, .done:
            var event = TextInputEvent()
            let parts: UInt8 = op == .preedit ? 1 : op == .commit ? 2 : op == .deleteSurrounding ? 4 : code >> 4
            if parts & 4 != 0 {
                event.deleteBefore = input.offset(length: length)
                event.deleteAfter = input.offset(length: length)
            }
            if parts & 2 != 0 { event.commit = input.cString() }
            if parts & 1 != 0 {
                let text = input.cString()
                event.preedit = text
                let count = text.utf8.count
                event.preeditCursorBegin = input.offset(length: count)
                event.preeditCursorEnd = input.offset(length: count)
            }
            let update = TextInputBridge.update(for: event)
            checkBridge(update, from: event)
            let before = field.model
            _ = field.handle(.textInput(update), now: now)
            if !field.isFocused {
                precondition(field.model == before, "a field without focus took input method text")
            } else if op == .commit, let commit = update.commit {
                checkInsertion(TextEditingModel.oneLine(commit), into: before, gave: field.model)
            }
        case .paste, .largePaste:
            let bytes = input.bytes()
            // A large paste: up to 16 KiB (more than the 4000 bytes of surrounding text an input method gets).
            let repeats = op == .largePaste ? min(Int(input.byte()) * 64 + 1, (16 << 10) / max(1, bytes.count)) : 1
            let cap = op == .largePaste ? SelectionReader.cap : Int(input.byte()) * 4
            let data = Array([[UInt8]](repeating: bytes, count: repeats).joined())
            let selection: PasteboardSelection = code & 0x10 == 0 ? .clipboard : .primary
            pasteboard.external[selection] = text(read: data, cap: cap)
            field.paste(from: selection)
        case .key:
            let keys: [UInt32] = [KeyInput.Keysym.left, KeyInput.Keysym.right, KeyInput.Keysym.home, KeyInput.Keysym.end,
                                  KeyInput.Keysym.backSpace, KeyInput.Keysym.delete, 0xff63, 0x61, 0x63, 0x78, 0x76, 0x7a,
                                  0x79, KeyInput.Keysym.returnKey, KeyInput.Keysym.escape, KeyInput.Keysym.tab]
            let key = input.byte()
            let modifiers = KeyInput.Modifiers(rawValue: UInt32(key >> 4))
            _ = field.handle(.keyboard(KeyInput(keysym: keys[Int(key & 0x0F)], phase: code & 0x10 == 0 ? .press : .repeat,
                                                modifiers: modifiers)), now: now)
        case .select:
            let a = input.offset(length: length), b = input.offset(length: length)
            field.select(min(a, b)..<max(a, b))
        case .pointer:
            // A click shapes the whole line (`TextField.offset(atX:)`): only on a short text.
            guard length <= shapedLength * 8 else { return }
            let x = Double(Int8(bitPattern: input.byte())) * 2, y = Double(input.byte() & 0x3F)
            _ = field.handle(.press(Point(x: x, y: y)), now: now)
            if code & 0x10 != 0 {
                _ = field.handle(.drag(Point(x: Double(Int8(bitPattern: input.byte())) * 2, y: y)), now: now)
            }
            _ = field.handle(.release(Point(x: Double(Int8(bitPattern: input.byte())) * 2, y: y)), now: now)
        case .undoRedo:
            // Undo, then redo, restores the text, caret and anchor (on a copy: the field is untouched).
            var m = field.model
            let start = m
            if m.undo() {
                precondition(m.redo(), "nothing to redo after an undo")
                precondition(m.text == start.text && m.caret == start.caret && m.anchor == start.anchor,
                             "undo then redo gave \(m.text.debugDescription) \(m.anchor)..\(m.caret), not \(start.text.debugDescription) \(start.anchor)..\(start.caret)")
            }
        case .secure: field.isSecure.toggle()
        case .maximumLength:
            let limit = input.byte()
            field.maximumLength = limit == 0xFF ? nil : limit >= 0xF0 ? [Int.min, -1, Int.max][Int(limit) % 3] : Int(limit & 0x1F)
        case .focus: field.isFocused.toggle()
        case .edit: accessibilityEdit(code >> 4 & 7, field: field, input: &input, pasteboard: pasteboard)
        case .clipboard:
            switch code >> 4 & 3 {
            case 0: field.copy()
            case 1: field.cut()
            default: field.paste(from: code & 0x40 == 0 ? .clipboard : .primary)
            }
            if code >> 4 & 3 == 0, !field.isSecure, field.model.hasSelection {
                precondition(pasteboard.offers.last.map { $0 == (field.model.selectedText, .clipboard) } ?? false,
                             "copy did not offer the selected text")
            }
        }
    }

    /// An app's edit (`TextField.text`) or assistive technology's (`ContentInput.editText`, ATK's
    /// `AtkEditableText`: character offsets, any `Int`), by `kind`.
    private static func accessibilityEdit(_ kind: UInt8, field: TextField, input: inout FuzzInput, pasteboard: FuzzPasteboard) {
        let before = field.model, count = before.characterCount
        func range() -> Range<Int> {
            let a = input.offset(length: count), b = input.offset(length: count)
            return min(a, b)..<max(a, b)
        }
        func bytes(_ r: Range<Int>) -> Range<Int> {
            let lo = before.byteOffset(ofCharacter: min(max(0, r.lowerBound), count))
            return lo..<max(lo, before.byteOffset(ofCharacter: min(max(0, r.upperBound), count)))
        }
        let u = Array(before.text.utf8), offers = pasteboard.offers.count
        switch kind {
        case 0: field.text = String(decoding: input.bytes(), as: UTF8.self)
        case 1: _ = field.handle(.editText("text-field", .setContents(String(decoding: input.bytes(), as: UTF8.self))), now: 0)
        case 2:
            let s = String(decoding: input.bytes(), as: UTF8.self), at = input.offset(length: count)
            _ = field.handle(.editText("text-field", .insert(s, at: at)), now: 0)
            if before.maximumLength == nil {
                let b = bytes(at..<at).lowerBound
                precondition(Array(field.model.text.utf8) == Array(u[..<b]) + Array(TextEditingModel.oneLine(s).utf8) + Array(u[b...]),
                             "\(s.debugDescription) inserted at character \(at) of \(before.text.debugDescription) gave \(field.model.text.debugDescription)")
            }
        case 3, 5:
            let r = range()
            _ = field.handle(.editText("text-field", kind == 3 ? .delete(r) : .cut(r)), now: 0)
            let b = bytes(r)
            if kind == 3 || !field.isSecure {
                precondition(Array(field.model.text.utf8) == Array(u[..<b.lowerBound]) + Array(u[b.upperBound...]),
                             "characters \(r) of \(before.text.debugDescription) deleted gave \(field.model.text.debugDescription)")
            }
        case 4:
            let r = range()
            _ = field.handle(.editText("text-field", .copy(r)), now: 0)
            let b = bytes(r)
            if !field.isSecure && !b.isEmpty {
                let copied = String(decoding: u[b], as: UTF8.self)
                precondition(pasteboard.offers.count == offers + 1 && pasteboard.offers.last! == (copied, .clipboard),
                             "characters \(r) copied did not offer \(copied.debugDescription)")
            }
        case 6: _ = field.handle(.editText("text-field", .paste(at: input.offset(length: count))), now: 0)
        default:
            // Another element's edit: not this field's.
            precondition(!field.handle(.editText("other", .setContents("x")), now: 0) && field.model == before)
        }
    }

    /// What a paste of `data` gets: the selection reader's cut at `cap` bytes, then the text,
    /// invalid UTF-8 repaired. The cut text is a prefix of the whole text, at most `cap` bytes and
    /// shorter by less than one character.
    static func text(read data: [UInt8], cap: Int) -> String {
        let kept = SelectionReader.cut(data, toAtMost: cap)
        precondition(kept.count <= max(cap, 0) || data.count <= cap, "\(kept.count) bytes kept of \(data.count), cap \(cap)")
        precondition(data.count <= cap ? kept.count == data.count : kept.count > cap - 4, "\(kept.count) bytes kept of \(data.count), cap \(cap)")
        let text = String(decoding: kept, as: UTF8.self)
        let all = String(decoding: data, as: UTF8.self)
        precondition(all.unicodeScalars.starts(with: text.unicodeScalars), "the cut text is not a prefix of the text")
        return text
    }

    // MARK: Invariants

    /// Whether each byte offset of `text` (its end included) is a grapheme cluster boundary.
    private static func boundaries(_ text: String) -> [Bool] {
        var b = [Bool](repeating: false, count: text.utf8.count + 1)
        b[text.utf8.count] = true
        for i in text.indices { b[text.utf8.distance(from: text.startIndex, to: i)] = true }
        return b
    }

    /// Whether `offset` is a grapheme cluster boundary by `boundaries(_:)`.
    private static func isBoundary(_ offset: Int, _ b: [Bool]) -> Bool { offset >= 0 && offset < b.count && b[offset] }

    /// Typed or committed text without a maximum length: `inserted` in place of the selection, the
    /// caret at the first boundary at or after its end, nothing selected.
    private static func checkInsertion(_ inserted: String, into before: TextEditingModel, gave after: TextEditingModel) {
        guard before.maximumLength == nil else { return }
        let u = Array(before.text.utf8), s = before.selection
        let expected = Array(u[..<s.lowerBound]) + Array(inserted.utf8) + Array(u[s.upperBound...])
        precondition(Array(after.text.utf8) == expected, "\(inserted.debugDescription) into \(before.text.debugDescription) at \(s) gave \(after.text.debugDescription)")
        let end = s.lowerBound + inserted.utf8.count
        let b = boundaries(after.text)
        precondition(after.caret == (end..<b.count).first { b[$0] } && after.anchor == after.caret,
                     "caret \(after.anchor)..\(after.caret) after \(inserted.debugDescription) inserted at \(s)")
    }

    private static func checkBridge(_ update: TextInputUpdate, from event: TextInputEvent) {
        precondition(update.deleteBefore == event.deleteBefore && update.deleteAfter == event.deleteAfter)
        precondition(update.commit == (event.commit?.isEmpty ?? true ? nil : event.commit))
        if let p = update.preedit {
            precondition(!p.text.isEmpty && p.text == event.preedit)
            if let c = p.cursor { checkScalarBoundaries(c, in: p.text, "the bridge's preedit cursor") }
        } else {
            precondition(event.preedit?.isEmpty ?? true, "a preedit lost")
        }
    }

    private static func checkScalarBoundaries(_ r: Range<Int>, in text: String, _ what: String) {
        let u = text.utf8
        precondition(r.lowerBound >= 0 && r.upperBound <= u.count, "\(what) \(r) outside \(u.count) bytes")
        for o in [r.lowerBound, r.upperBound] {
            precondition(u.index(u.startIndex, offsetBy: o).samePosition(in: text.unicodeScalars) != nil,
                         "\(what) \(r) inside a UTF-8 sequence of \(text.debugDescription)")
        }
    }

    private static func check(_ field: TextField, after op: Operation, code: UInt8, before: TextEditingModel, shaping: Bool) {
        let m = field.model, text = m.text, bytes = Array(text.utf8)
        precondition(String(validating: bytes, as: UTF8.self) == text, "the text is not valid UTF-8")
        precondition(TextEditingModel.oneLine(text) == text, "not one line after \(op): \(text.debugDescription)")
        let boundaries = boundaries(text)
        precondition(isBoundary(m.caret, boundaries), "caret \(m.caret) not on a grapheme boundary of \(text.debugDescription) after \(op)")
        precondition(isBoundary(m.anchor, boundaries), "anchor \(m.anchor) not on a grapheme boundary of \(text.debugDescription) after \(op)")
        if let p = m.preedit {
            precondition(!p.text.isEmpty && TextEditingModel.oneLine(p.text) == p.text, "preedit \(p.text.debugDescription)")
            if let c = p.cursor { checkScalarBoundaries(c, in: p.text, "the preedit cursor") }
            precondition(field.isFocused, "a preedit in a field without focus")
        }
        if let limit = m.maximumLength {
            precondition(limit >= 0, "maximum length \(limit)")
            // Undo may bring back a text from before the limit; a lowered limit keeps a longer text.
            let restores = op == .key || op == .maximumLength
            precondition(restores || m.characterCount <= limit || m.characterCount <= before.characterCount,
                         "\(m.characterCount) characters (\(before.characterCount) before) past the maximum \(limit) after \(op)")
        }
        let element = field.accessibilityElement(identifier: "text-field", frame: Rect(size: Size(width: 160, height: 36)))
        guard let a = element.text else { preconditionFailure("a text field without accessible text") }
        precondition(0 <= a.caret && a.caret <= m.characterCount && a.selection.lowerBound >= 0
                     && a.selection.upperBound <= m.characterCount, "accessible caret \(a.caret), selection \(a.selection)")
        if field.isSecure {
            precondition(a.text.allSatisfy { $0 == "•" } && a.text.count == m.characterCount, "a secure field's accessible text shows it")
            precondition(field.displayText == a.text)
        }
        guard field.isFocused else {
            precondition(field.textInputState == nil, "text input state for a field without focus")
            return
        }
        let state: TextInputState
        if shaping {
            guard let s = field.textInputState else { preconditionFailure("a focused field without text input state") }
            precondition(s.cursorRectangle.minX.isFinite && s.cursorRectangle.height.isFinite, "caret rectangle \(s.cursorRectangle)")
            state = s
        } else {
            // What `textInputState` says, but the caret rectangle (it shapes the line).
            let w = m.surroundingWindow(), secure = field.isSecure
            state = TextInputState(surroundingText: secure ? "" : w.text, cursor: secure ? 0 : w.cursor, anchor: secure ? 0 : w.anchor,
                                   purpose: secure ? .password : field.purpose,
                                   hints: secure ? field.hints.union([.hiddenText, .sensitiveData]) : field.hints,
                                   cursorRectangle: Rect(x: 0, y: 0, width: 1, height: 1))
        }
        if field.isSecure {
            precondition(state.surroundingText.isEmpty && state.cursor == 0 && state.anchor == 0, "a secure field's surrounding text")
            precondition(state.purpose == .password && state.hints.isSuperset(of: [.hiddenText, .sensitiveData]))
        } else {
            let w = m.surroundingWindow()
            precondition(w.text == state.surroundingText && w.cursor == state.cursor && w.anchor == state.anchor)
            let u = w.text.utf8
            precondition(u.count <= max(TextEditingModel.surroundingTextLimit, 0) || u.count == bytes.count, "a window of \(u.count) bytes")
            precondition(w.start >= 0 && w.start + u.count <= bytes.count && bytes[w.start..<(w.start + u.count)].elementsEqual(u),
                         "the surrounding text is not the text's bytes at \(w.start)")
            checkScalarBoundaries(min(w.cursor, w.anchor)..<max(w.cursor, w.anchor), in: w.text, "the surrounding cursor")
            precondition(w.cursor == m.caret - w.start, "surrounding cursor \(w.cursor) at \(w.start), caret \(m.caret)")
        }
        guard let request = TextInputBridge.request(for: state) else { preconditionFailure("no request for a state") }
        let sent = request.clippedSurrounding
        precondition(sent.text.utf8.count <= TextInputRequest.maxSurroundingBytes, "\(sent.text.utf8.count) surrounding bytes sent")
        checkScalarBoundaries(Int(min(sent.cursor, sent.anchor))..<Int(max(sent.cursor, sent.anchor)), in: sent.text, "the sent cursor")
    }
}

/// A platform pasteboard for the target: what the field offers is recorded; what it reads is what
/// another client offered (`external`), given later on the loop (``deliver()``), as the protocol's
/// pipes give it.
final class FuzzPasteboard: PasteboardBackend {
    private(set) var offers: [(String, PasteboardSelection)] = []
    var external: [PasteboardSelection: String] = [:]
    private var pending: [() -> String?] = []

    func offer(_ text: String, as selection: PasteboardSelection) { offers.append((text, selection)) }

    func requestText(from selection: PasteboardSelection, completion: @escaping (String?) -> Void) {
        let text = external[selection]
        pending.append {
            completion(text)
            return text
        }
    }

    /// Runs the reads' completions (a later iteration of the loop); returns the texts given.
    @discardableResult
    func deliver() -> [String?] {
        let p = pending
        pending = []
        return p.map { $0() }
    }
}

extension FuzzInput {
    /// The next four bytes, little-endian.
    mutating func word() -> UInt32 {
        (0..<4).reduce(UInt32(0)) { w, i in w | UInt32(byte()) << (8 * i) }
    }

    /// An offset or a length in bytes for a text of `length` bytes: small (negative too), near the
    /// text's end or middle, any 32-bit value (the protocol's `int` and `uint`), or an extreme.
    mutating func offset(length: Int) -> Int {
        let kind = byte()
        let small = Int(Int8(bitPattern: byte()))
        switch kind & 7 {
        case 0, 1: return small
        case 2: return length + small
        case 3: return length / 2 + small
        case 4: return Int(Int32(bitPattern: word()))
        case 5: return Int(word())
        case 6: return [Int.min, Int.max, Int.min + 1, Int.max - 1, Int(Int32.min), Int(Int32.max), Int(UInt32.max), -1][Int(kind >> 3) & 7]
        default: return length - 1
        }
    }

    /// The next bytes: a length byte, then that many (fewer at the input's end).
    mutating func bytes() -> [UInt8] {
        Array(take(Int(byte())))
    }

    /// The next bytes as a compositor's string arrives (a C string: up to the first NUL; invalid
    /// UTF-8 repaired), through the text input's own conversion.
    mutating func cString() -> String {
        let b = bytes() + [0]
        return b.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { TextInput.untrusted($0)! }
        }
    }
}
