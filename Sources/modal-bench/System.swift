// /proc and machine facts for modal-bench; the clock is ModalKitClock's (`monotonicSeconds`,
// `threadCPUSeconds`: inlinable, allocation-free vDSO calls, the only things here that run inside a
// timed frame).
import CModalKitAllocCounter
import CModalKitPixman
import Foundation
import ModalKitBenchSupport
import ModalKitClock

/// The whole text of a (possibly /proc) file, read until EOF (procfs files report size 0, so
/// their length cannot be known in advance); nil when it cannot be opened.
func readTextFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The process's memory figures from /proc/self/status, kibibytes.
struct MemoryFigures {
    /// Peak resident set size (VmHWM).
    var peakKB: Int
    /// Current resident set size (VmRSS).
    var currentKB: Int

    static func now() -> MemoryFigures? {
        guard let status = readTextFile("/proc/self/status"),
              let hwm = ProcFiles.statusKilobytes("VmHWM", in: status),
              let rss = ProcFiles.statusKilobytes("VmRSS", in: status) else { return nil }
        return MemoryFigures(peakKB: hwm, currentKB: rss)
    }

    /// Resets the peak (VmHWM) to the current RSS by writing "5" to /proc/self/clear_refs
    /// (proc(5), Linux ≥ 4.0), so each style and size reports its own peak. False when refused.
    static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }
}

/// What the header says about the machine and the build.
enum Machine {
    static var cpuModel: String {
        readTextFile("/proc/cpuinfo").flatMap(ProcFiles.cpuModel(in:)) ?? "unknown CPU"
    }

    static var onlineCores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    static var pixmanVersion: String { String(cString: pixman_version_string()) }

    static var kernel: String {
        var u = utsname()
        guard uname(&u) == 0 else { return "Linux" }
        let release = withUnsafeBytes(of: &u.release) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return "Linux \(release)"
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug build (unoptimised: times and allocations are not what users get; use -c release)"
        #else
        return "release build"
        #endif
    }

    /// The first three fields of /proc/loadavg (1, 5 and 15 minute load averages).
    static var loadAverage: String {
        guard let text = readTextFile("/proc/loadavg") else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

/// The process-wide allocation counter of the CModalKitAllocCounter target.
enum AllocationCounter {
    @inline(__always) static var count: UInt64 { UInt64(modalkit_alloc_count()) }
    @inline(__always) static var bytes: UInt64 { UInt64(modalkit_alloc_bytes()) }

    /// Checks that allocations made by modal-bench itself, by the Swift runtime (libswiftCore) and
    /// by pixman are all counted, i.e. that the executable's malloc really interposes the
    /// libraries' (a count of 0 per frame must mean "no allocation", not "not seen").
    /// - Returns: nil when all are counted, else which one is not.
    static func selfCheck() -> String? {
        if modalkit_alloc_counter_sanitized() == 1 {
            return "modal-bench is built with a sanitizer, whose allocator it cannot count (build it without one)"
        }
        guard modalkit_alloc_counter_selftest() == 1 else { return "malloc called from modal-bench is not counted" }
        var before = count
        sink = makeArray(count: 1000 + Int(getpid() & 1))
        if count == before { return "an allocation by the Swift runtime (libswiftCore) is not counted" }
        sink = []
        before = count
        var black = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0xffff)
        let image = pixman_image_create_solid_fill(&black)
        let counted = count != before
        if let image { pixman_image_unref(image) }
        return counted ? nil : "an allocation by pixman is not counted"
    }

    private static var sink: [Int] = []

    @inline(never)
    private static func makeArray(count: Int) -> [Int] { Array(repeating: count, count: count) }
}
