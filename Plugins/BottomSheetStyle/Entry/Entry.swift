import ModalKitStyle
import ModalKitBottomSheetStyle
/// The plugin entry the host looks up with `dlsym` after checking the ABI version (see
/// `modalkit_style.h`): the descriptor of `BottomSheetStyle`, built by ModalKit's `exportStyle`.
/// The library's note (what it declares, read without loading it) is generated next to this
/// file at build time by the ModalKitStyleNotePlugin build step.
@_cdecl("modalkit_style_entry")
public func modalkitStyleEntry() -> UnsafeRawPointer {
    exportStyle(BottomSheetStyle.self)
}
