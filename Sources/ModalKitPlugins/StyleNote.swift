// The style note: a style's declaration as an ELF note in its library, so that a host reads a
// plugin's name and options from the file without running any of its code (the format:
// modalkit_style.h, "The style note"; why: docs/design.md, plugin metadata and trust).
import CModalKitStyle
import Glibc
import ModalKitStyle
import ModalKitSystemSupport

/// Encodes and decodes the payload of a style library's ELF note (`modalkit_style.h`, "The style
/// note"), and writes the Swift source that puts it into a library.
public enum StyleNote {
    /// The section the note lives in, `.note.modalkit`.
    public static let section = MODALKIT_NOTE_SECTION
    /// The note's owner name, `ModalKit`.
    public static let owner = MODALKIT_NOTE_OWNER
    /// The note type (`n_type`) of a style note.
    public static let type = UInt32(MODALKIT_NOTE_TYPE_STYLE)
    /// The payload format this ModalKit writes and reads.
    public static let format = UInt32(MODALKIT_NOTE_FORMAT)
    /// The largest payload a host reads, bytes.
    public static let maximumPayload = 1 << 20

    // MARK: Encoding

    /// The payload for `declaration` (little-endian, a multiple of 4 bytes).
    public static func payload(for declaration: StyleDeclaration) -> [UInt8] {
        var out = Writer()
        out.u32(format)
        out.u32(declaration.abiVersion.major)
        out.u32(declaration.abiVersion.minor)
        out.u32(0)
        out.field(MODALKIT_NOTE_NAME, Array(declaration.name.utf8))
        out.field(MODALKIT_NOTE_SUMMARY, Array(declaration.summary.utf8))
        for option in declaration.options {
            var o = Writer()
            o.field(MODALKIT_NOTE_OPTION_KEY, Array(option.key.utf8))
            o.field(MODALKIT_NOTE_OPTION_MEANING, Array(option.summary.utf8))
            o.field(MODALKIT_NOTE_OPTION_DEFAULT, Array(option.defaultValue.utf8))
            if !option.unit.isEmpty { o.field(MODALKIT_NOTE_OPTION_UNIT, Array(option.unit.utf8)) }
            switch option.accepted {
            case let .text(text):
                o.field(MODALKIT_NOTE_OPTION_KIND, Writer.bytes(of: MODALKIT_OPTION_TEXT))
                if !text.isEmpty { o.field(MODALKIT_NOTE_OPTION_ACCEPTED, Array(text.utf8)) }
            case let .number(range):
                o.field(MODALKIT_NOTE_OPTION_KIND, Writer.bytes(of: MODALKIT_OPTION_NUMBER))
                o.field(MODALKIT_NOTE_OPTION_RANGE, Writer.bytes(of: range.lowerBound.bitPattern)
                        + Writer.bytes(of: range.upperBound.bitPattern))
            case let .choice(words):
                o.field(MODALKIT_NOTE_OPTION_KIND, Writer.bytes(of: MODALKIT_OPTION_CHOICE))
                for word in words { o.field(MODALKIT_NOTE_OPTION_CHOICE, Array(word.utf8)) }
            case .color:
                o.field(MODALKIT_NOTE_OPTION_KIND, Writer.bytes(of: MODALKIT_OPTION_COLOR))
            case .curve:
                o.field(MODALKIT_NOTE_OPTION_KIND, Writer.bytes(of: MODALKIT_OPTION_CURVE))
            }
            out.field(MODALKIT_NOTE_OPTION, o.bytes)
        }
        return out.bytes
    }

    /// The whole note as it appears in the file (`n_namesz`, `n_descsz`, `n_type` in this
    /// machine's byte order, the owner padded to 12 bytes, then the payload).
    public static func note(for declaration: StyleDeclaration) -> [UInt8] {
        let body = payload(for: declaration)
        var bytes: [UInt8] = []
        for v in [UInt32(owner.utf8.count + 1), UInt32(body.count), type] { withUnsafeBytes(of: v) { bytes += $0 } }
        bytes += ownerField
        return bytes + body
    }

    /// "ModalKit", its NUL and padding to a multiple of 4: 12 bytes.
    static var ownerField: [UInt8] {
        let name = Array(owner.utf8) + [0]
        return name + [UInt8](repeating: 0, count: (4 - name.count % 4) % 4)
    }

    /// Swift source that places the note for `declaration` in the library the file is compiled
    /// into: a `@section(".note.modalkit") @used` constant (SE-0492), which the compiler emits as
    /// an allocated SHT_NOTE section that the linker keeps. `origin` names what it was generated
    /// from, for the header comment.
    public static func swiftSource(for declaration: StyleDeclaration, origin: String) -> String {
        let body = payload(for: declaration)
        let owner = ownerField
        func list(_ bytes: [UInt8], indent: String) -> String {
            stride(from: 0, to: bytes.count, by: 16).map { start in
                indent + bytes[start..<min(start + 16, bytes.count)].map { String($0) }.joined(separator: ", ")
            }.joined(separator: ",\n")
        }
        return """
            // Generated at build time from \(origin)'s declarations (name, summary, style ABI, options):
            // the library's ELF note, which hosts read from the file without loading the library
            // (modalkit_style.h, "The style note"). Do not edit: every build writes it again.

            @section("\(section)") @used
            private let modalkitStyleNote: (UInt32, UInt32, UInt32, InlineArray<\(owner.count), UInt8>, InlineArray<\(body.count), UInt8>) = (
                \(StyleNote.owner.utf8.count + 1), \(body.count), 0x\(String(type, radix: 16, uppercase: true)),
                [\(owner.map { String($0) }.joined(separator: ", "))],
                [
            \(list(body, indent: "        "))
                ]
            )

            """
    }

    // MARK: Decoding

    /// The declaration in a note payload.
    /// - Throws: `StyleNoteProblem` for a payload that is cut short, of another format, without
    ///   a required field, with text that is not UTF-8, or whose declaration breaks the header's
    ///   rules (`StyleDeclarationProblem`).
    public static func declaration(fromPayload payload: [UInt8]) throws -> StyleDeclaration {
        guard payload.count <= maximumPayload else { throw StyleNoteProblem.tooLarge(payload.count) }
        guard payload.count >= 16 else { throw StyleNoteProblem.truncated(payload.count) }
        let reader = Reader(bytes: payload)
        let version = reader.u32(at: 0)
        guard version == format else { throw StyleNoteProblem.unknownFormat(version) }
        let abi = StyleABIVersion(major: reader.u32(at: 4), minor: reader.u32(at: 8))
        var name: String?
        var summary: String?
        var options: [StyleOption] = []
        for field in try reader.fields(from: 16, to: payload.count) {
            switch field.tag {
            case MODALKIT_NOTE_NAME where name == nil: name = try text(field, "NAME")
            case MODALKIT_NOTE_SUMMARY where summary == nil: summary = try text(field, "SUMMARY")
            case MODALKIT_NOTE_OPTION:
                guard options.count < StyleDeclaration.maximumOptions else {
                    throw StyleNoteProblem.declaration(.tooManyOptions(options.count + 1))
                }
                options.append(try option(field.value, index: options.count))
            default: continue   // a later version's field, or a repeated once-only one
            }
        }
        guard let name else { throw StyleNoteProblem.missingField("NAME") }
        guard let summary else { throw StyleNoteProblem.missingField("SUMMARY") }
        let declaration = StyleDeclaration(name: name, summary: summary, abiVersion: abi, options: options).normalized
        if let problem = declaration.problem { throw StyleNoteProblem.declaration(problem) }
        return declaration
    }

    /// `what` names the field in the error only: it is not formatted for a field that reads well.
    private static func text(_ field: Reader.Field, _ what: @autoclosure () -> String) throws -> String {
        guard let s = String(validating: field.value, as: UTF8.self) else { throw StyleNoteProblem.notUTF8(what()) }
        return s
    }

    private static func option(_ bytes: ArraySlice<UInt8>, index: Int) throws -> StyleOption {
        let reader = Reader(bytes: Array(bytes))
        var key: String?, meaning: String?, defaultValue: String?, unit: String?, accepted: String?
        var kind: UInt32?
        var range: ClosedRange<Double>?
        var choices: [String] = []
        for field in try reader.fields(from: 0, to: bytes.count) {
            func what(_ part: String) -> String { "option \(index) \(key.map { "'\($0)' " } ?? "")" + part }
            switch field.tag {
            case MODALKIT_NOTE_OPTION_KEY where key == nil: key = try text(field, what("KEY"))
            case MODALKIT_NOTE_OPTION_MEANING where meaning == nil: meaning = try text(field, what("MEANING"))
            case MODALKIT_NOTE_OPTION_DEFAULT where defaultValue == nil: defaultValue = try text(field, what("DEFAULT"))
            case MODALKIT_NOTE_OPTION_UNIT where unit == nil: unit = try text(field, what("UNIT"))
            case MODALKIT_NOTE_OPTION_ACCEPTED where accepted == nil: accepted = try text(field, what("ACCEPTED"))
            case MODALKIT_NOTE_OPTION_KIND where kind == nil:
                guard field.value.count == 4 else { throw StyleNoteProblem.badLength(what("KIND"), field.value.count) }
                kind = Reader(bytes: Array(field.value)).u32(at: 0)
            case MODALKIT_NOTE_OPTION_RANGE where range == nil:
                guard field.value.count == 16 else { throw StyleNoteProblem.badLength(what("RANGE"), field.value.count) }
                let r = Reader(bytes: Array(field.value))
                let low = Double(bitPattern: r.u64(at: 0)), high = Double(bitPattern: r.u64(at: 8))
                guard low.isFinite, high.isFinite, low <= high else {
                    throw StyleNoteProblem.badRange(what("").trimmingWhitespace(), low, high)
                }
                range = low...high
            case MODALKIT_NOTE_OPTION_CHOICE:
                guard choices.count < StyleDeclaration.maximumChoices else {
                    throw StyleNoteProblem.declaration(.badChoices(key: key ?? "\(index)", count: choices.count + 1))
                }
                choices.append(try text(field, what("CHOICE")))
            default: continue
            }
        }
        guard let key else { throw StyleNoteProblem.missingField("option \(index) KEY") }
        let declared: StyleOption.Accepted
        switch kind ?? MODALKIT_OPTION_TEXT {
        case MODALKIT_OPTION_NUMBER:
            guard let range else { throw StyleNoteProblem.missingField("option '\(key)' RANGE") }
            declared = .number(range)
        case MODALKIT_OPTION_CHOICE:
            guard !choices.isEmpty else { throw StyleNoteProblem.missingField("option '\(key)' CHOICE") }
            declared = .choice(choices)
        case MODALKIT_OPTION_COLOR: declared = .color
        case MODALKIT_OPTION_CURVE: declared = .curve
        default: declared = .text(accepted ?? "")   // TEXT, or a kind from a later minor: text (as from a descriptor)
        }
        return StyleOption(key: key, summary: meaning ?? "", defaultValue: defaultValue ?? "", unit: unit ?? "",
                           accepted: declared)
    }

    // MARK: Bytes

    private struct Writer {
        var bytes: [UInt8] = []

        static func bytes<T: FixedWidthInteger>(of v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

        mutating func u32(_ v: UInt32) { bytes += Writer.bytes(of: v) }

        mutating func field(_ tag: UInt32, _ value: [UInt8]) {
            u32(tag)
            u32(UInt32(value.count))
            bytes += value
            bytes += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        struct Field { let tag: UInt32; let value: ArraySlice<UInt8> }

        func u32(at offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }

        func u64(at offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }

        /// The fields between `start` and `end`, each checked to lie within them.
        func fields(from start: Int, to end: Int) throws -> [Field] {
            var fields: [Field] = []
            var offset = start
            while offset < end {
                guard end - offset >= 8 else { throw StyleNoteProblem.fieldPastEnd(offset: offset) }
                let tag = u32(at: offset), length = Int(u32(at: offset + 4))
                let valueStart = offset + 8
                guard length <= end - valueStart else { throw StyleNoteProblem.fieldPastEnd(offset: offset) }
                guard tag != 0 else { throw StyleNoteProblem.zeroTag(offset: offset) }
                fields.append(Field(tag: tag, value: bytes[valueStart..<valueStart + length]))
                offset = valueStart + length + (4 - length % 4) % 4
            }
            return fields
        }
    }
}

/// Why a style note's payload cannot be read (`StyleNote.declaration(fromPayload:)`).
public enum StyleNoteProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Shorter than its 16-byte header (`size` bytes).
    case truncated(Int)
    /// Larger than `StyleNote.maximumPayload`.
    case tooLarge(Int)
    /// A payload format this host does not know (it reads `StyleNote.format`).
    case unknownFormat(UInt32)
    /// A field at this offset runs past the end of its list.
    case fieldPastEnd(offset: Int)
    /// A field with tag 0 at this offset.
    case zeroTag(offset: Int)
    /// A required field is absent (its name in the header: NAME, SUMMARY, an option's KEY…).
    case missingField(String)
    /// A text field that is not UTF-8.
    case notUTF8(String)
    /// A fixed-size field of the wrong length (bytes).
    case badLength(String, Int)
    /// A number option's range that is not a finite `minimum <= maximum`.
    case badRange(String, Double, Double)
    /// Two notes of ModalKit's type in one library.
    case duplicateNote
    /// The note's declaration breaks the header's rules.
    case declaration(StyleDeclarationProblem)

    public var description: String {
        switch self {
        case let .truncated(n): return "the payload is \(n) bytes, shorter than its 16-byte header"
        case let .tooLarge(n): return "the payload is \(n) bytes, more than \(StyleNote.maximumPayload)"
        case let .unknownFormat(v): return "note format \(v), this host reads format \(StyleNote.format)"
        case let .fieldPastEnd(offset): return "the field at byte \(offset) runs past the end"
        case let .zeroTag(offset): return "the field at byte \(offset) has tag 0"
        case let .missingField(what): return "no \(what) field"
        case let .notUTF8(what): return "the \(what) field is not UTF-8"
        case let .badLength(what, n): return "the \(what) field is \(n) bytes"
        case let .badRange(what, low, high): return "\(what) range \(low)...\(high) is not a finite range"
        case .duplicateNote: return "the library has two ModalKit style notes"
        case let .declaration(problem): return problem.description
        }
    }
}
