import CModalKitATKInterface
import ModalKit
import ModalKitSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// libModalKitATKBridge.so — the C target CModalKitATK: ATK objects and the at-spi2-atk bridge —
/// loaded with `dlopen` when a bridge starts, so that a program that never starts one maps none of
/// libatk, libatk-bridge, libatspi, GObject or their X11 dependencies (launch time: see the article
/// "Accessibility"). Loaded once per process and never unloaded: GObject types cannot be
/// unregistered (GObject's type system keeps them for the process's life).
final class ATKLibrary: ATKBackend {
    /// The library's file name (SwiftPM's dynamic library product ModalKitATKBridge).
    static let fileName = "libModalKitATKBridge.so"

    /// Where the library is looked for, in order: next to the executable (where `swift build` puts
    /// it), `<that directory>/../lib/modalkit` (the install layout of `scripts/install`), then the
    /// dynamic loader's own search (`LD_LIBRARY_PATH`, the system's library directories).
    static func candidates(executablePath: String? = ATKLibrary.executablePath()) -> [String] {
        var paths: [String] = []
        if let exe = executablePath {
            let dir = PathName.deletingLastComponent(exe)
            paths.append(dir + "/" + fileName)
            paths.append(PathName.deletingLastComponent(dir) + "/lib/modalkit/" + fileName)
        }
        paths.append(fileName)
        return paths
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        buffer[n] = 0
        return String(cString: buffer)
    }

    /// Why the library could not be used.
    enum LoadError: Error, CustomStringConvertible, Equatable {
        /// Not found (or not loadable) at any candidate; the `dlerror` of the last one.
        case notFound(String)
        /// Found, but without the entry symbol or with a table this module does not know.
        case incompatible(path: String, reason: String)

        var description: String {
            switch self {
            case let .notFound(reason): return "\(ATKLibrary.fileName) not found (\(reason))"
            case let .incompatible(path, reason): return "\(path): \(reason)"
            }
        }
    }

    private static var loaded: Result<ATKLibrary, LoadError>?

    /// The library, loaded on first use from ``candidates(executablePath:)``.
    static func load() -> Result<ATKLibrary, LoadError> {
        if let loaded { return loaded }
        var lastError = "no candidate"
        var result: Result<ATKLibrary, LoadError>?
        for path in candidates() {
            guard access(path, F_OK) == 0 || !path.contains("/") else { continue }
            _ = dlerror()
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                lastError = dlerror().map { String(cString: $0) } ?? path
                continue
            }
            _ = dlerror()
            guard let symbol = dlsym(handle, MODALKIT_ATK_INTERFACE_SYMBOL) else {
                result = .failure(.incompatible(path: path, reason: "no \(MODALKIT_ATK_INTERFACE_SYMBOL) symbol"))
                break
            }
            let entry = unsafeBitCast(symbol, to: modalkit_atk_interface_entry.self)
            guard let table = entry(), table.pointee.version >= MODALKIT_ATK_INTERFACE_VERSION,
                  table.pointee.struct_size >= UInt32(MemoryLayout<modalkit_atk_interface>.size) else {
                result = .failure(.incompatible(path: path, reason: "interface older than version \(MODALKIT_ATK_INTERFACE_VERSION)"))
                break
            }
            result = .success(ATKLibrary(table.pointee))
            break
        }
        let final = result ?? .failure(.notFound(lastError))
        loaded = final
        return final
    }

    let api: modalkit_atk_interface
    private init(_ api: modalkit_atk_interface) { self.api = api }

    // MARK: ATKBackend

    var root: OpaquePointer { api.root!()! }

    func makeNode(kind: modalkit_atk_kind, key: UInt64) -> OpaquePointer {
        api.node_new!(Int32(kind.rawValue), key)!
    }

    func release(_ node: OpaquePointer) { api.node_release!(node) }

    func setText(_ node: OpaquePointer, name: String, description: String) {
        api.node_set_text!(node, name, description)
    }

    func setRole(_ node: OpaquePointer, _ role: modalkit_atk_role) { api.node_set_role!(node, Int32(role.rawValue)) }

    func setExtents(_ node: OpaquePointer, x: Int32, y: Int32, width: Int32, height: Int32) {
        api.node_set_extents!(node, x, y, width, height)
    }

    func setStates(_ node: OpaquePointer, _ states: ATKStates, value: Bool, notify: Bool) {
        guard !states.isEmpty else { return }
        api.node_set_states!(node, states.rawValue, value ? 1 : 0, notify ? 1 : 0)
    }

    func insertChild(_ child: OpaquePointer, into parent: OpaquePointer, at index: Int, notify: Bool) {
        api.node_insert_child!(parent, child, Int32(clamping: index), notify ? 1 : 0)
    }

    func removeChild(_ child: OpaquePointer, notify: Bool) { api.node_remove_child!(child, notify ? 1 : 0) }

    func windowEvent(_ window: OpaquePointer, _ event: modalkit_atk_window_event) {
        api.window_event!(window, Int32(event.rawValue))
    }

    func setRelation(_ node: OpaquePointer, _ kind: modalkit_atk_relation, to target: OpaquePointer?) {
        api.node_set_relation!(node, Int32(kind.rawValue), target)
    }

    func setTextValue(_ node: OpaquePointer, _ text: AccessibilityText, notify: Bool) {
        // ATK counts code points; the element counts grapheme clusters.
        func scalars(_ characters: Int) -> Int32 {
            Int32(clamping: text.text.prefix(max(0, characters)).unicodeScalars.count)
        }
        api.node_set_text_value!(node, text.text, scalars(text.caret), scalars(text.selection.lowerBound),
                                 scalars(text.selection.upperBound), notify ? 1 : 0)
    }

    /// ``modalkit_atk_interface/listening_generation``.
    var listeningGeneration: UInt32 { api.listening_generation!() }
}
