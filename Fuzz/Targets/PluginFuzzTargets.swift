import Glibc
@testable import ModalKitPlugins
import ModalKitStyle

/// The ELF reader on an anonymous file holding the input (it reads a descriptor with `pread`, as
/// it reads a plugin), for this machine and for any machine (no host: every class and byte
/// order is parsed); then the style note's payload it found, as the loader reads it.
enum ELFFuzzTarget {
    /// One file for every input, unlinked at once (nothing is left in TMPDIR).
    private static let fd: Int32 = {
        let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((dir + "/modalkit-fuzz-elf.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(fd >= 0, "modalkit-fuzz: cannot make a file in \(dir)")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }()

    static func run(_ data: [UInt8]) {
        precondition(ftruncate(fd, 0) == 0)
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { pwrite(fd, $0.baseAddress! + written, data.count - written, off_t(written)) }
            precondition(n > 0, "modalkit-fuzz: cannot write the input")
            written += n
        }
        for host in [ELFIdentity.host, nil] {
            switch ELFFile.inspect(fd: fd, host: host) {
            case let .success(file):
                precondition(file.size == data.count)
                _ = file.dynamic.originEntries
                if let payload = file.styleNotePayload { StyleNoteFuzzTarget.run(payload) }
            case let .failure(.problem(problem)):
                _ = problem.description
            case .failure:
                break
            }
        }
    }
}

/// The style note's payload reader; a payload it accepts must come back the same from the
/// payload written for what it read (the loader compares declarations in this form).
enum StyleNoteFuzzTarget {
    static func run(_ data: [UInt8]) {
        let declaration: StyleDeclaration
        do {
            declaration = try StyleNote.declaration(fromPayload: data)
        } catch {
            _ = "\(error)"
            return
        }
        let again = try? StyleNote.declaration(fromPayload: StyleNote.payload(for: declaration))
        precondition(again == declaration, "a style note read back differs: \(declaration) → \(String(describing: again))")
        _ = StyleNote.swiftSource(for: declaration, origin: "fuzz")
    }
}
