// `modalkit-fuzz TARGET [libFuzzer arguments…]`: libFuzzer (the toolchain's `-sanitize=fuzzer`)
// driving one fuzz target (FuzzTarget: elf, style-note, style-options, portal, text, text-entry).
// Built and run by scripts/fuzz; a crash it finds is replayed with `modalkit-fuzz TARGET CRASH-FILE`.
import Glibc

/// libFuzzer's entry for a program with its own `main` (FuzzerInterface.h): parses the
/// arguments, then calls `callback` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The target this run feeds.
nonisolated(unsafe) var selected = FuzzTarget.elf

@main
enum FuzzDriver {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            fputs("usage: modalkit-fuzz TARGET [libFuzzer arguments…]  (TARGET: \(names))\n", stderr)
            exit(2)
        }
        selected = target
        // libFuzzer sees the program name and its own arguments, not the target's name.
        var argv: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
        var argc = CInt(argv.count - 1)
        let status = argv.withUnsafeMutableBufferPointer { buffer -> CInt in
            var base: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &base) { data, size in
                selected.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
                return 0
            }
        }
        exit(status)
    }
}
