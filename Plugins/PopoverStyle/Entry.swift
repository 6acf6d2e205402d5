import ModalKit

/// The plugin entry the host looks up with `dlsym` after checking the ABI version (see
/// `modalkit_style.h`): the descriptor of `PopoverStyle`, built by ModalKit's `exportStyle`.
@_cdecl("modalkit_style_entry")
public func modalkitStyleEntry() -> UnsafeRawPointer {
    exportStyle(PopoverStyle.self)
}
