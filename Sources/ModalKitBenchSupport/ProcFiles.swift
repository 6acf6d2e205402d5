// Reading the figures modal-bench prints from Linux's /proc text files (proc(5)).

public enum ProcFiles {
    /// A `Name:   1234 kB` field of `/proc/PID/status` (`VmHWM`, `VmRSS`, …) in kibibytes, nil when
    /// the field is missing or not in kB. proc(5): VmHWM is the peak resident set size ("high water
    /// mark"), VmRSS the current one.
    public static func statusKilobytes(_ field: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") {
            guard line.hasPrefix(field + ":") else { continue }
            let words = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 2, words[1] == "kB", let n = Int(words[0]) else { return nil }
            return n
        }
        return nil
    }

    /// `/proc/PID/task/TID/schedstat` (the kernel's sched-stats.rst): nanoseconds the task ran on a
    /// CPU and nanoseconds it waited on a run queue for one; nil for anything else.
    public static func schedstat(_ text: String) -> (runNanoseconds: UInt64, waitNanoseconds: UInt64)? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let run = UInt64(fields[0]), let wait = UInt64(fields[1]) else { return nil }
        return (run, wait)
    }

    /// The shared objects a process has mapped, from `/proc/PID/maps` (proc(5): the sixth field is
    /// the mapped file's path): each path whose file name has `.so` as its suffix or followed by a
    /// version (`libc.so.6`, `libswiftCore.so`, `ld-linux-x86-64.so.2`), once, in address order.
    /// Files such as fonts, caches and the executable are not counted.
    public static func sharedObjects(maps: String) -> [String] {
        var seen = Set<String>(), objects: [String] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { continue }
            let path = String(fields[5].trimmingSpaces)
            guard path.hasPrefix("/"), let name = path.split(separator: "/").last else { continue }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard let so = parts.firstIndex(of: "so"), so > 0,
                  parts[(so + 1)...].allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { continue }
            if seen.insert(path).inserted { objects.append(path) }
        }
        return objects
    }

    /// The CPU's model name from `/proc/cpuinfo`: the first `model name` line (x86), else the
    /// first `Hardware`, `cpu model` or `uarch` line (other architectures); nil when none.
    public static func cpuModel(in cpuinfo: String) -> String? {
        for key in ["model name", "Hardware", "cpu model", "uarch"] {
            for line in cpuinfo.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingSpaces
                guard name == key else { continue }
                let value = line[line.index(after: colon)...].trimmingSpaces
                if !value.isEmpty { return String(value) }
            }
        }
        return nil
    }
}

/// Resident memory of the mappings of one file (or of anonymous memory) in a process.
public struct MappingUsage: Equatable, Sendable {
    /// The mapped file's path, a kernel name (`[heap]`, `[stack]`, `[vdso]`), or `[anonymous]`
    /// for anonymous mappings without a name.
    public var name: String
    /// Number of mappings (address ranges) summed.
    public var mappings: Int
    /// Resident set (`Rss`), kB.
    public var rssKB: Int
    /// Proportional set (`Pss`: each shared page divided by the number of processes mapping it), kB.
    public var pssKB: Int
    /// Resident pages no other process maps that were written (`Private_Dirty`), kB.
    public var privateDirtyKB: Int
    /// Anonymous resident pages (`Anonymous`: heap-like, including copy-on-write pages of a file), kB.
    public var anonymousKB: Int

    public init(name: String, mappings: Int = 0, rssKB: Int = 0, pssKB: Int = 0, privateDirtyKB: Int = 0, anonymousKB: Int = 0) {
        self.name = name
        self.mappings = mappings
        self.rssKB = rssKB
        self.pssKB = pssKB
        self.privateDirtyKB = privateDirtyKB
        self.anonymousKB = anonymousKB
    }
}

extension ProcFiles {
    /// `/proc/PID/smaps` summed per mapped file (proc(5)): one entry per path name, largest
    /// resident set first (ties by name). Each mapping starts with a line
    /// `start-end perms offset dev inode [path]`, followed by `Field: N kB` lines.
    public static func mappingUsage(smaps: String) -> [MappingUsage] {
        var byName: [String: MappingUsage] = [:]
        var current: String?
        for line in smaps.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            if let first = words.first, isAddressRange(first) {
                guard words.count >= 5 else { current = nil; continue }
                var name = words.count == 6 ? String(words[5].trimmingSpaces) : ""
                if name.isEmpty { name = "[anonymous]" }
                current = name
                byName[name, default: MappingUsage(name: name)].mappings += 1
                continue
            }
            guard let name = current, words.count >= 2, let colon = words[0].last, colon == ":" else { continue }
            let field = words[0].dropLast()
            guard let kb = Int(words[1]) else { continue }
            switch field {
            case "Rss": byName[name]!.rssKB += kb
            case "Pss": byName[name]!.pssKB += kb
            case "Private_Dirty": byName[name]!.privateDirtyKB += kb
            case "Anonymous": byName[name]!.anonymousKB += kb
            default: break
            }
        }
        return byName.values.sorted { $0.rssKB != $1.rssKB ? $0.rssKB > $1.rssKB : $0.name < $1.name }
    }

    /// `55d0c8a5e000-55d0c8a8c000`: two hexadecimal numbers joined by `-`.
    private static func isAddressRange(_ word: Substring) -> Bool {
        guard let dash = word.firstIndex(of: "-") else { return false }
        let a = word[..<dash], b = word[word.index(after: dash)...]
        return !a.isEmpty && !b.isEmpty && (a + b).allSatisfy { $0.isHexDigit }
    }
}

/// What a mapping of a ModalKit client holds, for `modal-bench --launch --mappings`'s summary.
public enum MappingKind: String, CaseIterable, Sendable {
    case executable = "the executable"
    case swiftRuntime = "Swift runtime and Foundation"
    case stylePlugins = "style plugins"
    case sharedLibraries = "other shared libraries"
    case fonts = "font files and caches"
    case waylandBuffers = "shared-memory buffers (wl_shm)"
    case heap = "heap and anonymous memory"
    case other = "stack and the rest"

    /// The kind of the mapping named `name` (a `/proc/PID/smaps` path or `[heap]`-like name) in
    /// a process whose executable is `executable` (a path).
    public static func of(_ name: String, executable: String) -> MappingKind {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        if name == executable { return .executable }
        if name.hasPrefix("/memfd:") || name.hasPrefix("/dev/shm/") { return .waylandBuffers }
        if base.hasPrefix("libModalKitStyle") { return .stylePlugins }
        if ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"].contains(where: base.hasPrefix) {
            return .swiftRuntime
        }
        if name.hasPrefix("/usr/share/fonts/") || name.contains("/fontconfig/") || name.hasPrefix("/usr/local/share/fonts/")
            || [".ttf", ".otf", ".ttc", ".pcf.gz"].contains(where: base.hasSuffix) {
            return .fonts
        }
        if base.contains(".so") { return .sharedLibraries }
        if name == "[heap]" || name == "[anonymous]" || name.hasPrefix("[anon:") { return .heap }
        return .other
    }

    /// `usage` summed per kind, in `allCases` order (kinds with no mapping left out).
    public static func summary(_ usage: [MappingUsage], executable: String) -> [(kind: MappingKind, usage: MappingUsage)] {
        var sums: [MappingKind: MappingUsage] = [:]
        for u in usage {
            let k = of(u.name, executable: executable)
            var s = sums[k] ?? MappingUsage(name: k.rawValue)
            s.mappings += u.mappings
            s.rssKB += u.rssKB
            s.pssKB += u.pssKB
            s.privateDirtyKB += u.privateDirtyKB
            s.anonymousKB += u.anonymousKB
            sums[k] = s
        }
        return allCases.compactMap { k in sums[k].map { (k, $0) } }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
