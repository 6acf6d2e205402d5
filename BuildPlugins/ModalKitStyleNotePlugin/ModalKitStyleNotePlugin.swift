// The build step that gives a style library its ELF note (docs/design.md, plugin metadata and trust):
// applied to a style's entry target (the one its `.dynamic` product is made of), it runs the
// package's note generator, which links the style and writes the note's Swift source from the
// style's own declarations; the source is compiled into the entry target. The generator is
// rebuilt, and the note written again, whenever the style's code changes.
import Foundation
import PackagePlugin

@main
struct ModalKitStyleNotePlugin: BuildToolPlugin {
    /// The package's note generator (an executable target calling `StyleNoteTool.main`).
    static let generator = "modalkit-style-note"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: ModalKitStyleNotePlugin.generator)
        let output = context.pluginWorkDirectoryURL.appending(path: "StyleNote.swift")
        // The modules the entry target depends on: the generator picks the style declared in one.
        var arguments = ["--output", output.path(percentEncoded: false)]
        for case let .target(dependency) in target.dependencies {
            arguments += ["--module", (dependency as? SourceModuleTarget)?.moduleName ?? dependency.name]
        }
        return [.buildCommand(displayName: "Writing the style note of \(target.name)", executable: tool.url,
                              arguments: arguments, inputFiles: [], outputFiles: [output])]
    }
}
