// Reading libwayland's WAYLAND_DEBUG output: when a client put its first frame on screen.

/// A `WAYLAND_DEBUG` time stamp: `CLOCK_REALTIME` in microseconds, modulo 2^32.
///
/// libwayland 1.21 (`wl_closure_print` in src/connection.c, the version in Debian 12) stamps every
/// line with `clock_gettime(CLOCK_REALTIME)` folded into a 32-bit unsigned count of microseconds,
/// `time = tv_sec * 1000000 + tv_nsec / 1000` (computed in `unsigned int`), printed as
/// `[%7u.%03u]` of `time / 1000` and `time % 1000`: milliseconds with three decimals that wrap to 0
/// every 2^32 µs (71 min 35 s). (Read off Debian 12's libwayland-client.so.0.21.0: its
/// `clock_gettime` call passes clock 0, `CLOCK_REALTIME`, and the sum is 32-bit.)
public struct WaylandDebugTimestamp: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds of `CLOCK_REALTIME`, modulo 2^32.
    public var microseconds: UInt32

    public init(microseconds: UInt32) { self.microseconds = microseconds }

    /// The stamp libwayland would print at the `CLOCK_REALTIME` reading `seconds`.`nanoseconds`
    /// (the same 32-bit folding), so that a time taken in another process compares with the log.
    public init(realtimeSeconds seconds: Int, nanoseconds: Int) {
        microseconds = UInt32(truncatingIfNeeded: seconds &* 1_000_000 &+ nanoseconds / 1000)
    }

    /// Microseconds from `earlier` to `self` across the wrap, or nil when `self` is before
    /// `earlier` (or more than 2^31 µs, about 36 min, after it: no launch takes that long).
    public func microseconds(since earlier: WaylandDebugTimestamp) -> Int? {
        let d = microseconds &- earlier.microseconds
        return d < 1 << 31 ? Int(d) : nil
    }

    /// `1234567.890` (milliseconds, as printed in the log).
    public var description: String {
        let ms = String(microseconds / 1000), us = String(microseconds % 1000)
        return ms + "." + String(repeating: "0", count: 3 - us.count) + us
    }
}

/// One message line of `WAYLAND_DEBUG=1` output (libwayland's `wl_closure_print`):
/// `[   1234.567]  -> wl_surface@3.attach(wl_buffer@12, 0, 0)` for a request the client sent,
/// `[   1234.567] xdg_surface@7.configure(2)` for an event it dispatched. libwayland 1.23 and later
/// may put a queue name in braces before the object (`{Default Queue} `); it is skipped.
public struct WaylandDebugMessage: Equatable, Sendable {
    public var timestamp: WaylandDebugTimestamp
    /// True for a request (client → compositor, the ` -> ` lines), false for an event.
    public var isRequest: Bool
    /// The object's interface, e.g. `wl_surface`.
    public var interface: String
    /// The object's ID, e.g. 3 in `wl_surface@3`.
    public var objectID: UInt32
    /// The request or event name, e.g. `commit`.
    public var message: String
    /// The arguments as printed, split at the top-level commas: `new id wl_buffer@12`,
    /// `wl_buffer@12`, `nil`, `fd 5`, `array[8]`, `"a string"` (with its quotes), `800`.
    public var arguments: [String]

    public init(timestamp: WaylandDebugTimestamp, isRequest: Bool, interface: String, objectID: UInt32,
                message: String, arguments: [String]) {
        self.timestamp = timestamp
        self.isRequest = isRequest
        self.interface = interface
        self.objectID = objectID
        self.message = message
        self.arguments = arguments
    }

    /// Parses one line; nil for anything else the client wrote to stderr, and for the
    /// `discarded` lines (events for objects the client already destroyed, never dispatched).
    public init?(line: Substring) {
        var s = line
        if s.last == "\r" { s.removeLast() }
        guard s.first == "[" else { return nil }
        s.removeFirst()
        while s.first == " " { s.removeFirst() }
        let whole = s.prefix { $0.isASCII && $0.isNumber }
        guard !whole.isEmpty, whole.count <= 7 else { return nil }
        s = s.dropFirst(whole.count)
        guard s.first == "." else { return nil }
        s.removeFirst()
        let fraction = s.prefix(3)
        guard fraction.count == 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
              let ms = UInt64(whole), let us = UInt64(fraction) else { return nil }
        let total = ms * 1000 + us
        guard total <= UInt64(UInt32.max) else { return nil }
        s = s.dropFirst(3)
        guard s.hasPrefix("] ") else { return nil }
        s = s.dropFirst(2)
        if s.hasPrefix("{"), let close = s.firstIndex(of: "}") {
            s = s[s.index(after: close)...]
            while s.first == " " { s.removeFirst() }
        }
        var request = false
        if s.hasPrefix(" -> ") {
            request = true
            s = s.dropFirst(4)
        } else if s.hasPrefix("-> ") {
            request = true
            s = s.dropFirst(3)
        }
        if s.hasPrefix("discarded ") { return nil }
        guard let at = s.firstIndex(of: "@") else { return nil }
        let interface = s[..<at]
        guard !interface.isEmpty, interface.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return nil }
        let afterAt = s[s.index(after: at)...]
        let idText = afterAt.prefix { $0.isASCII && $0.isNumber }
        guard let id = UInt32(idText) else { return nil }
        var rest = afterAt.dropFirst(idText.count)
        guard rest.first == "." else { return nil }
        rest.removeFirst()
        guard let open = rest.firstIndex(of: "("), rest.last == ")" else { return nil }
        let name = rest[..<open]
        guard !name.isEmpty else { return nil }
        let inner = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        self.init(timestamp: WaylandDebugTimestamp(microseconds: UInt32(total)), isRequest: request,
                  interface: String(interface), objectID: id, message: String(name),
                  arguments: WaylandDebugMessage.splitArguments(inner))
    }

    /// Splits `a, "b, c", d` at the commas outside double quotes.
    static func splitArguments(_ text: Substring) -> [String] {
        guard !text.isEmpty else { return [] }
        var parts: [String] = [], current = "", quoted = false
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "\"" { quoted.toggle() }
            if c == "," && !quoted {
                parts.append(current)
                current = ""
                i = text.index(after: i)
                if i < text.endIndex && text[i] == " " { i = text.index(after: i) }
                continue
            }
            current.append(c)
            i = text.index(after: i)
        }
        parts.append(current)
        return parts
    }

    /// The object an argument names — `wl_buffer@12` or `new id wl_buffer@12` — as
    /// (interface, ID); nil for `nil`, numbers, strings and the rest.
    public static func objectReference(_ argument: String) -> (interface: String, id: UInt32)? {
        var a = Substring(argument)
        if a.hasPrefix("new id ") { a = a.dropFirst("new id ".count) }
        guard let at = a.firstIndex(of: "@"), let id = UInt32(a[a.index(after: at)...]) else { return nil }
        let interface = a[..<at]
        guard !interface.isEmpty, !interface.contains(" "), !interface.hasPrefix("\"") else { return nil }
        return (String(interface), id)
    }
}

/// When a client's first frame reached the compositor, read from its `WAYLAND_DEBUG` lines.
///
/// The first frame is the first `wl_surface.commit` of a surface with a shell role (an
/// `xdg_surface`, a layer-shell surface or a `wl_shell_surface`) after which that surface has a
/// non-null `wl_buffer` attached: the commit that maps the window (xdg-shell: a surface is
/// mapped by its first commit with a buffer after the first `ack_configure`). Sub-surfaces are
/// covered by it: a sub-surface is shown only while its parent is mapped (wayland.xml,
/// `wl_subsurface`), and a synchronized sub-surface's committed state is applied with its
/// parent's commit, so whatever the sub-surfaces hold goes on screen with that same commit.
/// Cursor and drag-icon surfaces have no shell role and are not counted.
public struct FirstFrameTracker: Sendable {
    /// The first request the client sent (normally `wl_display.get_registry` right after
    /// connecting).
    public private(set) var firstRequest: WaylandDebugTimestamp?
    /// The first shell `configure` event dispatched (`xdg_surface.configure` and the like).
    public private(set) var firstConfigure: WaylandDebugTimestamp?
    /// The commit that put the first frame on screen, once seen.
    public private(set) var firstFrame: FirstFrame?
    /// The size (buffer pixels) of the buffer the latest commit of a shell surface left on it,
    /// when its creation was in the log: the size the window rests at; nil after `attach(nil)`.
    public private(set) var latestFrameBufferSize: (width: Int, height: Int)?
    /// The last `wl_seat.capabilities` seen (1 pointer, 2 keyboard, 4 touch; wayland.xml).
    public private(set) var seatCapabilities: UInt32?
    /// Whether a `wl_keyboard.keymap` event was dispatched.
    public private(set) var receivedKeymap = false
    /// Message lines consumed.
    public private(set) var messages = 0

    public struct FirstFrame: Equatable, Sendable {
        public var timestamp: WaylandDebugTimestamp
        public var surfaceID: UInt32
        public var bufferID: UInt32
        /// The buffer's size in buffer pixels when its creation was in the log
        /// (`wl_shm_pool.create_buffer`, `zwp_linux_buffer_params_v1.create_immed`).
        public var bufferWidth: Int?
        public var bufferHeight: Int?
    }

    private var roleSurfaces: Set<UInt32> = []
    /// Per surface: the buffer of a pending `attach` (nil inside: `attach(nil)`).
    private var pendingAttach: [UInt32: UInt32?] = [:]
    /// Per surface: the buffer its last commit left attached.
    private var currentBuffer: [UInt32: UInt32] = [:]
    private var bufferSizes: [UInt32: (Int, Int)] = [:]

    private static let roleRequests: Set<String> = ["get_xdg_surface", "get_layer_surface", "get_shell_surface"]
    private static let configureEvents: Set<String> = ["xdg_surface", "zxdg_surface_v6", "zwlr_layer_surface_v1",
                                                       "wl_shell_surface"]

    public init() {}

    /// Feeds one raw stderr line; lines that are not debug messages are ignored.
    public mutating func consume(line: Substring) {
        if let m = WaylandDebugMessage(line: line) { consume(m) }
    }

    public mutating func consume(_ m: WaylandDebugMessage) {
        messages += 1
        if m.isRequest {
            if firstRequest == nil { firstRequest = m.timestamp }
            request(m)
        } else {
            event(m)
        }
    }

    private mutating func request(_ m: WaylandDebugMessage) {
        if FirstFrameTracker.roleRequests.contains(m.message) {
            for a in m.arguments {
                if !a.hasPrefix("new id "), let ref = WaylandDebugMessage.objectReference(a), ref.interface == "wl_surface" {
                    roleSurfaces.insert(ref.id)
                }
            }
            return
        }
        switch (m.interface, m.message) {
        case ("wl_shm_pool", "create_buffer"):
            // (new id wl_buffer, offset, width, height, stride, format)
            if m.arguments.count >= 4, let ref = WaylandDebugMessage.objectReference(m.arguments[0]),
               let w = Int(m.arguments[2]), let h = Int(m.arguments[3]) {
                bufferSizes[ref.id] = (w, h)
            }
        case ("zwp_linux_buffer_params_v1", "create_immed"):
            // (new id wl_buffer, width, height, format, flags)
            if m.arguments.count >= 3, let ref = WaylandDebugMessage.objectReference(m.arguments[0]),
               let w = Int(m.arguments[1]), let h = Int(m.arguments[2]) {
                bufferSizes[ref.id] = (w, h)
            }
        case ("wl_surface", "attach"):
            guard let first = m.arguments.first else { return }
            pendingAttach[m.objectID] = .some(WaylandDebugMessage.objectReference(first)?.id)
        case ("wl_surface", "commit"):
            let surface = m.objectID
            if let attached = pendingAttach.removeValue(forKey: surface) {
                currentBuffer[surface] = attached
            }
            guard roleSurfaces.contains(surface) else { return }
            guard let buffer = currentBuffer[surface] else {
                latestFrameBufferSize = nil   // unmapped (attach(nil))
                return
            }
            let size = bufferSizes[buffer]
            if firstFrame == nil {
                firstFrame = FirstFrame(timestamp: m.timestamp, surfaceID: surface, bufferID: buffer,
                                        bufferWidth: size?.0, bufferHeight: size?.1)
            }
            latestFrameBufferSize = size.map { (width: $0.0, height: $0.1) }
        case ("wl_surface", "destroy"):
            roleSurfaces.remove(m.objectID)
            pendingAttach[m.objectID] = nil
            currentBuffer[m.objectID] = nil
        default:
            break
        }
    }

    private mutating func event(_ m: WaylandDebugMessage) {
        if m.message == "configure", FirstFrameTracker.configureEvents.contains(m.interface) {
            if firstConfigure == nil { firstConfigure = m.timestamp }
        } else if m.interface == "wl_seat", m.message == "capabilities", let c = m.arguments.first.flatMap({ UInt32($0) }) {
            seatCapabilities = c
        } else if m.interface == "wl_keyboard", m.message == "keymap" {
            receivedKeymap = true
        }
    }
}

/// Names for a `wl_seat.capabilities` bitmask (wayland.xml: pointer 1, keyboard 2, touch 4).
public func seatCapabilityNames(_ capabilities: UInt32) -> String {
    var names: [String] = []
    if capabilities & 1 != 0 { names.append("pointer") }
    if capabilities & 2 != 0 { names.append("keyboard") }
    if capabilities & 4 != 0 { names.append("touch") }
    return names.isEmpty ? "no input devices" : names.joined(separator: " + ")
}
