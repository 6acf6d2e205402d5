import CModalKitWaylandClient

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
