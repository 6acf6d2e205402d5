// The fuzz targets: the code that reads bytes ModalKit does not control, each fed one input at a
// time. libFuzzer drives them in `modalkit-fuzz` (Fuzz/Driver, built by scripts/fuzz with the
// toolchain's `-sanitize=fuzzer,address`); ModalKitFuzzTests replays the seed corpus
// (Fuzz/Corpus/<target>) and the inputs that once failed (Fuzz/Regressions/<target>) through the
// same functions in the ordinary test build.
//
// A target returns normally for every input: a bad input is a thrown error or a nil the code under
// test gives, never a trap. Where the code promises more (a style note read back is the note
// written), the target checks it and traps when it does not hold, so that libFuzzer keeps the input.

/// One fuzz target: a name (the corpus folder, the driver's argument) and the function an input goes to.
enum FuzzTarget: String, CaseIterable {
    /// A plugin file as the style loader reads it before `dlopen`: ELF header, program and section
    /// headers, dynamic section, notes (ModalKitPlugins' ELF reader), then the style note's payload.
    case elf
    /// A style note's payload alone (`StyleNote.declaration(fromPayload:)`), and its round trip.
    case styleNote = "style-note"
    /// `--style-option KEY=VALUE` lines for a built-in style, made and presented.
    case styleOptions = "style-options"
    /// A D-Bus message as the portal settings monitor reads it: wire bytes (libdbus' own
    /// demarshaller checks them, as for a message from the bus), then the values, as an answer to
    /// `ReadOne`/`Read` and as a `SettingChanged` signal.
    case portal
    /// Arbitrary UTF-8 (and bytes that are not) shaped, measured, wrapped, truncated and drawn
    /// with ModalKitText.
    case text
    /// A focused text field edited by typed text, input method events (preedit with its cursor,
    /// commit, delete surrounding text) and pastes of arbitrary bytes, with keys, selections,
    /// assistive technology's edits and undo between, at arbitrary offsets; its promises checked
    /// after every step.
    case textEntry = "text-entry"

    /// Runs one input through the target.
    func run(_ data: [UInt8]) {
        switch self {
        case .elf: ELFFuzzTarget.run(data)
        case .styleNote: StyleNoteFuzzTarget.run(data)
        case .styleOptions: StyleOptionsFuzzTarget.run(data)
        case .portal: PortalFuzzTarget.run(data)
        case .text: TextFuzzTarget.run(data)
        case .textEntry: TextEntryFuzzTarget.run(data)
        }
    }
}

/// Bytes taken from the front of an input, for the parameters a target needs besides its text.
struct FuzzInput {
    private(set) var rest: ArraySlice<UInt8>

    init(_ data: [UInt8]) { rest = data[...] }

    /// The next byte, or 0 once the input is used up.
    mutating func byte() -> UInt8 {
        guard let b = rest.first else { return 0 }
        rest = rest.dropFirst()
        return b
    }

    /// The next `n` bytes (fewer at the input's end).
    mutating func take(_ n: Int) -> ArraySlice<UInt8> {
        let taken = rest.prefix(max(0, n))
        rest = rest.dropFirst(taken.count)
        return taken
    }
}
