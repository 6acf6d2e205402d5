import Glibc
import ModalKit
import ModalKitPlugins

/// What `modal-demo`'s style commands print: the `--list-styles` and `--describe-style` lines and
/// the one-line messages about styles, with the advice that names the demo's own flags (ModalKit's
/// errors name no command line).
public enum StyleCommandText {
    /// Newlines and tabs become spaces: one line, one field.
    static func clean(_ s: String) -> String { String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 }) }

    /// The lines `modal-demo --list-styles` prints, fields separated by one TAB, no field
    /// containing a TAB or newline:
    ///
    ///     NAME<TAB>PATH<TAB>DESCRIPTION               one per style, in search order
    ///     # shadowed<TAB>PATH<TAB>NAME<TAB>WINNER     a later library with a name already found;
    ///                                                 WINNER is the path --style NAME loads
    ///     # no-note<TAB>PATH<TAB>WHY                  a library without a style note: nothing of it
    ///                                                 was read or run; --style PATH loads it
    ///     # refused<TAB>PATH<TAB>WHY                  not trusted: WHY names the file or directory,
    ///                                                 its mode and owner (nothing of it was read)
    ///     # failed<TAB>PATH<TAB>REASON                a candidate that cannot be read or loaded
    ///
    /// Styles come first, then the `#` lines in that order, so `cut -f1` up to the first `#` line
    /// gives the usable names.
    public static func listingLines(_ listing: StyleListing) -> [String] {
        listing.found.map { "\(clean($0.name))\t\(clean($0.path))\t\(clean($0.summary))" }
            + listing.shadowed.map { "# shadowed\t\(clean($0.style.path))\t\(clean($0.style.name))\t\(clean($0.shadowedBy))" }
            + listing.withoutNote.map {
                "# no-note\t\(clean($0))\tno \(StyleNote.section) note, so nothing of it was read: load it by path, or rebuild it"
            }
            + listing.refused.map { "# refused\t\(clean($0.path))\t\(clean($0.violation.description))" }
            + listing.failed.map { "# failed\t\(clean($0.path))\t\(clean($0.error.reason))" }
    }

    /// What `modal-demo --describe-style` prints: `name:`, `path:`, `abi:` and `summary:` lines,
    /// then a table of the options — key, default, meaning (with its unit), accepted values —
    /// with a header row, columns separated by at least two spaces, tabs and newlines in any field
    /// replaced by spaces. An option of a 1.0 plugin, which carries no accepted values, shows `-`.
    public static func descriptionLines(_ style: StyleMetadata) -> [String] {
        var lines = ["name: \(clean(style.name))", "path: \(clean(style.path))", "abi: \(style.abiVersion)",
                     "summary: \(clean(style.summary))"]
        guard !style.options.isEmpty else { return lines + ["options: none"] }
        let rows = [["option", "default", "meaning", "accepted"]] + style.options.map {
            [clean($0.key), clean($0.defaultValue), clean($0.meaning),
             $0.acceptedDescription.isEmpty ? "-" : clean($0.acceptedDescription)]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        lines.append("options:")
        for row in rows {
            var line = "  "
            for column in 0..<3 { line += row[column] + String(repeating: " ", count: widths[column] + 2 - row[column].count) }
            lines.append(line + row[3])
        }
        return lines
    }

    /// One line for a failure to find, load or create a style, with the demo's advice: where a
    /// lookup met libraries that failed or were refused, "(--list-styles says why)"; for a library
    /// named unlike a style, "(rename it, or give its path to --style)"; for a name that is a file
    /// name (`libX.so`: a name has no `/`, so it was looked up as a style name), the path to give
    /// (`--style ./libX.so`); for a path that names no file, what the files around it say
    /// (``StyleLoader/missingLibraryHint(for:)``: the other build configuration has it, the
    /// package's product is not `.dynamic`, …).
    public static func message(for error: Error) -> String {
        if case let .notFound(path)? = error as? StyleLoadError, let hint = StyleLoader.missingLibraryHint(for: path) {
            return clean("\(path): no such file; " + describe(hint, path: path))
        }
        guard let lookup = error as? StyleLookupError else { return clean(String(describing: error)) }
        if case let .unknownName(name, _, _, _, _, _) = lookup, looksLikeFileName(name) {
            var info = stat()
            let here = stat(name, &info) == 0
            return clean("no style named '\(name)': a name is looked up on the style path, a file is given by its path "
                         + (here ? "(the file in this directory: --style ./\(name))"
                                 : "(--style ./\(name) for a file in this directory, which has none by that name)"))
        }
        func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
        func searched(_ dirs: [String], failed: Int, refused: Int) -> String {
            var line = "; searched " + (dirs.isEmpty ? "nothing (empty style path)" : dirs.joined(separator: ":"))
            if failed > 0 { line += "; \(failed) \(failed == 1 ? "library" : "libraries") there failed to load" }
            if refused > 0 {
                line += "; \(refused) \(refused == 1 ? "library" : "libraries") there \(refused == 1 ? "was" : "were") refused as untrusted"
            }
            if failed + refused > 0 { line += " (--list-styles says why)" }
            return line
        }
        switch lookup {
        case let .emptyName(available, dirs, failed, refused):
            return clean("empty style name (available: \(list(available)))" + searched(dirs, failed: failed, refused: refused))
        case let .unknownName(name, available, dirs, failed, refused, misnamed):
            var line = "no style named '\(name)' (available: \(list(available)))" + searched(dirs, failed: failed, refused: refused)
            if !misnamed.isEmpty {
                line += "; \(misnamed.joined(separator: ", ")) \(misnamed.count == 1 ? "is" : "are") not looked at: "
                    + "a style library's file name must start with libModalKitStyle (rename it, or give its path to --style)"
            }
            return clean(line)
        case .refused:
            return clean(lookup.description)
        }
    }

    /// Whether a `--style` value without `/` is a shared library's file name (`….so`, `….so.1`).
    static func looksLikeFileName(_ name: String) -> Bool { name.hasSuffix(".so") || name.containsText(".so.") }

    /// The advice after "PATH: no such file; ".
    static func describe(_ hint: MissingStyleLibraryHint, path: String) -> String {
        let package: (String) -> String = { $0 == "." ? "the package in this directory" : "the package in \($0)" }
        switch hint {
        case let .otherConfiguration(other, configuration):
            return "the \(configuration) build has it: \(other)"
                + (configuration == "release" ? " (built with swift build -c release)" : " (built with swift build)")
        case let .notDynamic(directory, product, declaredType):
            let what = declaredType == "static" ? "as type: .static (a static archive)" : "without a type"
            return "\(package(directory)) declares the library product \(product) \(what), so swift build links no "
                + "shared library for it: declare it .library(name: \"\(product)\", type: .dynamic, targets: [...])"
        case let .undeclaredProduct(directory, product, products):
            return "\(package(directory)) declares no library product \(product) (a library lib<product>.so comes from its "
                + "product's name; it declares \(products.joined(separator: ", ")))"
        case let .notBuilt(directory, product, configuration):
            return "\(package(directory)) declares \(product) as .dynamic but it is not built: run swift build"
                + (configuration == "release" ? " -c release" : "") + " there"
        }
    }

    /// The line said when `--style NAME` chose a library that shadows others: "using PATH for style
    /// 'NAME'; it shadows OTHER (the same name later on the style path)"; nil when it shadows none.
    public static func shadowingLine(name: String, path: String, shadowed: [String]) -> String? {
        guard !shadowed.isEmpty else { return nil }
        return clean("using \(path) for style '\(name)'; it shadows \(shadowed.joined(separator: ", "))"
                     + " (the same name later on the style path)")
    }

    /// The line said once when `MODALKIT_STYLE_PATH` has relative entries, which are ignored; nil
    /// when it has none.
    public static func ignoredEntriesLine(_ entries: [String]) -> String? {
        guard !entries.isEmpty else { return nil }
        let quoted = entries.map { "'\($0)'" }.joined(separator: ", ")
        return clean("MODALKIT_STYLE_PATH: ignoring relative \(entries.count == 1 ? "entry" : "entries") \(quoted) "
                     + "(style directories must be absolute paths)")
    }
}
