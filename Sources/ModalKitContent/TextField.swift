import ModalKit
import ModalKitClock
import ModalKitText

/// A one-line text field (UIKit's `UITextField`, GTK's `GtkText` inside a `GtkEntry`, libadwaita's
/// `AdwEntryRow`): a box with the text, a placeholder while it is empty, a caret and a selection,
/// edited by grapheme cluster through ``TextEditingModel``. Usable alone as a content, or inside an
/// ``Alert`` (``Alert/addTextField(_:)``) or another content that forwards input to it.
///
/// Keys (GTK's and UIKit's bindings): typed text (`KeyInput/typedText`, compose and dead keys
/// already applied by the platform) inserts; Left/Right move by character and with Ctrl by word,
/// Home/End to the ends, Shift extends the selection; BackSpace/Delete delete a character, with
/// Ctrl a word; Ctrl+A selects all; Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo; Ctrl+C / Ctrl+Insert
/// copy, Ctrl+X / Shift+Delete cut, Ctrl+V / Shift+Insert paste (through ``pasteboard``; a paste's
/// newlines become spaces). Return, Escape, Tab, Up and Down are not used: they reach the host and
/// the containing content (Return activates, Escape cancels, Tab and Up/Down move focus).
///
/// Pointer: a press places the caret, a drag selects, a double click selects a word, a triple click
/// everything (GTK's `GtkText`; clicks count when 0.4 s and 5 points apart at most, GTK's
/// `gtk-double-click-time` and `-distance` defaults). A selection is offered as the primary
/// selection. A ``isSecure`` field draws a bullet (•) per character, is never copied or cut, and
/// tells the input method purpose password with hints hidden text and sensitive data (text-input-v3).
///
/// The caret blinks 0.5 s on, 0.5 s off while the field has focus, solid for 0.5 s after each edit or
/// move and solid after 10 s without input (GTK's `gtk-cursor-blink-timeout`), so an idle field
/// stops redrawing; ``nextBlinkTime`` says when it changes next.
public final class TextField: PresentationContent {
    /// The editing state: text, caret, selection, preedit.
    public private(set) var model: TextEditingModel
    /// Shown, in the secondary colour, while the text is empty and no preedit is composed.
    public var placeholder: String { didSet { needsDraw = true } }
    /// Bullets instead of the characters; never copied; purpose password (UIKit `isSecureTextEntry`,
    /// GTK `visibility` false).
    public var isSecure: Bool { didSet { needsDraw = true; accessibilityChanged = true } }
    /// What the text is for, told to the input method (a secure field says `.password`); a change
    /// invalidates the field, so the next frame tells it.
    public var purpose: TextContentPurpose = .normal { didSet { needsDraw = true } }
    /// Hints told to the input method (a secure field adds hidden text and sensitive data); a change
    /// invalidates the field, as ``purpose`` does.
    public var hints: TextContentHints = [] { didSet { needsDraw = true } }
    /// The text's style (15 pt, the alert's body size).
    public var style: TextStyle = .body { didSet { needsDraw = true } }
    /// The name a screen reader gives the field (its placeholder when empty).
    public var accessibilityLabel = ""
    /// The clipboard and primary selection used (`Pasteboard/general` by default).
    public var pasteboard: Pasteboard = .general
    /// The monotonic clock the caret blinks by (seconds; the time of input events is on it too).
    public var clock: () -> Double = monotonicSeconds
    /// Called after every change of ``text`` with the new text.
    public var onChange: (String) -> Void = { _ in }
    /// Called when the input method's preedit changes (nil: none).
    public var onPreeditChange: (TextInputUpdate.Preedit?) -> Void = { _ in }
    /// Called when Return reaches a field used alone (`ContentInput/key(_:)` activate), with the
    /// input's time. A containing ``Alert`` chooses its default response instead.
    public var onSubmit: (Double) -> Void = { _ in }

    /// Whether the field has keyboard focus (the caret shows, ``textInputState`` is not nil).
    public var isFocused = false {
        didSet {
            guard isFocused != oldValue else { return }
            if !isFocused { model.clearPreedit() }
            lastActivity = clock()
            needsDraw = true
        }
    }

    /// The field's height, points (libadwaita's entry: 34 px plus its focus ring's room).
    public static let height = 36.0
    /// Space between the box's edges and the text, points.
    public static let padding = 9.0
    /// The box's corner radius, points.
    public static let cornerRadius = 6.0
    /// The caret's width, points (at least one buffer pixel).
    public static let caretWidth = 1.0
    /// The box's fill (libadwaita's entry background on a light dialog).
    public static let fillColor = Color(rgb: 0xEBEBEB)
    /// The selection's highlight under the text (GNOME palette Blue 1, libadwaita's selection on light).
    public static let selectionColor = Color(rgb: 0x99C1F1)
    /// The focus ring's colour, 2 points outside the box (libadwaita's accent at 50 %).
    public static let focusRingColor = Color(rgb: 0x3584E4).withAlpha(0.5)
    /// How long the caret stays on, then off, seconds.
    public static let blinkInterval = 0.5
    /// After this long without input the caret stops blinking (solid), seconds.
    public static let blinkTimeout = 10.0
    /// Two presses this close in time (seconds) and space (points) count as a double (triple) click.
    public static let multiClickTime = 0.4, multiClickDistance = 5.0

    var size = Size(width: 0, height: TextField.height)
    var needsDraw = true
    var accessibilityChanged = true
    /// The time of the last edit or caret move (the caret is solid for a blink interval after it).
    var lastActivity = 0.0
    /// Whether the caret was on when last drawn.
    var drawnCaretOn = true
    /// The horizontal scroll of the text, buffer pixels at `scrollScale`.
    var scrollPixels = 0
    var scrollScale = 0.0
    /// The shown line laid out by the font of the last scale, kept and laid out again in place for
    /// each new text (a typed key allocates nothing for it; the state read every frame does not
    /// shape again).
    var editableLine: EditableLine?
    /// A secure field's bullets as last shown, and how many (changed in place: no string per frame).
    var bullets = ""
    var bulletCount = 0
    private var clickCount = 0
    private var lastClick: (time: Double, point: Point)?
    private var dragOrigin: Range<Int>?
    private var offeredPrimary: String?

    /// - Parameters:
    ///   - text: the initial text (made one line, cut to `maximumLength`).
    ///   - placeholder: shown while the text is empty (UIKit `placeholder`, GTK `placeholder-text`).
    ///   - isSecure: a password field.
    ///   - maximumLength: the most characters (grapheme clusters), nil for no limit.
    public init(text: String = "", placeholder: String = "", isSecure: Bool = false, maximumLength: Int? = nil) {
        model = TextEditingModel(text: text, maximumLength: maximumLength)
        self.placeholder = placeholder
        self.isSecure = isSecure
    }

    /// The text (setting it replaces it as one undo group, the caret at the end).
    public var text: String {
        get { model.text }
        set { edit { $0.setText(newValue) } }
    }
    /// The most characters the text may hold; nil: no limit.
    public var maximumLength: Int? {
        get { model.maximumLength }
        set { model.maximumLength = newValue }
    }
    /// Selects `range` (UTF-8 byte offsets into ``text``, snapped outward to character boundaries),
    /// the caret at its end (UIKit's `selectedTextRange`; GTK's `gtk_editable_select_region`).
    public func select(_ range: Range<Int>) {
        model.select(range)
        needsDraw = true
        accessibilityChanged = true
    }
    /// The text as shown: bullets (•) per character when secure, else the text.
    public var displayText: String { isSecure ? String(repeating: "•", count: model.characterCount) : model.text }

    // MARK: PresentationContent

    public var invalidation: ContentInvalidation {
        if needsDraw { return .all }
        return isFocused && caretOn(at: clock()) != drawnCaretOn ? .all : .none
    }

    public func didLayout(size: Size) {
        self.size = size
        needsDraw = true
    }

    public func preferredContentSize(fittingWidth width: Double) -> Size? { Size(width: width, height: TextField.height) }

    public var nextInvalidationTime: Double? { nextBlinkTime }

    public func cursorShape(at point: Point) -> CursorShape {
        Rect(size: size).contains(point) ? .text : .default
    }

    public var textInputState: TextInputState? {
        guard isFocused else { return nil }
        let w = model.surroundingWindow()
        var hints = hints, purpose = purpose
        if isSecure {
            purpose = .password
            hints.formUnion([.hiddenText, .sensitiveData])
        }
        return TextInputState(surroundingText: isSecure ? "" : w.text, cursor: isSecure ? 0 : w.cursor,
                              anchor: isSecure ? 0 : w.anchor, purpose: purpose, hints: hints,
                              cursorRectangle: caretRectangle)
    }

    public func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case let .keyboard(key): return handleKey(key, now: now)
        case let .textInput(update):
            guard isFocused else { return false }
            let before = model.preedit
            edit { $0.apply(update) }
            if model.preedit != before { onPreeditChange(model.preedit) }
            touch(now)
            return true
        case let .press(p): press(p, now: now)
        case let .drag(p): drag(p)
        case let .release(p):
            drag(p)
            dragOrigin = nil
            offerPrimary()
        case .cancel: dragOrigin = nil
        case let .key(key):
            guard key == .activate else { return false }
            onSubmit(now)
        case let .focus(id):
            guard id == nil || id == "text-field" else { return false }
            isFocused = true
        case let .activate(id):
            guard id == "text-field" else { return false }
            isFocused = true
        case let .editText(id, e):
            guard id == "text-field" else { return false }
            return applyAccessibilityEdit(e)
        case .hover, .scroll: return false
        }
        needsDraw = true
        return true
    }

    // MARK: Keys

    private func handleKey(_ key: KeyInput, now: Double) -> Bool {
        guard key.isDown else { return false }
        let m = key.modifiers, shift = m.contains(.shift), ctrl = m.contains(.control)
        let extending = shift
        typealias K = KeyInput.Keysym
        let letter = key.keysym < 0x80 ? Character(Unicode.Scalar(UInt8(key.keysym))).lowercased() : ""
        // Word moves in a secure field go to the ends (GTK: no word boundaries in invisible text).
        func wordStart() -> Int { isSecure ? 0 : model.wordStart(before: model.caret) }
        func wordEnd() -> Int { isSecure ? model.text.utf8.count : model.wordEnd(after: model.caret) }
        switch key.keysym {
        case K.left:
            if model.hasSelection && !extending && !ctrl { move(to: model.selection.lowerBound, extending: false) } else {
                move(to: ctrl ? wordStart() : model.offset(before: model.caret), extending: extending)
            }
        case K.right:
            if model.hasSelection && !extending && !ctrl { move(to: model.selection.upperBound, extending: false) } else {
                move(to: ctrl ? wordEnd() : model.offset(after: model.caret), extending: extending)
            }
        case K.home: move(to: 0, extending: extending)
        case K.end: move(to: model.text.utf8.count, extending: extending)
        case K.backSpace:
            let secure = isSecure
            edit { m in
                if secure && ctrl && !m.hasSelection { m.select(0..<m.caret) }
                m.deleteBackward(word: ctrl)
            }
        case K.delete:
            if shift && !ctrl { cut() } else { edit { $0.deleteForward(word: ctrl && !isSecure) } }
        case 0xff63 where ctrl && !shift: copy()                 // XKB_KEY_Insert
        case 0xff63 where shift && !ctrl: paste(from: .clipboard)
        default:
            if ctrl && !m.contains(.alt) {
                switch letter {
                case "a": model.selectAll(); offerPrimary()
                case "c": copy()
                case "x": cut()
                case "v": paste(from: .clipboard)
                case "z": edit { m in _ = shift ? m.redo() : m.undo() }
                case "y": edit { $0.redo() }
                default: return false
                }
            } else {
                let typed = key.typedText
                guard !typed.isEmpty else { return false }
                edit { $0.insert(typed, typing: true) }
            }
        }
        touch(now)
        return true
    }

    private func move(to offset: Int, extending: Bool) {
        model.setCaret(offset, extending: extending)
        if extending { offerPrimary() }
        needsDraw = true
    }

    /// Runs `change` on the model and reports a changed text.
    func edit(_ change: (inout TextEditingModel) -> Void) {
        // The text before is not kept (a copy would make the edit copy the whole string): the
        // model counts its changes.
        let revision = model.textRevision
        change(&model)
        needsDraw = true
        accessibilityChanged = true
        if model.textRevision != revision { onChange(model.text) }
    }

    private func touch(_ now: Double) {
        lastActivity = max(now, clock())
        needsDraw = true
    }

    /// An edit by assistive technology (``ContentInput/editText(_:_:)``; ATK's `AtkEditableText`),
    /// character offsets into ``displayText`` (clamped to it), with the rules of typing and pasting:
    /// one line, the maximum length, one undo group per edit (``TextEditingModel/replace(_:with:)``,
    /// ``TextEditingModel/setText(_:)``); a secure field copies and cuts nothing (GTK's password
    /// entry refuses them too). Focus does not move. Returns false for a refused copy or cut.
    func applyAccessibilityEdit(_ e: AccessibilityTextEdit) -> Bool {
        let count = model.characterCount
        func byte(_ c: Int) -> Int { model.byteOffset(ofCharacter: min(max(0, c), count)) }
        func bytes(_ r: Range<Int>) -> Range<Int> { byte(r.lowerBound)..<max(byte(r.lowerBound), byte(r.upperBound)) }
        switch e {
        case let .setContents(s): edit { $0.setText(s) }
        case let .insert(s, at):
            let at = byte(at)
            edit { _ = $0.replace(at..<at, with: s) }
        case let .delete(r):
            let r = bytes(r)
            edit { _ = $0.replace(r, with: "") }
        case let .copy(r), let .cut(r):
            let r = bytes(r)
            guard !isSecure, !r.isEmpty else { return false }
            pasteboard.setText(String(model.text[model.index(r.lowerBound)..<model.index(r.upperBound)]), as: .clipboard)
            if case .cut = e { edit { _ = $0.replace(r, with: "") } }
        case let .paste(at):
            model.setCaret(byte(at))
            paste(from: .clipboard)
        }
        touch(clock())
        accessibilityChanged = true
        return true
    }

    // MARK: Clipboard

    /// Copies the selection to the clipboard (never for a secure field).
    public func copy() {
        guard !isSecure, model.hasSelection else { return }
        pasteboard.setText(model.selectedText, as: .clipboard)
    }

    /// Copies the selection to the clipboard and deletes it (never for a secure field).
    public func cut() {
        guard !isSecure, model.hasSelection else { return }
        pasteboard.setText(model.selectedText, as: .clipboard)
        edit { $0.deleteSelection() }
    }

    /// Inserts `selection`'s text at the caret when it arrives (newlines as spaces).
    public func paste(from selection: PasteboardSelection) {
        pasteboard.requestText(from: selection) { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            self.edit { $0.insert(text) }
            self.lastActivity = self.clock()
        }
    }

    private func offerPrimary() {
        guard !isSecure, model.hasSelection else { return }
        let s = model.selectedText
        guard s != offeredPrimary else { return }
        offeredPrimary = s
        pasteboard.setText(s, as: .primary)
    }

    // MARK: Pointer

    private func press(_ p: Point, now: Double) {
        isFocused = true
        if let last = lastClick, now - last.time <= TextField.multiClickTime,
           abs(p.x - last.point.x) <= TextField.multiClickDistance, abs(p.y - last.point.y) <= TextField.multiClickDistance {
            clickCount = clickCount % 3 + 1
        } else {
            clickCount = 1
        }
        lastClick = (now, p)
        let at = offset(atX: p.x)
        switch clickCount {
        case 2: model.select(isSecure ? 0..<model.text.utf8.count : model.word(at: at))
        case 3: model.selectAll()
        default: model.setCaret(at)
        }
        dragOrigin = model.selection
        touch(now)
    }

    private func drag(_ p: Point) {
        guard let origin = dragOrigin else { return }
        let at = offset(atX: p.x)
        switch clickCount {
        case 3: return
        case 2 where !isSecure:
            let w = model.word(at: at)
            model.select(min(origin.lowerBound, w.lowerBound)..<max(origin.upperBound, w.upperBound),
                         caretAtStart: w.lowerBound < origin.lowerBound)
        default:
            model.setCaret(origin.lowerBound)
            model.setCaret(at, extending: true)
        }
        needsDraw = true
    }

    // MARK: Accessibility

    public var accessibilityElement: AccessibilityElement? { accessibilityElement(identifier: "text-field", frame: Rect(size: size)) }

    /// The field for assistive technology: role entry (password text when secure), its label (the
    /// placeholder when no label is set), focusable, focused while it has focus, with its text (bullets
    /// when secure), caret and selection as character offsets (ATK's `AtkText`).
    public func accessibilityElement(identifier: String, frame: Rect) -> AccessibilityElement {
        var states: AccessibilityStates = [.focusable]
        if isFocused { states.insert(.focused) }
        var e = AccessibilityElement(identifier: identifier, role: isSecure ? .passwordText : .entry,
                                     label: accessibilityLabel.isEmpty ? placeholder : accessibilityLabel,
                                     frame: frame, states: states, actions: .activate)
        let sel = model.selection
        e.text = AccessibilityText(text: displayText, caret: model.characterIndex(ofByte: model.caret),
                                   selection: model.characterIndex(ofByte: sel.lowerBound)..<model.characterIndex(ofByte: sel.upperBound),
                                   isEditable: true)
        return e
    }
}
