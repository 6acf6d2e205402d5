import ModalKitWaylandClient

/// What a ``PresentationWindow`` is asked for at creation.
public struct PresentationWindowOptions {
    /// `xdg_toplevel.set_title`: the window's title (the compositor's title bar, task switcher,
    /// window list; the client-side title bar draws it), and the frame's name for screen readers.
    public var title: String
    /// `xdg_toplevel.set_app_id`: the application's identifier, by convention its desktop file's name
    /// without `.desktop` (e.g. `org.example.App`); nil sends none.
    public var appID: String?
    /// The size in points asked for when the compositor leaves it to the client (a 0 in
    /// `xdg_toplevel.configure`), each side ≥ 1. Default 480 × 800.
    public var size: (width: Int, height: Int) = (480, 800)
    /// How frames reach the compositor (`CompositingMode`). Default `.auto`: the dim and the presented
    /// view as sub-surfaces where the compositor offers `wl_subcompositor` and `wp_viewporter`
    /// (``LayerComposer``), everything drawn by pixman otherwise. `.subsurface` without them makes
    /// the window's creation throw `WaylandError/missingGlobal(_:)`.
    public var compositing: CompositingMode = .auto
    /// The time each frame animates to (``FrameTime``). Default `.drawn`.
    public var frameTime: FrameTime = .drawn
    /// Ask `wp_presentation` (when offered) for the time each frame was shown
    /// (``PresentationWindow/onFramePresented``). Implied by ``FrameTime/predicted``.
    public var presentationFeedback = false
    /// Where reduced motion comes from (``ReducedMotion``). Default `.desktop`.
    public var reducedMotion: ReducedMotion = .desktop
    /// Show the window to screen readers (AT-SPI through ATK, started after the first frame; nothing
    /// is loaded without an accessibility bus or with `NO_AT_BRIDGE=1`). Default true.
    public var accessibility = true
    /// The application's name for screen readers; nil: the executable's file name.
    public var applicationName: String?
    /// Close the window, as the compositor's close does, on SIGTERM and SIGINT (so the process ends
    /// normally, its Wayland objects destroyed in order). Default true.
    public var closesOnTerminationSignals = true
    /// A system-modal overlay instead of a toplevel: the layer-surface role (wlr-layer-shell) over
    /// the whole focused output, the dim and the presented view drawn over it (`LayerSurfaceOptions`;
    /// `WindowOptions.layerSurface`). Only where `WaylandConnection.offersLayerShell`, else the
    /// window's creation throws `WaylandError.missingGlobal("zwlr_layer_shell_v1")`. nil (default):
    /// a toplevel.
    public var layerSurface: LayerSurfaceOptions?

    /// The time a frame animates to.
    public enum FrameTime: Sendable {
        /// The monotonic clock when the frame is drawn.
        case drawn
        /// When the compositor will show it: the first refresh after the commit on the grid of the
        /// last presented frame, from `wp_presentation` feedback (Core Animation's
        /// `targetTimestamp`); without feedback (none offered, none lately, no fixed refresh) the
        /// clock when drawn (`PresentationClock`).
        case predicted
    }

    /// Where a window's reduced motion (`PresentationHost/reducesMotion`; UIKit:
    /// `UIAccessibility.isReduceMotionEnabled`) comes from.
    public enum ReducedMotion: Sendable {
        /// The desktop's setting, through the XDG Settings portal (GNOME's `enable-animations`,
        /// KDE's `AnimationDurationFactor`, the portal's `reduced-motion`), followed live. Asked on the
        /// window's loop once its first frame is committed (the session bus, and libdbus, stay off
        /// the first frame's path), without waiting: until the portal's answer arrives
        /// (milliseconds after the first frame on a desktop) motion is not reduced, so a
        /// presentation started in that moment still moves; the next one follows the desktop.
        case desktop
        /// Always reduced (e.g. `modal-demo --reduced-motion`); the desktop is not asked.
        case always
        /// Never reduced; the desktop is not asked.
        case never
    }

    /// Options for a window titled `title` with the app id `appID`.
    public init(title: String, appID: String? = nil) {
        self.title = title
        self.appID = appID
    }
}
