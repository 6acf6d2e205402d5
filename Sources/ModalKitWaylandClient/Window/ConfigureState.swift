/// The states of an `xdg_toplevel` (xdg-shell `xdg_toplevel.state`), as last applied.
public struct ToplevelStates: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The window is maximized (xdg-shell `maximized`): the configure's size must be obeyed.
    public static let maximized = ToplevelStates(rawValue: 1 << 0)
    /// The window is fullscreen (xdg-shell `fullscreen`).
    public static let fullscreen = ToplevelStates(rawValue: 1 << 1)
    /// An interactive resize is in progress; sizes change often (xdg-shell suggests not animating).
    public static let resizing = ToplevelStates(rawValue: 1 << 2)
    /// The window has focus ("activated"); draw focus decorations accordingly.
    public static let activated = ToplevelStates(rawValue: 1 << 3)
    /// The left edge is tiled against another surface or the output (xdg-shell `tiled_left`).
    public static let tiledLeft = ToplevelStates(rawValue: 1 << 4)
    /// The right edge is tiled (xdg-shell `tiled_right`).
    public static let tiledRight = ToplevelStates(rawValue: 1 << 5)
    /// The top edge is tiled (xdg-shell `tiled_top`).
    public static let tiledTop = ToplevelStates(rawValue: 1 << 6)
    /// The bottom edge is tiled (xdg-shell `tiled_bottom`).
    public static let tiledBottom = ToplevelStates(rawValue: 1 << 7)

    /// Builds the set from the `uint32` enum values of `xdg_toplevel.configure`'s `states` array
    /// (maximized = 1 … tiled_bottom = 8). Values this client does not know (newer protocol
    /// versions) are ignored, as xdg-shell requires.
    public init(protocolValues: [UInt32]) {
        var states: ToplevelStates = []
        for value in protocolValues where (1...8).contains(value) {
            states.insert(ToplevelStates(rawValue: 1 << (value - 1)))
        }
        self = states
    }

    public var description: String {
        let names = ["maximized", "fullscreen", "resizing", "activated",
                     "tiled-left", "tiled-right", "tiled-top", "tiled-bottom"]
        let present = names.indices.filter { rawValue & (1 << UInt32($0)) != 0 }.map { names[$0] }
        return "[" + present.joined(separator: ", ") + "]"
    }
}

/// The configuration of a window once an `xdg_surface.configure` has been acknowledged.
public struct WindowConfiguration: Equatable, Sendable {
    /// Logical content size in surface-local points (buffer pixels = points × the window's scale, ``SurfaceScale``),
    /// without a client-side title bar. Always ≥ 1.
    public var width: Int
    /// Logical content height in points, as ``width``.
    public var height: Int
    /// The toplevel's states with this configure.
    public var states: ToplevelStates
}

/// The configure sequence of an `xdg_toplevel`, without any live Wayland object (unit-tested).
///
/// xdg-shell: `xdg_toplevel.configure` (and `configure_bounds`) only announce a state; it takes
/// effect when the following `xdg_surface.configure` is acknowledged, and the next commit must
/// carry a buffer of that size. So ``toplevelConfigure(width:height:states:)`` only stores, and
/// ``surfaceConfigure(titleBarHeight:)`` resolves what is stored into the size the client will draw.
///
/// Resolution rule (xdg-shell: "if the width or height arguments are zero, it means the client
/// should decide its own window dimension"; weston's first configure is 0×0): a zero (or, from a
/// buggy compositor, negative) dimension is replaced by the size the client asked for in that
/// dimension — clamped to the `configure_bounds` the compositor sent, if any, as the spec
/// suggests. So no size of 0 or less ever reaches a buffer.
///
/// Client-side title bar (xdg-shell `xdg_toplevel.configure`: "the width and height arguments
/// specify … the window geometry", and the window geometry of a client-decorated window includes
/// its title bar, set with `xdg_surface.set_window_geometry`; foot does the same): with a title bar
/// of `titleBarHeight` points shown, the content (the main surface the delegate draws) is the
/// configured height minus the bar. The "client decides" fallback is the requested *content* size,
/// and bounds, which limit the whole window, are reduced by the bar too.
struct ConfigureState {
    /// What the client asks for when the compositor lets it choose (`--size`, points).
    let requestedWidth: Int
    let requestedHeight: Int

    /// The last `xdg_toplevel.configure` not yet applied.
    private(set) var pending: (width: Int, height: Int, states: ToplevelStates)?
    /// The last `xdg_toplevel.configure` applied (window geometry size as sent, states): an
    /// `xdg_surface.configure` alone re-resolves it, e.g. after a decoration mode change, when the
    /// title bar appears or goes and the content size changes with the same window size.
    private(set) var applied: (width: Int, height: Int, states: ToplevelStates)?
    /// The last `xdg_toplevel.configure_bounds` (0 in a dimension = unknown).
    private(set) var bounds: (width: Int, height: Int) = (0, 0)
    /// The configuration in effect (nil until the first `xdg_surface.configure`): content size.
    private(set) var current: WindowConfiguration?

    init(requestedWidth: Int, requestedHeight: Int) {
        precondition(requestedWidth > 0 && requestedHeight > 0, "requested size must be positive")
        self.requestedWidth = requestedWidth
        self.requestedHeight = requestedHeight
    }

    /// Stores an `xdg_toplevel.configure` (sizes in points, states as protocol enum values).
    mutating func toplevelConfigure(width: Int32, height: Int32, states: [UInt32]) {
        pending = (Int(width), Int(height), ToplevelStates(protocolValues: states))
    }

    /// Stores an `xdg_toplevel.configure_bounds` (xdg_wm_base v4+).
    mutating func toplevelConfigureBounds(width: Int32, height: Int32) {
        bounds = (max(0, Int(width)), max(0, Int(height)))
    }

    /// The states the next ``surfaceConfigure(titleBarHeight:)`` will apply (pending, else in effect).
    var upcomingStates: ToplevelStates { pending?.states ?? applied?.states ?? [] }

    /// Applies what is stored, for an `xdg_surface.configure` that is being acknowledged.
    ///
    /// - Parameter titleBarHeight: the height in points of the client-side title bar shown above
    ///   the content with this configuration (0 = none: server-side decorations or fullscreen).
    /// - Returns: the configuration now in effect (content size) and whether its size differs
    ///   from the previous one (always true for the first configure).
    mutating func surfaceConfigure(titleBarHeight: Int = 0) -> (configuration: WindowConfiguration, sizeChanged: Bool) {
        let previous = current
        if let pending { applied = pending }
        pending = nil
        let bar = max(0, titleBarHeight)
        let window = applied ?? (0, 0, [])
        var next = WindowConfiguration(width: window.width > 0 ? window.width : fallbackWidth,
                                       height: window.height > 0 ? window.height - bar : fallbackHeight(bar: bar),
                                       states: window.states)
        next.width = max(1, next.width)
        next.height = max(1, next.height)
        current = next
        let sizeChanged = previous.map { $0.width != next.width || $0.height != next.height } ?? true
        return (next, sizeChanged)
    }

    private var fallbackWidth: Int { bounds.width > 0 ? min(requestedWidth, bounds.width) : requestedWidth }
    private func fallbackHeight(bar: Int) -> Int {
        bounds.height > 0 ? min(requestedHeight, bounds.height - bar) : requestedHeight
    }
}
