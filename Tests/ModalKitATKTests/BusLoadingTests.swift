import CModalKitDBus
import ModalKitDesktopSettings
import Foundation
import Glibc
import XCTest

/// libdbus is loaded with dlopen by the first bus connection (CModalKitDBus), not linked: its
/// declarations are written out, so their sizes must be libdbus's own (dbus-message.h,
/// dbus-errors.h: 72 and 32 bytes on x86-64), and a connection through the table must work.
final class BusLoadingTests: XCTestCase {
    func testTheWrittenOutStructsHaveLibdbusSizes() {
        XCTAssertEqual(MemoryLayout<DBusMessageIter>.size, 72)
        XCTAssertEqual(MemoryLayout<DBusMessageIter>.alignment, 8)
        XCTAssertEqual(MemoryLayout<DBusError>.size, 32)
        XCTAssertEqual(DBUS_WATCH_HANGUP.rawValue, 8)
        XCTAssertEqual(DBUS_HANDLER_RESULT_NOT_YET_HANDLED.rawValue, 1)
        XCTAssertEqual(DBUS_DISPATCH_DATA_REMAINS.rawValue, 0)
    }

    /// A connection to a listening socket (which never answers): libdbus is loaded then, mapped in
    /// this process, and the connection's socket is handed to the loop through the dlsym'd
    /// functions (`dbus_connection_set_watch_functions`), with `Hello` queued; closing removes it.
    func testTheFirstConnectionLoadsLibdbusAndWorksThroughTheTable() throws {
        var template = Array("\(NSTemporaryDirectory())/busload-XXXXXX".utf8CString)
        let directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        let path = directory + "/bus"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener); unlink(path); rmdir(directory) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 4), 0)

        let loop = CountingLoop()
        let bus = try XCTUnwrap(BusConnection.open(address: "unix:path=" + path, loop: loop))
        XCTAssertTrue(BusConnection.isLibraryLoaded)
        XCTAssertTrue(try mappedFiles().contains { $0.contains("/libdbus-1.so.3") }, "libdbus is mapped once loaded")
        // libdbus watches its one socket twice (a readable and a writable watch, as GLib sees them).
        XCTAssertGreaterThanOrEqual(loop.live.count, 1)
        XCTAssertEqual(Set(loop.live.values).count, 1, "one socket")
        XCTAssertNil(bus.uniqueName, "no answer to Hello from a socket that never speaks")
        bus.close()
        XCTAssertTrue(bus.isClosed)
        XCTAssertEqual(loop.live.count, 0, "closing removes the watch")
        // Not an address libdbus knows: nil, as before.
        XCTAssertNil(BusConnection.open(address: "not an address", loop: loop))
    }
}

/// The files mapped in this process, read line by line (/proc/self/maps reports a size of 0, so
/// whole-file readers that trust the size stop early).
private func mappedFiles() throws -> [String] {
    guard let file = fopen("/proc/self/maps", "r") else { throw POSIXError(.ENOENT) }
    defer { fclose(file) }
    var lines: [String] = []
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil { lines.append(String(cString: buffer)) }
    return lines
}

/// A loop that is never run: it records the watches libdbus adds and removes.
private final class CountingLoop: PollLoop {
    var next = 0
    /// Live watches: id → descriptor.
    var live: [Int: Int32] = [:]
    func addWatch(fd: Int32, readable: Bool, writable: Bool, onReady: @escaping (PollReadiness) -> Void) -> Int {
        next += 1
        live[next] = fd
        return next
    }
    func updateWatch(_ id: Int, readable: Bool, writable: Bool) {}
    func removeWatch(_ id: Int) { live[id] = nil }
}
