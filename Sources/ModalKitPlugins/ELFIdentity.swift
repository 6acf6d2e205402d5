// What a file's ELF header says about the machine it was built for, so that a library `dlopen`
// refuses because it is for another machine gets a message saying so (glibc's own message for a
// wrong e_machine can be "No such file or directory" for a file that exists).
#if canImport(Glibc)
import Glibc
#endif
import ModalKitStyle

/// The identifying fields of an ELF header (System V gABI, "ELF Header"): the class and data
/// encoding from `e_ident`, `e_type` and `e_machine` (read in the file's own byte order; both are
/// at the same offsets, 16 and 18, in ELF32 and ELF64).
struct ELFIdentity: Equatable {
    /// `e_ident[EI_CLASS]`: 1 = ELFCLASS32, 2 = ELFCLASS64.
    var elfClass: UInt8
    /// `e_ident[EI_DATA]`: 1 = ELFDATA2LSB (little-endian), 2 = ELFDATA2MSB (big-endian).
    var dataEncoding: UInt8
    /// `e_type`: 3 = ET_DYN (shared object), 2 = ET_EXEC, 1 = ET_REL.
    var type: UInt16
    /// `e_machine`: 62 = EM_X86_64, 183 = EM_AARCH64, …
    var machine: UInt16

    /// Parses the first 20 bytes of an ELF file; nil when they are not an ELF header.
    init?(header bytes: [UInt8]) {
        guard bytes.count >= 20, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
            return nil
        }
        let bigEndian = bytes[5] == 2
        func half(_ at: Int) -> UInt16 {
            bigEndian ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
        }
        elfClass = bytes[4]
        dataEncoding = bytes[5]
        type = half(16)
        machine = half(18)
    }

    /// The header of the file at `path`; nil when it cannot be read or is not ELF.
    init?(path: String) {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes = [UInt8](repeating: 0, count: 20)
        let n = fread(&bytes, 1, bytes.count, f)
        self.init(header: Array(bytes.prefix(n)))
    }

    /// This process's own (`/proc/self/exe`): the machine libraries must be built for.
    static let host: ELFIdentity? = ELFIdentity(path: "/proc/self/exe")

    /// Whether a library with this header can be loaded into a process with `host`'s: same class,
    /// byte order and machine (glibc's `elf_machine_matches_host` and `e_ident` checks).
    func runs(on host: ELFIdentity) -> Bool {
        elfClass == host.elfClass && dataEncoding == host.dataEncoding && machine == host.machine
    }

    /// E.g. "AArch64 (ELF64, little-endian)"; an unknown machine shows its number.
    var description: String {
        let bits = elfClass == 1 ? "ELF32" : elfClass == 2 ? "ELF64" : "ELF class \(elfClass)"
        let order = dataEncoding == 1 ? "little-endian" : dataEncoding == 2 ? "big-endian" : "data encoding \(dataEncoding)"
        return "\(ELFIdentity.machineName(machine)) (\(bits), \(order))"
    }

    /// Names of common `e_machine` values (elf.h).
    static func machineName(_ machine: UInt16) -> String {
        switch machine {
        case 2: return "SPARC"
        case 3: return "i386"
        case 8: return "MIPS"
        case 20: return "PowerPC"
        case 21: return "PowerPC64"
        case 22: return "S/390"
        case 40: return "ARM"
        case 43: return "SPARC V9"
        case 50: return "IA-64"
        case 62: return "x86-64"
        case 183: return "AArch64"
        case 243: return "RISC-V"
        case 258: return "LoongArch"
        default: return "e_machine \(machine)"
        }
    }
}
