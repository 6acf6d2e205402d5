import ModalKitDesktopSettings

/// Whether a session bus has an accessibility bus, asked the way at-spi2-core's own clients ask
/// (`org.a11y.Bus.GetAddress` on the session bus; the bus starts `at-spi-bus-launcher` on demand),
/// before anything of ATK is loaded: a session without at-spi2-core costs a program no library.
///
/// Asked on the caller's loop (a ``BusConnection``, libdbus, which the program has mapped already
/// for the desktop's settings): nothing waits; the answer comes when the loop reads it. A bus that
/// never answers never completes the lookup (and costs one idle socket).
final class AccessibilityBusLookup {
    private var bus: BusConnection?
    private var completion: ((Bool) -> Void)?

    /// Sends `GetAddress` to the session bus at `address` on `loop`; `completion` runs once, from
    /// the loop, with whether the answer was a non-empty address — or at once with false when the
    /// bus cannot be connected. Keep the lookup until then.
    init(sessionBus address: String, loop: PollLoop, completion: @escaping (Bool) -> Void) {
        self.completion = completion
        guard let bus = BusConnection.open(address: address, loop: loop) else {
            finish(false)
            return
        }
        self.bus = bus
        bus.onDisconnect = { [weak self] in self?.finish(false) }
        bus.call(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", method: "GetAddress") {
            [weak self] reply in
            guard case let .values(values) = reply, case let .string(address)?? = values.first else {
                self?.finish(false)
                return
            }
            self?.finish(!address.isEmpty)
        }
    }

    deinit { bus?.close() }

    private func finish(_ found: Bool) {
        guard let completion else { return }
        self.completion = nil
        bus?.close()
        completion(found)
    }
}
