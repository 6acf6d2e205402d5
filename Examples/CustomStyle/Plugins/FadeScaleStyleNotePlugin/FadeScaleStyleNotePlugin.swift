// The build step that gives the library its ELF note. Applied to FadeScaleStyleEntry, it runs
// FadeScaleStyleNote (which links the style) with the modules the target depends on; the Swift
// source it writes is compiled into the target. The generator is rebuilt, and the note written
// again, whenever the style changes.
import PackagePlugin

@main
struct FadeScaleStyleNotePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "FadeScaleStyleNote")
        let output = context.pluginWorkDirectory.appending("StyleNote.swift")
        var arguments = ["--output", output.string]
        for case let .target(dependency) in target.dependencies {
            arguments += ["--module", (dependency as? SourceModuleTarget)?.moduleName ?? dependency.name]
        }
        return [.buildCommand(displayName: "Writing the style note of \(target.name)", executable: tool.path,
                              arguments: arguments, inputFiles: [], outputFiles: [output])]
    }
}
