import ModalKitWaylandClient

/// Who draws the window's title bar: the rules of client-side decorations (CSD), without any live
/// Wayland object (unit-tested). The live part is ``TitleBar``.

/// A part of a client-side title bar that reacts to the pointer or touch.
public enum TitleBarRegion: Equatable, Sendable {
    /// The bar itself: press to move (`xdg_toplevel.move`), double-click to maximize/restore.
    case bar
    /// The close button (×) at the right end: a click asks to close (as `xdg_toplevel.close`).
    case close
}

/// Geometry of the client-side title bar for one window width and scale (buffer pixels per point).
///
/// The bar is a `wl_subsurface` placed at (0, −``height``) relative to the main (content) surface,
/// as wide as the content; the window geometry (`xdg_surface.set_window_geometry`) covers both:
/// (0, −height, width, contentHeight + height) — xdg-shell: the window geometry is "the visible
/// bounds of the window from the user's perspective" in the main surface's coordinates, and may
/// extend into subsurfaces. foot places its title bar the same way.
public struct TitleBarLayout: Equatable, Sendable {
    /// The bar's height in points (GNOME's title bars are about this tall; foot's default is 26).
    public static let height = 28

    /// Width in points (= the content width).
    public var width: Int
    /// Buffer pixels per point: the window's integer buffer scale, or its fractional scale
    /// (fractional-scale-v1, n/120), whose buffer the bar's `wp_viewport` maps back to points.
    public var scale: Double

    /// - Parameters:
    ///   - width: the bar's width in points (the content width).
    ///   - scale: > 0; anything else (0, negative, NaN) means 1.
    public init(width: Int, scale: Double) {
        self.width = max(1, width)
        self.scale = scale.isFinite && scale > 0 ? scale : 1
    }

    /// Whether a client-side bar is shown: client-side mode and not fullscreen (a fullscreen window
    /// shows only content; a maximized one keeps its bar, as GNOME does).
    public static func isShown(mode: DecorationMode, states: ToplevelStates) -> Bool {
        mode == .clientSide && !states.contains(.fullscreen)
    }

    /// The window geometry (whole points, main-surface coordinates) for a content size.
    public static func windowGeometry(contentWidth: Int, contentHeight: Int, barShown: Bool) -> Rect {
        barShown ? Rect(x: 0, y: -Double(height), width: Double(contentWidth), height: Double(contentHeight + height))
                 : Rect(x: 0, y: 0, width: Double(contentWidth), height: Double(contentHeight))
    }

    /// The bar's subsurface position relative to the content surface (points).
    public var position: (x: Int, y: Int) { (0, -TitleBarLayout.height) }

    /// The bar in its own surface's coordinates (points).
    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(TitleBarLayout.height)) }

    /// The close button: a square as tall as the bar at its right end (points), or nil when the
    /// bar is too narrow to hold it next to a grab area of one button's width.
    public var closeButton: Rect? {
        let side = TitleBarLayout.height
        guard width >= 2 * side else { return nil }
        return Rect(x: Double(width - side), y: 0, width: Double(side), height: Double(side))
    }

    /// The close button in the bar's buffer pixels at ``scale``: each edge at
    /// `scaledLength(_:scale:)` of its coordinate (`PixelRect(wholePoints:scale:)`), so that it
    /// ends where the buffer does; nil as ``closeButton``.
    public var closeButtonPixels: PixelRect? { closeButton.map { PixelRect(wholePoints: $0, scale: scale) } }

    /// The buffer size in pixels: each side `scaledLength(_:scale:)` (points × scale, exact at a
    /// whole scale).
    public var bufferWidth: Int { scaledLength(width, scale: scale) }
    /// The buffer's height in pixels (``TitleBarLayout/height`` points at ``scale``).
    public var bufferHeight: Int { scaledLength(TitleBarLayout.height, scale: scale) }

    /// What is at (x, y), points in the bar surface's coordinates; nil outside the bar.
    public func region(atX x: Double, y: Double) -> TitleBarRegion? {
        let p = Point(x: x, y: y)
        guard bounds.contains(p) else { return nil }
        if let closeButton, closeButton.contains(p) { return .close }
        return .bar
    }
}

/// What a pointer button or touch on the title bar asks the window to do.
public enum TitleBarAction: Equatable, Sendable {
    /// `xdg_toplevel.move(seat, serial)` with the serial of the press (or touch down).
    case move(serial: UInt32)
    /// `set_maximized` / `unset_maximized`, by the current state.
    case toggleMaximized
    /// `xdg_toplevel.show_window_menu(seat, serial, x, y)` (secondary button).
    case showWindowMenu(serial: UInt32, x: Int, y: Int)
    /// The user asked to close the window (delegate's `windowDidRequestClose`).
    case close
}

/// Pointer handling of the title bar: hover, press/release on the close button, move, double-click.
///
/// Rules: a press of the primary button on the bar starts an interactive move with that press's
/// serial (xdg_toplevel.move: "must be … in response to some sort of user action like a button
/// press"); a second press on the bar within ``doubleClickInterval`` ms (wl_pointer.button `time`)
/// of the first toggles maximized instead, as GNOME and foot do. The close button acts on release
/// over it (a press that moves off it cancels, as with any button). The secondary button opens the
/// compositor's window menu.
public struct TitleBarPointerState: Equatable, Sendable {
    /// Longest gap between the two presses of a double-click (ms; GTK's default is 400).
    public static let doubleClickInterval: UInt32 = 400
    /// Evdev codes (linux/input-event-codes.h).
    public static let buttonLeft: UInt32 = 0x110
    /// `BTN_RIGHT`: the secondary button, which opens the window menu.
    public static let buttonRight: UInt32 = 0x111

    /// The bar's geometry the pointer is tested against.
    public var layout: TitleBarLayout
    /// The pointer position (points, bar coordinates); nil while the pointer is not on the bar.
    public private(set) var position: (x: Double, y: Double)?
    /// The close button was pressed and not yet released.
    public private(set) var closeArmed = false
    /// The time of the last primary press on the bar (ms), for double-click detection; nil once
    /// any other press came after it (another button, the close button, another surface).
    private var lastBarPress: UInt32?

    /// The state of a bar with `layout`, the pointer elsewhere.
    public init(layout: TitleBarLayout) { self.layout = layout }

    public static func == (a: Self, b: Self) -> Bool {
        a.layout == b.layout && a.position?.x == b.position?.x && a.position?.y == b.position?.y
            && a.closeArmed == b.closeArmed && a.lastBarPress == b.lastBarPress
    }

    /// The region under the pointer that is drawn highlighted (only the close button is).
    public var hovered: TitleBarRegion? {
        guard let position, layout.region(atX: position.x, y: position.y) == .close else { return nil }
        return .close
    }

    /// The pointer entered the bar at (`x`, `y`), points in bar coordinates.
    public mutating func enter(x: Double, y: Double) { position = (x, y) }
    /// The pointer moved to (`x`, `y`) on the bar, points in bar coordinates.
    public mutating func motion(x: Double, y: Double) { position = (x, y) }
    /// The pointer left the bar: no hover, and a pressed close button no longer acts on release.
    public mutating func leave() {
        position = nil
        closeArmed = false
    }

    /// A pointer press somewhere else than the bar (the window's content or a resize border):
    /// the next primary press on the bar starts a new click sequence. A double-click is two
    /// consecutive primary presses on the bar with no press of any button anywhere in between
    /// (GTK's click gesture likewise starts a new count on another button or another widget).
    public mutating func pressedElsewhere() {
        lastBarPress = nil
    }

    /// A button event on the bar. `time` is wl_pointer.button's millisecond timestamp.
    /// A primary press within ``doubleClickInterval`` of the previous one, with no other press in
    /// between (another button, the close button, or elsewhere: ``pressedElsewhere()``),
    /// toggles maximized; any other press ends the click sequence.
    public mutating func button(_ code: UInt32, pressed: Bool, serial: UInt32, time: UInt32) -> TitleBarAction? {
        guard let position else { return nil }
        let region = layout.region(atX: position.x, y: position.y)
        if pressed, !(code == Self.buttonLeft && region == .bar) { lastBarPress = nil }
        switch (code, pressed, region) {
        case (Self.buttonLeft, true, .close?):
            closeArmed = true
            return nil
        case (Self.buttonLeft, false, _):
            defer { closeArmed = false }
            return closeArmed && region == .close ? .close : nil
        case (Self.buttonLeft, true, .bar?):
            if let last = lastBarPress, time &- last <= Self.doubleClickInterval {
                lastBarPress = nil
                return .toggleMaximized
            }
            lastBarPress = time
            return .move(serial: serial)
        case (Self.buttonRight, true, .bar?):
            return .showWindowMenu(serial: serial, x: Int(position.x), y: Int(position.y) - TitleBarLayout.height)
        default:
            return nil
        }
    }
}
