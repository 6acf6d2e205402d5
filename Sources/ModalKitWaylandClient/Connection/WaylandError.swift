import Glibc

/// Errors thrown by ``WaylandConnection`` and ``Window``.
///
/// Every case has a one-line ``description`` meant to be printed as is on stderr
/// (the demo exits with status 1 after printing it).
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// `wl_display_connect` failed. `socket` is the full path that was tried (`$XDG_RUNTIME_DIR/NAME`,
    /// or NAME itself when it is absolute); `reason` says why, including when `WAYLAND_DISPLAY` is unset.
    case noCompositor(socket: String, reason: String)
    /// A global this client cannot work without (`wl_compositor`, `wl_shm`, `xdg_wm_base`) was not
    /// advertised by the registry after the first roundtrip. The associated value is the interface name.
    case missingGlobal(String)
    /// A required global was offered only at a version older than this client needs: the
    /// interface name, the newest version offered, the version needed, and what needs it (a
    /// request or event, for the message; nil if none is named).
    case globalTooOld(interface: String, offered: UInt32, needed: UInt32, neededFor: String?)
    /// Whatever listens on the socket did not answer the start-up roundtrip within `seconds`: it
    /// accepted the connection but speaks no Wayland (or hangs). `socket` as for `noCompositor`.
    case noAnswer(socket: String, seconds: Double)
    /// The compositor closed the connection or the socket failed (`wl_display_get_error` is not `EPROTO`).
    /// The associated value is the system's description of the error (`strerror`).
    case connectionLost(String)
    /// The compositor sent `wl_display.error`: the interface and id of the object it concerns, the
    /// interface-specific error code (see the interface's `error` enum in the protocol XML), and the
    /// compositor's message as libwayland logged it (may be empty).
    case protocolError(interface: String, objectID: UInt32, code: UInt32, message: String)
    /// Creating shared memory for a `wl_shm` buffer failed (`SharedMemory`: `memfd_create` and
    /// then `shm_open`, reserving its size, or `mmap`); the reason names the call and the system's message.
    case bufferAllocation(String)
    /// A buffer of `width` × `height` pixels was asked for that is over ``BufferCap``.
    case bufferTooLarge(width: Int, height: Int)
    /// The window's logical size, `width` × `height` points (its title bar included), is over
    /// ``BufferCap`` even at one buffer pixel per point, the smallest scale a window draws at.
    case windowTooLarge(width: Int, height: Int)
    /// ``WindowOptions`` that cannot be honoured (for example a requested size that is not positive).
    case invalidOptions(String)
    /// The ``Window`` or ``WaylandConnection`` was used after ``Window/close()`` or after a failure.
    case closed

    public var description: String {
        switch self {
        case let .noCompositor(socket, reason):
            return "cannot connect to Wayland compositor at '\(socket)': \(reason)"
        case let .noAnswer(socket, seconds):
            return "the Wayland socket '\(socket)' did not answer within \(Int(seconds)) s (is a compositor listening there?)"
        case let .missingGlobal(name):
            return "compositor lacks required global \(name)"
        case let .globalTooOld(interface, offered, needed, neededFor):
            let why = neededFor.map { " (for \($0))" } ?? ""
            return "the compositor offers \(interface) version \(offered); \(clientName) needs \(needed)\(why)"
        case let .connectionLost(reason):
            return "lost connection to the Wayland compositor: \(reason)"
        case let .protocolError(interface, objectID, code, message):
            let detail = message.isEmpty ? "" : ": \(message)"
            return "Wayland protocol error \(code) on \(interface)@\(objectID)\(detail)"
        case let .bufferAllocation(reason):
            return "cannot allocate a shared-memory buffer: \(reason)"
        case let .bufferTooLarge(width, height):
            return "a buffer of \(width)x\(height) pixels is over the buffer cap (\(BufferCap.maxSide) pixels a side, \(BufferCap.maxPixels) pixels)"
        case let .windowTooLarge(width, height):
            return "the compositor asked for a \(width)x\(height)-point window, over the buffer cap (\(BufferCap.maxSide) pixels a side, \(BufferCap.maxPixels) pixels) even at 1 pixel per point"
        case let .invalidOptions(reason):
            return "invalid window options: \(reason)"
        case .closed:
            return "the Wayland window or connection is already closed"
        }
    }
}

/// The running program's name (the last component of `argv[0]`), as error messages name the
/// client; "this client" when there is none.
var clientName: String {
    guard let first = CommandLine.arguments.first, let name = first.split(separator: "/").last, !name.isEmpty else {
        return "this client"
    }
    return String(name)
}

/// `strerror` of an errno value (default: the current `errno`).
func errnoDescription(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
