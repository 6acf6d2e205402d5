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

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
