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
