// A shared library's ELF headers checked against the file before `dlopen`, and its style note
// found, without mapping or running anything: `dlopen` of a file cut short maps segments past its
// end and the process dies with SIGBUS on first touch (a reloader that acts on a linker's first
// write meets exactly that), so the loader proves the file complete first.
#if canImport(Glibc)
import Glibc
#endif
import ModalKitStyle
import ModalKitSystemSupport

/// What is wrong with a file that should be an ELF shared object for this machine
/// (System V gABI, "ELF Header", "Program Header", "Sections").
public enum ELFProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read; `message` is `strerror`'s.
    case unreadable(message: String)
    /// Shorter than an ELF header of its class (`size` bytes; `needed` bytes).
    case tooShort(size: Int, needed: Int)
    /// It does not start with the ELF magic number `\x7fELF`.
    case notELF
    /// `e_ident[EI_VERSION]` or `e_version` is not 1 (EV_CURRENT).
    case unsupportedVersion(UInt32)
    /// `e_type` is not ET_DYN (a relocatable object, an executable, a core file).
    case notSharedObject(type: UInt16)
    /// A header field that gives a structure's size disagrees with the structure of the file's
    /// class (`field`: e_ehsize, e_phentsize, e_shentsize).
    case badEntrySize(field: String, size: Int, expected: Int)
    /// No program headers: nothing to map.
    case noProgramHeaders
    /// The program header table ends past the end of the file (byte offsets).
    case programHeadersPastEnd(end: UInt64, fileSize: Int)
    /// Segment `index` (of type `type`, e.g. PT_LOAD) has file contents past the end of the file.
    case segmentPastEnd(index: Int, type: String, end: UInt64, fileSize: Int)
    /// Segment `index` has more bytes in the file than in memory (`p_filesz` > `p_memsz`).
    case segmentLargerInFileThanInMemory(index: Int)
    /// No PT_LOAD segment.
    case noLoadableSegment
    /// No PT_DYNAMIC segment: not a dynamically linked object.
    case noDynamicSegment
    /// The section header table ends past the end of the file.
    case sectionHeadersPastEnd(end: UInt64, fileSize: Int)
    /// `e_shstrndx` names no section.
    case badSectionNameTable(index: Int)
    /// Section `name` has contents past the end of the file.
    case sectionPastEnd(name: String, end: UInt64, fileSize: Int)
    /// A note in `section` runs past the end of its section.
    case notePastEnd(section: String)
    /// The section (or segment) that holds the style note is larger than any note a host reads
    /// (4 × `StyleNote.maximumPayload` bytes).
    case noteSectionTooLarge(section: String, size: UInt64)
    /// The dynamic section (PT_DYNAMIC) cannot be read: `what` says which part (its string
    /// table lies in no PT_LOAD segment, a string offset past the table's end, …).
    case badDynamicSection(String)

    /// Whether the file is no ELF file at all (rather than a broken or foreign one).
    public var isNotELF: Bool {
        switch self {
        case .notELF, .tooShort: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .unreadable(message): return "cannot be read (\(message))"
        case let .tooShort(size, needed): return "file too short: \(size) bytes, an ELF header takes \(needed)"
        case .notELF: return "invalid ELF header: the file does not start with the ELF magic number"
        case let .unsupportedVersion(v): return "ELF version \(v), not 1"
        case let .notSharedObject(type): return "it is \(ELFProblem.typeName(type)), not a shared object (ET_DYN)"
        case let .badEntrySize(field, size, expected): return "\(field) is \(size), the file's ELF class needs \(expected)"
        case .noProgramHeaders: return "it has no program headers"
        case let .programHeadersPastEnd(end, size):
            return "its program headers end at byte \(end), past the end of the file (\(size) bytes; cut short?)"
        case let .segmentPastEnd(index, type, end, size):
            return "segment \(index) (\(type)) ends at byte \(end), past the end of the file (\(size) bytes; cut short?)"
        case let .segmentLargerInFileThanInMemory(index): return "segment \(index) is larger in the file than in memory"
        case .noLoadableSegment: return "it has no PT_LOAD segment"
        case .noDynamicSegment: return "it has no PT_DYNAMIC segment"
        case let .sectionHeadersPastEnd(end, size):
            return "its section header table ends at byte \(end), past the end of the file (\(size) bytes; cut short?)"
        case let .badSectionNameTable(index): return "its section name table index \(index) names no section"
        case let .sectionPastEnd(name, end, size):
            return "section \(name) ends at byte \(end), past the end of the file (\(size) bytes; cut short?)"
        case let .notePastEnd(section): return "a note in \(section) runs past the end of its section"
        case let .noteSectionTooLarge(section, size): return "\(section) is \(size) bytes, too large for a style note"
        case let .badDynamicSection(what): return "its dynamic section cannot be read: \(what)"
        }
    }

    static func typeName(_ type: UInt16) -> String {
        switch type {
        case 0: return "of no type (ET_NONE)"
        case 1: return "a relocatable object (ET_REL)"
        case 2: return "an executable (ET_EXEC)"
        case 4: return "a core file (ET_CORE)"
        default: return "of e_type \(type)"
        }
    }
}

/// The parts of an ELF file the style loader reads before `dlopen`: its identity and the
/// payload of its style note. Made only for a file whose headers, every segment's file contents
/// and every section lie within the file (`inspect(path:)`).
struct ELFFile {
    let identity: ELFIdentity
    let size: Int
    /// The payload of the file's ModalKit style note (`StyleNote`), nil when it has none.
    let styleNotePayload: [UInt8]?
    /// What the dynamic section asks of the dynamic loader (gABI "Dynamic Section").
    let dynamic: DynamicInfo

    /// The entries of the dynamic section that decide which other files the dynamic loader
    /// opens for this one (ld.so(8), "Rpath token expansion").
    struct DynamicInfo: Equatable {
        /// `DT_NEEDED`: the libraries it links, by name.
        var needed: [String] = []
        /// `DT_RUNPATH`, split at `:` (empty entries dropped).
        var runpath: [String] = []
        /// `DT_RPATH`, split at `:` (empty entries dropped).
        var rpath: [String] = []

        /// The `DT_RUNPATH` and `DT_RPATH` entries relative to the library's own directory
        /// (`$ORIGIN` or `${ORIGIN}`), in that order.
        var originEntries: [String] {
            (runpath + rpath).filter { $0.containsText("$ORIGIN") || $0.containsText("${ORIGIN}") }
        }
    }

    /// The file at `path` (opened for reading, closed again); see `inspect(fd:host:)`.
    static func inspect(path: String, host: ELFIdentity? = ELFIdentity.host) -> Result<ELFFile, Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.problem(.unreadable(message: String(cString: strerror(errno))))) }
        defer { close(fd) }
        return inspect(fd: fd, host: host)
    }

    /// The open file `fd` as an ELF shared object for a process with `host`'s identity, read with
    /// `pread` (the descriptor's offset is left alone) up to the size `fstat` gives now.
    /// - Returns: the file, or why it is none: `.problem` (an `ELFProblem`), `.foreign` (a
    ///   well-formed header for another machine, class or byte order), or `.duplicateNote`.
    static func inspect(fd: Int32, host: ELFIdentity? = ELFIdentity.host) -> Result<ELFFile, Failure> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.problem(.unreadable(message: String(cString: strerror(errno))))) }
        let reader = FileReader(fd: fd, size: Int(info.st_size))
        do {
            return .success(try parse(reader, host: host))
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.problem(.unreadable(message: "\(error)")))
        }
    }

    enum Failure: Error, Equatable {
        case problem(ELFProblem)
        /// A header for another machine, class or byte order (described by `ELFIdentity`).
        case foreign(ELFIdentity)
        case duplicateNote
    }

    private static func parse(_ file: FileReader, host: ELFIdentity?) throws -> ELFFile {
        guard file.size >= 16 else { throw Failure.problem(.tooShort(size: file.size, needed: 64)) }
        let ident = try file.bytes(at: 0, count: 16)
        guard ident[0] == 0x7F, ident[1] == 0x45, ident[2] == 0x4C, ident[3] == 0x46 else { throw Failure.problem(.notELF) }
        let is64 = ident[4] == 2
        let headerSize = is64 ? 64 : 52
        guard file.size >= 20 else { throw Failure.problem(.tooShort(size: file.size, needed: headerSize)) }
        guard let identity = ELFIdentity(header: try file.bytes(at: 0, count: 20)) else { throw Failure.problem(.notELF) }
        if let host, !identity.runs(on: host) { throw Failure.foreign(identity) }
        guard ident[4] == 1 || ident[4] == 2, ident[5] == 1 || ident[5] == 2 else { throw Failure.foreign(identity) }
        guard file.size >= headerSize else { throw Failure.problem(.tooShort(size: file.size, needed: headerSize)) }
        let e = Fields(bytes: try file.bytes(at: 0, count: headerSize), bigEndian: ident[5] == 2)
        guard ident[6] == 1 else { throw Failure.problem(.unsupportedVersion(UInt32(ident[6]))) }
        guard e.u32(20) == 1 else { throw Failure.problem(.unsupportedVersion(e.u32(20))) }
        guard identity.type == 3 else { throw Failure.problem(.notSharedObject(type: identity.type)) }

        // The header's own sizes (gABI): e_ehsize, e_phentsize, e_shentsize.
        let phEntry = is64 ? 56 : 32, shEntry = is64 ? 64 : 40
        let ehsize = Int(e.u16(is64 ? 52 : 40))
        guard ehsize == headerSize else { throw Failure.problem(.badEntrySize(field: "e_ehsize", size: ehsize, expected: headerSize)) }
        let phoff = is64 ? e.u64(32) : UInt64(e.u32(28))
        let shoff = is64 ? e.u64(40) : UInt64(e.u32(32))
        let phentsize = Int(e.u16(is64 ? 54 : 42))
        var phnum = Int(e.u16(is64 ? 56 : 44))
        let shentsize = Int(e.u16(is64 ? 58 : 46))
        var shnum = Int(e.u16(is64 ? 60 : 48))
        var shstrndx = Int(e.u16(is64 ? 62 : 50))

        // Section 0 holds the real counts when they do not fit the header (PN_XNUM, SHN_XINDEX).
        if shoff != 0 && (shnum == 0 || phnum == 0xFFFF || shstrndx == 0xFFFF) {
            guard shentsize == shEntry else {
                throw Failure.problem(.badEntrySize(field: "e_shentsize", size: shentsize, expected: shEntry))
            }
            try within(shoff, UInt64(shEntry), file) { .sectionHeadersPastEnd(end: $0, fileSize: file.size) }
            let s0 = Fields(bytes: try file.bytes(at: shoff, count: shEntry), bigEndian: e.bigEndian)
            if shnum == 0 { shnum = Int(clamping: is64 ? s0.u64(32) : UInt64(s0.u32(20))) }
            if phnum == 0xFFFF { phnum = Int(s0.u32(is64 ? 44 : 28)) }
            if shstrndx == 0xFFFF { shstrndx = Int(s0.u32(is64 ? 40 : 24)) }
        }

        // Program headers: present, within the file, and every segment's contents within it.
        guard phnum > 0, phoff != 0 else { throw Failure.problem(.noProgramHeaders) }
        guard phentsize == phEntry else {
            throw Failure.problem(.badEntrySize(field: "e_phentsize", size: phentsize, expected: phEntry))
        }
        try within(phoff, UInt64(phnum) * UInt64(phEntry), file) { .programHeadersPastEnd(end: $0, fileSize: file.size) }
        let table = try file.bytes(at: phoff, count: phnum * phEntry)
        var loads = 0, dynamic = 0
        var loadSegments: [(vaddr: UInt64, offset: UInt64, filesz: UInt64)] = []
        var dynamicSegment: (offset: UInt64, size: UInt64)?
        var noteSegments: [(offset: UInt64, size: UInt64, align: UInt64)] = []
        for i in 0..<phnum {
            let p = Fields(bytes: Array(table[(i * phEntry)..<((i + 1) * phEntry)]), bigEndian: e.bigEndian)
            let type = p.u32(0)
            let offset = is64 ? p.u64(8) : UInt64(p.u32(4))
            let filesz = is64 ? p.u64(32) : UInt64(p.u32(16))
            let memsz = is64 ? p.u64(40) : UInt64(p.u32(20))
            let align = is64 ? p.u64(48) : UInt64(p.u32(28))
            let vaddr = is64 ? p.u64(16) : UInt64(p.u32(8))
            if type == 1 /* PT_LOAD */ {
                loads += 1
                guard filesz <= memsz else { throw Failure.problem(.segmentLargerInFileThanInMemory(index: i)) }
                loadSegments.append((vaddr, offset, filesz))
            }
            if type == 2 /* PT_DYNAMIC */ {
                dynamic += 1
                if dynamicSegment == nil { dynamicSegment = (offset, filesz) }
            }
            if type == 4 /* PT_NOTE */ { noteSegments.append((offset, filesz, align)) }
            if type != 0, filesz > 0 {
                try within(offset, filesz, file) {
                    .segmentPastEnd(index: i, type: segmentTypeName(type), end: $0, fileSize: file.size)
                }
            }
        }
        guard loads > 0 else { throw Failure.problem(.noLoadableSegment) }
        guard dynamic > 0 else { throw Failure.problem(.noDynamicSegment) }

        // Section headers (optional in a shared object): within the file, each section's
        // contents too; the style note is looked for in `.note.modalkit`, else in PT_NOTE.
        var notePayloads: [[UInt8]] = []
        if shoff != 0 && shnum > 0 {
            guard shentsize == shEntry else {
                throw Failure.problem(.badEntrySize(field: "e_shentsize", size: shentsize, expected: shEntry))
            }
            let (tableSize, overflow) = UInt64(shnum).multipliedReportingOverflow(by: UInt64(shEntry))
            try within(shoff, overflow ? .max : tableSize, file) { .sectionHeadersPastEnd(end: $0, fileSize: file.size) }
            let sections = try file.bytes(at: shoff, count: shnum * shEntry)
            func section(_ i: Int) -> (name: UInt32, type: UInt32, offset: UInt64, size: UInt64, align: UInt64) {
                let s = Fields(bytes: Array(sections[(i * shEntry)..<((i + 1) * shEntry)]), bigEndian: e.bigEndian)
                return is64 ? (s.u32(0), s.u32(4), s.u64(24), s.u64(32), s.u64(48))
                    : (s.u32(0), s.u32(4), UInt64(s.u32(16)), UInt64(s.u32(20)), UInt64(s.u32(32)))
            }
            guard shstrndx < shnum else { throw Failure.problem(.badSectionNameTable(index: shstrndx)) }
            let names = section(shstrndx)
            let nobits: UInt32 = 8
            if names.type != nobits && names.size > 0 {
                try within(names.offset, names.size, file) { .sectionPastEnd(name: "#\(shstrndx)", end: $0, fileSize: file.size) }
            }
            // A SHT_NOBITS table has no bytes in the file (gABI): no section has a name then.
            let nameTable = names.type != nobits && names.size > 0 && names.size <= 1 << 24
                ? try file.bytes(at: names.offset, count: Int(names.size)) : []
            func name(_ offset: UInt32) -> String {
                guard Int(offset) < nameTable.count else { return "#\(offset)" }
                let bytes = nameTable[Int(offset)...].prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            for i in 1..<max(shnum, 1) {
                let s = section(i)
                guard s.type != nobits, s.size > 0 else { continue }
                let sectionName = name(s.name)
                try within(s.offset, s.size, file) { .sectionPastEnd(name: sectionName, end: $0, fileSize: file.size) }
                if s.type == 7 /* SHT_NOTE */ && sectionName == StyleNote.section {
                    notePayloads += try styleNotes(in: file, offset: s.offset, size: s.size, align: s.align,
                                                   bigEndian: e.bigEndian, where: sectionName)
                }
            }
        } else {
            for segment in noteSegments {
                notePayloads += try styleNotes(in: file, offset: segment.offset, size: segment.size, align: segment.align,
                                               bigEndian: e.bigEndian, where: "a PT_NOTE segment")
            }
        }
        guard notePayloads.count <= 1 else { throw Failure.duplicateNote }
        let info = try dynamicInfo(file, segment: dynamicSegment!, loads: loadSegments, is64: is64, bigEndian: e.bigEndian)
        return ELFFile(identity: identity, size: file.size, styleNotePayload: notePayloads.first, dynamic: info)
    }

    /// `DT_NEEDED`, `DT_RUNPATH` and `DT_RPATH` from the dynamic section at `segment` (file
    /// offsets, within the file: checked with the program headers). Their strings are in the
    /// table `DT_STRTAB` gives as an address, found in the file through the PT_LOAD segment
    /// that maps it (gABI "Dynamic Section", "Program Loading").
    private static func dynamicInfo(_ file: FileReader, segment: (offset: UInt64, size: UInt64),
                                    loads: [(vaddr: UInt64, offset: UInt64, filesz: UInt64)], is64: Bool,
                                    bigEndian: Bool) throws -> DynamicInfo {
        let entrySize = is64 ? 16 : 8
        let count = min(Int(segment.size) / entrySize, 1 << 16)
        let bytes = try file.bytes(at: segment.offset, count: count * entrySize)
        var strtab: UInt64?, strsz: UInt64?
        var needed: [UInt64] = [], runpath: [UInt64] = [], rpath: [UInt64] = []
        for i in 0..<count {
            let d = Fields(bytes: Array(bytes[(i * entrySize)..<((i + 1) * entrySize)]), bigEndian: bigEndian)
            let tag = is64 ? d.u64(0) : UInt64(d.u32(0))
            let value = is64 ? d.u64(8) : UInt64(d.u32(4))
            switch tag {
            case 0: break   // DT_NULL
            case 1: needed.append(value)
            case 5: strtab = value
            case 10: strsz = value
            case 15: rpath.append(value)
            case 29: runpath.append(value)
            default: continue
            }
            if tag == 0 { break }
        }
        guard !(needed.isEmpty && runpath.isEmpty && rpath.isEmpty) else { return DynamicInfo() }
        guard let strtab, let strsz else { throw Failure.problem(.badDynamicSection("no DT_STRTAB or DT_STRSZ")) }
        guard let load = loads.first(where: { strtab >= $0.vaddr && strtab - $0.vaddr < $0.filesz }),
              strsz <= load.filesz - (strtab - load.vaddr), strsz <= 1 << 26 else {
            throw Failure.problem(.badDynamicSection("its string table lies in no PT_LOAD segment's file contents"))
        }
        let table = try file.bytes(at: load.offset + (strtab - load.vaddr), count: Int(strsz))
        func string(_ offset: UInt64) throws -> String {
            guard offset < strsz else { throw Failure.problem(.badDynamicSection("a string at \(offset), past its table's end")) }
            return String(decoding: table[Int(offset)...].prefix { $0 != 0 }, as: UTF8.self)
        }
        func entries(_ offsets: [UInt64]) throws -> [String] {
            try offsets.flatMap { try string($0).split(separator: ":").map(String.init) }
        }
        return DynamicInfo(needed: try needed.map(string), runpath: try entries(runpath), rpath: try entries(rpath))
    }

    /// The payloads of the ModalKit style notes among the notes at `offset` (gABI "Note Section":
    /// namesz, descsz, type, then name and desc each padded to the entry alignment).
    private static func styleNotes(in file: FileReader, offset: UInt64, size: UInt64, align: UInt64, bigEndian: Bool,
                                   where place: String) throws -> [[UInt8]] {
        guard size <= UInt64(StyleNote.maximumPayload) * 4 else {
            throw Failure.problem(.noteSectionTooLarge(section: place, size: size))
        }
        let bytes = try file.bytes(at: offset, count: Int(size))
        let pad = align == 8 ? 8 : 4
        func padded(_ n: Int) -> Int { (n + pad - 1) / pad * pad }
        let owner = Array(StyleNote.owner.utf8) + [0]
        var found: [[UInt8]] = []
        var at = 0
        while at + 12 <= bytes.count {
            let f = Fields(bytes: Array(bytes[at..<at + 12]), bigEndian: bigEndian)
            let namesz = Int(f.u32(0)), descsz = Int(f.u32(4)), type = f.u32(8)
            let nameStart = at + 12
            guard namesz <= bytes.count - nameStart else { throw Failure.problem(.notePastEnd(section: place)) }
            let descStart = nameStart + padded(namesz)
            guard descStart <= bytes.count, descsz <= bytes.count - descStart else {
                throw Failure.problem(.notePastEnd(section: place))
            }
            if type == StyleNote.type && Array(bytes[nameStart..<nameStart + namesz]) == owner {
                found.append(Array(bytes[descStart..<descStart + descsz]))
            }
            at = descStart + padded(descsz)
        }
        return found
    }

    /// Throws `problem(end)` unless `offset + count` lies within the file.
    private static func within(_ offset: UInt64, _ count: UInt64, _ file: FileReader,
                               _ problem: (UInt64) -> ELFProblem) throws {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= UInt64(file.size) else { throw Failure.problem(problem(overflow ? .max : end)) }
    }

    private static func segmentTypeName(_ type: UInt32) -> String {
        switch type {
        case 1: return "PT_LOAD"
        case 2: return "PT_DYNAMIC"
        case 3: return "PT_INTERP"
        case 4: return "PT_NOTE"
        case 6: return "PT_PHDR"
        case 7: return "PT_TLS"
        case 0x6474_E550: return "PT_GNU_EH_FRAME"
        case 0x6474_E552: return "PT_GNU_RELRO"
        case 0x6474_E553: return "PT_GNU_PROPERTY"
        default: return "type 0x" + String(type, radix: 16)
        }
    }

    /// Bounded reads from an open file.
    private struct FileReader {
        let fd: Int32
        let size: Int

        /// `count` bytes at file offset `offset` (an ELF field, unchecked: any 64-bit value). Nothing
        /// is read for `count` 0, wherever `offset` points: an empty segment or section has no
        /// contents in the file (gABI), so its offset bounds nothing.
        func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
            guard count != 0 else { return [] }
            guard count > 0, offset <= UInt64(size), count <= size - Int(offset) else {
                throw Failure.problem(.unreadable(message: "read past the end"))
            }
            let offset = Int(offset)
            var buffer = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw Failure.problem(n == 0 ? .tooShort(size: offset + done, needed: offset + count)
                                                 : .unreadable(message: String(cString: strerror(errno))))
                }
                done += n
            }
            return buffer
        }
    }

    /// Integer fields of a header in the file's byte order.
    private struct Fields {
        let bytes: [UInt8]
        let bigEndian: Bool

        private func value(_ offset: Int, _ width: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<width {
                let byte = UInt64(bytes[offset + (bigEndian ? i : width - 1 - i)])
                v = v << 8 | byte
            }
            return v
        }
        func u16(_ offset: Int) -> UInt16 { UInt16(value(offset, 2)) }
        func u32(_ offset: Int) -> UInt32 { UInt32(value(offset, 4)) }
        func u64(_ offset: Int) -> UInt64 { value(offset, 8) }
    }
}
