// The build step that writes a style library's note (docs/design.md, plugin metadata and trust): a
// package's build-tool plugin runs a small executable that links the style and calls `main`
// here, which runs the style's own declarations and writes the Swift source of its note. A
// library of its own, so that ModalKit itself carries no command line.
import Foundation
import ModalKitPlugins
import ModalKitStyle

/// The note generator's work, for a package's generator executable:
///
/// ```swift
/// // Sources/SideDrawerStyleNote/main.swift
/// import ModalKitNoteTool
/// import SideDrawerStyle
/// StyleNoteTool.main(styles: [SideDrawerStyle.self])
/// ```
///
/// Command line (the build-tool plugin's): `--output FILE --module NAME [--module NAME]…`: of
/// `styles`, the one whose Swift module is among the `--module`s (the modules the target being
/// built depends on) is described in FILE, as `StyleNote.swiftSource(for:origin:)` writes it.
/// The file is rewritten only when its contents change. Exit status 0, or 1 with one line on
/// stderr: no or several styles match, the declaration breaks the header's rules (a library the
/// host would refuse), or the file cannot be written.
public enum StyleNoteTool {
    public static func main(styles: [any LoadablePresentationStyle.Type],
                            arguments: [String] = CommandLine.arguments) -> Never {
        let program = arguments.first.map { ($0 as NSString).lastPathComponent } ?? "style-note"
        do {
            try run(styles: styles, arguments: Array(arguments.dropFirst()))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
            exit(1)
        }
    }

    /// `main` without exiting.
    /// - Throws: `StyleNoteToolError`.
    public static func run(styles: [any LoadablePresentationStyle.Type], arguments: [String]) throws {
        var output: String?
        var modules: [String] = []
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst(), flag == "--output" || flag == "--module" else {
                throw StyleNoteToolError.usage(flag)
            }
            if flag == "--output" { output = value } else { modules.append(value) }
        }
        guard let output else { throw StyleNoteToolError.usage("--output missing") }
        let matching = styles.filter { modules.contains(module(of: $0)) }
        guard matching.count == 1, let style = matching.first else {
            throw StyleNoteToolError.noStyle(modules: modules, known: styles.map { String(reflecting: $0) },
                                             matching: matching.count)
        }
        let declaration = declaration(of: style)
        if let problem = declaration.problem { throw StyleNoteToolError.badDeclaration(String(reflecting: style), problem) }
        let source = StyleNote.swiftSource(for: declaration, origin: String(reflecting: style))
        if (try? String(contentsOfFile: output, encoding: .utf8)) == source { return }
        do {
            try source.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw StyleNoteToolError.cannotWrite(output, error.localizedDescription)
        }
    }

    /// The module a type is declared in: the first component of `String(reflecting:)`.
    static func module(of type: Any.Type) -> String {
        String(String(reflecting: type).prefix { $0 != "." })
    }

    static func declaration<S: LoadablePresentationStyle>(of type: S.Type) -> StyleDeclaration {
        StyleDeclaration(type)
    }
}

/// Why the note generator failed.
public enum StyleNoteToolError: Error, CustomStringConvertible {
    /// A bad command line (the argument at fault).
    case usage(String)
    /// Not exactly one of the known styles is in the modules given.
    case noStyle(modules: [String], known: [String], matching: Int)
    /// The style's declaration breaks the header's rules.
    case badDeclaration(String, StyleDeclarationProblem)
    /// The output file cannot be written.
    case cannotWrite(String, String)
    /// A bad command line of `StyleNoteBuilder` (the argument at fault, or what is missing).
    case builderUsage(String)
    /// A module of a style target's build does not compile (`StyleNoteBuilder`): its name, and why.
    case compileFailed(String, String)
    /// The style's module defines no `symbol` (`modalkit_style_entry`, or the ABI version that
    /// `ModalKitStyle` carries): a library the host would refuse.
    case noEntry(module: String, symbol: String)
    /// The compiled style would not load (the loader's reason).
    case notLoadable(String, String)

    public var description: String {
        switch self {
        case let .usage(what): return "usage: --output FILE --module NAME... (\(what))"
        case let .noStyle(modules, known, matching):
            return "\(matching) of the styles \(known.joined(separator: ", ")) are in the modules \(modules.joined(separator: ", ")); exactly one must be"
        case let .badDeclaration(type, problem): return "\(type) declares what a host would refuse: \(problem)"
        case let .cannotWrite(path, why): return "cannot write \(path): \(why)"
        case let .builderUsage(what):
            return "usage: --output FILE --work DIR --swiftc PATH --clang PATH, then per module, the style's last: "
                + "--swift-module|--c-module NAME --package ID [--source FILE]... [--include DIR]... [--define D]... (\(what))"
        case let .compileFailed(module, why): return "\(module) does not compile for its style note: \(why)"
        case let .noEntry(module, symbol) where symbol == "modalkit_style_entry":
            return "\(module) defines no modalkit_style_entry function, so no host could load its library; add one to the target: "
                + "@_cdecl(\"modalkit_style_entry\") public func modalkitStyleEntry() -> UnsafeRawPointer { exportStyle(YourStyle.self) }"
        case let .noEntry(module, symbol): return "\(module) does not define \(symbol): does it depend on the ModalKitStyle product?"
        case let .notLoadable(module, why): return "\(module)'s library would not load: \(why)"
        }
    }
}
