import DesktopSettings
import ModalDemoKit
import ModalKit
import WaylandClient

/// Whether the window reduces motion, from its three sources: `--reduced-motion` and
/// `MODALKIT_REDUCED_MOTION=1` force it on (the bus is then not consulted); otherwise the desktop's
/// setting read through the XDG Settings portal (`PortalSettings`: GNOME's `enable-animations`
/// false, KDE's `AnimationDurationFactor` 0 or the portal's own `reduced-motion` 1), followed live
/// on `SettingChanged`. No session bus,
/// no portal: off, silently.
///
/// Each change of the effective value is applied to the scene (from its next transition on) and,
/// with `--log-events`, printed as `reduced-motion on` / `reduced-motion off`. The value starts
/// off, so a start with reduced motion prints `reduced-motion on` before the first `configure` —
/// or, when the portal answers after the start-up deadline (0.5 s), when its answer arrives.
final class DesktopMotion {
    private let scene: DemoScene
    private let log: (String) -> Void
    private var portal: PortalSettings?
    private var loop: WaylandPollLoop?
    private var effective = false

    init(scene: DemoScene, forced: Bool, log: @escaping (String) -> Void) {
        self.scene = scene
        self.log = log
        if forced {
            set(true)
            return
        }
        guard let portal = PortalSettings.connect() else { return }
        self.portal = portal
        set(portal.settings.reducesMotion)
        portal.onChange = { [unowned self] settings in set(settings.reducesMotion) }
    }

    /// Follows the portal from `connection`'s event loop.
    func attach(to connection: WaylandConnection) {
        guard let portal else { return }
        let loop = WaylandPollLoop(connection)
        self.loop = loop
        portal.attach(to: loop)
    }

    private func set(_ on: Bool) {
        guard on != effective else { return }
        effective = on
        scene.reducesMotion = on
        log("reduced-motion " + (on ? "on" : "off"))
    }

    deinit { portal?.close() }
}

/// `PollLoop` over `WaylandConnection.watch(fd:events:onReady:)`.
final class WaylandPollLoop: PollLoop {
    private let connection: WaylandConnection
    private var watches: [Int: FDWatch] = [:]
    private var nextID = 1

    init(_ connection: WaylandConnection) { self.connection = connection }

    private static func events(_ readable: Bool, _ writable: Bool) -> FDEvents {
        var e: FDEvents = []
        if readable { e.insert(.readable) }
        if writable { e.insert(.writable) }
        return e
    }

    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int {
        let id = nextID
        nextID += 1
        watches[id] = connection.watch(fd: fd, events: Self.events(readable, writable)) { ready in
            onReady(PollReadiness(readable: ready.contains(.readable), writable: ready.contains(.writable),
                                  hangup: ready.contains(.hangup), error: !ready.isDisjoint(with: [.error, .invalid])))
        }
        return id
    }

    func updateWatch(_ id: Int, readable: Bool, writable: Bool) {
        watches[id]?.events = Self.events(readable, writable)
    }

    func removeWatch(_ id: Int) {
        guard let w = watches.removeValue(forKey: id) else { return }
        connection.removeWatch(w)
    }
}
