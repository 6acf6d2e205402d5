import ModalKitBenchSupport
import XCTest

/// The /proc parsing behind the RSS and machine lines (formats from proc(5)), and the table
/// that is pasted into the README.
final class ReportFormatTests: XCTestCase {
    let status = """
    Name:\tmodal-bench
    VmPeak:\t  402716 kB
    VmHWM:\t   61224 kB
    VmRSS:\t   60980 kB
    Threads:\t1
    """

    func testStatusFieldsInKilobytes() {
        XCTAssertEqual(ProcFiles.statusKilobytes("VmHWM", in: status), 61224)
        XCTAssertEqual(ProcFiles.statusKilobytes("VmRSS", in: status), 60980)
        XCTAssertNil(ProcFiles.statusKilobytes("VmSwap", in: status))
        XCTAssertNil(ProcFiles.statusKilobytes("Threads", in: status), "not a kB field")
        XCTAssertNil(ProcFiles.statusKilobytes("Vm", in: status), "a prefix of a field name is not the field")
    }

    /// proc(5) maps lines: shared objects counted once each (several mappings per file), versioned
    /// or not; the executable, fonts, caches, anonymous and kernel mappings not at all.
    func testSharedObjectsFromMaps() {
        let maps = """
        55d9cd6c2000-55d9cd8d0000 r-xp 00000000 fe:00 1234    /opt/app/bin/modal-demo
        7f5502000000-7f5502100000 r--p 00000000 fe:00 333598  /usr/lib/x86_64-linux-gnu/libc.so.6
        7f5502100000-7f5502200000 r-xp 00100000 fe:00 333598  /usr/lib/x86_64-linux-gnu/libc.so.6
        7f5502200000-7f5502300000 r--p 00000000 fe:00 1240    /opt/app/lib/modalkit/libswiftCore.so
        7f5502300000-7f5502310000 r--p 00000000 fe:00 1241    /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
        7f5502310000-7f5502320000 r--p 00000000 fe:00 1242    /var/cache/fontconfig/d589a48862398ed80a3d6066f4f56f4c-le64.cache-8
        7f5502320000-7f5502330000 rw-s 00000000 00:01 77      /memfd:modalkit-wl_shm (deleted)
        7f5502330000-7f5502340000 rw-p 00000000 00:00 0
        7f5502340000-7f5502350000 r--p 00000000 fe:00 1243    /usr/lib/x86_64-linux-gnu/libfcft.so.4.1.5
        7f5502350000-7f5502360000 r--p 00000000 fe:00 1244    /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
        7f5502360000-7f5502370000 r--p 00000000 fe:00 1245    /usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache
        7fff5502000000-7fff5502100000 rw-p 00000000 00:00 0   [stack]
        """
        XCTAssertEqual(ProcFiles.sharedObjects(maps: maps), [
            "/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/app/lib/modalkit/libswiftCore.so",
            "/usr/lib/x86_64-linux-gnu/libfcft.so.4.1.5", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"])
        XCTAssertEqual(ProcFiles.sharedObjects(maps: ""), [])
    }

    func testCPUModelFromCPUInfo() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 2\nmodel name\t: AMD EPYC 9R45\nflags\t: fpu\n"
        XCTAssertEqual(ProcFiles.cpuModel(in: x86), "AMD EPYC 9R45")
        XCTAssertEqual(ProcFiles.cpuModel(in: "processor\t: 0\nHardware\t: BCM2835\n"), "BCM2835")
        XCTAssertNil(ProcFiles.cpuModel(in: "processor\t: 0\n"))
    }

    func testGroupedThousands() {
        XCTAssertEqual(Format.grouped(0), "0")
        XCTAssertEqual(Format.grouped(999), "999")
        XCTAssertEqual(Format.grouped(2_073_600), "2,073,600")
        XCTAssertEqual(Format.grouped(-1_024), "-1,024")
    }

    func testTableColumnsArePaddedAndRightAlignedWhereAsked() {
        var table = TextTable([("style", .left), ("ratio", .right)])
        table.append(["inset-centered", "0.93"])
        table.append(["bottom-sheet", "1.2"])
        XCTAssertEqual(table.lines, [
            "| style          | ratio |",
            "| -------------- | ----: |",
            "| inset-centered |  0.93 |",
            "| bottom-sheet   |   1.2 |",
        ])
    }
}
