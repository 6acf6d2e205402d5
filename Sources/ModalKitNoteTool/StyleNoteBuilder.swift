// The build step behind ModalKit's `ModalKitStyleNote` build-tool plugin: it gives a style target
// its library's ELF note with no program of the author's. SwiftPM runs a build-tool plugin's
// commands before it compiles the target, and a plugin's tool cannot link the target it serves;
// so this step compiles the target's sources itself (with the modules they import, from their
// sources), as a throwaway library in the plugin's work directory, loads it as a host would, reads
// what it declares and writes the note's Swift source. Why this and not a hand-written
// declaration file: docs/design.md, "The note of a style package".
import Foundation
import ModalKitPlugins
import ModalKitStyle

/// Compiles a style target into a throwaway library, loads it through `StyleLoader`, and writes
/// the Swift source of the note for what it declares (`StyleNote.swiftSource(for:origin:)`).
///
/// Command line (the `ModalKitStyleNote` plugin's), modules in dependency order, the style's last:
///
///     --output FILE --work DIR --swiftc PATH --clang PATH
///     (--swift-module NAME | --c-module NAME) --package ID [--source FILE]… [--include DIR]… [--define D]…
///     …
///
/// A C module's `--include`s are its public headers directory (first) and its header search
/// paths. The modules before the style are compiled once and kept in DIR until a source, header
/// or compiler changes. Exit status 0, or 1 with the compilers' messages and then one line on
/// stderr (`error: …`): a module does not compile, the style defines no `modalkit_style_entry`, the
/// library would be refused when loaded, its declaration breaks the header's rules, or FILE cannot
/// be written.
public struct StyleNoteBuilder {
    /// One module of the build, in the order the command line gives.
    public struct Module: Equatable {
        public enum Language: Equatable { case swift, c }
        public var name: String
        public var language: Language
        /// The package's identity (`-package-name`: `package` declarations cross only within one).
        public var package: String = ""
        public var sources: [String] = []
        public var includes: [String] = []
        public var defines: [String] = []

        public init(name: String, language: Language, package: String = "", sources: [String] = [], includes: [String] = [],
                    defines: [String] = []) {
            self.name = name; self.language = language; self.package = package
            self.sources = sources; self.includes = includes; self.defines = defines
        }
    }

    public var output: String
    public var work: String
    public var swiftc: String
    public var clang: String
    /// In dependency order; the last is the style.
    public var modules: [Module]

    /// The file name of the throwaway library: it starts with `libModalKitStyle`, as a style's must.
    static let probeName = "libModalKitStyleNoteProbe.so"

    /// Reads the command line.
    /// - Throws: `StyleNoteToolError.builderUsage` naming the argument at fault.
    public init(arguments: [String]) throws {
        var output: String?, work: String?, swiftc: String?, clang: String?
        var modules: [Module] = []
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw StyleNoteToolError.builderUsage("\(flag) needs a value") }
            switch flag {
            case "--output": output = value
            case "--work": work = value
            case "--swiftc": swiftc = value
            case "--clang": clang = value
            case "--swift-module": modules.append(Module(name: value, language: .swift))
            case "--c-module": modules.append(Module(name: value, language: .c))
            case "--package", "--source", "--include", "--define":
                guard !modules.isEmpty else { throw StyleNoteToolError.builderUsage("\(flag) before any module") }
                switch flag {
                case "--package": modules[modules.count - 1].package = value
                case "--source": modules[modules.count - 1].sources.append(value)
                case "--include": modules[modules.count - 1].includes.append(value)
                default: modules[modules.count - 1].defines.append(value)
                }
            default: throw StyleNoteToolError.builderUsage(flag)
            }
        }
        guard let output else { throw StyleNoteToolError.builderUsage("--output missing") }
        guard let work else { throw StyleNoteToolError.builderUsage("--work missing") }
        guard let swiftc else { throw StyleNoteToolError.builderUsage("--swiftc missing") }
        guard let clang else { throw StyleNoteToolError.builderUsage("--clang missing") }
        guard let style = modules.last, style.language == .swift, !style.sources.isEmpty else {
            throw StyleNoteToolError.builderUsage("the last module must be the style's Swift module, with its sources")
        }
        self.output = output; self.work = work; self.swiftc = swiftc; self.clang = clang; self.modules = modules
    }

    /// `run()`, then exit: status 0, or 1 after one `error:` line on stderr.
    public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        do {
            try StyleNoteBuilder(arguments: arguments).run()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Compiles, loads and writes the note source (rewritten only when it changes).
    /// - Throws: `StyleNoteToolError`.
    public func run() throws {
        let style = modules[modules.count - 1]
        let fm = FileManager.default
        for directory in [work, work + "/modules", work + "/objects", work + "/maps"] {
            do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw StyleNoteToolError.cannotWrite(directory, error.localizedDescription)
            }
        }
        var objects: [String] = []
        var mapFlags: [String] = []
        // Each module's stamp includes those before it: a changed dependency recompiles its dependents.
        var upstream = ""
        for module in modules.dropLast() {
            switch module.language {
            case .c:
                objects += try compileC(module, upstream: &upstream)
                mapFlags += ["-Xcc", "-fmodule-map-file=" + (try moduleMap(for: module))]
            case .swift:
                objects.append(try compileSwift(module, mapFlags: mapFlags, upstream: &upstream))
            }
        }
        let probe = work + "/" + StyleNoteBuilder.probeName
        try? fm.removeItem(atPath: probe)
        try compile(style.name, ["-emit-library", "-o", probe] + swiftFlags(style, mapFlags: mapFlags) + style.sources + objects)
        let declaration = try declaration(ofProbe: probe, style: style.name)
        if let problem = declaration.problem { throw StyleNoteToolError.badDeclaration(style.name, problem) }
        let source = StyleNote.swiftSource(for: declaration, origin: style.name)
        if (try? String(contentsOfFile: output, encoding: .utf8)) == source { return }
        do {
            try source.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw StyleNoteToolError.cannotWrite(output, error.localizedDescription)
        }
    }

    /// What the throwaway library declares, loaded as `--style PATH` loads a library.
    func declaration(ofProbe probe: String, style: String) throws -> StyleDeclaration {
        do {
            return try StyleLoader(searchPath: []).load(probe).declaration
        } catch let StyleLoadError.missingEntry(_, symbol, _) {
            throw StyleNoteToolError.noEntry(module: style, symbol: symbol)
        } catch let error as StyleLoadError {
            throw StyleNoteToolError.notLoadable(style, error.reason)
        }
    }

    // MARK: Compiling

    /// The flags every Swift module of the build is compiled with: Swift 5 mode (ModalKit's own,
    /// and the more permissive for a package of a later tools version), unoptimised, the modules
    /// built before it and their C module maps.
    private func swiftFlags(_ module: Module, mapFlags: [String]) -> [String] {
        ["-wmo", "-parse-as-library", "-swift-version", "5", "-Onone", "-module-name", module.name,
         "-package-name", module.package.isEmpty ? module.name : module.package, "-I", work + "/modules", "-D", "SWIFT_PACKAGE"]
            + module.defines.flatMap { ["-D", $0] } + mapFlags
    }

    /// The module's object, compiled unless the stamp of its inputs is unchanged.
    private func compileSwift(_ module: Module, mapFlags: [String], upstream: inout String) throws -> String {
        let object = work + "/objects/\(module.name).o"
        let swiftmodule = work + "/modules/\(module.name).swiftmodule"
        try cached(module, outputs: [object, swiftmodule], inputs: module.sources + [swiftc], upstream: &upstream) {
            try compile(module.name, ["-c", "-o", object, "-emit-module-path", swiftmodule]
                        + swiftFlags(module, mapFlags: mapFlags) + module.sources)
        }
        return object
    }

    /// The module's objects, one per C source, compiled unless the stamp of its inputs is unchanged.
    private func compileC(_ module: Module, upstream: inout String) throws -> [String] {
        let sources = module.sources.filter { $0.hasSuffix(".c") }
        let objects = sources.indices.map { work + "/objects/\(module.name)-\($0).o" }
        let headers = module.includes.flatMap { StyleNoteBuilder.headers(under: $0) }
        try cached(module, outputs: objects, inputs: sources + headers + [clang], upstream: &upstream) {
            for (source, object) in zip(sources, objects) {
                try run(clang, ["-c", "-fPIC", "-O0", "-o", object, source] + module.includes.flatMap { ["-I", $0] }
                        + module.defines.map { "-D" + $0 }, what: module.name)
            }
        }
        return objects
    }

    /// The module map Swift imports the C module by: its own `module.modulemap`, or one made as
    /// SwiftPM makes it for an `include` directory without one (an umbrella directory).
    private func moduleMap(for module: Module) throws -> String {
        guard let include = module.includes.first else {
            throw StyleNoteToolError.builderUsage("C module \(module.name) has no public headers directory")
        }
        let own = include + "/module.modulemap"
        if FileManager.default.fileExists(atPath: own) { return own }
        let map = work + "/maps/\(module.name).modulemap"
        let text = "module \(module.name) {\n    umbrella \"\(include)\"\n    export *\n}\n"
        if (try? String(contentsOfFile: map, encoding: .utf8)) != text {
            do { try text.write(toFile: map, atomically: true, encoding: .utf8) } catch {
                throw StyleNoteToolError.cannotWrite(map, error.localizedDescription)
            }
        }
        return map
    }

    /// Runs `body` unless `outputs` all exist and the stamp of `inputs` (path, size, modification
    /// time) after `upstream` (the stamps of the modules before) is the one written after the last
    /// successful run; then appends the stamp to `upstream`.
    private func cached(_ module: Module, outputs: [String], inputs: [String], upstream: inout String,
                        _ body: () throws -> Void) throws {
        let stampFile = work + "/objects/\(module.name).stamp"
        let fm = FileManager.default
        let stamp = inputs.map { path -> String in
            let attributes = try? fm.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(path)\t\(size)\t\(time)"
        }.joined(separator: "\n") + "\n" + module.defines.joined(separator: " ") + "\n" + upstream
        upstream = stamp
        if outputs.allSatisfy({ fm.fileExists(atPath: $0) }), (try? String(contentsOfFile: stampFile, encoding: .utf8)) == stamp {
            return
        }
        try? fm.removeItem(atPath: stampFile)
        try body()
        try? stamp.write(toFile: stampFile, atomically: true, encoding: .utf8)
    }

    private func compile(_ module: String, _ arguments: [String]) throws {
        try run(swiftc, arguments, what: module)
    }

    /// Runs a compiler; its messages go to this process's stderr (SwiftPM shows them).
    private func run(_ executable: String, _ arguments: [String], what: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do { try process.run() } catch {
            throw StyleNoteToolError.compileFailed(what, "cannot run \(executable): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw StyleNoteToolError.compileFailed(what, "\((executable as NSString).lastPathComponent) exited with "
                                                   + "\(process.terminationStatus) (its messages above)")
        }
    }

    /// The header files under `directory`, sorted.
    static func headers(under directory: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: directory) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".h") || $0.hasSuffix(".modulemap") }
            .sorted().map { directory + "/" + $0 }
    }
}
