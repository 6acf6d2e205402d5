/// The windows of a ``WaylandConnection``, as its input devices and globals find them.
extension WaylandConnection {
    var liveWindows: [Window] { windows.compactMap(\.window) }

    func register(_ window: Window) {
        windows.removeAll { $0.window == nil }
        windows.append(WeakWindow(window))
    }

    /// The open window whose `wl_surface` is `surface`.
    func window(for surface: OpaquePointer?) -> Window? {
        guard let surface else { return nil }
        return liveWindows.first { $0.surfaceProxy == surface }
    }

    /// The open window one of whose surfaces (content or title bar) is `surface`, and which one.
    func windowPart(for surface: OpaquePointer?) -> (window: Window, part: WindowPart)? {
        guard let surface else { return nil }
        for window in liveWindows {
            if let part = window.part(of: surface) { return (window, part) }
        }
        return nil
    }

    /// A window was closed: input devices forget it.
    func windowClosed(_ window: Window) {
        for seat in seats {
            seat.pointer?.windowClosed(window)
            seat.keyboard?.windowClosed(window)
            seat.textInput?.windowClosed(window)
        }
    }

    /// A window's buffer scale changed: the pointer over it re-sets its cursor.
    func windowScaleChanged(_ window: Window) {
        for seat in seats { seat.pointer?.windowScaleChanged(window) }
    }
}
