/// One pointer event on a window (`wl_pointer`), with the serial and time the protocol gave it.
/// Coordinates are surface-local logical points (origin top left, fractional: wl_fixed_t
/// converted to `Double`).
public struct PointerEvent: Equatable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        /// The pointer entered the window at (x, y). The cursor has been set (`left_ptr`).
        case enter(x: Double, y: Double)
        /// The pointer moved to (x, y).
        case motion(x: Double, y: Double)
        /// The pointer left the window (or the seat lost its pointer); a pressed button is not
        /// released first, so treat this as a cancel of any press in progress.
        case leave
        /// A button changed state. `code` is the Linux evdev code (`BTN_LEFT` = 0x110 = 272,
        /// `BTN_RIGHT` = 0x111, `BTN_MIDDLE` = 0x112).
        case button(code: UInt32, pressed: Bool)
    }

    /// What happened.
    public var kind: Kind
    /// The event's serial: `wl_pointer.enter`, `leave` and `button` carry one (what
    /// `xdg_toplevel.move`, `xdg_popup.grab` and the like ask for); nil for `motion`, which has
    /// none, and for a leave the client makes up when the seat loses its pointer.
    public var serial: UInt32?
    /// The event's timestamp in milliseconds, as `wl_pointer.motion` and `button` give it (an
    /// undefined base, wrapping at 2³²: compare differences only); nil for `enter` and `leave`,
    /// which carry none.
    public var time: UInt32?

    /// An event of `kind`, with the protocol's `serial` and `time` (milliseconds) where it has them.
    public init(_ kind: Kind, serial: UInt32? = nil, time: UInt32? = nil) {
        self.kind = kind
        self.serial = serial
        self.time = time
    }
}

/// The pointer events of one `wl_pointer.frame`, in the order the compositor sent them: what
/// belongs together (wl_pointer: "a logical group"), e.g. a leave from one surface and an enter
/// on another. From a seat older than version 5 (no `frame` event) each event is a frame of its
/// own. Only the events on the window's content are in it (the decorations take theirs).
public struct PointerFrame: Equatable, Sendable {
    /// At least one event.
    public var events: [PointerEvent]

    /// The events of one `wl_pointer.frame`, in the order they came.
    public init(events: [PointerEvent]) { self.events = events }
}

/// Modifier state of a keyboard, from xkbcommon's effective modifiers.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 1)
    /// "Mod1".
    public static let alt = KeyModifiers(rawValue: 1 << 2)
    /// "Mod4" (Super).
    public static let logo = KeyModifiers(rawValue: 1 << 3)
    /// Caps Lock is on.
    public static let capsLock = KeyModifiers(rawValue: 1 << 4)
    /// Num Lock is on.
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
    /// True for a press (or a repeat), false for the release.
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
    /// `wl_keyboard.key`'s serial; nil for a repeat, which the client synthesises.
    public var serial: UInt32?
    /// `wl_keyboard.key`'s timestamp in milliseconds (an undefined base: compare differences
    /// only); nil for a repeat.
    public var time: UInt32?

    /// A key event; see the properties for each value.
    public init(keysym: UInt32, pressed: Bool, isRepeat: Bool, utf8: String,
                modifiers: KeyModifiers = [], code: UInt32 = 0, serial: UInt32? = nil, time: UInt32? = nil) {
        self.keysym = keysym
        self.pressed = pressed
        self.isRepeat = isRepeat
        self.utf8 = utf8
        self.modifiers = modifiers
        self.code = code
        self.serial = serial
        self.time = time
    }
}

/// Touch input on a window (`wl_touch`), with the serial and time the protocol gave it. `id`
/// identifies a touch point from `down` to `up`; coordinates are surface-local logical points.
public struct TouchEvent: Equatable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        /// Touch point `id` went down at (x, y).
        case down(id: Int32, x: Double, y: Double)
        /// Touch point `id` moved to (x, y).
        case motion(id: Int32, x: Double, y: Double)
        /// Touch point `id` was lifted.
        case up(id: Int32)
        /// The compositor took over the touch sequence (e.g. for a gesture): forget every touch
        /// point of this window without acting on it.
        case cancel
    }

    /// What happened.
    public var kind: Kind
    /// The event's serial: `wl_touch.down` and `up` carry one; nil for `motion` and `cancel`.
    public var serial: UInt32?
    /// The event's timestamp in milliseconds, as `wl_touch.down`, `up` and `motion` give it (an
    /// undefined base: compare differences only); nil for `cancel`, which carries none.
    public var time: UInt32?

    /// An event of `kind`, with the protocol's `serial` and `time` (milliseconds) where it has them.
    public init(_ kind: Kind, serial: UInt32? = nil, time: UInt32? = nil) {
        self.kind = kind
        self.serial = serial
        self.time = time
    }
}

/// The touch events of one `wl_touch.frame` on one window, in the order the compositor sent them:
/// what belongs together (wl_touch.frame: "a set of events that logically belong together", e.g.
/// the motions of several fingers moving at once, or a down and an up). A `wl_touch.cancel` comes
/// as a frame of its own holding only ``TouchEvent/Kind/cancel``. Only the events on the window's
/// content are in it (the decorations take theirs).
public struct TouchFrame: Equatable, Sendable {
    /// At least one event.
    public var events: [TouchEvent]

    /// The events of one `wl_touch.frame`, in the order they came.
    public init(events: [TouchEvent]) { self.events = events }
}
