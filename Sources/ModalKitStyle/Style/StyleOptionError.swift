import Glibc

/// Why a style could not be created from its options. The message is one line, meant for stderr.
public enum StyleOptionError: Error, Equatable, CustomStringConvertible {
    /// A key the style does not declare; `known` lists the keys it does (the message names the
    /// nearest first when one is near enough to be a typing mistake).
    case unknownKey(String, known: [String])
    /// A value that does not parse or is out of range; `expected` says what is accepted.
    case badValue(key: String, value: String, expected: String)

    public var description: String {
        switch self {
        case let .unknownKey(key, known):
            let guess = StyleOption.closestKey(to: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
            return "unknown style option '\(key)'\(guess) (known: \(known.joined(separator: ", ")))"
        case let .badValue(key, value, expected):
            return "bad value '\(value)' for style option '\(key)' (expected \(expected))"
        }
    }
}
