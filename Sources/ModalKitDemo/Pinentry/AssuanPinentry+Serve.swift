import Glibc

extension AssuanPinentry {
    /// How a conversation ended.
    public enum End: Equatable, Sendable {
        /// `BYE` answered.
        case bye
        /// The input ended (gpg-agent closed the pipe); pinentry exits 0 then too.
        case endOfInput
        /// A line longer than ``maximumLineLength`` bytes, or input ending inside a line (libassuan
        /// refuses both: "Line passed to IPC too long", "Incomplete line passed to IPC").
        case lineTooLong, incompleteLine
        /// Reading failed (`errno`), or a response could not be written.
        case readFailed(Int32), writeFailed

        /// The one stderr line for an end that is an error (nil for `bye` and `endOfInput`).
        public var message: String? {
            switch self {
            case .bye, .endOfInput: nil
            case .lineTooLong: "pinentry: a line is longer than \(AssuanPinentry.maximumLineLength) bytes"
            case .incompleteLine: "pinentry: the input ended inside a line"
            case .readFailed(let e): "pinentry: could not read standard input: " + String(cString: strerror(e))
            case .writeFailed: "pinentry: could not write standard output"
            }
        }
    }

    /// Greets and answers lines read from `input` until `BYE`, the end of the input or an error.
    public func serve(input: Int32) -> End {
        guard greet() else { return .writeFailed }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let newline = pending.firstIndex(of: 0x0A) {
                guard newline <= Self.maximumLineLength else { return .lineTooLong }
                let step = handle(line: pending[..<newline])
                pending.removeSubrange(...newline)
                switch step {
                case .more: continue
                case .bye: return .bye
                case .writeFailed: return .writeFailed
                }
            }
            if pending.count > Self.maximumLineLength { return .lineTooLong }
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .readFailed(errno)
            }
            if n == 0 { return pending.isEmpty ? .endOfInput : .incompleteLine }
            pending.append(contentsOf: chunk[..<n])
        }
    }

    /// A writer for ``init(prompter:flavor:version:processID:write:)`` onto a descriptor (every
    /// byte written, EINTR retried; false on any other error, e.g. EPIPE).
    public static func descriptorWriter(_ fd: Int32) -> (UnsafeRawBufferPointer) -> Bool {
        { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
