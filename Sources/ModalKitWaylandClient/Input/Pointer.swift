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

    init(proxy: OpaquePointer, seat: OpaquePointer, display: Display, connection: WaylandConnection) {
        self.proxy = proxy
        self.display = display
        self.seat = seat
        version = wl_proxy_get_version(proxy)
        frames = PointerFrameCollector(groupsByFrame: version >= WL_POINTER_FRAME_SINCE_VERSION)
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

    /// The cursor for what is under the pointer: the decorations', else the arrow.
    private var wantedCursor: [String] {
        let arrow = ["left_ptr", "default"]
        guard let decorationCursor else { return arrow }
        return [decorationCursor] + arrow
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
        surface.damageBuffer(BufferRect(x: 0, y: 0, width: width, height: height))
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
