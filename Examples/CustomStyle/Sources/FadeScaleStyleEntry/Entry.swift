import FadeScaleStyle
import ModalKitStyle

/// The one symbol the host looks for (after checking the ABI version this library carries).
/// Next to it, at build time, FadeScaleStyleNotePlugin puts the library's ELF note.
@_cdecl("modalkit_style_entry")
public func modalkitStyleEntry() -> UnsafeRawPointer {
    exportStyle(FadeScaleStyle.self)
}
