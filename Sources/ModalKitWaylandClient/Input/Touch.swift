import CModalKitWaylandClient

/// `wl_touch` of a seat. A touch point belongs to the surface it went down on: `motion` and `up`
/// carry only its id, so the window is remembered per id until `up` or `cancel`. A touch down on a
/// surface of the window's client-side decorations is reported to them (``WindowDecorating``: on the
/// title bar an interactive move with its serial, on a resize border an interactive resize from
/// that edge); it is not forwarded to the delegate, and the compositor then owns that touch sequence. Events carry the protocol's serial (down, up) and time (down,
/// up, motion); they reach the delegate grouped as the compositor groups them, one ``TouchFrame``
/// per window at each `wl_touch.frame` (or at the up of the last touch point, after which some
/// compositors send no frame), and a `wl_touch.cancel` at once as a frame of its own
/// (``TouchFrameCollector``).
/// Owns its proxy: `deinit` sends `release` (v3+) or destroys it (and cancels live touches).
final class Touch {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// The `wl_seat` this touch device belongs to; the seat outlives it.
    private let seat: OpaquePointer
    /// Weak: devices are destroyed from the connection's `deinit`, when it can no longer be retained.
    private weak var connection: WaylandConnection?
    /// Live touch points → the window each went down on.
    private var points: [Int32: WeakWindow] = [:]
    /// The content events of the frame being collected.
    private var frames = TouchFrameCollector<Window>()

    init(proxy: OpaquePointer, seat: OpaquePointer, display: Display, connection: WaylandConnection) {
        self.proxy = proxy
        self.display = display
        self.seat = seat
        version = wl_proxy_get_version(proxy)
        self.connection = connection
        wl_touch_add_listener(proxy, Touch.listener, userData(self))
    }

    deinit {
        cancel()
        if version >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }

    private func down(serial: UInt32, time: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let (window, part) = connection?.windowPart(for: surface), let surface else { return }
        if part == .decoration {
            // The decorations decide (a move or a resize, with this serial: the compositor then
            // owns the sequence); the point is not followed.
            window.decorationTouchDown(on: surface, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y),
                                       serial: serial, seat: seat)
            return
        }
        points[id] = WeakWindow(window)
        add(TouchEvent(.down(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), serial: serial, time: time),
            for: window)
    }

    private func up(serial: UInt32, time: UInt32, id: Int32) {
        guard let window = points.removeValue(forKey: id)?.window else { return }
        add(TouchEvent(.up(id: id), serial: serial, time: time), for: window)
    }

    private func motion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let window = points[id]?.window else { return }
        add(TouchEvent(.motion(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), time: time), for: window)
    }

    /// Collects a content event; the up of the last touch point is handed out at once (mutter and
    /// weston send no `frame` after it: ``TouchFrameCollector``).
    private func add(_ event: TouchEvent, for window: Window) {
        if frames.add(event, for: window) { deliverFrame() }
    }

    /// `wl_touch.frame`: each window's collected events as one frame.
    private func deliverFrame() {
        frames.take { window, frame in window.deliver(frame) }
    }

    /// `wl_touch.cancel` (or the device going away): every live point of every window ends untapped.
    private func cancel() {
        frames.cancel(live: points.values.compactMap(\.window)) { window, frame in window.deliver(frame) }
        points.removeAll()
    }

    private static let listener = listenerTable(wl_touch_listener(
        down: { data, _, serial, time, surface, id, x, y in
            owner(data, as: Touch.self).down(serial: serial, time: time, surface: surface, id: id, x: x, y: y)
        },
        up: { data, _, serial, time, id in
            owner(data, as: Touch.self).up(serial: serial, time: time, id: id)
        },
        motion: { data, _, time, id, x, y in
            owner(data, as: Touch.self).motion(time: time, id: id, x: x, y: y)
        },
        frame: { data, _ in owner(data, as: Touch.self).deliverFrame() },
        cancel: { data, _ in owner(data, as: Touch.self).cancel() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))
}
