import ModalKitBenchSupport
import XCTest

/// Reading libwayland's WAYLAND_DEBUG lines (libwayland 1.21, `wl_closure_print`): the stamp's
/// clock folding, one line's fields, and the first frame of real clients' logs
/// (`WaylandDebugFixtures`, captured verbatim).
final class WaylandDebugLogTests: XCTestCase {
    private func track(_ log: String) -> FirstFrameTracker {
        var t = FirstFrameTracker()
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) { t.consume(line: line) }
        return t
    }

    private func stamp(_ text: String) -> WaylandDebugTimestamp {
        WaylandDebugMessage(line: "[\(text)] wl_display@1.delete_id(3)")!.timestamp
    }

    // MARK: Time stamps

    func testStampIsRealtimeMicrosecondsFoldedTo32Bits() {
        // libwayland: time = tv_sec * 1000000 + tv_nsec / 1000 in unsigned int.
        // 1,700,000,000 s = 1.7e15 µs; 1.7e15 mod 2^32 = 404,635,648; + 123,456 µs.
        let t = WaylandDebugTimestamp(realtimeSeconds: 1_700_000_000, nanoseconds: 123_456_789)
        XCTAssertEqual(t.microseconds, 404_759_104)
        XCTAssertEqual(t.description, "404759.104")
        // The same instant as libwayland prints it (`[%7u.%03u]`) parses back to the same value.
        XCTAssertEqual(stamp(" 404759.104"), t)
    }

    func testParsedStampIsMillisecondsAndMicroseconds() {
        XCTAssertEqual(stamp("3321061.457").microseconds, 3_321_061_457)
        // %7u pads small values with spaces.
        XCTAssertEqual(stamp("      0.005").microseconds, 5)
        XCTAssertEqual(stamp("4294967.295").microseconds, UInt32.max)
    }

    func testDifferenceAcrossTheWrap() {
        let before = WaylandDebugTimestamp(microseconds: UInt32.max - 999)   // 1 ms before the wrap
        let after = WaylandDebugTimestamp(microseconds: 15_000)
        XCTAssertEqual(after.microseconds(since: before), 16_000)
        XCTAssertEqual(before.microseconds(since: before), 0)
        // Earlier than the reference: no launch time.
        XCTAssertNil(before.microseconds(since: after))
    }

    // MARK: One line

    func testRequestLine() throws {
        let m = try XCTUnwrap(WaylandDebugMessage(line: "[3321062.150]  -> wl_shm_pool@9.create_buffer(new id wl_buffer@10, 0, 250, 250, 1000, 1)"))
        XCTAssertEqual(m.timestamp.microseconds, 3_321_062_150)
        XCTAssertTrue(m.isRequest)
        XCTAssertEqual(m.interface, "wl_shm_pool")
        XCTAssertEqual(m.objectID, 9)
        XCTAssertEqual(m.message, "create_buffer")
        XCTAssertEqual(m.arguments, ["new id wl_buffer@10", "0", "250", "250", "1000", "1"])
    }

    func testEventLineWithStringsAndArrays() throws {
        let m = try XCTUnwrap(WaylandDebugMessage(line: #"[3321217.509] wl_output@18.geometry(0, 0, 0, 0, 0, "headless", "headless", 0)"#))
        XCTAssertFalse(m.isRequest)
        XCTAssertEqual(m.interface, "wl_output")
        XCTAssertEqual(m.message, "geometry")
        XCTAssertEqual(m.arguments.count, 8)
        XCTAssertEqual(m.arguments[5], #""headless""#)
        let c = try XCTUnwrap(WaylandDebugMessage(line: "[3321274.233] xdg_toplevel@22.configure(800, 600, array[20])"))
        XCTAssertEqual(c.arguments, ["800", "600", "array[20]"])
        let e = try XCTUnwrap(WaylandDebugMessage(line: "[3321250.041] xdg_wm_base@9.ping(7)"))
        XCTAssertEqual(e.arguments, ["7"])
        XCTAssertEqual(try XCTUnwrap(WaylandDebugMessage(line: "[3321229.520]  -> wl_surface@3.commit()")).arguments, [])
    }

    func testCommaInsideAStringDoesNotSplit() throws {
        let m = try XCTUnwrap(WaylandDebugMessage(line: #"[1.000]  -> xdg_toplevel@8.set_title("a, b", 1)"#))
        XCTAssertEqual(m.arguments, [#""a, b""#, "1"])
    }

    func testObjectReferences() {
        XCTAssertEqual(WaylandDebugMessage.objectReference("new id wl_buffer@12")?.interface, "wl_buffer")
        XCTAssertEqual(WaylandDebugMessage.objectReference("new id wl_buffer@12")?.id, 12)
        XCTAssertEqual(WaylandDebugMessage.objectReference("wl_surface@3")?.id, 3)
        XCTAssertEqual(WaylandDebugMessage.objectReference("new id [unknown]@4")?.id, 4)
        XCTAssertNil(WaylandDebugMessage.objectReference("nil"))
        XCTAssertNil(WaylandDebugMessage.objectReference("fd 5"))
        XCTAssertNil(WaylandDebugMessage.objectReference("800"))
    }

    func testOtherStderrLinesAreNotMessages() {
        XCTAssertNil(WaylandDebugMessage(line: "info: main.c:421: version: 1.13.1 +pgo +ime +graphemes -assertions"))
        XCTAssertNil(WaylandDebugMessage(line: "Both buffers busy at redraw(). Server bug?"))
        XCTAssertNil(WaylandDebugMessage(line: ""))
        XCTAssertNil(WaylandDebugMessage(line: "[3321061.45] wl_display@1.delete_id(3)"))
        // An event for an object already destroyed: printed, never dispatched.
        XCTAssertNil(WaylandDebugMessage(line: "[3321061.457] discarded wl_callback@3.done(1)"))
        XCTAssertNil(WaylandDebugMessage(line: "[3321061.457] discarded [unknown]@30.[event 0](0 fd, 12 byte)"))
    }

    func testQueueNamePrefixOfNewerLibwayland() throws {
        let m = try XCTUnwrap(WaylandDebugMessage(line: "[1234567.890] {Default Queue}  -> wl_surface@3.commit()"))
        XCTAssertTrue(m.isRequest)
        XCTAssertEqual(m.interface, "wl_surface")
        XCTAssertEqual(m.message, "commit")
    }

    // MARK: First frame of real clients

    func testWestonSimpleShm() throws {
        let t = track(WaylandDebugFixtures.westonSimpleShmNoSeat)
        XCTAssertEqual(t.firstRequest, stamp("3321061.457"))       // wl_display.get_registry
        XCTAssertEqual(t.firstConfigure, stamp("3321062.055"))     // xdg_surface@7.configure(2)
        let f = try XCTUnwrap(t.firstFrame)
        XCTAssertEqual(f.timestamp, stamp("3321062.441"))          // commit after attach(wl_buffer@10)
        XCTAssertEqual(f.surfaceID, 3)
        XCTAssertEqual(f.bufferID, 10)
        XCTAssertEqual(f.bufferWidth, 250)
        XCTAssertEqual(f.bufferHeight, 250)
        XCTAssertNil(t.seatCapabilities)                           // it binds no wl_seat
        XCTAssertFalse(t.receivedKeymap)
    }

    func testFootWithoutInputDevices() throws {
        let t = track(WaylandDebugFixtures.footNoSeat)
        XCTAssertEqual(t.firstRequest, stamp("3321187.153"))
        XCTAssertEqual(t.firstConfigure, stamp("3321250.069"))
        // Its initial commit without a buffer (3321229.520) and the sub-surface it creates do not count.
        let f = try XCTUnwrap(t.firstFrame)
        XCTAssertEqual(f.timestamp, stamp("3321273.519"))
        XCTAssertEqual(f.bufferID, 20)
        XCTAssertEqual(f.bufferWidth, 800)
        XCTAssertEqual(f.bufferHeight, 600)
        XCTAssertEqual(t.seatCapabilities, 0)
        XCTAssertFalse(t.receivedKeymap)
        // At the end it attached nil: the window rests with no buffer.
        XCTAssertNil(t.latestFrameBufferSize)
    }

    func testFootWithAKeyboard() throws {
        let t = track(WaylandDebugFixtures.footKeyboard)
        XCTAssertEqual(t.firstRequest, stamp("3970799.507"))
        XCTAssertEqual(t.firstConfigure, stamp("3970848.234"))
        let f = try XCTUnwrap(t.firstFrame)
        XCTAssertEqual(f.timestamp, stamp("3970859.735"))
        XCTAssertEqual(f.surfaceID, 3)
        XCTAssertEqual(t.seatCapabilities, 3)
        XCTAssertTrue(t.receivedKeymap)
    }

    func testModalDemoSubSurfacesCommittedBeforeTheWindowsBuffer() throws {
        let t = track(WaylandDebugFixtures.modalDemoNoSeat)
        XCTAssertEqual(t.firstRequest, stamp("3867433.540"))
        XCTAssertEqual(t.firstConfigure, stamp("3867434.349"))
        // wl_surface@16 and @20 (sub-surfaces of @3) commit at 3867434.855 and .871 without a buffer.
        let f = try XCTUnwrap(t.firstFrame)
        XCTAssertEqual(f.timestamp, stamp("3867439.335"))
        XCTAssertEqual(f.surfaceID, 3)
        XCTAssertEqual(f.bufferID, 25)
        XCTAssertEqual(f.bufferWidth, 800)
        XCTAssertEqual(t.latestFrameBufferSize?.width, 800)
        XCTAssertEqual(t.latestFrameBufferSize?.height, 600)
        XCTAssertEqual(t.seatCapabilities, 0)
    }

    func testModalDemoWithAKeyboardAndACursorSurface() throws {
        let t = track(WaylandDebugFixtures.modalDemoKeyboard)
        XCTAssertEqual(t.firstFrame?.timestamp, stamp("3969337.553"))
        XCTAssertEqual(t.seatCapabilities, 3)
        XCTAssertTrue(t.receivedKeymap)
        // The cursor surface's 24×24 buffer later is not the window's size at rest.
        XCTAssertEqual(t.latestFrameBufferSize?.width, 800)
    }

    func testACursorSurfaceWithABufferBeforeTheWindowIsNotAFrame() throws {
        // modal-demo's cursor lines (wl_surface@29, no shell role) moved before its window's
        // first buffer: they must not count.
        let lines = WaylandDebugFixtures.modalDemoKeyboard.split(separator: "\n")
        let cursor = lines.filter { $0.contains("wl_surface@29.") || $0.contains("create_buffer(new id wl_buffer@21,") }
        XCTAssertEqual(cursor.count, 6)
        guard let firstAttach = lines.firstIndex(where: { $0.contains("wl_surface@3.attach(") }) else { return XCTFail() }
        var reordered = Array(lines[..<firstAttach].filter { !cursor.contains($0) })
        reordered += cursor
        reordered += lines[firstAttach...].filter { !cursor.contains($0) }
        var t = FirstFrameTracker()
        for l in reordered { t.consume(line: l) }
        XCTAssertEqual(t.firstFrame?.surfaceID, 3)
        XCTAssertEqual(t.firstFrame?.timestamp, stamp("3969337.553"))
    }

    func testCommitAfterAttachingNilIsNoFrame() {
        var t = FirstFrameTracker()
        for l in ["[1.000]  -> xdg_wm_base@6.get_xdg_surface(new id xdg_surface@7, wl_surface@3)",
                  "[1.100]  -> wl_surface@3.commit()",
                  "[1.200] xdg_surface@7.configure(2)",
                  "[1.300]  -> wl_surface@3.attach(nil, 0, 0)",
                  "[1.400]  -> wl_surface@3.commit()"] {
            t.consume(line: l[...])
        }
        XCTAssertNil(t.firstFrame)
        t.consume(line: "[1.500]  -> wl_surface@3.attach(wl_buffer@9, 0, 0)")
        XCTAssertNil(t.firstFrame, "attach alone is pending state, shown by the next commit")
        t.consume(line: "[1.600]  -> wl_surface@3.commit()")
        XCTAssertEqual(t.firstFrame?.timestamp.microseconds, 1_600)
        XCTAssertNil(t.firstFrame?.bufferWidth, "no create_buffer in the log: size unknown")
    }

    func testSeatCapabilityNames() {
        XCTAssertEqual(seatCapabilityNames(0), "no input devices")
        XCTAssertEqual(seatCapabilityNames(3), "pointer + keyboard")
        XCTAssertEqual(seatCapabilityNames(7), "pointer + keyboard + touch")
    }
}

/// `/proc/PID/smaps` summed per mapped file, on mappings captured from a real process.
final class MappingUsageTests: XCTestCase {
    static let smaps = #"""
7f9ec8b62000-7f9ec8b65000 rw-s 00000000 00:01 1681                       /memfd:modalkit-wl_shm (deleted)
Size:                 12 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                   8 kB
Pss:                   8 kB
Pss_Dirty:             8 kB
Shared_Clean:          0 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:         8 kB
Referenced:            8 kB
Anonymous:             0 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd wr sh mr mw me ms 
55b919d16000-55b919ea5000 rw-p 00000000 00:00 0                          [heap]
Size:               1596 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                1572 kB
Pss:                1572 kB
Pss_Dirty:          1572 kB
Shared_Clean:          0 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:      1572 kB
Referenced:         1572 kB
Anonymous:          1572 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd wr mr mw me ac 
7f9ec821e000-7f9ec8244000 r--p 00000000 fe:00 333151                     /usr/lib/x86_64-linux-gnu/libc.so.6
Size:                152 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                 152 kB
Pss:                   2 kB
Pss_Dirty:             0 kB
Shared_Clean:        152 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:         0 kB
Referenced:          152 kB
Anonymous:             0 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd mr mw me 
7f9ec8244000-7f9ec839a000 r-xp 00026000 fe:00 333151                     /usr/lib/x86_64-linux-gnu/libc.so.6
Size:               1368 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                1008 kB
Pss:                  16 kB
Pss_Dirty:             0 kB
Shared_Clean:       1008 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:         0 kB
Referenced:         1008 kB
Anonymous:             0 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd ex mr mw me 
7f9ec7d1c000-7f9ec7e4f000 rw-p 00000000 00:00 0 
Size:               1228 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                 796 kB
Pss:                 796 kB
Pss_Dirty:           796 kB
Shared_Clean:          0 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:       796 kB
Referenced:          796 kB
Anonymous:           796 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd wr mr mw me ac 
7f9ec7f1e000-7f9ec821e000 rw-p 00000000 00:00 0 
Size:               3072 kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:                2972 kB
Pss:                2972 kB
Pss_Dirty:          2972 kB
Shared_Clean:          0 kB
Shared_Dirty:          0 kB
Private_Clean:         0 kB
Private_Dirty:      2972 kB
Referenced:         2972 kB
Anonymous:          2972 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
ProtectionKey:         0
VmFlags: rd wr mr mw me ac 
"""#

    func testMappingsAreSummedPerFileLargestFirst() throws {
        let u = ProcFiles.mappingUsage(smaps: MappingUsageTests.smaps)
        XCTAssertEqual(u.map(\.name), ["[anonymous]", "[heap]", "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                       "/memfd:modalkit-wl_shm (deleted)"])
        XCTAssertEqual(u[0], MappingUsage(name: "[anonymous]", mappings: 2, rssKB: 796 + 2972, pssKB: 796 + 2972,
                                          privateDirtyKB: 796 + 2972, anonymousKB: 796 + 2972))
        XCTAssertEqual(u[1].rssKB, 1572)
        XCTAssertEqual(u[2], MappingUsage(name: "/usr/lib/x86_64-linux-gnu/libc.so.6", mappings: 2, rssKB: 152 + 1008,
                                          pssKB: 2 + 16, privateDirtyKB: 0, anonymousKB: 0))
        XCTAssertEqual(u[3].rssKB, 8)
        XCTAssertEqual(u[3].mappings, 1)
    }

    func testStatusFieldsReadTheSmapsRollupFormatToo() {
        let rollup = """
        55b919d16000-7ffd4e1f7000 ---p 00000000 00:00 0                          [rollup]
        Rss:               10264 kB
        Pss:                5392 kB
        """
        XCTAssertEqual(ProcFiles.statusKilobytes("Pss", in: rollup), 5392)
        XCTAssertEqual(ProcFiles.statusKilobytes("Rss", in: rollup), 10264)
    }
}

/// The kinds `--mappings` sums a client's memory by, on the mapping names seen in modal-demo's
/// and foot's smaps.
final class MappingKindTests: XCTestCase {
    func testKinds() {
        let exe = "/usr/local/bin/modal-demo"
        let cases: [(String, MappingKind)] = [
            ("/usr/local/bin/modal-demo", .executable),
            ("/usr/local/lib/modalkit/libswiftCore.so", .swiftRuntime),
            ("/usr/local/lib/modalkit/libFoundationEssentials.so", .swiftRuntime),
            ("/usr/local/lib/modalkit/lib_FoundationICU.so", .swiftRuntime),
            ("/usr/local/lib/modalkit/libdispatch.so", .swiftRuntime),
            ("/usr/local/lib/modalkit/styles/libModalKitStyleBottomSheet.so", .stylePlugins),
            ("/usr/lib/x86_64-linux-gnu/libc.so.6", .sharedLibraries),
            ("/usr/lib/x86_64-linux-gnu/libpixman-1.so.0.42.2", .sharedLibraries),
            ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", .fonts),
            ("/var/cache/fontconfig/d589a48862398ed80a3d6066f4f56f4c-le64.cache-8", .fonts),
            ("/memfd:modalkit-wl_shm (deleted)", .waylandBuffers),
            ("/memfd:foot-wayland-shm-buffer-pool (deleted)", .waylandBuffers),
            ("[heap]", .heap),
            ("[anonymous]", .heap),
            ("[stack]", .other),
            ("/usr/lib/locale/C.utf8/LC_CTYPE", .other),
        ]
        for (name, kind) in cases { XCTAssertEqual(MappingKind.of(name, executable: exe), kind, name) }
    }

    func testSummaryAddsUpPerKindInAFixedOrder() {
        let usage = ProcFiles.mappingUsage(smaps: MappingUsageTests.smaps)
        let s = MappingKind.summary(usage, executable: "/usr/bin/python3")
        XCTAssertEqual(s.map(\.kind), [.sharedLibraries, .waylandBuffers, .heap])
        XCTAssertEqual(s.first { $0.kind == .heap }?.usage.rssKB, 1572 + 796 + 2972)
        XCTAssertEqual(s.first { $0.kind == .heap }?.usage.mappings, 3)
        XCTAssertEqual(s.reduce(0) { $0 + $1.usage.rssKB }, usage.reduce(0) { $0 + $1.rssKB })
    }
}

final class SchedstatTests: XCTestCase {
    func testRunAndWaitNanoseconds() {
        // As read from a busy-looping python3 on a loaded machine (0.15 s on a CPU, 0.41 s waiting).
        let s = ProcFiles.schedstat("150240093 408296709 85\n")
        XCTAssertEqual(s?.runNanoseconds, 150_240_093)
        XCTAssertEqual(s?.waitNanoseconds, 408_296_709)
        XCTAssertNil(ProcFiles.schedstat(""))
        XCTAssertNil(ProcFiles.schedstat("x 1 2"))
    }
}
