// Run at build time by FadeScaleStyleNotePlugin: runs the style's declarations (name, summary,
// options) and writes the library's ELF note, which hosts read without loading the library.
import FadeScaleStyle
import ModalKitNoteTool

StyleNoteTool.main(styles: [FadeScaleStyle.self])
