// `--vs 'foot --window-size-pixels=800x600'`: a command given as one argument, split into words.

public enum ShellWords {
    /// Splits `text` into words as a POSIX shell does for a simple command without expansions:
    /// words are separated by spaces, tabs and newlines; `'…'` keeps everything inside literally;
    /// `"…"` keeps everything but `\"`, `\\`, `` \` `` and `\$`, whose backslash it drops; outside
    /// quotes a backslash keeps the next character literally. No variables, globs or `~`.
    /// - Throws: `BenchUsageError` for an unterminated quote or a trailing backslash.
    public static func split(_ text: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                guard let close = chars.firstIndex(of: "'") else { throw BenchUsageError("unterminated ' in '\(text)'") }
                current += String(chars[..<close])
                chars = chars[(close + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" { closed = true; break }
                    if d == "\\", let next = chars.first, "\"\\`$".contains(next) {
                        current.append(next)
                        chars.removeFirst()
                    } else {
                        current.append(d)
                    }
                }
                guard closed else { throw BenchUsageError("unterminated \" in '\(text)'") }
            case "\\":
                inWord = true
                guard let next = chars.popFirst() else { throw BenchUsageError("trailing \\ in '\(text)'") }
                if next != "\n" { current.append(next) }
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// `words` as one line a shell would split back into them: a word with anything but letters,
    /// digits and `-_./=:,+@%` is single-quoted.
    public static func join(_ words: [String]) -> String {
        words.map { w in
            let plain = !w.isEmpty && w.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0)) }
            return plain ? w : "'" + w.replacingAll("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
