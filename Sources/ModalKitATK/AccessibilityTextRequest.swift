import CModalKitATKInterface
import ModalKit

extension AccessibilityBridge {
    /// The edit an `AtkEditableText` request asks for (`modalkit_atk_text_request_callback`):
    /// `request` one of `MODALKIT_ATK_REQUEST_SET_TEXT` … `PASTE_TEXT`, `start` and `end` in Unicode
    /// code points of `current` (the text the node was last given, ATK's unit), turned into
    /// characters (grapheme clusters, ``AccessibilityText``'s unit): a start inside a character
    /// moves to its start, an end inside one to its end, so a character is edited whole. Nil for
    /// another request number, or an insertion or a new text without its text.
    static func textEdit(request: UInt32, text: String?, start: Int, end: Int,
                         in current: AccessibilityText) -> AccessibilityTextEdit? {
        let lo = characters(beforeScalar: start, in: current.text, roundingUp: false)
        let hi = max(lo, characters(beforeScalar: end, in: current.text, roundingUp: true))
        switch request {
        case MODALKIT_ATK_REQUEST_SET_TEXT.rawValue: return text.map { .setContents($0) }
        case MODALKIT_ATK_REQUEST_INSERT_TEXT.rawValue: return text.map { .insert($0, at: lo) }
        case MODALKIT_ATK_REQUEST_DELETE_TEXT.rawValue: return .delete(lo..<hi)
        case MODALKIT_ATK_REQUEST_COPY_TEXT.rawValue: return .copy(lo..<hi)
        case MODALKIT_ATK_REQUEST_CUT_TEXT.rawValue: return .cut(lo..<hi)
        case MODALKIT_ATK_REQUEST_PASTE_TEXT.rawValue: return .paste(at: lo)
        default: return nil
        }
    }

    /// The characters of `text` before code point `offset` (clamped to the text); an offset inside
    /// a character counts it when `roundingUp`.
    static func characters(beforeScalar offset: Int, in text: String, roundingUp: Bool) -> Int {
        var scalars = 0, count = 0
        for c in text {
            guard scalars < offset else { break }
            let n = c.unicodeScalars.count
            if scalars + n > offset && !roundingUp { break }
            scalars += n
            count += 1
        }
        return count
    }
}
