/// The rule for a style name that `modal-demo new-style` makes a package for (checked when the
/// command line is read, before anything is written).
public enum StyleName {
    /// A style name: 1 to 64 characters, lower-case ASCII letters, digits and single dashes,
    /// starting with a letter and not ending with a dash (it becomes a Swift type name and a file
    /// name, and the loader refuses whitespace and `/`).
    /// - Throws: `UsageError` saying what is wrong.
    public static func validate(_ name: String) throws {
        func bad(_ why: String) -> UsageError {
            UsageError("bad style name '\(name)': \(why) (use lower-case letters, digits and dashes, e.g. side-drawer)")
        }
        if name.isEmpty { throw UsageError("bad style name '': empty (use lower-case letters, digits and dashes, e.g. side-drawer)") }
        if name.contains(where: { $0.isWhitespace }) { throw bad("it contains whitespace") }
        if name.contains("/") { throw bad("it contains '/'") }
        if name.contains(where: { $0.isUppercase }) { throw bad("it contains upper case") }
        guard name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw bad("only a-z, 0-9 and '-' are allowed")
        }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { throw bad("it must start with a letter") }
        if name.hasSuffix("-") || name.containsText("--") { throw bad("dashes must separate words") }
        if name.count > 64 { throw bad("longer than 64 characters") }
    }
}
