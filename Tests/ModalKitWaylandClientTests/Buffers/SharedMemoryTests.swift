import Foundation
import XCTest
@testable import ModalKitWaylandClient
#if canImport(Glibc)
import Glibc
#endif

/// ``SharedMemory``: memfd first; without it (ENOSYS, EPERM) a POSIX shared-memory object made
/// with O_EXCL under a random name, retried while the name exists, unlinked at once.
final class SharedMemoryTests: XCTestCase {
    /// What a descriptor is (`/proc/self/fd/N`): "/memfd:NAME (deleted)", "/dev/shm/NAME (deleted)".
    private func target(of fd: Int32) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? ""
    }

    private func flags(of fd: Int32) -> Int32 { fcntl(fd, F_GETFD) }

    func testMemfdFirst() throws {
        let memory = try SharedMemory(byteCount: 4096, name: "unit")
        defer { close(memory.fd); munmap(memory.data, memory.byteCount) }
        XCTAssertEqual(target(of: memory.fd), "/memfd:modalkit-unit (deleted)")
        XCTAssertEqual(flags(of: memory.fd) & FD_CLOEXEC, FD_CLOEXEC)
        var st = stat()
        XCTAssertEqual(fstat(memory.fd, &st), 0)
        XCTAssertEqual(st.st_size, 4096)
        memory.data.storeBytes(of: 0xAABB_CCDD as UInt32, as: UInt32.self)   // mapped read-write
    }

    func testWithoutMemfdAnUnlinkedShmObject() throws {
        for code in [ENOSYS, EPERM] {
            var calls = 0
            let memory = try SharedMemory(byteCount: 8192, name: "unit", memfd: { _, _ in calls += 1; errno = code; return -1 })
            defer { close(memory.fd); munmap(memory.data, memory.byteCount) }
            XCTAssertEqual(calls, 1)
            let path = target(of: memory.fd)
            XCTAssertTrue(path.hasPrefix("/dev/shm/modalkit-unit-") && path.hasSuffix(" (deleted)"), "errno \(code): \(path)")
            XCTAssertEqual(flags(of: memory.fd) & FD_CLOEXEC, FD_CLOEXEC, "shm_open's descriptors are close-on-exec")
            var st = stat()
            XCTAssertEqual(fstat(memory.fd, &st), 0)
            XCTAssertEqual(st.st_size, 8192)
            XCTAssertEqual(st.st_mode & 0o777, 0o600, "only this user")
        }
    }

    /// A name that exists is never opened: the next random name is tried; the existing object is untouched.
    func testATakenNameIsSkippedAndLeftAlone() throws {
        let taken = "taken\(getpid())"
        let existing = shm_open("/modalkit-unit-\(taken)", O_RDWR | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(existing, 0)
        defer { close(existing); shm_unlink("/modalkit-unit-\(taken)") }
        XCTAssertEqual(ftruncate(existing, 123), 0)
        var names = [taken, "fresh\(getpid())"]
        let fd = try SharedMemory.makeFile(name: "unit", memfd: { _, _ in errno = ENOSYS; return -1 },
                                           randomName: { names.removeFirst() })
        defer { close(fd) }
        XCTAssertEqual(target(of: fd), "/dev/shm/modalkit-unit-fresh\(getpid()) (deleted)")
        var st = stat()
        XCTAssertEqual(fstat(existing, &st), 0)
        XCTAssertEqual(st.st_size, 123, "the existing object is not truncated or reused")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/dev/shm/modalkit-unit-\(taken)"), "and not unlinked")
    }

    /// Any other memfd failure (no memory, too many files) is not hidden behind a fallback.
    func testOtherMemfdErrorsAreReported() {
        XCTAssertThrowsError(try SharedMemory.makeFile(name: "unit", memfd: { _, _ in errno = EMFILE; return -1 })) { error in
            XCTAssertEqual(error as? WaylandError, .bufferAllocation("memfd_create: Too many open files"))
        }
    }

    func testBufferCap() {
        XCTAssertTrue(BufferCap.fits(width: 8192, height: 8192), "64 Mi pixels: at the cap")
        XCTAssertFalse(BufferCap.fits(width: 8192, height: 8193))
        XCTAssertTrue(BufferCap.fits(width: 16384, height: 4096))
        XCTAssertFalse(BufferCap.fits(width: 16385, height: 1), "a side over 16384")
        XCTAssertEqual(WaylandError.bufferTooLarge(width: 24576, height: 24576).description,
                       "a buffer of 24576x24576 pixels is over the buffer cap (16384 pixels a side, 67108864 pixels)")
    }
}
