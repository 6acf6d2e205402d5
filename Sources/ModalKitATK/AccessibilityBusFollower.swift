import ModalKitDesktopSettings
import ModalKitWaylandClient

/// Finds the accessibility bus and follows it, on the caller's loop, without ever waiting: what
/// the at-spi2-atk bridge would otherwise do with blocking D-Bus calls (libdbus's
/// `dbus_bus_register` and `dbus_connection_send_with_reply_and_block`, up to 25 s each) before
/// its first event — on the Wayland loop, where a bus that accepts and never answers would stop
/// frames, input and `xdg_wm_base.ping` answers.
///
/// Through a session bus (GTK's and Qt's way): asks `org.a11y.Bus.GetAddress` (the session bus
/// starts at-spi2-core's `at-spi-bus-launcher` on demand) and follows `NameOwnerChanged` for
/// `org.a11y.Bus`, so that an accessibility bus that appears late or restarts is found again
/// (``onLost`` when its owner goes, a new lookup when one comes). Given an address
/// (`AT_SPI_BUS_ADDRESS`), asks that bus only.
///
/// Each accessibility bus found is first asked a question of its own (`Hello`, then
/// `org.freedesktop.DBus.GetId`), so the bridge is started only on a bus that answers — and then
/// its blocking start returns at once. An accessibility bus that does not answer within
/// ``timeout`` is reported once (``onSlow``) and left open: a late answer still starts the bridge.
/// A session bus that does not answer is waited for silently, as the desktop settings wait for it.
/// Nothing polls: a bus that never answers costs one idle socket.
final class AccessibilityBusFollower {
    /// How long an accessibility bus may take to answer before ``onSlow`` says so (seconds).
    static let timeout = 5.0

    /// An accessibility bus at this address answered: start (or resume) the bridge on it.
    var onFound: ((String) -> Void)?
    /// The session bus has no accessibility bus (none running, none activatable), or the one at
    /// the given address cannot be connected (no socket, refused). Nothing else happens until an
    /// `org.a11y.Bus` owner appears.
    var onMissing: (() -> Void)?
    /// The accessibility bus's owner left the session bus: the bridge's connection is gone.
    var onLost: (() -> Void)?
    /// A bus did not answer within ``timeout``: a one-line description of which and what.
    var onSlow: ((String) -> Void)?

    private let loop: PollLoop
    private let timers: LoopTimers
    private let sessionAddress: String?
    private let directAddress: String?
    private var session: BusConnection?
    private var probe: BusConnection?
    /// Cancels the pending ``onSlow`` report.
    private var cancelReport: (() -> Void)?
    /// Counts lookups: an answer to any but the latest is ignored.
    private var generation = 0
    private var closed = false

    /// Follows the accessibility bus of the session bus at `sessionBus`, on `loop`.
    init(sessionBus: String, loop: PollLoop, timers: LoopTimers) {
        self.loop = loop
        self.timers = timers
        sessionAddress = sessionBus
        directAddress = nil
    }

    /// Asks the accessibility bus at `address` (`AT_SPI_BUS_ADDRESS`) only, on `loop`.
    init(accessibilityBus address: String, loop: PollLoop, timers: LoopTimers) {
        self.loop = loop
        self.timers = timers
        sessionAddress = nil
        directAddress = address
    }

    deinit { close() }

    /// Starts: connects, subscribes and asks. The callbacks run from the loop, never from here.
    func begin() {
        if let directAddress {
            let g = next()
            _ = timers.run(after: 0) { [weak self] in self?.check(directAddress, generation: g) }
            return
        }
        guard let sessionAddress else { return }
        guard let bus = BusConnection.open(address: sessionAddress, loop: loop) else {
            _ = timers.run(after: 0) { [weak self] in self?.onMissing?() }
            return
        }
        session = bus
        bus.onDisconnect = { [weak self] in
            // The session bus itself went away: nothing to follow any more.
            self?.session = nil
            self?.onLost?()
        }
        bus.onSignal = { [weak self] signal in self?.signal(signal) }
        bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                     + "member='NameOwnerChanged',arg0='org.a11y.Bus'")
        lookUp()
    }

    /// Closes every connection and forgets the callbacks. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        generation += 1
        cancelReport?()
        cancelReport = nil
        probe?.close()
        probe = nil
        session?.close()
        session = nil
        onFound = nil
        onMissing = nil
        onLost = nil
        onSlow = nil
    }

    // MARK: Steps

    private func next() -> Int {
        generation += 1
        probe?.close()
        probe = nil
        cancelReport?()
        cancelReport = nil
        return generation
    }

    private func signal(_ signal: BusConnection.Signal) {
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              case .string("org.a11y.Bus")?? = signal.arguments.first,
              case let .string(newOwner)?? = signal.arguments.last else { return }
        if newOwner.isEmpty {
            _ = next()
            onLost?()
        } else {
            lookUp()
        }
    }

    /// `org.a11y.Bus.GetAddress` on the session bus.
    private func lookUp() {
        guard let session else { return }
        // A session bus that does not answer is not reported: it is the desktop's (the portal's
        // settings wait on it silently too), and a late answer is still taken.
        let g = next()
        session.call(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", method: "GetAddress") {
            [weak self] reply in
            guard let self, g == generation else { return }
            cancelReport?()
            cancelReport = nil
            guard case let .values(values) = reply, case let .string(address)?? = values.first, !address.isEmpty else {
                onMissing?()
                return
            }
            check(address, generation: g)
        }
    }

    /// Connects to the accessibility bus at `address` and asks it one question.
    private func check(_ address: String, generation g: Int) {
        guard g == generation, !closed else { return }
        guard let bus = BusConnection.open(address: address, loop: loop) else {
            onMissing?()
            return
        }
        probe = bus
        bus.onDisconnect = { [weak self] in
            guard let self, g == generation else { return }
            cancelReport?()
            cancelReport = nil
            probe = nil
            onMissing?()
        }
        startTimer(g, "the accessibility bus at \(address) did not answer within \(Self.seconds) s")
        bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                 method: "GetId") { [weak self] reply in
            guard let self, g == generation else { return }
            cancelReport?()
            cancelReport = nil
            probe?.close()
            probe = nil
            if case .values = reply { onFound?(address) } else { onMissing?() }
        }
    }

    private func startTimer(_ g: Int, _ message: String) {
        cancelReport?()
        cancelReport = timers.run(after: Self.timeout) { [weak self] in
            guard let self, g == generation else { return }
            cancelReport = nil
            onSlow?(message)
        }
    }

    private static var seconds: String {
        timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
    }
}

/// One-shot timers on the caller's loop.
protocol LoopTimers: AnyObject {
    /// Runs `work` once from the loop, `seconds` from now (0: at its next iteration — never
    /// inside this call); returns what cancels it.
    func run(after seconds: Double, _ work: @escaping () -> Void) -> () -> Void
}

/// ``LoopTimers`` on a ``WaylandConnection``'s loop (``EventLoopTimer``s, each taken off the loop
/// once it fired or was cancelled).
final class WaylandLoopTimers: LoopTimers {
    private weak var connection: WaylandConnection?
    init(_ connection: WaylandConnection) { self.connection = connection }

    func run(after seconds: Double, _ work: @escaping () -> Void) -> () -> Void {
        guard let connection else { return {} }
        final class Box { var timer: EventLoopTimer? }
        let box = Box()
        box.timer = EventLoopTimer(connection: connection) {
            box.timer?.invalidate()
            box.timer = nil
            work()
        }
        box.timer?.schedule(after: seconds)
        return {
            box.timer?.invalidate()
            box.timer = nil
        }
    }
}
