// modal-bench: the frame pipeline, measured against its targets. See `BenchOptions.usage`.
import Foundation
import ModalKitBenchSupport
import ModalKitDemo
import ModalKit
import ModalKitPlugins

setvbuf(stdout, nil, _IOLBF, 0)

func fail(_ message: String, status: Int32) -> Never {
    fputs("modal-bench: \(message)\n", stderr)
    exit(status)
}

let command: BenchCommand
let backends: [BenchCompositing]?
do {
    let request = try BenchOptions.parseRequest(Array(CommandLine.arguments.dropFirst()))
    command = request.command
    backends = request.backends
} catch {
    fail("\(error)", status: 2)
}

let styleNames: [String], sizes: [BenchSize], variants: [BenchVariant]
switch command {
case .help:
    print(BenchOptions.usage)
    exit(0)
case .launch(let options):
    // Runs clients in their own processes: no style is loaded here.
    runLaunch(options)
case .text(let runs):
    // Text alone: no style is loaded.
    runText(runs: runs)
case let .frames(s, z, _, v), let .cycles(s, z, _, v):
    styleNames = s
    sizes = z
    variants = v
case let .reloads(s, _):
    styleNames = s
    sizes = []
    variants = [.solid]
case let .stackCycles(s, z, _, _), let .drags(s, z, _), let .scrolls(s, z, _), let .textEntry(s, z, _):
    styleNames = s
    sizes = z
    variants = [.solid]
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
    } catch let error as StyleLookupError {
        var message = error.description
        if case let .unknownName(_, available, _, _, _, _) = error, available.isEmpty {
            message += " (build the style plugins first: swift build -c release)"
        }
        fail(message, status: 2)
    } catch let error as StyleLoadError {
        fail(error.description, status: 2)
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
    case let .frames(_, _, runs, _):
        if let backends { try runBackends(runs: runs, backends: backends) } else { try runFrames(runs: runs) }
    case let .cycles(_, _, cycles, _):
        try runCycles(cycles: cycles)
    case let .stackCycles(_, _, cycles, levels):
        try runCycles(cycles: cycles, levels: levels)
    case let .drags(_, _, runs):
        try runDrags(runs: runs)
    case let .scrolls(_, _, runs):
        try runScrolls(runs: runs)
    case let .reloads(_, count):
        try runReloads(count: count)
    case let .textEntry(_, _, runs):
        try runTextEntry(runs: runs)
    case .help, .launch, .text:
        break
    }
} catch {
    fail("\(error)", status: 1)
}

// MARK: Frames

/// One style, variant and size's frames over every timed run: the figures of the summary table
/// (a `FrameReport` is ModalKitWayland's, one committed frame of a window).
struct FrameTimingSummary {
    var style: String
    var variant: BenchVariant
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
}

func runFrames(runs: Int) throws {
    let referencePerRun = max(20, (200 + runs - 1) / runs)
    print("method   every frame of present + dismiss at 60 Hz (t = k/60 s until each 0.35 s transition ends),")
    print("         rendered offscreen by DemoScene.render into 3 buffers used round-robin (buffer age 3);")
    print("         1 warm-up present + dismiss, then \(runs) timed; after each, \(referencePerRun) iterations of the reference")
    print("         (full-window pixman SRC blit + 50 % black OVER fill, same size, always into one destination;")
    print("         also measured into 3 destinations round-robin, for information).")
    print("         Allocations: malloc & co. in the whole process, counted around each DemoScene.render.")
    if variants != [.solid] {
        print("         Variants (\(variants.map(\.rawValue).joined(separator: ", "))): each run times one present + dismiss of")
        print("         every variant in turn, so their medians share the machine's load.")
    }
    var reports: [FrameTimingSummary] = []
    for (name, module) in modules {
        for size in sizes {
            reports += try measureFrames(style: name, module: module, size: size, runs: runs,
                                         referencePerRun: referencePerRun)
        }
    }
    print("")
    print("summary (times in ms; damaged/painted in buffer pixels per frame, scale 1)")
    var table = TextTable([("style", .left), ("variant", .left), ("size", .left), ("median", .right), ("p99", .right),
                           ("reference", .right), ("ratio", .right), ("damaged px/frame", .right),
                           ("painted px/frame", .right), ("allocs/frame", .right)])
    for r in reports {
        table.append([r.style, r.variant.rawValue, r.size.description, ms(r.medianMS), ms(r.p99MS), ms(r.referenceMS),
                      String(format: "%.2f", r.ratio), Format.grouped(Int(r.damagedPerFrame.rounded())),
                      Format.grouped(Int(r.paintedPerFrame.rounded())), allocsText(r)])
    }
    table.lines.forEach { print($0) }

    // The chrome's cost: each variant's median against the solid variant's (same style, size, run).
    var chrome: [(FrameTimingSummary, Double)] = []
    for r in reports where r.variant != .solid {
        if let solid = reports.first(where: { $0.variant == .solid && $0.style == r.style && $0.size == r.size }),
           solid.medianMS > 0 {
            chrome.append((r, r.medianMS / solid.medianMS))
        }
    }
    if !chrome.isEmpty {
        print("")
        print("chrome cost (median of the variant / median of solid, same style and size, interleaved runs)")
        var t = TextTable([("style", .left), ("size", .left), ("variant", .left), ("median", .right),
                           ("solid median", .right), ("× solid", .right), ("allocs/frame", .right)])
        for (r, k) in chrome {
            let solid = reports.first(where: { $0.variant == .solid && $0.style == r.style && $0.size == r.size })!
            t.append([r.style, r.size.description, r.variant.rawValue, ms(r.medianMS), ms(solid.medianMS),
                      String(format: "%.2f", k), allocsText(r)])
        }
        t.lines.forEach { print($0) }
    }

    print("")
    print("targets")
    // The reference target is the 1.0 frame's: measured on the solid variant.
    let big = reports.filter { $0.variant == .solid
        && [BenchSize(width: 1920, height: 1080), BenchSize(width: 3840, height: 2160)].contains($0.size) }
    if let worst = big.max(by: { $0.ratio < $1.ratio }) {
        let verdict = worst.ratio <= 1.5 ? "met" : "MISSED"
        print("  median ≤ 1.5 × reference at 1920x1080 and 3840x2160\(variants == [.solid] ? "" : " (solid)"): \(verdict) (highest ratio "
              + String(format: "%.2f", worst.ratio) + ", \(worst.style) \(worst.size))")
    } else {
        print("  median ≤ 1.5 × reference at 1920x1080 and 3840x2160: not measured (neither size was run)")
    }
    let allocations = reports.reduce(UInt64(0)) { $0 + $1.allocations }
    let frames = reports.reduce(0) { $0 + $1.frames }
    print("  0 heap allocations per frame after warm-up: \(allocations == 0 ? "met" : "MISSED")"
          + " (\(allocations) in \(Format.grouped(frames)) timed frames)")
    if let worst = chrome.filter({ $0.0.variant == .gradient || $0.0.variant == .shadow }).max(by: { $0.1 < $1.1 }) {
        print("  gradient dim and shadow ≤ 1.2 × the solid-dim frame: \(worst.1 <= 1.2 ? "met" : "MISSED") (highest "
              + String(format: "%.2f", worst.1) + ", \(worst.0.style) \(worst.0.variant.rawValue) \(worst.0.size))")
    }
}

func ms(_ x: Double) -> String { String(format: "%.3f", x) }

func allocsText(_ r: FrameTimingSummary) -> String {
    r.allocations == 0 ? "0" : String(format: "%.2f", r.allocationsPerFrame)
}

/// The figures of one variant while its runs are measured.
private final class VariantRun {
    let variant: BenchVariant
    let driver: SceneDriver
    var times: [Double] = [], damaged: [Double] = [], painted: [Double] = []
    var allocations: UInt64 = 0, bytes: UInt64 = 0
    var callsBefore: UInt64 = 0
    init(_ variant: BenchVariant, _ driver: SceneDriver) { self.variant = variant; self.driver = driver }
}

func measureFrames(style name: String, module: StyleModule, size: BenchSize, runs: Int,
                   referencePerRun: Int) throws -> [FrameTimingSummary] {
    let measured = try variants.map { VariantRun($0, try SceneDriver(style: $0.applied(to: try module.makeStyle()),
                                                                     size: size)) }
    let reference = try Reference(size: size)

    // Warm-up: draws the layer caches (and the shadow's image) and gives every buffer of the ring
    // defined contents.
    for m in measured {
        var framesPerCycle = 0
        try m.driver.cycle { _ in framesPerCycle += 1 }
        m.callsBefore = m.driver.transitionCallAllocations
        let capacity = framesPerCycle * runs + 16
        m.times.reserveCapacity(capacity); m.damaged.reserveCapacity(capacity); m.painted.reserveCapacity(capacity)
    }
    for _ in 0..<runs {
        for m in measured {
            try m.driver.cycle { s in
                m.times.append(s.seconds * 1000)
                m.damaged.append(Double(s.damagedPixels))
                m.painted.append(Double(s.paintedPixels))
                m.allocations += s.allocations
                m.bytes += s.allocatedBytes
            }
        }
        reference.measure(referencePerRun)
    }
    return measured.map { report(name: name, size: size, runs: runs, $0, reference: reference) }
}

private func report(name: String, size: BenchSize, runs: Int, _ m: VariantRun, reference: Reference) -> FrameTimingSummary {
    let times = m.times, allocations = m.allocations, bytes = m.bytes
    let callAllocations = m.driver.transitionCallAllocations - m.callsBefore
    let sorted = times.sorted()
    let report = FrameTimingSummary(
        style: name, variant: m.variant, size: size, frames: times.count,
        medianMS: Statistics.median(sorted: sorted) ?? 0,
        p99MS: Statistics.percentile(99, sorted: sorted) ?? 0,
        referenceMS: (Statistics.median(reference.samples) ?? 0) * 1000,
        damagedPerFrame: Statistics.mean(m.damaged) ?? 0,
        paintedPerFrame: Statistics.mean(m.painted) ?? 0,
        allocations: allocations)

    let window = Double(size.pixels)
    print("")
    let label = variants == [.solid] ? name : "\(name) (\(m.variant.rawValue))"
    print("\(label) \(size): \(times.count) frames (\(runs) runs of \(times.count / max(runs, 1)))")
    print("  frame median  \(ms(report.medianMS)) ms")
    print("  frame p99     \(ms(report.p99MS)) ms")
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

func runCycles(cycles: Int, levels: Int = 1) throws {
    if levels > 1 {
        print("method   \(cycles) cycles of a \(levels)-level stack per style and size (present level 1, then each next")
        print("         level over it, then dismiss them from the top), every frame rendered at 60 Hz as in the")
    } else {
        print("method   \(cycles) present + dismiss cycles per style and size, every frame rendered at 60 Hz as in the")
    }
    print("         frame benchmark; VmHWM (peak RSS) and VmRSS from /proc/self/status after cycle 1 and cycle \(cycles);")
    print("         the peak is reset (/proc/self/clear_refs) before each style and size.")
    var worstGrowth: (kb: Int, what: String)?
    for (name, module) in modules {
        for size in sizes {
            for variant in variants {
                let label = variants == [.solid] ? name : "\(name) (\(variant.rawValue))"
                let resetOK = MemoryFigures.resetPeak()
                let driver = try SceneDriver(style: variant.applied(to: try module.makeStyle()), size: size)
                var frames = 0
                try driver.cycle(levels: levels) { _ in frames += 1 }
                guard let first = MemoryFigures.now() else { throw BenchFailure(description: "cannot read /proc/self/status") }
                var allocations: UInt64 = 0
                var laterFrames = 0
                for _ in 1..<cycles {
                    try driver.cycle(levels: levels) { s in
                        allocations += s.allocations
                        laterFrames += 1
                    }
                }
                frames += laterFrames
                guard let last = MemoryFigures.now() else { throw BenchFailure(description: "cannot read /proc/self/status") }

                print("")
                print("\(label) \(size): \(cycles) cycles, \(Format.grouped(frames)) frames"
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
                if worstGrowth == nil || g > worstGrowth!.kb { worstGrowth = (g, "\(label) \(size)") }
            }
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

// MARK: Reloads

/// What each `modal-demo --watch` reload costs: a private copy of the library stays mapped for
/// good (a loaded plugin is never unloaded), the replaced style object is released.
func runReloads(count: Int) throws {
    print("method   \(count) reloads per style as modal-demo --watch makes them: StyleLoader.loadPrivateCopy (the")
    print("         library copied from its checked descriptor and loaded as a new object), makeStyle, the")
    print("         previous style released; VmRSS and VmSize (mapped address space) from /proc/self/status")
    print("         after reload 1 and reload \(count); per reload = growth / \(count - 1).")
    func figures() throws -> (rss: Int, mapped: Int) {
        guard let status = readTextFile("/proc/self/status"), let rss = ProcFiles.statusKilobytes("VmRSS", in: status),
              let size = ProcFiles.statusKilobytes("VmSize", in: status) else {
            throw BenchFailure(description: "cannot read /proc/self/status")
        }
        return (rss, size)
    }
    for (name, module) in modules {
        var info = stat()
        let fileKB = stat(module.path, &info) == 0 ? Int(info.st_size) / 1024 : 0
        var style: PresentationStyle? = try StyleLoader.loadPrivateCopy(module.path).makeStyle()
        let first = try figures()
        var freed = 0
        for _ in 1..<count {
            weak let previous = style as AnyObject?
            style = try StyleLoader.loadPrivateCopy(module.path).makeStyle()
            if previous == nil { freed += 1 }
        }
        let last = try figures()
        withExtendedLifetime(style) {}
        func kb(_ n: Int) -> String { "\(Format.grouped(n)) kB" }
        print("")
        print("\(name) (\(module.path), \(kb(fileKB)) file): \(count) reloads")
        var table = TextTable([("", .left), ("after reload 1", .right), ("after reload \(count)", .right),
                               ("per reload", .right)])
        table.append(["RSS (VmRSS)", kb(first.rss), kb(last.rss), kb((last.rss - first.rss) / (count - 1))])
        table.append(["mapped (VmSize)", kb(first.mapped), kb(last.mapped), kb((last.mapped - first.mapped) / (count - 1))])
        table.lines.forEach { print("  " + $0) }
        print("  replaced style objects released: \(freed) of \(count - 1)")
    }
}

// MARK: Drags

func runDrags(runs: Int) throws {
    print("method   per run: present, then a scripted pointer drag on the presented view at 60 Hz — down 40 % of")
    print("         its way out in 0.5 s with \(SceneDriver.motionsPerFrame) motion events per frame (coalesced: one render per frame),")
    print("         held 10 frames, released (the spring takes it back), then 70 % (dismissed); every drag frame")
    print("         rendered offscreen by DemoScene.render into 3 buffers round-robin. 1 warm-up run, then \(runs) timed.")
    print("         Allocations: malloc & co. in the whole process, counted over each frame's input events and render.")
    try runInteractions("drag", runs: runs, moving: " (the rest: held still, or the spring's sub-pixel tail)") { name, module, size in
        let bounds = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        guard case .drag = try module.makeStyle().interaction(LayoutContext(containerBounds: bounds)).dismissGesture else {
            print("")
            print("\(name) \(size): no drag gesture declared; skipped")
            return nil
        }
        return try SceneDriver(style: try module.makeStyle(), size: size).dragCycle
    }
}

/// Every frame of `runs` scripted interactions (after one warm-up) of each style and size timed:
/// a block per style and size, the summary table, and the allocation target. `what` names the
/// frames (drag, scroll); `moving` follows the count of frames that changed pixels; `cycle` gives
/// the interaction of a style and size (a fresh scene), or nil to skip it.
func runInteractions(_ what: String, runs: Int, moving note: String,
                     cycle: (_ name: String, _ module: StyleModule, _ size: BenchSize) throws
                         -> ((_ body: (FrameSample) -> Void) throws -> Void)?) throws {
    var table = TextTable([("style", .left), ("size", .left), ("\(what) frames", .right), ("median", .right),
                           ("p99", .right), ("moving", .right), ("moving median", .right), ("allocs/frame", .right)])
    var total: UInt64 = 0, totalFrames = 0
    for (name, module) in modules {
        for size in sizes {
            guard let cycle = try cycle(name, module, size) else { continue }
            try cycle { _ in }   // warm-up
            var times: [Double] = [], moving: [Double] = []
            times.reserveCapacity(400 * runs)
            moving.reserveCapacity(400 * runs)
            var allocations: UInt64 = 0
            for _ in 0..<runs {
                try cycle { s in
                    times.append(s.seconds * 1000)
                    if s.damagedPixels > 0 { moving.append(s.seconds * 1000) }
                    allocations += s.allocations
                }
            }
            let movingMedian = Statistics.median(moving) ?? 0
            let sorted = times.sorted()
            let median = Statistics.median(sorted: sorted) ?? 0, p99 = Statistics.percentile(99, sorted: sorted) ?? 0
            print("")
            print("\(name) \(size): \(times.count) \(what) frames (\(runs) runs)")
            print("  frame median  \(ms(median)) ms")
            print("  frame p99     \(ms(p99)) ms")
            print("  moving        \(moving.count) frames that changed pixels\(note), median \(ms(movingMedian)) ms")
            print("  allocations   \(allocations) in \(times.count) frames (input events + render)")
            table.append([name, size.description, Format.grouped(times.count), ms(median), ms(p99),
                          Format.grouped(moving.count), ms(movingMedian),
                          allocations == 0 ? "0" : String(format: "%.2f", Double(allocations) / Double(max(times.count, 1)))])
            total += allocations
            totalFrames += times.count
        }
    }
    print("")
    print("summary (times in ms)")
    table.lines.forEach { print($0) }
    print("")
    print("targets")
    print("  0 heap allocations per \(what) frame after warm-up: \(total == 0 ? "met" : "MISSED")"
          + " (\(total) in \(Format.grouped(totalFrames)) \(what) frames)")
}

// MARK: Scrolls

func runScrolls(runs: Int) throws {
    print("method   per run: present the demo's list (40 rows of 44 pt), scroll it with touchpad fingers at 60 Hz —")
    print("         \(SceneDriver.motionsPerFrame) axis events of 2 pt per frame for 0.5 s — lift them (the host decelerates")
    print("         it until it rests), turn the wheel back up 15 pt a frame to the top, dismiss; every scroll frame")
    print("         rendered offscreen by DemoScene.render into 3 buffers round-robin. 1 warm-up run, then \(runs) timed.")
    print("         Allocations: malloc & co. in the whole process, counted over each frame's input events and render.")
    try runInteractions("scroll", runs: runs, moving: "") { _, module, size in
        try SceneDriver(style: try module.makeStyle(), size: size, content: .list).scrollCycle
    }
}

// MARK: Backends (--compositing)

/// One backend's frames of one style and size: wall time and thread CPU time per frame, ms.
struct BackendReport {
    var backend: BenchCompositing
    var style: String
    var size: BenchSize
    var frames: Int
    var medianMS: Double, p99MS: Double
    var cpuMedianMS: Double, cpuP99MS: Double
    var allocations: UInt64
}

/// Each backend's client work per frame, interleaved run by run (so both share the machine's
/// load), then a table side by side.
func runBackends(runs: Int, backends: [BenchCompositing]) throws {
    print("method   every frame of present + dismiss at 60 Hz (t = k/60 s until each 0.35 s transition ends),")
    print("         1 warm-up present + dismiss, then \(runs) timed, the backends interleaved run by run.")
    print("         pixman: DemoScene.render into 3 buffers round-robin (buffer age 3). subsurface: only the")
    print("         client's share of a sub-surface frame (the frame's layer values; the presenting view")
    print("         redrawn only when it changed; the presented view's own buffer drawn only when its content")
    print("         or size changed, or every frame for an alpha or a scale); the compositor blends the layers.")
    print("         CPU: CLOCK_THREAD_CPUTIME_ID around the frame. Allocations: malloc & co., whole process.")
    var reports: [BackendReport] = []
    // Each --variant of each style (a gradient dim or a shadow changes what a sub-surface frame draws).
    let entries = modules.flatMap { (name, module) in
        variants.map { (variants == [.solid] ? name : "\(name) (\($0.rawValue))", module, $0) }
    }
    for (name, module, variant) in entries {
        for size in sizes {
            let drivers = try backends.map {
                ($0, try SceneDriver(style: variant.applied(to: try module.makeStyle()), size: size, compositing: $0))
            }
            var samples: [[FrameSample]] = drivers.map { _ in [] }
            for (_, d) in drivers { try d.cycle { _ in } }
            for _ in 0..<runs {
                for (i, (_, d)) in drivers.enumerated() { try d.cycle { samples[i].append($0) } }
            }
            for (i, (backend, _)) in drivers.enumerated() {
                let t = samples[i].map { $0.seconds * 1000 }.sorted(), c = samples[i].map { $0.cpuSeconds * 1000 }.sorted()
                let r = BackendReport(backend: backend, style: name, size: size, frames: t.count,
                                      medianMS: Statistics.median(sorted: t) ?? 0, p99MS: Statistics.percentile(99, sorted: t) ?? 0,
                                      cpuMedianMS: Statistics.median(sorted: c) ?? 0,
                                      cpuP99MS: Statistics.percentile(99, sorted: c) ?? 0,
                                      allocations: samples[i].reduce(0) { $0 + $1.allocations })
                reports.append(r)
                print("\(name) \(size) \(backend.rawValue): \(r.frames) frames, median \(us(r.medianMS)) ms, p99 \(us(r.p99MS)) ms,"
                      + " CPU median \(us(r.cpuMedianMS)) ms, p99 \(us(r.cpuP99MS)) ms, \(r.allocations) allocations")
            }
        }
    }
    print("")
    print("backends side by side (ms per frame; CPU = thread CPU time; CPU ratio = sub-surface / pixman CPU median)")
    var table = TextTable([("style", .left), ("size", .left), ("pixman median", .right), ("p99", .right),
                           ("CPU", .right), ("sub-surface median", .right), ("p99", .right), ("CPU", .right),
                           ("CPU ratio", .right), ("allocs/frame", .right)])
    for (name, _, _) in entries {
        for size in sizes {
            let p = reports.first { $0.backend == .pixman && $0.style == name && $0.size == size }
            let s = reports.first { $0.backend == .subsurface && $0.style == name && $0.size == size }
            func cell(_ r: BackendReport?, _ v: (BackendReport) -> Double) -> String { r.map { us(v($0)) } ?? "-" }
            let ratio = (p != nil && s != nil && p!.cpuMedianMS > 0) ? String(format: "%.3f", s!.cpuMedianMS / p!.cpuMedianMS) : "-"
            let allocs = [p, s].compactMap { $0 }.map { $0.allocations == 0 ? "0" : String(format: "%.2f", Double($0.allocations) / Double(max($0.frames, 1))) }
            table.append([name, size.description, cell(p) { $0.medianMS }, cell(p) { $0.p99MS }, cell(p) { $0.cpuMedianMS },
                          cell(s) { $0.medianMS }, cell(s) { $0.p99MS }, cell(s) { $0.cpuMedianMS }, ratio,
                          allocs.joined(separator: " / ")])
        }
    }
    table.lines.forEach { print($0) }
}

/// Milliseconds to 0.1 µs.
func us(_ x: Double) -> String { String(format: "%.4f", x) }
