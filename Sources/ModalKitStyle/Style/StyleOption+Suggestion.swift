// "Did you mean": the declared key nearest a mistyped one, by edit distance.

extension StyleOption {
    /// The key among `keys` nearest `key` by Levenshtein distance (insertions, deletions and
    /// substitutions of one character each cost 1), when it is near enough to be the one meant:
    /// at most 2 edits, or a third of the key's length for a longer key, and fewer edits than
    /// the key has characters. The first of equally near keys wins (declaration order); nil when
    /// none is near enough.
    public static func closestKey(to key: String, among keys: [String]) -> String? {
        let typed = Array(key.unicodeScalars)
        let limit = max(2, typed.count / 3)
        var best: (key: String, distance: Int)?
        for candidate in keys {
            let d = editDistance(typed, Array(candidate.unicodeScalars))
            guard d > 0, d <= limit, d < typed.count else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.key
    }

    /// Levenshtein distance between two scalar sequences (one row of the table at a time).
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
