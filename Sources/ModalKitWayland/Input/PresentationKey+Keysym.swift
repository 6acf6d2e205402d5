import ModalKit

extension PresentationKey {
    /// xkb keysyms (xkbcommon-keysyms.h) of the keys the host routes.
    enum Keysym {
        static let escape: UInt32 = 0xff1b
        static let returnKey: UInt32 = 0xff0d
        static let keypadEnter: UInt32 = 0xff8d
        static let space: UInt32 = 0x0020
        static let tab: UInt32 = 0xff09
        /// Shift+Tab (xkb's level 2 of Tab).
        static let isoLeftTab: UInt32 = 0xfe20
    }

    /// The key an xkb keysym (``KeyEvent/keysym``, modifiers applied) means to the host: Escape;
    /// Return, keypad Enter and space activate (GTK's and UIKit's activation keys); Tab; Shift+Tab
    /// (`ISO_Left_Tab`). nil for every other keysym.
    public init?(keysym: UInt32) {
        switch keysym {
        case Keysym.escape: self = .escape
        case Keysym.returnKey, Keysym.keypadEnter, Keysym.space: self = .activate
        case Keysym.tab: self = .tab
        case Keysym.isoLeftTab: self = .backTab
        default: return nil
        }
    }

    /// Whether a held key repeats (`wl_keyboard.repeat_info`): only focus movement does; a held
    /// Return or Escape acts once.
    public var repeats: Bool { self == .tab || self == .backTab }
}
