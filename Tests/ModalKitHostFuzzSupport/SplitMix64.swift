/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014; Vigna's reference `splitmix64.c`): 64-bit outputs that are a pure function of the seed, the
/// same in debug and release and on every platform, so a printed seed replays exactly.
/// `SystemRandomNumberGenerator` is never used by the fuzz tests.
public struct SplitMix64 {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0 ..< n` (n ≥ 1): the high word of a 64 × 64-bit product (Lemire's
    /// multiply-shift; the bias, < n / 2⁶⁴, does not matter here).
    public mutating func below(_ n: Int) -> Int {
        precondition(n >= 1)
        return Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A whole number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// A number in 0 ..< 1 with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A number in `range` (uniform).
    public mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A number in `range` (bounds ≥ 0) skewed toward its low end: the square of a uniform number
    /// between the bounds' square roots (pure arithmetic, no libm, so replays match on any machine).
    public mutating func skewed(_ range: ClosedRange<Double>) -> Double {
        let a = range.lowerBound.squareRoot(), b = range.upperBound.squareRoot()
        let r = double(a...b)
        return min(max(r * r, range.lowerBound), range.upperBound)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// The index of a weight, chosen in proportion to the weights (≥ 0, not all 0).
    public mutating func weighted(_ weights: [Int]) -> Int {
        var r = below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }
}
