// Why a style library path names no file, as far as the files around it tell: the mistakes of a
// style author between `swift build` and `--style PATH`.
import Glibc
import ModalKitStyle
import ModalKitSystemSupport

/// What the files around a style library path that does not exist say about it
/// (``StyleLoader/missingLibraryHint(for:)``). SwiftPM's layout is the one read: a package
/// directory with `Package.swift` and its build directory `.build/`, whose `debug` and `release`
/// name the two configurations (links to `.build/<triple>/debug|release`), and a library product
/// `P` linked as `lib<P>.so` only when declared `type: .dynamic`.
public enum MissingStyleLibraryHint: Hashable, Sendable {
    /// The same file exists in the other configuration's directory: `path` (as the one given, with
    /// `debug` and `release` swapped), built in `configuration` (`debug` or `release`).
    case otherConfiguration(path: String, configuration: String)
    /// The package at `package` declares the library product `product` without
    /// `type: .dynamic` — `declaredType` is `automatic` (no type) or `static` — so `swift build`
    /// links no shared library for it (SwiftPM links an automatic library product only into
    /// what uses it; a static one becomes `lib<product>.a`).
    case notDynamic(package: String, product: String, declaredType: String)
    /// The package at `package` declares no library product named `product` (the name a file
    /// `lib<product>.so` comes from); `products` are the library products it declares.
    case undeclaredProduct(package: String, product: String, products: [String])
    /// The package at `package` declares `product` with `type: .dynamic`, but this configuration
    /// has not been built (`configuration`: `debug` or `release`).
    case notBuilt(package: String, product: String, configuration: String)
}

extension StyleLoader {
    /// Why `path` (a `--style PATH` that names no file) is missing, when it lies in a SwiftPM build
    /// directory (a component `.build`): the file in the other configuration; otherwise what the
    /// package's `Package.swift` declares for the product the file name comes from
    /// (`lib<product>.so`). The manifest is read as text, so only a product declared with a
    /// string literal name (`.library(name: "ModalKitStyleX", …)`) is recognised; nil when
    /// nothing can be told. Reads files only.
    ///
    /// The manifest is what is reliable: SwiftPM leaves nothing of an automatic library product
    /// in `.build` (only each target's objects, as for any target), so the build directory alone
    /// cannot tell "declared without `.dynamic`" from "not built yet".
    public static func missingLibraryHint(for path: String) -> MissingStyleLibraryHint? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let build = parts.lastIndex(of: ".build"), let file = parts.last, file.hasPrefix("lib"), file.hasSuffix(".so"),
              file.count > 6 else { return nil }
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path

        // The other configuration: the last `debug` or `release` below `.build`.
        var configuration = "debug"
        if let c = parts.indices.last(where: { $0 > build && $0 < parts.count - 1 && (parts[$0] == "debug" || parts[$0] == "release") }) {
            configuration = parts[c]
            var other = parts
            other[c] = configuration == "debug" ? "release" : "debug"
            let otherPath = other.joined(separator: "/")
            let otherAbsolute = otherPath.hasPrefix("/") ? otherPath : currentDirectory() + "/" + otherPath
            if isRegularFile(otherAbsolute) { return .otherConfiguration(path: otherPath, configuration: other[c]) }
        }

        // The package: the directory holding `.build`, with a manifest.
        let absoluteParts = absolute.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let absoluteBuild = absoluteParts.lastIndex(of: ".build") else { return nil }
        let packageDirectory = absoluteParts[..<absoluteBuild].joined(separator: "/")
        guard let bytes = try? FileSystem.contents(of: packageDirectory + "/Package.swift") else { return nil }
        let manifest = String(decoding: bytes, as: UTF8.self)
        let package = parts[..<build].joined(separator: "/").isEmpty ? "." : parts[..<build].joined(separator: "/")
        let product = String(file.dropFirst(3).dropLast(3))
        let libraries = libraryProducts(inManifest: manifest)
        guard !libraries.isEmpty else { return nil }
        guard let declared = libraries.first(where: { $0.name == product }) else {
            return .undeclaredProduct(package: package, product: product, products: libraries.map(\.name))
        }
        if declared.type != "dynamic" {
            return .notDynamic(package: package, product: product, declaredType: declared.type)
        }
        return .notBuilt(package: package, product: product, configuration: configuration)
    }

    /// The library products a manifest declares with a literal name: name, and type (`dynamic`,
    /// `static`, or `automatic` when the call gives none). Comments are skipped.
    static func libraryProducts(inManifest text: String) -> [(name: String, type: String)] {
        let code = Array(withoutComments(text))
        let marker = Array(".library(")
        var found: [(String, String)] = []
        var i = 0
        while i + marker.count <= code.count {
            guard Array(code[i..<(i + marker.count)]) == marker else { i += 1; continue }
            // The call's arguments, to the matching parenthesis (strings skipped).
            var depth = 1, j = i + marker.count, inString = false
            while j < code.count, depth > 0 {
                let c = code[j]
                if c == "\"" && (j == 0 || code[j - 1] != "\\") { inString.toggle() }
                if !inString { if c == "(" { depth += 1 } else if c == ")" { depth -= 1 } }
                j += 1
            }
            let arguments = String(code[(i + marker.count)..<max(i + marker.count, j - 1)])
            if let name = literalArgument("name", in: arguments) {
                found.append((name, libraryType(in: arguments)))
            }
            i = j
        }
        return found
    }

    /// The string literal after the first `label:` in a call's arguments that has one without
    /// escapes (`name: "X"` → X).
    private static func literalArgument(_ label: String, in arguments: String) -> String? {
        let code = Array(arguments)
        for start in valueStarts(after: label, in: code) where start < code.count && code[start] == "\"" {
            var end = start + 1
            while end < code.count, code[end] != "\"", code[end] != "\\" { end += 1 }
            if end < code.count, code[end] == "\"" { return String(code[(start + 1)..<end]) }
        }
        return nil
    }

    /// `dynamic` or `static` for the first `type: .dynamic` or `type: .static` in a call's
    /// arguments, else `automatic`.
    private static func libraryType(in arguments: String) -> String {
        let code = Array(arguments)
        for start in valueStarts(after: "type", in: code) where start < code.count && code[start] == "." {
            var end = start + 1
            while end < code.count, code[end].isLetter || code[end].isNumber || code[end] == "_" { end += 1 }
            let word = String(code[(start + 1)..<end])
            if word == "dynamic" || word == "static" { return word }
        }
        return "automatic"
    }

    /// Where the value starts after each `label` followed by `:` (spaces allowed around the colon)
    /// in `code`, in order.
    private static func valueStarts(after label: String, in code: [Character]) -> [Int] {
        let word = Array(label)
        var starts: [Int] = []
        var i = 0
        while i + word.count <= code.count {
            defer { i += 1 }
            guard Array(code[i..<(i + word.count)]) == word else { continue }
            var j = i + word.count
            while j < code.count, code[j].isWhitespace { j += 1 }
            guard j < code.count, code[j] == ":" else { continue }
            j += 1
            while j < code.count, code[j].isWhitespace { j += 1 }
            starts.append(j)
        }
        return starts
    }

    /// `text` without `//` and `/* */` comments (string literals kept).
    private static func withoutComments(_ text: String) -> String {
        let s = Array(text)
        var out: [Character] = []
        var i = 0, inString = false
        while i < s.count {
            let c = s[i], next: Character? = i + 1 < s.count ? s[i + 1] : nil
            if inString {
                out.append(c)
                if c == "\\", let next { out.append(next); i += 2; continue }
                if c == "\"" { inString = false }
                i += 1
            } else if c == "\"" {
                inString = true; out.append(c); i += 1
            } else if c == "/", next == "/" {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if c == "/", next == "*" {
                i += 2
                while i + 1 < s.count, !(s[i] == "*" && s[i + 1] == "/") { i += 1 }
                i += 2
            } else {
                out.append(c); i += 1
            }
        }
        return String(out)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}

/// The process's working directory (getcwd(3)); "." when it cannot be read (removed, too long).
private func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(cString: buffer)
}
