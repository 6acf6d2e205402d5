// ModalKit's build-tool plugin for style packages: applied to a style target (the one its `.dynamic`
// product is made of), it gives the library its ELF note, the style's name, summary and options
// read by hosts without loading it (docs/design.md, "The note of a style package"):
//
//     .target(name: "SideDrawerStyle", dependencies: [.product(name: "ModalKitStyle", package: "ModalKit")],
//             plugins: [.plugin(name: "ModalKitStyleNote", package: "ModalKit")])
//
// A build-tool plugin's command runs before SwiftPM compiles the target, and its tool cannot link
// the target; so the tool (modalkit-style-note-builder) compiles the target's sources itself, with
// the modules they depend on (ModalKitStyle among them, from their sources), loads the result as a
// host would and writes the note source, which SwiftPM compiles into the target. This plugin only
// tells it what to compile: every module the target depends on, in dependency order, the target last.
import Foundation
import PackagePlugin

@main
struct ModalKitStyleNote: BuildToolPlugin {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard target is SwiftSourceModuleTarget else {
            throw Refusal(description: "ModalKitStyleNote applies to a style's Swift target; \(target.name) is not one")
        }
        // Which package each target belongs to (`-package-name`).
        var packageOf: [Target.ID: String] = [:]
        func visit(_ package: Package) {
            for t in package.targets where packageOf[t.id] == nil { packageOf[t.id] = package.id }
            for dependency in package.dependencies { visit(dependency.package) }
        }
        visit(context.package)

        var ordered: [Target] = []
        var seen: Set<Target.ID> = []
        func add(_ t: Target) {
            guard seen.insert(t.id).inserted else { return }
            for dependency in t.dependencies {
                switch dependency {
                case let .target(t): add(t)
                case let .product(product): product.targets.forEach(add)
                @unknown default: break
                }
            }
            ordered.append(t)
        }
        add(target)

        let work = context.pluginWorkDirectoryURL
        let output = work.appending(path: "StyleNote.swift")
        var arguments = ["--output", output.path(percentEncoded: false), "--work", work.appending(path: "probe").path(percentEncoded: false),
                         "--swiftc", try context.tool(named: "swiftc").url.path(percentEncoded: false),
                         "--clang", try context.tool(named: "clang").url.path(percentEncoded: false)]
        var inputs: [URL] = []
        for t in ordered {
            let package = ["--package", packageOf[t.id] ?? context.package.id]
            switch t {
            case let swift as SwiftSourceModuleTarget:
                let sources = swift.sourceFiles.filter { $0.type == .source }.map(\.url)
                arguments += ["--swift-module", swift.moduleName] + package
                    + sources.flatMap { ["--source", $0.path(percentEncoded: false)] }
                inputs += sources
            case let clang as ClangSourceModuleTarget:
                arguments += ["--c-module", clang.moduleName] + package
                let sources = clang.sourceFiles.filter { $0.type == .source }.map(\.url)
                arguments += sources.flatMap { ["--source", $0.path(percentEncoded: false)] }
                guard let headers = clang.publicHeadersDirectoryURL else {
                    throw Refusal(description: "\(t.name) (a C target \(target.name) depends on) has no public headers directory")
                }
                arguments += ["--include", headers.path(percentEncoded: false), "--include", clang.directoryURL.path(percentEncoded: false)]
                arguments += clang.headerSearchPaths.flatMap { ["--include", $0] }
                arguments += clang.preprocessorDefinitions.flatMap { ["--define", $0] }
                inputs += clang.sourceFiles.map(\.url)
            default:
                throw Refusal(description: "\(target.name) depends on \(t.name), which is neither a Swift nor a C target: "
                              + "ModalKitStyleNote compiles only those to read the style's declarations")
            }
        }
        return [.buildCommand(displayName: "Writing the style note of \(target.name)",
                              executable: try context.tool(named: "modalkit-style-note-builder").url,
                              arguments: arguments, inputFiles: inputs, outputFiles: [output])]
    }
}
