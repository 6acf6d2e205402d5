// modal-bench: the frame pipeline, measured against its targets. See `BenchOptions.usage`.
import Foundation
import ModalBenchSupport
import ModalDemoKit
import ModalKit

setvbuf(stdout, nil, _IOLBF, 0)

func fail(_ message: String, status: Int32) -> Never {
    fputs("modal-bench: \(message)\n", stderr)
    exit(status)
}

let command: BenchCommand
do {
    command = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", status: 2)
}

let styleNames: [String], sizes: [BenchSize]
switch command {
case .help:
    print(BenchOptions.usage)
    exit(0)
case let .frames(s, z, _, _), let .cycles(s, z, _):
    styleNames = s
    sizes = z
}

// Styles come only through the loader, as in modal-demo: by name along the style path, or a file.
// Each is loaded and instantiated once up front, so a bad --style fails before anything is measured.
let loader = StyleLoader(searchPath: StyleLoader.defaultSearchPath())
var modules: [(name: String, module: StyleModule)] = []
for name in styleNames {
    do {
        let module = try loader.load(name)
        _ = try module.makeStyle()
        modules.append((module.name, module))
    } catch let error as StyleLoadError {
        var message = error.description
        if case let .unknownName(_, available, _, _) = error, available.isEmpty {
            message += " (build the style plugins first: swift build -c release)"
        }
        fail(message, status: 2)
    } catch {
        fail("\(name): \(error)", status: 2)
    }
}

if let problem = AllocationCounter.selfCheck() {
    fail("the allocation counter is not active: \(problem)", status: 1)
}

print("modal-bench — ModalKit frame pipeline")
print("machine  \(Machine.cpuModel), \(Machine.onlineCores) cores, \(Machine.kernel)")
print("build    pixman \(Machine.pixmanVersion), \(Machine.buildConfiguration)")
print("load     \(Machine.loadAverage) (1/5/15-minute load average at start)")

do {
    switch command {
    case let .frames(_, _, runs, compositing):
        try runFrames(runs: runs, compositing: compositing)
    case let .cycles(_, _, cycles):
        try runCycles(cycles: cycles)
    case .help:
        break
    }
} catch {
    fail("\(error)", status: 1)
}

// MARK: Frames

struct FrameReport {
    var compositing: BenchCompositing
    var style: String
    var size: BenchSize
    var frames: Int
    var medianMS: Double
    var p99MS: Double
    var referenceMS: Double
    var ratio: Double { medianMS / referenceMS }
    var damagedPerFrame: Double
    var paintedPerFrame: Double
    var allocations: UInt64
    var allocationsPerFrame: Double { Double(allocations) / Double(max(frames, 1)) }
    /// Thread CPU time per frame, ms: median and p99.
    var cpuMedianMS: Double
    var cpuP99MS: Double
}

func runFrames(runs: Int, compositing: [BenchCompositing]) throws {
    let referencePerRun = max(20, (200 + runs - 1) / runs)
    print("method   every frame of present + dismiss at 60 Hz (t = k/60 s until each 0.35 s transition ends),")
    print("         rendered offscreen by DemoScene.render into 3 buffers used round-robin (buffer age 3);")
    print("         1 warm-up present + dismiss, then \(runs) timed; after each, \(referencePerRun) iterations of the reference")
    print("         (full-window pixman SRC blit + 50 % black OVER fill, same size, always into one destination;")
    print("         also measured into 3 destinations round-robin, for information).")
    print("         Allocations: malloc & co. in the whole process, counted around each DemoScene.render.")
    if compositing.contains(.subsurface) {
        print("         --compositing subsurface: only the client's share of a sub-surface frame is timed (the")
        print("         frame's layer values; the presenting view redrawn only when it changed; the presented")
        print("         view's own buffer drawn only when its content or size changed, or every frame for an alpha")
        print("         or a scale); the compositor blends the layers. CPU: CLOCK_THREAD_CPUTIME_ID over the frame.")
    }
    var reports: [FrameReport] = []
    for mode in compositing {
        for (name, module) in modules {
            for size in sizes {
                let report = try measureFrames(style: name, module: module, size: size, runs: runs,
                                               referencePerRun: referencePerRun, compositing: mode)
                reports.append(report)
            }
        }
    }
    let all = reports
    reports = all.filter { $0.compositing == .pixman }
    if compositing.count > 1 || compositing.first == .subsurface {
        printBackendTable(all)
    }
    guard !reports.isEmpty else {
        let allocations = all.reduce(UInt64(0)) { $0 + $1.allocations }
        print("  0 heap allocations per frame after warm-up: \(allocations == 0 ? "met" : "MISSED")")
        return
    }
    print("")
    print("summary (times in ms; damaged/painted in buffer pixels per frame, scale 1)")
    var table = TextTable([("style", .left), ("size", .left), ("median", .right), ("p99", .right),
                           ("reference", .right), ("ratio", .right), ("damaged px/frame", .right),
                           ("painted px/frame", .right), ("allocs/frame", .right)])
    for r in reports {
        table.append([r.style, r.size.description, ms(r.medianMS), ms(r.p99MS), ms(r.referenceMS),
                      String(format: "%.2f", r.ratio), Format.grouped(Int(r.damagedPerFrame.rounded())),
                      Format.grouped(Int(r.paintedPerFrame.rounded())), allocsText(r)])
    }
    table.lines.forEach { print($0) }

    print("")
    print("targets")
    let big = reports.filter { [BenchSize(width: 1920, height: 1080), BenchSize(width: 3840, height: 2160)].contains($0.size) }
    if let worst = big.max(by: { $0.ratio < $1.ratio }) {
        let verdict = worst.ratio <= 1.5 ? "met" : "MISSED"
        print("  median ≤ 1.5 × reference at 1920x1080 and 3840x2160: \(verdict) (highest ratio "
              + String(format: "%.2f", worst.ratio) + ", \(worst.style) \(worst.size))")
    } else {
        print("  median ≤ 1.5 × reference at 1920x1080 and 3840x2160: not measured (neither size was run)")
    }
    let allocations = reports.reduce(UInt64(0)) { $0 + $1.allocations }
    let frames = reports.reduce(0) { $0 + $1.frames }
    print("  0 heap allocations per frame after warm-up: \(allocations == 0 ? "met" : "MISSED")"
          + " (\(allocations) in \(Format.grouped(frames)) timed frames)")
}

func ms(_ x: Double) -> String { String(format: "%.3f", x) }

/// Both backends side by side: wall time (median, p99) and thread CPU time per frame, and the
/// sub-surface path's median CPU as a fraction of the pixman path's.
func printBackendTable(_ reports: [FrameReport]) {
    print("")
    print("backends (times in ms per frame, to 0.1 µs; CPU = thread CPU time; ratio = sub-surface CPU median / pixman CPU median)")
    func ms(_ x: Double) -> String { String(format: "%.4f", x) }
    var table = TextTable([("style", .left), ("size", .left), ("pixman median", .right), ("p99", .right),
                           ("CPU", .right), ("sub-surface median", .right), ("p99", .right), ("CPU", .right),
                           ("CPU ratio", .right), ("allocs/frame", .right)])
    for s in reports where s.compositing == .subsurface {
        let p = reports.first { $0.compositing == .pixman && $0.style == s.style && $0.size == s.size }
        table.append([s.style, s.size.description, p.map { ms($0.medianMS) } ?? "-", p.map { ms($0.p99MS) } ?? "-",
                      p.map { ms($0.cpuMedianMS) } ?? "-", ms(s.medianMS), ms(s.p99MS), ms(s.cpuMedianMS),
                      p.map { String(format: "%.3f", s.cpuMedianMS / $0.cpuMedianMS) } ?? "-",
                      p.map { "\(allocsText($0)) / \(allocsText(s))" } ?? allocsText(s)])
    }
    table.lines.forEach { print($0) }
}

func allocsText(_ r: FrameReport) -> String {
    r.allocations == 0 ? "0" : String(format: "%.2f", r.allocationsPerFrame)
}

func measureFrames(style name: String, module: StyleModule, size: BenchSize, runs: Int,
                   referencePerRun: Int, compositing: BenchCompositing) throws -> FrameReport {
    let driver = try SceneDriver(style: try module.makeStyle(), size: size, compositing: compositing)
    let reference = try Reference(size: size)

    // Warm-up: draws both layer caches and gives every buffer of the ring defined contents.
    var framesPerCycle = 0
    try driver.cycle { _ in framesPerCycle += 1 }
    let callsBefore = driver.transitionCallAllocations

    let capacity = framesPerCycle * runs + 16
    var times: [Double] = [], damaged: [Double] = [], painted: [Double] = [], cpu: [Double] = []
    times.reserveCapacity(capacity); damaged.reserveCapacity(capacity); painted.reserveCapacity(capacity)
    cpu.reserveCapacity(capacity)
    var allocations: UInt64 = 0, bytes: UInt64 = 0
    for _ in 0..<runs {
        try driver.cycle { s in
            times.append(s.seconds * 1000)
            cpu.append(s.cpuSeconds * 1000)
            damaged.append(Double(s.damagedPixels))
            painted.append(Double(s.paintedPixels))
            allocations += s.allocations
            bytes += s.allocatedBytes
        }
        reference.measure(referencePerRun)
    }
    let callAllocations = driver.transitionCallAllocations - callsBefore

    let sorted = times.sorted()
    let cpuSorted = cpu.sorted()
    let report = FrameReport(
        compositing: compositing, style: name, size: size, frames: times.count,
        medianMS: Statistics.median(sorted: sorted) ?? 0,
        p99MS: Statistics.percentile(99, sorted: sorted) ?? 0,
        referenceMS: (Statistics.median(reference.samples) ?? 0) * 1000,
        damagedPerFrame: Statistics.mean(damaged) ?? 0,
        paintedPerFrame: Statistics.mean(painted) ?? 0,
        allocations: allocations,
        cpuMedianMS: Statistics.median(sorted: cpuSorted) ?? 0,
        cpuP99MS: Statistics.percentile(99, sorted: cpuSorted) ?? 0)

    let window = Double(size.pixels)
    print("")
    print("\(name) \(size)\(compositing == .subsurface ? " (sub-surface)" : ""): \(times.count) frames (\(runs) runs of \(times.count / max(runs, 1)))")
    print("  frame median  \(ms(report.medianMS)) ms")
    print("  frame p99     \(ms(report.p99MS)) ms")
    print("  CPU median    \(ms(report.cpuMedianMS)) ms (p99 \(ms(report.cpuP99MS)) ms)")
    print("  reference     \(ms(report.referenceMS)) ms  (median of \(reference.samples.count); into 3 buffers round-robin: "
          + ms((Statistics.median(reference.ringSamples) ?? 0) * 1000) + " ms)")
    print("ratio " + String(format: "%.2f", report.ratio))
    print("  damaged       \(Format.grouped(Int(report.damagedPerFrame.rounded()))) px/frame"
          + String(format: " (%.1f %% of the window)", 100 * report.damagedPerFrame / window))
    print("  painted       \(Format.grouped(Int(report.paintedPerFrame.rounded()))) px/frame"
          + String(format: " (%.1f %%: damage + older frames' damage for buffer age 3)", 100 * report.paintedPerFrame / window))
    print("  allocations   \(allocsText(report)) per frame (\(allocations) in \(times.count) frames, \(bytes) bytes);"
          + " present/dismiss calls (outside frames): \(callAllocations) in \(runs) cycles")
    return report
}

// MARK: Cycles

func runCycles(cycles: Int) throws {
    print("method   \(cycles) present + dismiss cycles per style and size, every frame rendered at 60 Hz as in the")
    print("         frame benchmark; VmHWM (peak RSS) and VmRSS from /proc/self/status after cycle 1 and cycle \(cycles);")
    print("         the peak is reset (/proc/self/clear_refs) before each style and size.")
    var worstGrowth: (kb: Int, what: String)?
    for (name, module) in modules {
        for size in sizes {
            let resetOK = MemoryFigures.resetPeak()
            let driver = try SceneDriver(style: try module.makeStyle(), size: size)
            var frames = 0
            try driver.cycle { _ in frames += 1 }
            guard let first = MemoryFigures.now() else { throw BenchFailure(description: "cannot read /proc/self/status") }
            var allocations: UInt64 = 0
            var laterFrames = 0
            for _ in 1..<cycles {
                try driver.cycle { s in
                    allocations += s.allocations
                    laterFrames += 1
                }
            }
            frames += laterFrames
            guard let last = MemoryFigures.now() else { throw BenchFailure(description: "cannot read /proc/self/status") }

            print("")
            print("\(name) \(size): \(cycles) cycles, \(Format.grouped(frames)) frames"
                  + (resetOK ? "" : " (peak not reset: /proc/self/clear_refs refused; VmHWM includes earlier runs)"))
            var table = TextTable([("", .left), ("after cycle 1", .right), ("after cycle \(cycles)", .right),
                                   ("growth", .right)])
            func kb(_ n: Int) -> String { "\(Format.grouped(n)) kB" }
            func growth(_ n: Int) -> String { (n >= 0 ? "+" : "") + kb(n) }
            table.append(["peak RSS (VmHWM)", kb(first.peakKB), kb(last.peakKB), growth(last.peakKB - first.peakKB)])
            table.append(["RSS (VmRSS)", kb(first.currentKB), kb(last.currentKB), growth(last.currentKB - first.currentKB)])
            table.lines.forEach { print("  " + $0) }
            print("  allocations in the frames of cycles 2...\(cycles): \(allocations) (\(Format.grouped(laterFrames)) frames)")
            let g = max(last.peakKB - first.peakKB, last.currentKB - first.currentKB)
            if worstGrowth == nil || g > worstGrowth!.kb { worstGrowth = (g, "\(name) \(size)") }
        }
    }
    if let w = worstGrowth {
        print("")
        print("targets")
        print("  RSS growth < 1 MB (1,024 kB) from cycle 1 to cycle \(cycles): \(w.kb < 1024 ? "met" : "MISSED")"
              + " (largest growth \(w.kb >= 0 ? "+" : "")\(Format.grouped(w.kb)) kB, \(w.what))"
              + (cycles == 1000 ? "" : "; the target is stated for 1000 cycles"))
    }
}
