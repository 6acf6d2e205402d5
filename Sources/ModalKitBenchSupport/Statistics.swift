// Order statistics for modal-bench's frame times.

/// Summary statistics over a sample (frame times in milliseconds, pixel counts, …).
///
/// Definitions (so the README's figures can be reproduced by hand):
/// - median: the middle value of the sorted sample; for an even count, the mean of the two
///   middle values;
/// - percentile p (0 < p ≤ 100): nearest-rank — the smallest sample value such that at least
///   p % of the sample is ≤ it, i.e. `sorted[ceil(p/100 × n) − 1]` (so p99 of 100 values is the
///   99th smallest, and p99 of fewer than 100 values is the maximum);
/// - mean: the arithmetic mean.
public enum Statistics {
    /// The median, nil for an empty sample.
    public static func median(_ values: [Double]) -> Double? {
        median(sorted: values.sorted())
    }

    /// The median of an already sorted (ascending) sample, nil when empty.
    public static func median(sorted s: [Double]) -> Double? {
        guard !s.isEmpty else { return nil }
        let mid = s.count / 2
        return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    }

    /// The nearest-rank percentile `p` (0 < p ≤ 100), nil for an empty sample or p outside that range.
    public static func percentile(_ p: Double, of values: [Double]) -> Double? {
        percentile(p, sorted: values.sorted())
    }

    /// `percentile(_:of:)` of an already sorted (ascending) sample.
    public static func percentile(_ p: Double, sorted s: [Double]) -> Double? {
        guard !s.isEmpty, p > 0, p <= 100 else { return nil }
        // p/100 × n computed as p × n / 100 so that e.g. 99 × 100 / 100 is exactly 99.
        let rank = Int((p * Double(s.count) / 100).rounded(.up))
        return s[min(max(rank, 1), s.count) - 1]
    }

    /// The arithmetic mean, nil for an empty sample.
    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}

extension Statistics {
    /// Minimum, median and maximum of a sample.
    public struct Summary: Equatable, Sendable {
        public var count: Int
        public var min: Double
        public var median: Double
        public var max: Double

        public init(count: Int, min: Double, median: Double, max: Double) {
            self.count = count
            self.min = min
            self.median = median
            self.max = max
        }
    }

    /// The sample's minimum, median and maximum; nil when empty.
    public static func summary(_ values: [Double]) -> Summary? {
        let s = values.sorted()
        guard let first = s.first, let last = s.last, let m = median(sorted: s) else { return nil }
        return Summary(count: s.count, min: first, median: m, max: last)
    }

    /// The per-pair ratios `a[i] / b[i]` of two samples taken in pairs (A, B, A, B …), for the
    /// pairs where both were measured and `b[i] > 0`. The median of these is the launch
    /// benchmark's ratio: each pair shares the machine's load of its moment, which a ratio of the
    /// two medians would not.
    public static func pairedRatios(_ a: [Double?], _ b: [Double?]) -> [Double] {
        zip(a, b).compactMap { x, y in
            guard let x, let y, y > 0 else { return nil }
            return x / y
        }
    }
}
