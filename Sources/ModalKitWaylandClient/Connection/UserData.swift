import CModalKitWaylandClient

// Helpers for the pattern every protocol object in this module follows:
// - the object owns its proxy and destroys it in `deinit` (in the order its protocol asks:
//   role and add-on objects before their surface, decorations before their toplevel);
// - it holds the connection's `Display` in a stored property (from the object that made its proxy:
//   `Surface(proxy:display:)` from the compositor's, a buffer from its `Shm`'s), so the
//   `wl_display` is still connected when that `deinit` runs and disconnects only after the last
//   proxy is gone, whatever order ARC releases objects in (an optimized build may release any
//   value right after its last use). A type that keeps a raw libwayland pointer made on the
//   display (a `wl_shm_pool`, a `wl_cursor_theme`) holds the `Display` the same way;
// - the listener table is a C struct allocated once per interface (`listenerTable`), never per object;
// - the object registers itself as the proxy's user data without retaining it (`userData`), and
//   destroys the proxy in `deinit`, so libwayland never calls back into a freed object;
// - the callbacks are non-capturing `@convention(c)` closures that recover the object (`owner`).

/// Allocates a listener table once; the result lives for the whole process.
func listenerTable<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let table = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    table.initialize(to: listener)
    return table
}

/// The unretained user-data pointer for `object`.
@inline(__always)
func userData<T: AnyObject>(_ object: T) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

/// Recovers the object registered with ``userData(_:)``.
@inline(__always)
func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: T.Type = T.self) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// The bytes of a `wl_array` of `uint32_t` (for example `xdg_toplevel.configure`'s states).
func uint32Values(of array: UnsafeMutablePointer<wl_array>?) -> [UInt32] {
    guard let array, let data = array.pointee.data else { return [] }
    let count = array.pointee.size / MemoryLayout<UInt32>.stride
    return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
}

/// Runs `body` with the object registered as `data`, keeping it alive until `body` returns: for
/// events whose handling may drop the last reference to the object itself (a frame callback's
/// `done`, a buffer's `release`, a toplevel's `close` …; libwayland allows destroying a proxy from
/// its own event handler, Swift must not free the object under the running handler).
@inline(__always)
func withOwner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: T.Type, _ body: (T) -> Void) {
    let object = owner(data, as: type)
    withExtendedLifetime(object) { body(object) }
}
