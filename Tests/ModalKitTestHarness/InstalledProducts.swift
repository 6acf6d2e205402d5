// The products the end-to-end tests run: what users install, not the debug build next to the
// test binary.
import Foundation
import ModalKitSession
#if canImport(Glibc)
import Glibc
#endif

/// `modal-demo` and the built-in style plugins as `scripts/install PREFIX` lays them out: a
/// release build (`swift build -c release` with the install's flags) in a relocatable prefix,
///
///     PREFIX/bin/modal-demo
///     PREFIX/lib/modalkit/styles/libModalKitStyle*.so
///     PREFIX/lib/modalkit/lib*.so                       (the Swift runtime)
///     PREFIX/share/modalkit/ModalKit/                   (for `modal-demo new-style`)
///
/// named by `MODALKIT_TEST_PREFIX`. `scripts/test` installs it before every run (an incremental
/// release build) and sets the variable; the unit tests stay on the debug build `swift test`
/// makes. A behaviour that holds only in debug is a bug, so the end-to-end tests never fall back to
/// the debug products: without the variable they fail, saying how to run them.
public enum InstalledProducts {
    public static let environmentKey = "MODALKIT_TEST_PREFIX"

    /// The installed prefix (absolute, with `bin/modal-demo` in it).
    /// - Throws: `HarnessError` when `MODALKIT_TEST_PREFIX` is unset or names no installed prefix.
    public static func prefix() throws -> String {
        let hint = "run the end-to-end tests through scripts/test (e.g. scripts/test --filter WindowSwayTests), "
            + "which installs the release build and sets it, or run scripts/install DIR and set \(environmentKey)=DIR"
        guard let prefix = ProcessInfo.processInfo.environment[environmentKey], !prefix.isEmpty else {
            throw HarnessError("\(environmentKey) is not set: the end-to-end tests run the release build users install, not the debug build; \(hint)")
        }
        guard prefix.hasPrefix("/") else {
            throw HarnessError("\(environmentKey)=\(prefix) is not an absolute path; \(hint)")
        }
        guard access(prefix + "/bin/modal-demo", X_OK) == 0 else {
            throw HarnessError("\(environmentKey)=\(prefix) has no bin/modal-demo (not a scripts/install prefix); \(hint)")
        }
        return prefix
    }

    /// `PREFIX/bin/modal-demo`.
    public static func demo() throws -> String { try prefix() + "/bin/modal-demo" }

    /// `PREFIX/bin`: what scripts/demo takes as `MODALKIT_BIN`.
    public static func binDirectory() throws -> String { try prefix() + "/bin" }

    /// `PREFIX/lib/modalkit/styles`, where the installed modal-demo finds the built-in styles.
    public static func stylesDirectory() throws -> String { try prefix() + "/lib/modalkit/styles" }

    /// An installed built-in style library, e.g. `libModalKitStyleInsetCentered.so`.
    /// - Throws: `HarnessError` when it is not installed.
    public static func style(_ file: String) throws -> String {
        let path = try stylesDirectory() + "/" + file
        guard FileManager.default.fileExists(atPath: path) else {
            throw HarnessError("\(path) is not installed (scripts/install installs every libModalKitStyle*.so)")
        }
        return path
    }
}
