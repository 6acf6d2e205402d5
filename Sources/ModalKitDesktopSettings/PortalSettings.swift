/// The desktop's reduced-motion settings, read and then followed live through the XDG Desktop
/// Portal's Settings interface on the session bus (a ``BusConnection`` on the caller's loop).
///
/// Protocol (XDG Desktop Portal, `org.freedesktop.portal.Settings` on the bus name
/// `org.freedesktop.portal.Desktop`, object `/org/freedesktop/portal/desktop`):
/// - `ReadOne(s namespace, s key) → v value` (interface version 2) for
///   `org.gnome.desktop.interface enable-animations`, `org.kde.kdeglobals.KDE AnimationDurationFactor`
///   and the standardized `org.freedesktop.appearance reduced-motion`;
///   when the portal does not know `ReadOne` (`org.freedesktop.DBus.Error.UnknownMethod`, version 1
///   portals) the deprecated `Read`, whose value comes wrapped in one more variant;
/// - the signal `SettingChanged(s namespace, s key, v value)`, subscribed with a match rule, for
///   later changes.
/// Keys the portal does not have (`org.freedesktop.portal.Error.NotFound`), a missing portal, or
/// no session bus at all leave the values `nil`: nothing is printed, nothing fails.
///
/// Asynchronous from the start: ``connect(address:loop:)`` sends the reads and returns at once;
/// ``settings`` starts unknown and the answers apply when the loop reads them (on a desktop within
/// milliseconds, usually before a window's first frame), through ``onChange`` like a
/// `SettingChanged`. So start-up never waits for the portal, and what is decided before the answer
/// (a presentation started in the first milliseconds) uses the unknown values: no reduced motion.
/// Not thread-safe: use it from the loop's thread.
public final class PortalSettings {
    /// The values reported so far.
    public private(set) var settings = DesktopMotionSettings()
    /// Called (on the loop's thread) after ``settings`` changed through an answer or a signal.
    public var onChange: ((DesktopMotionSettings) -> Void)?
    /// True once every start-up read has been answered (with a value, or an error such as
    /// "no such key" or "no portal"); ``settings`` then holds what the desktop said.
    public var hasAnswered: Bool { outstanding == 0 && bus.uniqueName != nil }
    /// True after ``close()``, or when the bus hung up or refused the connection.
    public var isClosed: Bool { bus.isClosed }

    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"
    static let gnomeNamespace = "org.gnome.desktop.interface", gnomeKey = "enable-animations"
    static let kdeNamespace = "org.kde.kdeglobals.KDE", kdeKey = "AnimationDurationFactor"
    static let appearanceNamespace = "org.freedesktop.appearance", appearanceKey = "reduced-motion"

    private let bus: BusConnection
    private var outstanding = 0

    /// The session bus address libdbus would use (``BusConnection/sessionBusAddress()``).
    public static func sessionBusAddress() -> String? { BusConnection.sessionBusAddress() }

    /// Connects to the bus at `address` on `loop`, subscribes to `SettingChanged` and asks for the
    /// three keys, without waiting for any answer.
    /// - Returns: `nil` — silently — when there is no address or its socket cannot be connected.
    ///   A bus without a portal gives a monitor whose values stay `nil` (until a portal appears and
    ///   signals a change); a bus that never answers, one that never changes anything.
    public static func connect(address: String? = PortalSettings.sessionBusAddress(), loop: PollLoop) -> PortalSettings? {
        guard let address, let bus = BusConnection.open(address: address, loop: loop) else { return nil }
        return PortalSettings(bus: bus)
    }

    private init(bus: BusConnection) {
        self.bus = bus
        bus.onSignal = { [unowned self] signal in
            guard let change = Self.settingChanged(signal) else { return }
            apply(change.namespace, change.key, change.value)
        }
        bus.addMatch("type='signal',sender='\(Self.portalName)',path='\(Self.portalPath)',"
                     + "interface='\(Self.settingsInterface)',member='SettingChanged'")
        read(Self.gnomeNamespace, Self.gnomeKey, method: "ReadOne")
        read(Self.kdeNamespace, Self.kdeKey, method: "ReadOne")
        read(Self.appearanceNamespace, Self.appearanceKey, method: "ReadOne")
    }

    deinit { close() }

    /// Closes the connection and stops every watch. Called by `deinit`; later answers are dropped.
    public func close() { bus.close() }

    /// Sends `method` (ReadOne or Read) for one key; the answer arrives in `answered`.
    private func read(_ namespace: String, _ key: String, method: String) {
        outstanding += 1
        bus.call(destination: Self.portalName, path: Self.portalPath, interface: Self.settingsInterface, method: method,
                 arguments: [namespace, key]) { [weak self] reply in
            self?.answered(reply, namespace: namespace, key: key, method: method)
        }
    }

    private func answered(_ reply: BusConnection.Reply, namespace: String, key: String, method: String) {
        outstanding -= 1
        switch reply {
        case let .error(name):
            if name == "org.freedesktop.DBus.Error.UnknownMethod" && method == "ReadOne" {
                read(namespace, key, method: "Read")   // a version 1 portal
            }
            // No portal, no such key: the value stays unknown.
        case let .values(values):
            guard let first = values.first else { return }
            apply(namespace, key, first)
        }
    }

    private func apply(_ namespace: String, _ key: String, _ value: BusValue?) {
        let s = Self.settings(settings, applying: value, namespace: namespace, key: key)
        guard s != settings else { return }
        settings = s
        onChange?(s)
    }

    /// The namespace, key and value a `SettingChanged` signal of the portal carries (nil for
    /// another signal, or one whose first two arguments are not strings).
    static func settingChanged(_ signal: BusConnection.Signal) -> (namespace: String, key: String, value: BusValue?)? {
        guard signal.interface == settingsInterface, signal.member == "SettingChanged",
              signal.arguments.count >= 3, case let .string(namespace)?? = signal.arguments.first,
              case let .string(key)? = signal.arguments[1] else { return nil }
        return (namespace, key, signal.arguments[2])
    }

    /// `settings` with the portal's `value` for `namespace` and `key` (the same for a key not followed).
    static func settings(_ settings: DesktopMotionSettings, applying value: BusValue?, namespace: String,
                         key: String) -> DesktopMotionSettings {
        var s = settings
        switch (namespace, key) {
        case (gnomeNamespace, gnomeKey):
            s.gnomeEnableAnimations = value?.bool
        case (kdeNamespace, kdeKey):
            s.kdeAnimationDurationFactor = value?.number
        case (appearanceNamespace, appearanceKey):
            s.appearanceReducedMotion = value?.number.flatMap { UInt32(exactly: $0) }
        default:
            break
        }
        return s
    }
}
