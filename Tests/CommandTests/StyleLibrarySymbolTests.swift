// A style library links what a style needs (ModalKitStyle: its hooks, geometry, options, chrome,
// timing and the export to the C ABI) and nothing of the host's side of the boundary: the loader,
// the ELF and note reader and the trust rules live in ModalKitPlugins, which only a host links
// (docs/design.md, module graph). Checked on the installed built-in styles with binutils' `nm`.
import Foundation
import ModalKitTestHarness
import XCTest

final class StyleLibrarySymbolTests: XCTestCase {
    typealias Support = PluginTestSupport

    /// The built-in style libraries `scripts/install` puts in lib/modalkit/styles.
    private let builtIn = ["libModalKitStyleInsetCentered.so", "libModalKitStyleBottomSheet.so", "libModalKitStyleAdaptive.so",
                           "libModalKitStylePopover.so", "libModalKitStyleAlert.so"]

    /// The host-only types (ModalKitPlugins): a Swift symbol of one of them, or of any member of
    /// it, carries its identifier mangled as `<length><name>` (e.g. `11StyleLoader`).
    private let hostOnlyTypes = ["StyleLoader", "ELFFile", "ELFIdentity", "ELFProblem", "StyleTrust", "StyleTrustViolation",
                                 "OpenedLibrary", "PluginLibrary", "StyleListing", "StyleMetadata", "PluginHostStyle",
                                 "PluginHostInstance", "PluginDiagnostics", "BoundaryCheck", "BoundaryIssues", "StyleModule",
                                 "StyleLoadError", "StyleLookupError", "StyleNote", "StyleNoteMismatch", "MissingStyleLibraryHint"]

    private func nm() throws -> String {
        guard let path = ["/usr/bin/nm", "/bin/nm"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw PluginTestFailure("binutils' nm is not installed (apt install binutils)")
        }
        return path
    }

    /// Every symbol of `library`: its symbol table (`nm`) and its dynamic symbols (`nm -D`, what
    /// remains if the file is stripped).
    private func symbols(_ library: String) throws -> [String] {
        var all: [String] = []
        for arguments in [[library], ["-D", "--defined-only", library]] {
            let result = try Support.run(try nm(), arguments, timeout: 60)
            let noSymbols = result.stderr.contains("no symbols")
            XCTAssertTrue(result.status == 0 || noSymbols, "nm \(arguments.joined(separator: " ")): \(result.stderr)")
            all += result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        }
        return all
    }

    func testABuiltInStyleCarriesNoSymbolOfTheLoaderTheELFReaderOrTheTrustRules() throws {
        let markers = hostOnlyTypes.map { "\($0.utf8.count)\($0)" } + ["15ModalKitPlugins"]
        for file in builtIn {
            let library = try Support.installedLibrary(file)
            let names = try symbols(library)
            // The library is what the host loads: its entry and ABI version are there (the check
            // below is not passing on a file without symbols).
            XCTAssertTrue(names.contains("modalkit_style_entry"), "\(file) has no modalkit_style_entry")
            XCTAssertTrue(names.contains("modalkit_style_abi_version"), "\(file) has no modalkit_style_abi_version")
            let hostOnly = names.filter { name in markers.contains { name.contains($0) } }
            XCTAssertEqual(hostOnly.count, 0, "\(file) carries \(hostOnly.count) symbols of the host's loader, e.g. "
                           + hostOnly.prefix(5).joined(separator: ", "))
        }
    }
}
