import CModalKitWaylandClient
import Glibc

/// Shared memory for a `wl_shm` pool: an anonymous file of `byteCount` bytes, mapped read-write.
/// The compositor gets the descriptor through `wl_shm.create_pool` and maps it too.
///
/// Rules:
/// - The file is a `memfd_create(MFD_CLOEXEC)`. Where that system call is unavailable — `ENOSYS`
///   on kernels before 3.17 and under seccomp filters that do not know it (some return `EPERM`) —
///   it is a POSIX shared-memory object instead: `shm_open` of a random name
///   (`/modalkit-NAME-XXXXXXXX`) with `O_CREAT | O_EXCL` (a name that exists is never opened;
///   another is tried, up to 100 times), `shm_unlink`ed right away, so that no name is left in
///   /dev/shm even if the process dies. wlroots (`allocate_shm_file`) and foot do the same.
/// - The size is reserved with `posix_fallocate` (ftruncate where the file system cannot): a full
///   /dev/shm or memory is an error here, not a `SIGBUS` at the first write (foot's practice).
/// - Buffers larger than ``BufferCap`` are never made (``BufferCap/check(width:height:)``).
struct SharedMemory {
    /// The file; close it once the pool is created (the pool keeps the memory alive).
    let fd: Int32
    /// The mapping, `byteCount` bytes; `munmap` it when the buffers are gone.
    let data: UnsafeMutableRawPointer
    let byteCount: Int

    /// `memfd_create`'s signature, replaceable in tests.
    typealias MemfdCreate = (_ name: String, _ flags: UInt32) -> Int32

    /// Makes, sizes and maps the file.
    /// - Parameter name: a short tag for the file (`memfd:NAME`, `/dev/shm/modalkit-NAME-…`).
    /// - Throws: ``WaylandError/bufferAllocation(_:)`` naming the call that failed and why.
    init(byteCount: Int, name: String, memfd: MemfdCreate = { memfd_create($0, $1) }) throws {
        precondition(byteCount > 0)
        let fd = try SharedMemory.makeFile(name: name, memfd: memfd)
        var result: Int32
        repeat { result = posix_fallocate(fd, 0, off_t(byteCount)) } while result == EINTR
        if result == EOPNOTSUPP || result == EINVAL || result == ENODEV {
            // A file system without fallocate: size it without reserving.
            repeat { result = ftruncate(fd, off_t(byteCount)) == 0 ? 0 : errno } while result == EINTR
        }
        guard result == 0 else {
            close(fd)
            throw WaylandError.bufferAllocation("reserving \(byteCount) bytes: \(errnoDescription(result))")
        }
        guard let data = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              data != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = errno
            close(fd)
            throw WaylandError.bufferAllocation("mmap: \(errnoDescription(code))")
        }
        self.fd = fd
        self.data = data
        self.byteCount = byteCount
    }

    /// The anonymous file (see the type's rules), close-on-exec.
    /// - Throws: ``WaylandError/bufferAllocation(_:)``.
    static func makeFile(name: String, memfd: MemfdCreate = { memfd_create($0, $1) },
                         randomName: () -> String = randomObjectName) throws -> Int32 {
        let fd = memfd("modalkit-" + name, UInt32(MFD_CLOEXEC))
        if fd >= 0 { return fd }
        let memfdError = errno
        guard memfdError == ENOSYS || memfdError == EPERM else {
            throw WaylandError.bufferAllocation("memfd_create: \(errnoDescription(memfdError))")
        }
        for _ in 0..<100 {
            let objectName = "/modalkit-\(name)-\(randomName())"
            // shm_open sets FD_CLOEXEC itself.
            let fd = shm_open(objectName, O_RDWR | O_CREAT | O_EXCL, 0o600)
            if fd >= 0 {
                shm_unlink(objectName)
                return fd
            }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            throw WaylandError.bufferAllocation(
                "memfd_create: \(errnoDescription(memfdError)); shm_open: \(errnoDescription(code))")
        }
        throw WaylandError.bufferAllocation("memfd_create: \(errnoDescription(memfdError)); shm_open: every name tried exists")
    }

    /// Eight random letters and digits.
    static func randomObjectName() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<8).map { _ in alphabet.randomElement()! })
    }
}
