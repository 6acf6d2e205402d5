/// One key event for the content with keyboard focus: a press, a repeat of a held key, or the
/// release, with its xkb keysym, the text it types and the modifiers in effect. Wayland-free: a
/// ModalKitWayland window fills it from `wl_keyboard.key` through the compositor's xkb keymap
/// (keysym with the modifiers applied, `xkb_state_key_get_utf8`, `xkb_keymap_key_repeats`).
///
/// Routing (UIKit's responder chain: `pressesBegan` reaches the first responder, which passes what
/// it does not handle on; GTK: a key event reaches the focused widget first and propagates while
/// handlers return `GDK_EVENT_PROPAGATE`): ``PresentationHost`` gives every key event to the
/// focused content as ``ContentInput/keyboard(_:)``. A content that returns true used it, and the
/// host does nothing more with it. One that returns false lets the host act on a press or repeat:
/// its meaning as a ``PresentationKey`` (``presentationKey``) reaches the content as
/// ``ContentInput/key(_:)`` (Tab / Shift-Tab move focus, Return activates), an arrow key does so as
/// Tab / Shift-Tab when the content's ``PresentationContent/arrowKeysMoveFocus`` is true, and an
/// Escape still unused dismisses the presented view. So a text field uses space and Escape itself,
/// and a row of buttons gets Tab focus movement without handling raw keys.
public struct KeyInput: Hashable, Sendable {
    /// A press, a press synthesised by key repeat while the key is held (at the compositor's
    /// `wl_keyboard.repeat_info` rate, only for keys whose keymap says they repeat), or the release.
    public enum Phase: Hashable, Sendable {
        /// The key went down.
        case press
        /// The held key repeats (one per repeat interval after the repeat delay).
        case `repeat`
        /// The key went up (a repeated key has one release at the end).
        case release
    }

    /// Modifiers in effect for the key (xkb's effective modifiers, by their usual names).
    public struct Modifiers: OptionSet, Hashable, Sendable {
        /// The bits (the values of this type's constants).
        public let rawValue: UInt32
        /// Modifiers from their bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Shift.
        public static let shift = Modifiers(rawValue: 1 << 0)
        /// Control.
        public static let control = Modifiers(rawValue: 1 << 1)
        /// Alt ("Mod1").
        public static let alt = Modifiers(rawValue: 1 << 2)
        /// Super / logo ("Mod4").
        public static let logo = Modifiers(rawValue: 1 << 3)
        /// Caps Lock is on.
        public static let capsLock = Modifiers(rawValue: 1 << 4)
        /// Num Lock is on.
        public static let numLock = Modifiers(rawValue: 1 << 5)
    }

    /// xkb keysyms (the values of xkbcommon-keysyms.h `XKB_KEY_…`) of the common keys. A printable
    /// Latin-1 key's keysym is its code point (`a` = 0x61); others are in that header.
    public enum Keysym {
        /// `XKB_KEY_NoSymbol`: no keymap, or the key has no symbol.
        public static let noSymbol: UInt32 = 0
        /// `XKB_KEY_Escape`.
        public static let escape: UInt32 = 0xff1b
        /// `XKB_KEY_Return`.
        public static let returnKey: UInt32 = 0xff0d
        /// `XKB_KEY_KP_Enter`.
        public static let keypadEnter: UInt32 = 0xff8d
        /// `XKB_KEY_space`.
        public static let space: UInt32 = 0x0020
        /// `XKB_KEY_Tab`.
        public static let tab: UInt32 = 0xff09
        /// `XKB_KEY_ISO_Left_Tab`: Shift+Tab (xkb's level 2 of Tab).
        public static let isoLeftTab: UInt32 = 0xfe20
        /// `XKB_KEY_BackSpace`.
        public static let backSpace: UInt32 = 0xff08
        /// `XKB_KEY_Delete`.
        public static let delete: UInt32 = 0xffff
        /// `XKB_KEY_Home`.
        public static let home: UInt32 = 0xff50
        /// `XKB_KEY_Left`.
        public static let left: UInt32 = 0xff51
        /// `XKB_KEY_Up`.
        public static let up: UInt32 = 0xff52
        /// `XKB_KEY_Right`.
        public static let right: UInt32 = 0xff53
        /// `XKB_KEY_Down`.
        public static let down: UInt32 = 0xff54
        /// `XKB_KEY_Page_Up` (`XKB_KEY_Prior`).
        public static let pageUp: UInt32 = 0xff55
        /// `XKB_KEY_Page_Down` (`XKB_KEY_Next`).
        public static let pageDown: UInt32 = 0xff56
        /// `XKB_KEY_End`.
        public static let end: UInt32 = 0xff57
    }

    /// The keysym with the current modifiers applied (``Keysym``; Shift+Tab is `ISO_Left_Tab`).
    public var keysym: UInt32
    /// Press, repeat or release.
    public var phase: Phase
    /// The text the key types (UTF-8 from the keymap, e.g. "A" for Shift+a), "" for none. Control
    /// keys may give control characters (Return "\r", Escape "\u{1B}"): use ``typedText`` for text.
    public var text: String
    /// Modifiers in effect.
    public var modifiers: Modifiers
    /// The Linux evdev key code (`KEY_ESC` = 1), for keys that mean a position rather than a symbol.
    public var code: UInt32

    /// A key event; see the properties for each value.
    public init(keysym: UInt32, phase: Phase, text: String = "", modifiers: Modifiers = [], code: UInt32 = 0) {
        self.keysym = keysym
        self.phase = phase
        self.text = text
        self.modifiers = modifiers
        self.code = code
    }

    /// Whether the key is down: a press or a repeat.
    public var isDown: Bool { phase != .release }

    /// The text to insert for this press or repeat: ``text`` without control characters (C0, DEL,
    /// C1), and nothing with Control, Alt or Super held (shortcuts, as GTK's `GtkIMContextSimple`
    /// does) or on a release. "" when the key types nothing.
    public var typedText: String {
        guard isDown, modifiers.isDisjoint(with: [.control, .alt, .logo]) else { return "" }
        func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7f...0x9f).contains(s.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }   // the usual case: no copy
        let printable = text.unicodeScalars.filter { s in !(s.value < 0x20 || (0x7f...0x9f).contains(s.value)) }
        return String(String.UnicodeScalarView(printable))
    }

    /// What the key means to the host: Escape; Return, keypad Enter and space activate (GTK's and
    /// UIKit's activation keys); Tab; Shift+Tab (`ISO_Left_Tab`); nil for every other keysym.
    public var presentationKey: PresentationKey? {
        switch keysym {
        case Keysym.escape: return .escape
        case Keysym.returnKey, Keysym.keypadEnter, Keysym.space: return .activate
        case Keysym.tab: return .tab
        case Keysym.isoLeftTab: return .backTab
        default: return nil
        }
    }

    /// The focus movement an arrow key means where a content lets arrows move focus
    /// (``PresentationContent/arrowKeysMoveFocus``): Down and Right the next element (as Tab),
    /// Up and Left the previous (as Shift-Tab), GTK's arrow-key focus movement in tab order; nil
    /// for other keys and with a modifier other than the locks held.
    public var arrowFocusMovement: PresentationKey? {
        guard modifiers.isDisjoint(with: [.shift, .control, .alt, .logo]) else { return nil }
        switch keysym {
        case Keysym.down, Keysym.right: return .tab
        case Keysym.up, Keysym.left: return .backTab
        default: return nil
        }
    }
}
