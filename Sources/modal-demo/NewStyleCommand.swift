import ModalKitDemo
import ModalKitStyleTemplate
import ModalKit
import ModalKitPlugins

/// `modal-demo new-style NAME [--directory DIR]`: writes a style package (`StyleTemplate`)
/// depending on the ModalKit this `modal-demo` comes from, and prints the next commands.
/// - Returns: 0. A directory that is not empty exits 2 (nothing written); no ModalKit package
///   to depend on, or a write failure, exits 1.
func runNewStyle(_ options: NewStyleOptions) -> Int32 {
    let directory = options.directory ?? options.name
    do {
        try StyleTemplate.checkDestination(directory)
    } catch let error as StyleTemplate.WriteError {
        fail(error.isUsage ? UsageError.exitStatus : 1, error.description)
    } catch {
        fail(1, String(describing: error))
    }
    guard let exe = StyleLoader.currentExecutablePath(),
          let modalKit = StyleTemplate.modalKitPackage(forExecutable: exe) else {
        fail(1, "cannot find the ModalKit package to depend on: neither a checkout above this modal-demo nor ../share/modalkit/ModalKit next to it")
    }
    let template: StyleTemplate
    do {
        template = try StyleTemplate(name: options.name, modalKitPath: modalKit, demoPath: exe)
        try template.write(to: directory)
    } catch let error as StyleTemplate.WriteError {
        fail(error.isUsage ? UsageError.exitStatus : 1, error.description)
    } catch {
        fail(UsageError.exitStatus, String(describing: error))
    }
    print("wrote \(directory)/ (style '\(template.name)', product \(template.productName), ModalKit at \(modalKit))")
    print("next:")
    print("  cd \(directory) && swift build")
    print("  \(exe) render --style .build/debug/\(template.libraryFile) --size 390x844 --progress 0.5 --output half.png")
    return 0
}
