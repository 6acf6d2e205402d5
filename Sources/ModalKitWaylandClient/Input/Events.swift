/// Which `wl_seat` an input event came from: a compositor may offer several seats (sway's
/// `seat <name>` blocks, a second wayvnc or a remote desktop on its own seat), each with its own
/// pointer, keyboard and touch device, focus and pressed buttons (wayland.xml, wl_seat: "a group of
/// keyboards, pointer and touch devices"). Events of different seats are independent: a press on
/// one seat is not released by a release on another, and touch point ids are unique per seat only.
public struct SeatID: Hashable, Sendable, CustomStringConvertible {
    /// The `wl_registry` name of the seat's `wl_seat` global: unique on its connection for as long
    /// as the seat exists (0: an event made without a seat, e.g. in a test).
    public var rawValue: UInt32

    /// The seat whose `wl_seat` global has registry name `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// "seat N" (N: the registry name).
    public var description: String { "seat \(rawValue)" }
}

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
        /// Scrolling: everything the `wl_pointer` axis events of one `frame` said (at the last
        /// motion position). See ``PointerScroll``.
        case scroll(PointerScroll)
    }

    /// What happened.
    public var kind: Kind
    /// The event's serial: `wl_pointer.enter`, `leave` and `button` carry one (what
    /// `xdg_toplevel.move`, `xdg_popup.grab` and the like ask for); nil for `motion`, which has
    /// none, and for a leave the client makes up when the seat loses its pointer.
    public var serial: UInt32?
    /// The event's timestamp in milliseconds, as `wl_pointer.motion`, `button`, `axis` and
    /// `axis_stop` give it (an undefined base, wrapping at 2³²: compare differences only); nil for
    /// `enter` and `leave`, which carry none, and for a scroll of discrete steps only.
    public var time: UInt32?

    /// An event of `kind`, with the protocol's `serial` and `time` (milliseconds) where it has them.
    public init(_ kind: Kind, serial: UInt32? = nil, time: UInt32? = nil) {
        self.kind = kind
        self.serial = serial
        self.time = time
    }
}

/// The scrolling of one `wl_pointer.frame` (wayland.xml, `wl_pointer.axis` and the events that
/// qualify it, seat version 5 and later): the amounts along each axis, what device made them, and
/// whether the motion stopped. Positive amounts scroll down (vertical) and right (horizontal), as
/// `wl_pointer.axis` defines them; a touchpad with natural scrolling has its sign flipped by the
/// compositor already.
public struct PointerScroll: Equatable, Sendable {
    /// What made the scroll (`wl_pointer.axis_source`).
    public enum Source: Equatable, Sendable {
        /// A mouse wheel turned by detents (`wheel`): amounts come in steps, ``value120X`` /
        /// ``value120Y`` say how many.
        case wheel
        /// Fingers on a touchpad (`finger`): a continuous motion that ends with `axis_stop`
        /// (``stopX`` / ``stopY``) when the fingers lift — where kinetic scrolling starts.
        case finger
        /// A continuous device without a stop event (`continuous`, e.g. a trackpoint's button
        /// scrolling).
        case continuous
        /// A wheel tilted sideways (`wheel_tilt`, since 6): horizontal steps.
        case wheelTilt
    }

    /// Horizontal and vertical amounts, surface-local points (`wl_pointer.axis`'s wl_fixed
    /// values: in the same coordinate space as motion events); 0 when the axis did not move.
    public var dx: Double
    /// See ``dx``.
    public var dy: Double
    /// Wheel steps along each axis in 1/120ths of a detent: `axis_value120` (seat version 8) as
    /// sent, or `axis_discrete` × 120 (versions 5–7); a high-resolution wheel sends fractions of
    /// 120. 0 when none came (not a wheel, or a seat older than 5).
    public var value120X: Int32
    /// See ``value120X``.
    public var value120Y: Int32
    /// `wl_pointer.axis_source` when the compositor sent one in this frame (only version 5 and
    /// later do, and not necessarily in every frame of one gesture); nil otherwise.
    public var source: Source?
    /// `wl_pointer.axis_stop` came for the horizontal axis in this frame: the motion on it ended
    /// (fingers lifted from a touchpad).
    public var stopX: Bool
    /// `wl_pointer.axis_stop` came for the vertical axis in this frame.
    public var stopY: Bool

    /// A scroll; see the properties for each value.
    public init(dx: Double = 0, dy: Double = 0, value120X: Int32 = 0, value120Y: Int32 = 0, source: Source? = nil,
                stopX: Bool = false, stopY: Bool = false) {
        self.dx = dx
        self.dy = dy
        self.value120X = value120X
        self.value120Y = value120Y
        self.source = source
        self.stopX = stopX
        self.stopY = stopY
    }

    /// Nothing was said (no axis event came in the frame).
    public var isEmpty: Bool {
        dx == 0 && dy == 0 && value120X == 0 && value120Y == 0 && source == nil && !stopX && !stopY
    }
}

/// The pointer events of one `wl_pointer.frame`, in the order the compositor sent them: what
/// belongs together (wl_pointer: "a logical group"), e.g. a leave from one surface and an enter
/// on another. From a seat older than version 5 (no `frame` event) each event is a frame of its
/// own. Only the events on the window's content are in it (the decorations take theirs).
public struct PointerFrame: Equatable, Sendable {
    /// At least one event.
    public var events: [PointerEvent]
    /// The seat whose `wl_pointer` sent the frame.
    public var seat: SeatID

    /// The events of one `wl_pointer.frame` of `seat`'s pointer, in the order they came.
    public init(events: [PointerEvent], seat: SeatID = SeatID(rawValue: 0)) {
        self.events = events
        self.seat = seat
    }
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
    /// The seat whose `wl_keyboard` sent (or, for a repeat, repeats) the key. Each seat's keyboard
    /// has its own keymap, modifiers and key repeat.
    public var seat: SeatID = SeatID(rawValue: 0)

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
    /// The seat whose `wl_touch` sent the frame: its touch point ids are its own (another seat's
    /// touch device may use the same id at the same time).
    public var seat: SeatID

    /// The events of one `wl_touch.frame` of `seat`'s touch device, in the order they came.
    public init(events: [TouchEvent], seat: SeatID = SeatID(rawValue: 0)) {
        self.events = events
        self.seat = seat
    }
}
