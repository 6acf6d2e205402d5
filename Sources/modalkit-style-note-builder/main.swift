// The tool of ModalKit's `ModalKitStyleNote` build-tool plugin: compiles a style target on the side,
// loads it as a host would and writes its library's ELF note source (`StyleNoteBuilder`).
import ModalKitNoteTool

StyleNoteBuilder.main()
