import ModalKit

/// The editing state of a one-line text field, without drawing or Wayland: a string edited by
/// grapheme cluster (Swift's `Character`, Unicode's extended grapheme clusters, UAX #29), a caret
/// and an anchor (the selection between them), undo and redo groups, a maximum length and an input
/// method's preedit that is never part of the string until committed (GTK's `GtkText` and
/// `GtkEntryBuffer`; UIKit's `UITextField`).
///
/// Positions are **UTF-8 byte offsets** into ``text`` (text-input-v3's unit), always on grapheme
/// cluster boundaries: 0 is before the first character, `text.utf8.count` after the last.
///
/// The one-line rule (``oneLine(_:)``) applies to everything inserted — typing, paste and input
/// method commits: a line break (CR LF, CR, LF, NEL, U+2028, U+2029) becomes a space, any other
/// control character (C0, DEL, C1) is dropped (GTK's `GtkEntry` does the same on paste).
public struct TextEditingModel: Hashable, Sendable {
    /// The field's text (the preedit is not part of it).
    public private(set) var text: String { didSet { textRevision &+= 1 } }
    /// Counts assignments and edits of ``text`` (not part of the model's value: equal models may
    /// differ in it): a field tells an edit that changed the text without keeping a copy of the
    /// text, which would make the next edit copy the whole string.
    private(set) var textRevision = 0
    /// The caret, a byte offset into ``text`` on a grapheme boundary.
    public private(set) var caret: Int
    /// The selection's other end, bytes (equal to ``caret`` when nothing is selected).
    public private(set) var anchor: Int
    /// The input method's text being composed, drawn at the caret; nil: none.
    public private(set) var preedit: TextInputUpdate.Preedit?
    /// The most characters (grapheme clusters) the text may hold; nil: no limit (UIKit has none;
    /// GTK's `max-length`). Insertions are cut to fit, at whole characters.
    public var maximumLength: Int? {
        didSet { if let m = maximumLength, m < 0 { maximumLength = 0 } }
    }

    /// The most undo groups kept (the oldest dropped first).
    public static let undoLimit = 100
    /// The largest surrounding text text-input-v3 allows (`set_surrounding_text`), bytes.
    public static let surroundingTextLimit = 4000

    /// What one undo group restores.
    private struct Snapshot: Hashable, Sendable {
        var text: String, caret: Int, anchor: Int
    }
    /// The kind of the last edit, for grouping: typed characters and repeated deletions of the same
    /// kind at the caret join the group before (GTK and UIKit undo a typed run at once).
    private enum EditKind: Hashable, Sendable { case typing, deleteBackward, deleteForward, other }
    private var undoStack: [Snapshot] = []
    private var redoStack: [Snapshot] = []
    private var lastEdit: EditKind = .other

    public static func == (a: TextEditingModel, b: TextEditingModel) -> Bool {
        a.text == b.text && a.caret == b.caret && a.anchor == b.anchor && a.preedit == b.preedit
            && a.maximumLength == b.maximumLength && a.undoStack == b.undoStack && a.redoStack == b.redoStack
            && a.lastEdit == b.lastEdit
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(caret)
        hasher.combine(anchor)
        hasher.combine(preedit)
        hasher.combine(maximumLength)
        hasher.combine(undoStack)
        hasher.combine(redoStack)
        hasher.combine(lastEdit)
    }

    /// A model holding `text` (made one line and cut to `maximumLength`), the caret at its end.
    public init(text: String = "", maximumLength: Int? = nil) {
        self.maximumLength = maximumLength.map { max(0, $0) }
        var t = TextEditingModel.oneLine(text)
        if let m = self.maximumLength, t.count > m { t = String(t.prefix(m)) }
        self.text = t
        caret = t.utf8.count
        anchor = caret
    }

    // MARK: Reading

    /// Whether some text is selected.
    public var hasSelection: Bool { caret != anchor }
    /// The selected bytes (empty when nothing is selected).
    public var selection: Range<Int> { min(caret, anchor)..<max(caret, anchor) }
    /// The selected text ("" when none).
    public var selectedText: String { String(text[index(selection.lowerBound)..<index(selection.upperBound)]) }
    /// The number of characters (grapheme clusters).
    public var characterCount: Int { text.count }
    /// Whether ``undo()`` would change something.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether ``redo()`` would change something.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The string index of byte offset `offset` (clamped to the text).
    public func index(_ offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: min(max(0, offset), text.utf8.count))
    }
    /// The byte offset of `index`.
    public func offset(_ index: String.Index) -> Int { text.utf8.distance(from: text.utf8.startIndex, to: index) }
    /// The number of characters before byte offset `offset` (a grapheme boundary).
    public func characterIndex(ofByte offset: Int) -> Int { text.distance(from: text.startIndex, to: index(offset)) }
    /// The byte offset before the character at `characterIndex` (clamped to 0...characterCount).
    public func byteOffset(ofCharacter characterIndex: Int) -> Int {
        var i = text.startIndex, n = 0
        while n < characterIndex, i < text.endIndex { text.formIndex(after: &i); n += 1 }
        return offset(i)
    }
    /// Whether `offset` is a grapheme cluster boundary of ``text`` (0 and the end included).
    public func isBoundary(_ offset: Int) -> Bool {
        guard offset >= 0, offset <= text.utf8.count else { return false }
        return String.Index(index(offset), within: text) != nil
    }

    // MARK: Caret and selection

    /// Moves the caret to `offset` (snapped back to a grapheme boundary); `extending` keeps the
    /// anchor (Shift), else the selection collapses there.
    public mutating func setCaret(_ offset: Int, extending: Bool = false) {
        caret = snapBack(offset)
        if !extending { anchor = caret }
        lastEdit = .other
    }

    /// Selects `range` (bytes, snapped outward to grapheme boundaries), the caret at its end (at its
    /// start with `caretAtStart`: a selection made backwards).
    public mutating func select(_ range: Range<Int>, caretAtStart: Bool = false) {
        let lo = snapBack(range.lowerBound), hi = snapForward(range.upperBound)
        (anchor, caret) = caretAtStart ? (hi, lo) : (lo, hi)
        lastEdit = .other
    }

    /// Selects all text, the caret at the end (Ctrl+A).
    public mutating func selectAll() { select(0..<text.utf8.count) }

    /// The offset one character after `offset` (the end stays).
    public func offset(after offset: Int) -> Int {
        let i = index(offset)
        return i < text.endIndex ? self.offset(text.index(after: i)) : offset
    }
    /// The offset one character before `offset` (0 stays).
    public func offset(before offset: Int) -> Int {
        let i = index(offset)
        return i > text.startIndex ? self.offset(text.index(before: i)) : offset
    }

    /// Whether a character belongs to a word (letters, digits, marks, connector punctuation such as
    /// "_"): what word moves and double-click selection stop at (GTK's Pango word boundaries, simplified).
    public static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c.unicodeScalars.first.map { $0.properties.generalCategory == .connectorPunctuation } ?? false
    }

    /// The end of the word at or after `offset` (Ctrl+Right: skip non-word characters, then the word).
    public func wordEnd(after offset: Int) -> Int {
        var i = index(offset)
        while i < text.endIndex, !Self.isWordCharacter(text[i]) { text.formIndex(after: &i) }
        while i < text.endIndex, Self.isWordCharacter(text[i]) { text.formIndex(after: &i) }
        return self.offset(i)
    }
    /// The start of the word at or before `offset` (Ctrl+Left).
    public func wordStart(before offset: Int) -> Int {
        var i = index(offset)
        while i > text.startIndex, !Self.isWordCharacter(text[text.index(before: i)]) { text.formIndex(before: &i) }
        while i > text.startIndex, Self.isWordCharacter(text[text.index(before: i)]) { text.formIndex(before: &i) }
        return self.offset(i)
    }
    /// The word (or run of non-word characters) around `offset`, for a double click: the characters
    /// of the same kind as the one after `offset` (the one before at the end).
    public func word(at offset: Int) -> Range<Int> {
        guard !text.isEmpty else { return 0..<0 }
        var at = index(snapBack(offset))
        if at == text.endIndex { at = text.index(before: at) }
        let kind = Self.isWordCharacter(text[at])
        var lo = at, hi = text.index(after: at)
        while lo > text.startIndex, Self.isWordCharacter(text[text.index(before: lo)]) == kind, kind { text.formIndex(before: &lo) }
        while hi < text.endIndex, Self.isWordCharacter(text[hi]) == kind, kind { text.formIndex(after: &hi) }
        return self.offset(lo)..<self.offset(hi)
    }

    // MARK: Editing

    /// Inserts `string` (made one line, cut to the maximum length) in place of the selection, or at
    /// the caret; the caret after it. `typing`: a typed run that joins the undo group before it.
    /// Returns whether the text changed.
    @discardableResult
    public mutating func insert(_ string: String, typing: Bool = false) -> Bool {
        var s = Self.oneLine(string)
        if let m = maximumLength {
            let room = max(0, m - (text.count - text[index(selection.lowerBound)..<index(selection.upperBound)].count))
            if s.count > room { s = String(s.prefix(room)) }
        }
        guard !s.isEmpty || hasSelection else { return false }
        record(typing ? .typing : .other)
        let r = selection
        replaceBytes(r, with: s)
        caret = snapForward(r.lowerBound + s.utf8.count)
        anchor = caret
        return true
    }

    /// Deletes the selection, else the character before the caret (Backspace; `word`: Ctrl+Backspace,
    /// to the start of the word). Returns whether the text changed.
    @discardableResult
    public mutating func deleteBackward(word: Bool = false) -> Bool {
        if hasSelection { return deleteSelection() }
        let start = word ? wordStart(before: caret) : offset(before: caret)
        guard start < caret else { return false }
        record(word ? .other : .deleteBackward)
        replaceBytes(start..<caret, with: "")
        caret = start
        anchor = start
        snapToBoundaries()
        return true
    }

    /// Deletes the selection, else the character after the caret (Delete; `word`: Ctrl+Delete, to
    /// the end of the word). Returns whether the text changed.
    @discardableResult
    public mutating func deleteForward(word: Bool = false) -> Bool {
        if hasSelection { return deleteSelection() }
        let end = word ? wordEnd(after: caret) : offset(after: caret)
        guard end > caret else { return false }
        record(word ? .other : .deleteForward)
        replaceBytes(caret..<end, with: "")
        anchor = caret
        snapToBoundaries()
        return true
    }

    /// Deletes the selected text (cut). Returns whether there was a selection.
    @discardableResult
    public mutating func deleteSelection() -> Bool {
        guard hasSelection else { return false }
        record(.other)
        let r = selection
        replaceBytes(r, with: "")
        caret = r.lowerBound
        anchor = caret
        snapToBoundaries()
        return true
    }

    /// Replaces the bytes `range` (clamped to the text, snapped outward to grapheme boundaries) with
    /// `string` — made one line, cut to the maximum length counting the characters the range
    /// removes — as one undo group: an edit at a position rather than at the caret (assistive
    /// technology's `AtkEditableText` `insert_text` and `delete_text`). The caret and the anchor
    /// keep their place in the text as GTK's entry keeps its cursor: one at or before the range's
    /// start stays, one after its end moves with the text after it, one inside it goes to the end
    /// of what was inserted. The preedit is dropped. Returns whether the text changed.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with string: String) -> Bool {
        let lo = snapBack(range.lowerBound), hi = max(lo, snapForward(range.upperBound))
        var s = Self.oneLine(string)
        if let m = maximumLength {
            let room = max(0, m - (text.count - text[index(lo)..<index(hi)].count))
            if s.count > room { s = String(s.prefix(room)) }
        }
        guard !s.isEmpty || lo < hi else { return false }
        record(.other)
        replaceBytes(lo..<hi, with: s)
        let inserted = s.utf8.count, delta = inserted - (hi - lo)
        func moved(_ o: Int) -> Int { o <= lo ? o : (o >= hi ? o + delta : lo + inserted) }
        caret = snapForward(moved(caret))
        anchor = snapForward(moved(anchor))
        preedit = nil
        lastEdit = .other
        return true
    }

    /// Replaces the whole text (an app setting it: one undo group), the caret at its end.
    public mutating func setText(_ newText: String) {
        var t = Self.oneLine(newText)
        if let m = maximumLength, t.count > m { t = String(t.prefix(m)) }
        guard t != text else { return }
        record(.other)
        // Into storage of the size the text had, at most the surrounding text's (a new buffer when
        // the undo group keeps the old one): typing into the new text does not grow it again.
        if text.utf8.count <= Self.surroundingTextLimit {
            text.removeAll(keepingCapacity: true)
        } else {
            text = ""
            text.reserveCapacity(Self.surroundingTextLimit)
        }
        text.append(contentsOf: t)
        caret = t.utf8.count
        anchor = caret
        preedit = nil
    }

    /// Undoes the last group (Ctrl+Z). Returns whether something changed.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let s = undoStack.popLast() else { return false }
        redoStack.append(Snapshot(text: text, caret: caret, anchor: anchor))
        restore(s)
        return true
    }

    /// Redoes the last undone group (Ctrl+Shift+Z, Ctrl+Y). Returns whether something changed.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let s = redoStack.popLast() else { return false }
        undoStack.append(Snapshot(text: text, caret: caret, anchor: anchor))
        restore(s)
        return true
    }

    // MARK: Input method

    /// Applies one text-input-v3 `done` in the protocol's order: drop the preedit; delete
    /// `deleteBefore` bytes before the selection's start and `deleteAfter` after its end (refused —
    /// nothing deleted — when either end falls outside the text or inside a grapheme cluster);
    /// insert the commit (one-line rule, maximum length) in place of the selection; show the new
    /// preedit (made one line; its cursor refused — hidden — when it is not on a character boundary
    /// of the preedit's text). Returns what was refused, empty when everything applied.
    @discardableResult
    public mutating func apply(_ update: TextInputUpdate) -> TextInputRefusal {
        var refused: TextInputRefusal = []
        preedit = nil
        if update.deleteBefore != 0 || update.deleteAfter != 0 {
            // Lengths compared with the room before and after first: any `Int` arrives, the extremes too.
            let s = selection
            if update.deleteBefore < 0 || update.deleteAfter < 0 || update.deleteBefore > s.lowerBound
                || update.deleteAfter > text.utf8.count - s.upperBound
                || !isBoundary(s.lowerBound - update.deleteBefore) || !isBoundary(s.upperBound + update.deleteAfter) {
                refused.insert(.deletion)
            } else {
                let lo = s.lowerBound - update.deleteBefore, hi = s.upperBound + update.deleteAfter
                record(.other)
                let shift = s.lowerBound - lo
                replaceBytes(s.upperBound..<hi, with: "")
                replaceBytes(lo..<s.lowerBound, with: "")
                caret -= shift
                anchor -= shift
                snapToBoundaries()
            }
        }
        if let c = update.commit, !c.isEmpty { insert(c) }
        // A preedit of control characters alone is none (nothing to show, as for an empty one).
        if let p = update.preedit, case let t = Self.oneLine(p.text), !t.isEmpty {
            var cursor = p.cursor
            if let r = cursor {
                let u = t.utf8
                func ok(_ o: Int) -> Bool {
                    o >= 0 && o <= u.count && String.Index(u.index(u.startIndex, offsetBy: o), within: t.unicodeScalars) != nil
                }
                if t.utf8.count != p.text.utf8.count || r.lowerBound > r.upperBound || !ok(r.lowerBound) || !ok(r.upperBound) {
                    cursor = nil
                    refused.insert(.preeditCursor)
                }
            }
            preedit = TextInputUpdate.Preedit(text: t, cursor: cursor)
        }
        lastEdit = .other
        return refused
    }

    /// Drops the preedit without committing it (focus left the field).
    public mutating func clearPreedit() { preedit = nil }

    /// The surrounding text text-input-v3 gets: the whole text when it fits ``surroundingTextLimit``
    /// bytes, else a window of whole grapheme clusters around the caret (the selection too when it
    /// fits, else the anchor clamped into the window); `start` is the window's byte offset in
    /// ``text``, `cursor` and `anchor` relative to the window.
    public func surroundingWindow(limit: Int = TextEditingModel.surroundingTextLimit)
        -> (text: String, start: Int, cursor: Int, anchor: Int) {
        let count = text.utf8.count
        guard count > limit else { return (text, 0, caret, anchor) }
        let r = selection
        var lo: Int, hi: Int
        if r.count <= limit {
            let spare = limit - r.count
            lo = max(0, r.lowerBound - spare / 2)
            hi = min(count, lo + limit)
            lo = max(0, hi - limit)
        } else {
            lo = max(0, caret - limit / 2)
            hi = min(count, lo + limit)
            lo = max(0, hi - limit)
        }
        lo = snapForward(lo)
        hi = snapBack(hi)
        if lo > caret { lo = snapBack(caret) }
        if hi < caret { hi = caret }
        let window = String(text[index(lo)..<index(hi)])
        return (window, lo, caret - lo, min(max(anchor, lo), hi) - lo)
    }

    // MARK: Rules

    /// `string` as one line: CR LF, CR, LF, NEL (U+0085), U+2028 and U+2029 become one space each;
    /// every other control character (C0, DEL, C1) is dropped.
    public static func oneLine(_ string: String) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for s in string.unicodeScalars {
            let v = s.value
            defer { previousCR = v == 0x0D }
            if v == 0x0A && previousCR { continue }
            if v == 0x0A || v == 0x0D || v == 0x85 || v == 0x2028 || v == 0x2029 { out.append(" "); continue }
            if v < 0x20 || (0x7F...0x9F).contains(v) { continue }
            out.append(s)
        }
        return String(out)
    }

    // MARK: Private

    private func snapBack(_ offset: Int) -> Int {
        var o = min(max(0, offset), text.utf8.count)
        while o > 0, !isBoundary(o) { o -= 1 }
        return o
    }
    private func snapForward(_ offset: Int) -> Int {
        var o = min(max(0, offset), text.utf8.count)
        while o < text.utf8.count, !isBoundary(o) { o += 1 }
        return o
    }

    /// Moves the caret and the anchor out of a grapheme cluster that a deletion joined around them
    /// (the characters on either side can make one: Hangul jamo, regional indicators, a ZWJ and an
    /// emoji; UAX #29): a caret to the cluster's start, a selection's ends outward.
    private mutating func snapToBoundaries() {
        if caret == anchor {
            caret = snapBack(caret)
            anchor = caret
        } else if caret < anchor {
            (caret, anchor) = (snapBack(caret), snapForward(anchor))
        } else {
            (anchor, caret) = (snapBack(anchor), snapForward(caret))
        }
    }

    /// Replaces the bytes `range` of the text with `s`, unless they are `s` already (the text, and
    /// its ``textRevision``, stay as they are).
    private mutating func replaceBytes(_ range: Range<Int>, with s: String) {
        let r = index(range.lowerBound)..<index(range.upperBound)
        guard !text.utf8[r].elementsEqual(s.utf8) else { return }
        text.replaceSubrange(r, with: s)
    }

    /// Starts an undo group for an edit of `kind`, unless it continues the group before.
    private mutating func record(_ kind: EditKind) {
        redoStack.removeAll()
        if kind != .other, kind == lastEdit, !undoStack.isEmpty { return }
        // A short text is saved as a copy of its own (Swift keeps up to 15 UTF-8 bytes inline: no
        // allocation), so that the text keeps its storage to itself and typing into it does not copy
        // and regrow it; a longer one shares the storage until the next edit copies it.
        let saved = text.utf8.count <= 15 ? String(decoding: text.utf8, as: UTF8.self) : text
        // The whole stack's storage at once (about 3 KiB), not grown group by group.
        if undoStack.capacity <= Self.undoLimit { undoStack.reserveCapacity(Self.undoLimit + 1) }
        undoStack.append(Snapshot(text: saved, caret: caret, anchor: anchor))
        if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
        lastEdit = kind
    }

    private mutating func restore(_ s: Snapshot) {
        if !text.utf8.elementsEqual(s.text.utf8) { text = s.text }
        caret = s.caret
        anchor = s.anchor
        preedit = nil
        lastEdit = .other
    }
}

/// What of a `TextInputUpdate` ``TextEditingModel/apply(_:)`` refused (the rest was applied).
public struct TextInputRefusal: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: Int
    /// Refusals from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `delete_surrounding_text` reached outside the text or inside a grapheme cluster.
    public static let deletion = TextInputRefusal(rawValue: 1)
    /// The preedit's cursor was not on a character boundary of the preedit's text.
    public static let preeditCursor = TextInputRefusal(rawValue: 2)
}
