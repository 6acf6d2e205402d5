/// What the content whose text field has keyboard focus tells the platform's input method: the
/// client state of the Wayland text-input protocol (`zwp_text_input_v3`: `set_surrounding_text`,
/// `set_content_type`, `set_cursor_rectangle`), and what an accessibility bridge and a clipboard
/// need to know of the field. Read through ``PresentationContent/textInputState`` after input and
/// before each frame; a ModalKitWayland window sends what changed, then `commit`.
///
/// Offsets are **UTF-8 byte offsets** into ``surroundingText`` (the protocol's unit), on grapheme
/// cluster boundaries. A preedit in progress is not part of ``surroundingText``.
public struct TextInputState: Hashable, Sendable {
    /// The text around the caret (the protocol allows at most 4000 bytes: a field with more sends a
    /// window of whole grapheme clusters around the caret, ``cursor`` and ``anchor`` relative to it).
    public var surroundingText: String
    /// The caret, a byte offset into ``surroundingText``.
    public var cursor: Int
    /// The other end of the selection (equal to ``cursor`` when nothing is selected), bytes.
    public var anchor: Int
    /// What the text is for (text-input-v3 `content_purpose`).
    public var purpose: TextContentPurpose
    /// How an input method should treat it (text-input-v3 `content_hint`; a password field:
    /// ``TextContentHints/hiddenText`` and ``TextContentHints/sensitiveData``).
    public var hints: TextContentHints
    /// The caret's rectangle (or the preedit's cursor's), in the content's own points; the host
    /// converts it to the window's (``PresentationHost/textInputState(at:)``) and the window to surface
    /// coordinates, where the input method places its candidate window.
    public var cursorRectangle: Rect

    /// A state from its parts; see each property for its unit.
    public init(surroundingText: String, cursor: Int, anchor: Int, purpose: TextContentPurpose = .normal,
                hints: TextContentHints = [], cursorRectangle: Rect) {
        self.surroundingText = surroundingText
        self.cursor = cursor
        self.anchor = anchor
        self.purpose = purpose
        self.hints = hints
        self.cursorRectangle = cursorRectangle
    }
}

/// The purpose of a text field, as text-input-v3's `content_purpose` enum (same order and values).
public enum TextContentPurpose: UInt32, Hashable, Sendable, CaseIterable {
    /// Default input, allowing all characters.
    case normal = 0
    /// Allow only alphabetic characters.
    case alpha
    /// Allow only digits.
    case digits
    /// Input a number (including decimal separator and sign).
    case number
    /// Input a phone number.
    case phone
    /// Input a URL.
    case url
    /// Input an email address.
    case email
    /// Input a name of a person.
    case name
    /// Input a password (combine with the hints hidden text and sensitive data).
    case password
    /// Input is a numeric password (combine with the hints hidden text and sensitive data).
    case pin
    /// Input a date.
    case date
    /// Input a time.
    case time
    /// Input a date and time.
    case datetime
    /// Input for a terminal.
    case terminal
}

/// Hints to the input method, as text-input-v3's `content_hint` bitfield (same bits).
public struct TextContentHints: OptionSet, Hashable, Sendable {
    /// The protocol's bits.
    public let rawValue: UInt32
    /// Hints from the protocol's bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Suggest completions.
    public static let completion = TextContentHints(rawValue: 0x1)
    /// Suggest spelling corrections.
    public static let spellcheck = TextContentHints(rawValue: 0x2)
    /// Capitalize the first letter of each sentence.
    public static let autoCapitalization = TextContentHints(rawValue: 0x4)
    /// Prefer lowercase letters.
    public static let lowercase = TextContentHints(rawValue: 0x8)
    /// Prefer uppercase letters.
    public static let uppercase = TextContentHints(rawValue: 0x10)
    /// Prefer casing for titles and headings.
    public static let titlecase = TextContentHints(rawValue: 0x20)
    /// Characters should be hidden (a password field).
    public static let hiddenText = TextContentHints(rawValue: 0x40)
    /// Typed text should not be stored (a password field).
    public static let sensitiveData = TextContentHints(rawValue: 0x80)
    /// Just Latin characters should be entered.
    public static let latin = TextContentHints(rawValue: 0x100)
    /// The text is multiline.
    public static let multiline = TextContentHints(rawValue: 0x200)
}

/// One `done` of the input method (text-input-v3), to apply in the order the protocol gives:
/// 1. replace the preedit with nothing; 2. delete ``deleteBefore`` bytes before and ``deleteAfter``
/// bytes after the caret (where the caret was when the content's last state was sent; offsets that
/// do not fall on the text's character boundaries or outside it are refused, the rest of the update
/// still applied); 3. insert ``commit`` at the caret; 4. show ``preedit`` (if any) at the caret.
/// Delivered as ``ContentInput/textInput(_:)`` to the content whose ``PresentationContent/textInputState``
/// is not nil. Text from an input method is untrusted: any valid UTF-8 of any length.
public struct TextInputUpdate: Hashable, Sendable {
    /// Text being composed (not yet part of the field's text), drawn at the caret, underlined.
    public struct Preedit: Hashable, Sendable {
        /// The composed text.
        public var text: String
        /// The preedit's own cursor as a byte range in ``text`` (`begin == end`: a caret; nil: hide
        /// the cursor, the protocol's −1).
        public var cursor: Range<Int>?
        /// A preedit from its text and cursor range (bytes).
        public init(text: String, cursor: Range<Int>?) {
            self.text = text
            self.cursor = cursor
        }
    }

    /// The new preedit; nil: none.
    public var preedit: Preedit?
    /// Bytes to delete before the caret (`delete_surrounding_text`'s `before_length`).
    public var deleteBefore: Int
    /// Bytes to delete after the caret (`delete_surrounding_text`'s `after_length`).
    public var deleteAfter: Int
    /// Text to insert at the caret (`commit_string`); nil: none.
    public var commit: String?

    /// An update from its parts (the defaults change nothing but drop the preedit).
    public init(preedit: Preedit? = nil, deleteBefore: Int = 0, deleteAfter: Int = 0, commit: String? = nil) {
        self.preedit = preedit
        self.deleteBefore = deleteBefore
        self.deleteAfter = deleteAfter
        self.commit = commit
    }
}

/// The pointer's shape over a point of content (CSS / libwayland-cursor theme names).
public enum CursorShape: String, Hashable, Sendable {
    /// The theme's arrow (`default`, `left_ptr`).
    case `default`
    /// An I-beam over editable text (`text`, `xterm`).
    case text
    /// A hand over a link-like control (`pointer`, `hand2`).
    case pointer
}

/// Which of the platform's two selections: the clipboard (`wl_data_device`, Ctrl+C / Ctrl+V) or the
/// primary selection (`zwp_primary_selection_device_v1`: selecting copies, a middle click pastes).
public enum PasteboardSelection: Hashable, Sendable {
    /// The clipboard (`wl_data_device.set_selection`): Ctrl+C, Ctrl+X, Ctrl+V.
    case clipboard
    /// The primary selection (`zwp_primary_selection_device_v1`): what is selected, pasted by a middle click.
    case primary
}

/// Where a ``Pasteboard`` keeps text: the platform's selections. A ModalKitWayland window installs
/// one backed by `wl_data_device` and `zwp_primary_selection_device_v1` (offers as
/// `text/plain;charset=utf-8`, `UTF8_STRING`, `TEXT`, set with the serial of the latest input event).
public protocol PasteboardBackend: AnyObject {
    /// Offers `text` as `selection`.
    func offer(_ text: String, as selection: PasteboardSelection)
    /// Reads the text offered as `selection`; calls `completion` on the event loop's thread — later,
    /// never from inside this call — with the text (invalid UTF-8 repaired, at most the backend's
    /// size cap) or nil when nothing is offered, no text type is, or the read failed.
    func requestText(from selection: PasteboardSelection, completion: @escaping (String?) -> Void)
}

/// The clipboard and the primary selection as content reaches them (UIKit: `UIPasteboard.general`;
/// GTK: `gtk_widget_get_clipboard`, `gtk_widget_get_primary_clipboard`). Without a platform backend
/// (offline renders, unit tests) text stays in this process.
public final class Pasteboard {
    /// The process's pasteboard (used on the event loop's thread only, like all content).
    nonisolated(unsafe) public static let general = Pasteboard()

    /// The platform's selections; nil: an in-process store.
    public var backend: (any PasteboardBackend)?
    private var local: [PasteboardSelection: String] = [:]

    /// An empty in-process pasteboard (tests); apps use ``general``.
    public init() {}

    /// Offers `text` as `selection` (a secure field never calls this).
    public func setText(_ text: String, as selection: PasteboardSelection = .clipboard) {
        if let backend { backend.offer(text, as: selection) } else { local[selection] = text }
    }

    /// Reads `selection`'s text and calls `completion` with it, or with nil when there is none:
    /// through a backend later on the loop's thread (see
    /// ``PasteboardBackend/requestText(from:completion:)``); in process at once.
    public func requestText(from selection: PasteboardSelection = .clipboard,
                            completion: @escaping (String?) -> Void) {
        if let backend { backend.requestText(from: selection, completion: completion); return }
        completion(local[selection])
    }
}
