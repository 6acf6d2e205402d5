/// Pointer input on a window (`wl_pointer`). Coordinates are surface-local logical points
/// (origin top left, fractional: wl_fixed_t converted to `Double`).
public enum PointerEvent: Equatable, Sendable {
    /// The pointer entered the window at (x, y). The cursor has been set (`left_ptr`).
    case enter(x: Double, y: Double)
    case motion(x: Double, y: Double)
    /// The pointer left the window (or the seat lost its pointer); a pressed button is not
    /// released first, so treat this as a cancel of any press in progress.
    case leave
    /// A button changed state. `code` is the Linux evdev code (`BTN_LEFT` = 0x110 = 272,
    /// `BTN_RIGHT` = 0x111, `BTN_MIDDLE` = 0x112).
    case button(code: UInt32, pressed: Bool)
}

/// Modifier state of a keyboard, from xkbcommon's effective modifiers.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let control = KeyModifiers(rawValue: 1 << 1)
    /// "Mod1".
    public static let alt = KeyModifiers(rawValue: 1 << 2)
    /// "Mod4" (Super).
    public static let logo = KeyModifiers(rawValue: 1 << 3)
    public static let capsLock = KeyModifiers(rawValue: 1 << 4)
    public static let numLock = KeyModifiers(rawValue: 1 << 5)
}

/// A key press, release or repeat on the focused window (`wl_keyboard.key`, translated by the
/// compositor's current xkb keymap).
public struct KeyEvent: Equatable, Sendable {
    /// The xkb keysym with the current modifiers applied (`XKB_KEY_Escape` = 0xff1b,
    /// `XKB_KEY_Return` = 0xff0d, `XKB_KEY_KP_Enter` = 0xff8d, `XKB_KEY_space` = 0x20,
    /// `XKB_KEY_Tab` = 0xff09, Shift+Tab gives `XKB_KEY_ISO_Left_Tab` = 0xfe20).
    /// 0 (`XKB_KEY_NoSymbol`) when no keymap is loaded.
    public var keysym: UInt32
    public var pressed: Bool
    /// True for a press synthesised by key repeat (`wl_keyboard.repeat_info`); a repeated key gets
    /// one release at the end.
    public var isRepeat: Bool
    /// The text the key produces, "" for none (control keys may give control characters).
    public var utf8: String
    /// Modifiers in effect for this key.
    public var modifiers: KeyModifiers
    /// The Linux evdev key code (`wl_keyboard.key`'s `key`; `KEY_ESC` = 1).
    public var code: UInt32

    public init(keysym: UInt32, pressed: Bool, isRepeat: Bool, utf8: String,
                modifiers: KeyModifiers = [], code: UInt32 = 0) {
        self.keysym = keysym
        self.pressed = pressed
        self.isRepeat = isRepeat
        self.utf8 = utf8
        self.modifiers = modifiers
        self.code = code
    }
}

/// Touch input on a window (`wl_touch`). `id` identifies a touch point from `down` to `up`;
/// coordinates are surface-local logical points.
public enum TouchEvent: Equatable, Sendable {
    case down(id: Int32, x: Double, y: Double)
    case motion(id: Int32, x: Double, y: Double)
    case up(id: Int32)
    /// The compositor took over the touch sequence (e.g. for a gesture): forget every touch point
    /// of this window without acting on it.
    case cancel
}
