// The few operating-system services the libraries and the demo need, on Glibc alone.
//
// Foundation (with FoundationEssentials, FoundationInternationalization and ICU) is the largest
// part of a Swift program's start-up on Linux: the dynamic loader maps and relocates it before
// `main`, which costs a window its first frame and a `--version` most of its run, and it stays
// resident (docs/design.md, "Start-up and footprint"). Every module that modal-demo or a style
// plugin loads therefore uses these instead; tools (modal-bench, the tests, the note generator)
// may keep Foundation. Everything here is `package`: it is not ModalKit's API.
import Glibc

// MARK: Locking

/// A mutual-exclusion lock: a `pthread_mutex_t` (default attributes: not recursive) in memory of
/// its own, which never moves. Foundation's `NSLock` is the same mutex.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

// MARK: Environment

/// This process's environment (`environ(7)`).
@usableFromInline package enum ProcessEnvironment {
    /// Every `NAME=value` entry as a dictionary; an entry without `=` is skipped, and of two
    /// entries with one name the first counts, as for `getenv(3)`.
    @usableFromInline package static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// `getenv(name)`: nil when unset.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The lock between the process's threads that read its environment and the one place that
    /// changes it. `setenv(3)` and `unsetenv(3)` are not safe against a `getenv(3)` on another
    /// thread (POSIX leaves it undefined; glibc moves the `environ` array when a variable is added
    /// and shifts it when one is removed, under a lock `getenv` does not take). ModalKit changes
    /// its environment only while the accessibility bridge starts (`AT_SPI_BUS_ADDRESS`, the one
    /// way to tell libatspi the bus's address), inside ``changing(_:)``; a thread of ModalKit's
    /// own that runs code reading the environment while the bridge may start — the demo's font
    /// load: fontconfig, FreeType and HarfBuzz read theirs as fonts are made — does so inside
    /// ``reading(_:)``. Readers run together; a change waits for them, and they for it.
    package static func reading<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body`, which changes the environment, while no ``reading(_:)`` runs.
    package static func changing<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Made once (Swift's lazy statics are initialised once, thread-safely), never destroyed.
    private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
        return lock
    }()
}

// MARK: Heap

/// Returns the free memory of every malloc arena to the system (glibc's `malloc_trim(0)`, looked up
/// with `dlsym`: Swift's Glibc module does not import `<malloc.h>`); does nothing with a C library
/// that has no such function. - Returns: whether memory was released.
@discardableResult
package func releaseFreeHeapMemory() -> Bool {
    typealias Trim = @convention(c) (Int) -> Int32
    // RTLD_DEFAULT is ((void *) 0) in glibc's <dlfcn.h>.
    guard let symbol = dlsym(nil, "malloc_trim") else { return false }
    return unsafeBitCast(symbol, to: Trim.self)(0) != 0
}

// MARK: Standard error

/// Writes `text` to standard error (fd 2) whole, unbuffered, retrying after `EINTR`; a closed or
/// full stderr loses the text (there is nowhere else to report to).
package func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}

/// The running program's name (the last component of `argv[0]`), as Foundation's
/// `ProcessInfo.processName` gives it.
package var programName: String {
    guard let first = CommandLine.arguments.first, !first.isEmpty else { return "?" }
    return PathName.lastComponent(first)
}

// MARK: Paths

/// Path names as strings, with `NSString`'s rules for its path methods: `/` separates
/// components, trailing slashes do not start an empty one, and a lone `/` is the root.
package enum PathName {
    /// `path` without trailing slashes (the root stays `/`).
    private static func trimmed(_ path: String) -> Substring {
        var s = Substring(path)
        while s.count > 1, s.last == "/" { s.removeLast() }
        return s
    }

    /// The last component: `/a/b/` → `b`, `/` → `/`, `` → ``.
    package static func lastComponent(_ path: String) -> String {
        let s = trimmed(path)
        if s == "/" { return "/" }
        guard let slash = s.lastIndex(of: "/") else { return String(s) }
        return String(s[s.index(after: slash)...])
    }

    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → ``, `/` → `/`.
    package static func deletingLastComponent(_ path: String) -> String {
        let s = trimmed(path)
        if s == "/" { return "/" }
        guard let slash = s.lastIndex(of: "/") else { return "" }
        var head = s[..<slash]
        while head.count > 1, head.last == "/" { head.removeLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// `component` appended with one `/` between (none added to an empty `path`).
    package static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }
}

// MARK: Files

/// The error of a failed system call: its name and `strerror(errno)`.
package struct SystemCallError: Error, CustomStringConvertible {
    package let call: String
    package let code: Int32
    package init(_ call: String, code: Int32 = errno) { self.call = call; self.code = code }
    package var message: String { String(cString: strerror(code)) }
    package var description: String { "\(call): \(message)" }
}

package enum FileSystem {
    /// The names in directory `path` (without `.` and `..`), in the order `readdir(3)` gives them.
    /// - Throws: ``SystemCallError`` when the directory cannot be opened.
    package static func entries(ofDirectory path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw SystemCallError("opendir") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether something exists at `path` (following symbolic links, like `stat(2)`).
    package static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The whole contents of the file at `path`, read until end of file.
    /// - Throws: ``SystemCallError`` when it cannot be opened or read.
    package static func contents(of path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("read")
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Copies the regular file at `source` to a new file `destination` (created exclusively, never
    /// through a link, with `mode`), byte for byte; a partly written copy is removed again.
    /// - Throws: ``SystemCallError`` when either cannot be opened, or reading or writing fails.
    package static func copyFile(_ source: String, to destination: String, mode: mode_t = 0o600) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw SystemCallError("open") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard output >= 0 else { throw SystemCallError("open") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        var open = true
        do {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemCallError("read")
                }
                if n == 0 { break }
                var offset = 0
                while offset < n {
                    let w = chunk.withUnsafeBytes { write(output, $0.baseAddress! + offset, n - offset) }
                    if w < 0 {
                        if errno == EINTR { continue }
                        throw SystemCallError("write")
                    }
                    offset += w
                }
            }
            open = false
            guard close(output) == 0 else { throw SystemCallError("close") }
        } catch {
            if open { close(output) }
            unlink(destination)
            throw error
        }
    }

    /// The target of the symbolic link at `path` (`readlink(2)`).
    /// - Throws: ``SystemCallError`` when `path` is not a symbolic link or cannot be read.
    package static func linkTarget(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw SystemCallError("readlink") }
        buffer[n] = 0
        return String(cString: buffer)
    }
}

// MARK: Text

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: the characters of Foundation's
    /// `CharacterSet.whitespaces` (Unicode general category Zs, U+0009 and U+200B ZERO WIDTH SPACE).
    package func trimmingWhitespace() -> String {
        func isBlank(_ s: Unicode.Scalar) -> Bool {
            s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator
        }
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return String(Substring(scalars[first...last]))
    }

    /// Every occurrence of `target` (non-empty) replaced by `replacement`, left to right and not
    /// overlapping, compared by `Character`.
    package func replacingAll(_ target: String, with replacement: String) -> String {
        precondition(!target.isEmpty, "replacingAll: empty target")
        var result = ""
        var rest = Substring(self)
        let count = target.count
        while !rest.isEmpty {
            if rest.starts(with: target) {
                result += replacement
                rest = rest.dropFirst(count)
            } else {
                result.append(rest.removeFirst())
            }
        }
        return result
    }

    /// Whether `other` (non-empty) occurs in the text, compared by `Character`.
    package func containsText(_ other: String) -> Bool {
        guard !other.isEmpty else { return true }
        var rest = Substring(self)
        while !rest.isEmpty {
            if rest.starts(with: other) { return true }
            rest.removeFirst()
        }
        return false
    }

    /// The range of the first occurrence of `other` (non-empty) in the text, compared by
    /// `Character`, or nil.
    package func rangeOfText(_ other: String) -> Range<Index>? {
        guard !other.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].starts(with: other) { return i..<index(i, offsetBy: other.count) }
            i = index(after: i)
        }
        return nil
    }
}

/// `format` with `arguments` formatted by `vsnprintf(3)` (the C library's printf rules, which
/// Foundation's `String(format:)` follows for these conversions): e.g. `cFormat("%.3f", 0.5)` is
/// `0.500`. Only C conversions: `%@` is not supported.
package func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        // A va_list can be used once: a second pass (longer result) makes a new one.
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        if needed < buffer.count { return String(cString: buffer) }
        buffer = [CChar](repeating: 0, count: needed + 1)
        return withVaList(arguments) { again in
            _ = vsnprintf(&buffer, buffer.count, format, again)
            return String(cString: buffer)
        }
    }
}

// MARK: JSON strings

/// JSON string literals for the log lines of the demo and of the test input method (one quoter, so
/// both write a string the same way).
package enum JSONString {
    /// `text` as a JSON string literal (RFC 8259): in double quotes, `"` and `\` escaped, control
    /// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; everything else as it is (UTF-8).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if s.value < 0x20 {
                    let hex = String(s.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }
}
