// Where the session's helper programs are: the VNC client (vnc_input.py), the KWin driver's C
// source (kwin_driver.c) and mutter's RemoteDesktop client (mutter_remote_desktop.py).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The directory holding the session's helper programs, found in this order:
/// `$MODALKIT_SESSION_HELPERS`; `<executable's directory>/../share/modalkit/session` (what
/// scripts/install puts next to `modalkit-session`); the `Helpers` folder next to this source
/// file (a build from the package, as the tests and modal-bench run).
public enum SessionHelpers {
    public static let environmentKey = "MODALKIT_SESSION_HELPERS"

    public static var directory: String {
        if let dir = ProcessInfo.processInfo.environment[environmentKey], !dir.isEmpty { return dir }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let installed = ((exe as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../share/modalkit/session")
        if access(installed + "/vnc_input.py", R_OK) == 0 { return (installed as NSString).standardizingPath }
        return ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Helpers")
    }

    /// The path of helper `name` (`vnc_input.py`, `kwin_driver.c`, `mutter_remote_desktop.py`).
    /// - Throws: `HarnessError` when it is not readable there.
    public static func path(_ name: String) throws -> String {
        let path = directory + "/" + name
        guard access(path, R_OK) == 0 else {
            throw HarnessError("session helper \(name) not found in \(directory) (set \(environmentKey))")
        }
        return path
    }

    /// A C compiler on PATH (cc, gcc or clang), for the KWin driver.
    public static func cCompiler() throws -> String {
        guard let cc = ["cc", "gcc", "clang"].lazy.compactMap(findExecutable).first else {
            throw HarnessError("no C compiler (cc, gcc or clang) on PATH for the KWin driver")
        }
        return cc
    }
}
