import CModalKitWaylandClient
import CModalKitWaylandCursor

/// `wl_pointer` of a seat: routes enter/leave/motion/button to the window under the pointer and
/// sets its cursor. Events on a surface of the window's client-side decorations (title bar,
/// resize borders) are reported to the window's decorations (``WindowDecorating``) as they come,
/// which decide what they do (move, maximize, close; resize) and name the cursor; they never
/// reach the delegate. Those on the content surface go to the delegate with their serial and
/// time, grouped as the compositor groups them: collected until `wl_pointer.frame` (seat version
/// 5 and later), then delivered as one ``PointerFrame``; before version 5 there is no frame event
/// and each event is a frame of its own. The axis events of a frame (`axis`, `axis_source`,
/// `axis_stop`, `axis_discrete`, `axis_value120`) come as one ``PointerEvent/Kind/scroll(_:)`` at
/// the frame's end (``PointerScrollCollector``).
///
/// wl_pointer.set_cursor must carry the serial of the latest `enter`; the cursor image comes from
/// the libwayland-cursor theme at the window's buffer scale, on a cursor surface with the same
/// buffer scale: `left_ptr` (else `default`), or on a decoration surface the cursor the
/// decorations name (over a resize border the edge's, ``ResizeEdge/cursorName``, e.g. `right_side`,
/// `bottom_right_corner`; `left_ptr` when the theme lacks it), set again only when it changes.
/// Owns its proxy and the cursor surface: `deinit`
/// sends `release` (v3+) or destroys the proxy.
final class Pointer {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// The `wl_seat` this pointer belongs to (xdg_toplevel.move names it); the seat outlives it.
    private let seat: OpaquePointer
    /// Weak: devices are destroyed from the connection's `deinit`, when it can no longer be retained.
    private weak var connection: WaylandConnection?
    /// The window under the pointer.
    private(set) weak var focus: Window?
    /// Which of `focus`'s surfaces the pointer is on, and that surface.
    private var focusPart: WindowPart = .content
    private var focusSurface: OpaquePointer?
    private var enterSerial: UInt32 = 0
    /// The serial of the latest button event on a window's content (what `set_selection` names
    /// for a selection made with the pointer).
    private(set) var lastButtonSerial: UInt32?
    private var cursorSurface: Surface?
    /// The scale the cursor was last set for (0 = not set).
    private var cursorScale = 0
    /// The cursor names last set (most wanted first).
    private var cursorNames: [String] = []
    /// The cursor the decorations asked for while the pointer is on one of their surfaces.
    private var decorationCursor: String?
    /// The content events of the frame being collected, and their window.
    private var frames: PointerFrameCollector<Window>
    /// The axis events of the frame being collected.
    private var scroll = PointerScrollCollector()

    init(proxy: OpaquePointer, seat: OpaquePointer, seatID: SeatID, display: Display, connection: WaylandConnection) {
        self.proxy = proxy
        self.display = display
        self.seat = seat
        version = wl_proxy_get_version(proxy)
        frames = PointerFrameCollector(groupsByFrame: version >= WL_POINTER_FRAME_SINCE_VERSION)
        frames.seat = seatID
        self.connection = connection
        wl_pointer_add_listener(proxy, Pointer.listener, userData(self))
    }

    deinit {
        send(PointerEvent(.leave))   // made up: the seat lost its pointer
        deliverFrame()
        cursorSurface = nil
        if version >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }

    /// Sets the cursor again when the focused window's scale changed.
    func windowScaleChanged(_ window: Window) {
        if focus === window, cursorScale != window.scale { updateCursor(cursorNames) }
    }

    /// The window under the pointer was closed.
    func windowClosed(_ window: Window) {
        if focus === window { focus = nil }
        frames.drop(window)
    }

    /// The cursor for what is under the pointer: the decorations', else the one the window's
    /// content names (``Window/setContentCursor(_:)``), else the arrow.
    private var wantedCursor: [String] {
        let arrow = ["left_ptr", "default"]
        guard let decorationCursor else {
            guard let names = focus?.contentCursor, !names.isEmpty else { return arrow }
            return names + arrow
        }
        return [decorationCursor] + arrow
    }

    /// The window's content named another cursor: set it when the pointer is on that content.
    func contentCursorChanged(_ window: Window) {
        guard focus === window, focusPart == .content else { return }
        let wanted = wantedCursor
        if wanted != cursorNames { updateCursor(wanted) }
    }

    private func updateCursor(_ names: [String]) {
        guard let focus else { return }
        let scale = focus.scale
        cursorNames = names
        guard let connection, let image = connection.cursorTheme(scale: scale)?.image(named: names),
              let buffer = wl_cursor_image_get_buffer(image) else { return }
        let surface = cursorSurface ?? connection.compositor.createSurface()
        cursorSurface = surface
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        // The buffer must be a multiple of the buffer scale (wl_surface invalid_size); a theme
        // lacking the scaled size gives another one, then show it unscaled.
        let surfaceScale = (width % scale == 0 && height % scale == 0) ? scale : 1
        surface.setBufferScale(surfaceScale)
        surface.attach(buffer)
        surface.damageBuffer(PixelRect(x: 0, y: 0, width: width, height: height))
        surface.commit()
        wl_pointer_set_cursor(proxy, enterSerial, surface.proxy,
                              Int32(Int(image.pointee.hotspot_x) / surfaceScale),
                              Int32(Int(image.pointee.hotspot_y) / surfaceScale))
        cursorScale = scale
    }

    private func enter(serial: UInt32, surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        enterSerial = serial
        let target = connection?.windowPart(for: surface)
        focus = target?.window
        focusPart = target?.part ?? .content
        focusSurface = surface
        cursorScale = 0
        let event = PointerEvent(.enter(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), serial: serial)
        if focusPart == .decoration {
            decorationCursor = reportToDecorations(event)
            updateCursor(wantedCursor)   // the decorations' (a border's edge) or the arrow (the bar)
        } else {
            decorationCursor = nil
            updateCursor(wantedCursor)   // the arrow on the content
            send(event)
        }
    }

    private func leave(serial: UInt32) {
        send(PointerEvent(.leave, serial: serial))
        focus = nil
        focusSurface = nil
        decorationCursor = nil
    }

    private func motion(time: UInt32, x: Double, y: Double) {
        send(PointerEvent(.motion(x: x, y: y), time: time))
    }

    /// Routes an event to the focused window's content (the frame being collected) or reports it
    /// to its decorations, whose cursor is set again when it changed (still with the enter serial,
    /// as wl_pointer.set_cursor requires).
    private func send(_ event: PointerEvent) {
        guard let focus else { return }
        switch focusPart {
        case .content:
            if case .button(_, true) = event.kind { focus.pointerPressedOnContent() }
            if var ready = frames.add(event, for: focus) { deliver(&ready) }
        case .decoration:
            let cursor = reportToDecorations(event)
            if case .leave = event.kind { return }
            if cursor != decorationCursor {
                decorationCursor = cursor
                updateCursor(wantedCursor)
            }
        }
    }

    /// Reports `event` on the decoration surface under the pointer; returns the cursor they want.
    private func reportToDecorations(_ event: PointerEvent) -> String? {
        guard let focus, let focusSurface else { return nil }
        return focus.decorationPointer(event, on: focusSurface, seat: seat)
    }

    /// `wl_pointer.frame` (or, before version 5, every event): the collected content events go to
    /// their window's delegate as one frame.
    private func deliverFrame() {
        if let event = scroll.take() { send(event) }
        if var ready = frames.take() { deliver(&ready) }
    }

    private func deliver(_ ready: inout (target: Window, frame: PointerFrame)) {
        ready.target.deliver(ready.frame)
        frames.reuse(&ready.frame.events)   // unique again unless the delegate kept the frame
    }

    private static let listener = listenerTable(wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in
            owner(data, as: Pointer.self).enter(serial: serial, surface: surface, x: x, y: y)
        },
        leave: { data, _, serial, _ in owner(data, as: Pointer.self).leave(serial: serial) },
        motion: { data, _, time, x, y in
            owner(data, as: Pointer.self).motion(time: time, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        button: { data, _, serial, time, button, state in
            owner(data, as: Pointer.self).lastButtonSerial = serial
            owner(data, as: Pointer.self).send(PointerEvent(
                .button(code: button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue),
                serial: serial, time: time))
        },
        axis: { data, _, time, axis, value in
            let pointer = owner(data, as: Pointer.self)
            pointer.scroll.axis(axis, value: wl_fixed_to_double(value), time: time)
            // Before version 5 no frame event follows: each axis event is a scroll of its own.
            if !pointer.frames.groupsByFrame { pointer.deliverFrame() }
        },
        frame: { data, _ in owner(data, as: Pointer.self).deliverFrame() },
        axis_source: { data, _, source in owner(data, as: Pointer.self).scroll.source(source) },
        axis_stop: { data, _, time, axis in owner(data, as: Pointer.self).scroll.stop(axis, time: time) },
        axis_discrete: { data, _, axis, discrete in owner(data, as: Pointer.self).scroll.discrete(axis, steps: discrete) },
        axis_value120: { data, _, axis, value120 in owner(data, as: Pointer.self).scroll.value120(axis, value120) }))
}

/// Groups a pointer's content events into ``PointerFrame``s, one per `wl_pointer.frame`, without
/// any live Wayland object (unit-tested).
///
/// Rules (wayland.xml, `wl_pointer.frame`, since 5: "Indicates the end of a set of events that
/// logically belong together"):
/// - With frames (``groupsByFrame``, a `wl_pointer` of version ≥ 5), events are collected until
///   ``take()`` at the `frame` event. A frame holds one target's events: an event for another
///   target (the pointer left one window and entered another within the frame) first hands out
///   what the previous target collected.
/// - Without frames (version < 5), every event is a frame of its own.
/// - A target that goes away (a closed window) loses what was collected for it (``drop(_:)``).
///
/// No allocation per event or frame once warmed up: the events array is handed out with the frame
/// and taken back, emptied with its capacity, by ``reuse(_:)``.
struct PointerFrameCollector<Target: AnyObject> {
    /// The compositor sends `wl_pointer.frame` (version ≥ 5).
    let groupsByFrame: Bool
    private var events: [PointerEvent] = []
    private weak var target: Target?
    /// The seat whose pointer this collects for: every frame handed out carries it.
    var seat = SeatID(rawValue: 0)

    init(groupsByFrame: Bool) { self.groupsByFrame = groupsByFrame }

    /// The events collected for the current frame, in order.
    var pending: [PointerEvent] { events }

    /// Adds `event` for `target`. Returns a frame to deliver now, if any: the previous target's
    /// (another target's event came before the frame ended), or without frames this very event.
    mutating func add(_ event: PointerEvent, for target: Target) -> (target: Target, frame: PointerFrame)? {
        var out: (target: Target, frame: PointerFrame)?
        if self.target !== target { out = take() }
        self.target = target
        events.append(event)
        // Without frame events nothing else can be pending (each event was handed out at once).
        if !groupsByFrame { out = take() }
        return out
    }

    /// `wl_pointer.frame`: the collected frame and its target; nil when nothing was collected or
    /// the target is gone.
    mutating func take() -> (target: Target, frame: PointerFrame)? {
        guard !events.isEmpty else { return nil }
        let taken = events
        events = []   // the empty array singleton: no allocation
        defer { target = nil }
        guard let target else { return nil }
        return (target, PointerFrame(events: taken, seat: seat))
    }

    /// `target` went away: what was collected for it is dropped.
    mutating func drop(_ target: Target) {
        guard self.target === target else { return }
        self.target = nil
        events.removeAll(keepingCapacity: true)
    }

    /// Takes back the array of a delivered frame (emptied, capacity kept) for the next frame.
    mutating func reuse(_ delivered: inout [PointerEvent]) {
        delivered.removeAll(keepingCapacity: true)
        if events.isEmpty && events.capacity < delivered.capacity { swap(&events, &delivered) }
    }
}

/// Gathers the `wl_pointer` axis events of one frame into a ``PointerScroll``, without any live
/// Wayland object (unit-tested).
///
/// Rules (wayland.xml, `wl_pointer`): `axis` gives an amount per axis in surface-local wl_fixed
/// units (several in one frame add up); `axis_source` (since 5) says what device made the frame's
/// axis events; `axis_stop` (since 5) ends the motion of one axis (a touchpad's fingers lifted:
/// a client starts kinetic scrolling there); `axis_discrete` (5–7) counts wheel detents and
/// `axis_value120` (since 8, which replaces it) counts them in 1/120ths; all of them belong to
/// the `frame` that follows. Before version 5 there is no `frame` and each `axis` stands alone.
/// `axis_relative_direction` (since 9) is not bound: libwayland 1.21's `wl_pointer_listener` has
/// no slot for it, so the seat is bound at version 8 at most.
struct PointerScrollCollector {
    private(set) var scroll = PointerScroll()
    /// The latest `axis`/`axis_stop` time of the frame, milliseconds.
    private(set) var time: UInt32?

    /// `wl_pointer.axis`: `value` (points) along `axis` at `time`.
    mutating func axis(_ axis: UInt32, value: Double, time: UInt32) {
        if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue { scroll.dx += value } else { scroll.dy += value }
        self.time = time
    }

    /// `wl_pointer.axis_source`.
    mutating func source(_ raw: UInt32) {
        switch raw {
        case WL_POINTER_AXIS_SOURCE_WHEEL.rawValue: scroll.source = .wheel
        case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: scroll.source = .finger
        case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: scroll.source = .continuous
        case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: scroll.source = .wheelTilt
        default: break   // a source a later protocol version may add: the amounts still count
        }
    }

    /// `wl_pointer.axis_stop` for `axis` at `time`.
    mutating func stop(_ axis: UInt32, time: UInt32) {
        if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue { scroll.stopX = true } else { scroll.stopY = true }
        self.time = time
    }

    /// `wl_pointer.axis_discrete` (versions 5–7): `steps` detents, counted as 120 each.
    mutating func discrete(_ axis: UInt32, steps: Int32) { value120(axis, steps.multipliedReportingOverflow(by: 120).partialValue) }

    /// `wl_pointer.axis_value120` (since 8).
    mutating func value120(_ axis: UInt32, _ value: Int32) {
        if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue {
            scroll.value120X = scroll.value120X &+ value
        } else {
            scroll.value120Y = scroll.value120Y &+ value
        }
    }

    /// The frame's scroll as a pointer event (nil when no axis event came), starting afresh.
    mutating func take() -> PointerEvent? {
        defer { scroll = PointerScroll(); time = nil }
        return scroll.isEmpty ? nil : PointerEvent(.scroll(scroll), time: time)
    }
}
