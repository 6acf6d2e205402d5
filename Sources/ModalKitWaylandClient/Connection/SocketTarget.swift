/// The socket `wl_display_connect` tries, for the error message (libwayland's rules).
struct SocketTarget {
    /// The full path (or a description of the inherited fd).
    var path: String
    /// Why it is that path, when it is not obvious ("WAYLAND_DISPLAY is unset" …).
    var notes: [String] = []

    init(socket: String?, environment: [String: String] = SocketTarget.environment) {
        if socket == nil, let raw = environment["WAYLAND_SOCKET"] {
            if let fd = EnvironmentValues.socketFD(raw) {
                path = "fd \(fd)"
                notes.append("from WAYLAND_SOCKET")
            } else {
                path = "WAYLAND_SOCKET"
                notes.append("WAYLAND_SOCKET is not a file descriptor number")
            }
            return
        }
        var name: String
        if let socket {
            name = socket
        } else if let display = environment["WAYLAND_DISPLAY"] {
            name = display
        } else {
            name = "wayland-0"
            notes.append("WAYLAND_DISPLAY is unset")
        }
        if name.hasPrefix("/") {
            path = name
        } else if let runtime = environment["XDG_RUNTIME_DIR"] {
            // libwayland joins any value it finds (1.21); an empty or relative one is named, since
            // the path then says little (an empty one gives '/wayland-0').
            path = runtime + "/" + name
            if runtime.isEmpty {
                notes.append("XDG_RUNTIME_DIR is empty")
            } else if !runtime.hasPrefix("/") {
                notes.append("XDG_RUNTIME_DIR is not an absolute path")
            }
        } else {
            path = name
            notes.append("XDG_RUNTIME_DIR is unset")
        }
        if path.utf8.count > EnvironmentValues.maximumSocketPathLength {
            notes.append("longer than the \(EnvironmentValues.maximumSocketPathLength) bytes of a socket path")
        }
    }

    static var environment: [String: String] {
        var result: [String: String] = [:]
        for key in ["WAYLAND_SOCKET", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"] {
            if let value = EnvironmentValues.raw(key) { result[key] = value }
        }
        return result
    }
}
