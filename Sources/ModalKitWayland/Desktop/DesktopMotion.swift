import ModalKitDesktopSettings
import ModalKitWaylandClient

/// Whether a window reduces motion: forced on (``PresentationWindowOptions/ReducedMotion/always``),
/// never, or the desktop's setting read through the XDG Settings portal (``PortalSettings``: GNOME's
/// `enable-animations` false, KDE's `AnimationDurationFactor` 0 or the portal's own
/// `reduced-motion` 1), followed live on `SettingChanged`. No session bus, no portal: off, silently.
///
/// The portal is asked on the window's loop once the first frame is committed (libdbus is loaded
/// then, when there is a session bus), without waiting: the effective value starts off and
/// changes when the answer arrives (on a desktop, milliseconds after the first frame); a presentation that starts before then runs with motion, and the next one uses the
/// desktop's setting (a running transition finishes as it started: ``PresentationHost/reducesMotion``).
final class DesktopMotion {
    private let apply: (Bool) -> Void
    private var portal: PortalSettings?
    private var loop: WaylandPollLoop?
    private(set) var isReducing = false

    /// - Parameter apply: called with each change of the effective value (the first time with true
    ///   when it is on from the start), on the loop's thread.
    init(_ choice: PresentationWindowOptions.ReducedMotion, connection: WaylandConnection,
         apply: @escaping (Bool) -> Void) {
        self.apply = apply
        switch choice {
        case .always:
            set(true)
        case .never:
            break
        case .desktop:
            let loop = WaylandPollLoop(connection)
            guard let portal = PortalSettings.connect(loop: loop) else { return }
            self.loop = loop
            self.portal = portal
            portal.onChange = { [unowned self] settings in set(settings.reducesMotion) }
        }
    }

    private func set(_ on: Bool) {
        guard on != isReducing else { return }
        isReducing = on
        apply(on)
    }

    deinit { portal?.close() }
}
