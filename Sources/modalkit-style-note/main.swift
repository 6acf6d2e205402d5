// The built-in styles' note generator, run at build time by StyleNotePlugin for each style's
// entry target: it runs the style's own declarations (name, summary, options) and writes the
// source of the library's ELF note (docs/design.md, plugin metadata and trust).
import AdaptiveStyle
import BottomSheetStyle
import InsetCenteredStyle
import ModalKitNoteTool
import PopoverStyle
import AlertStyle

StyleNoteTool.main(styles: [InsetCenteredStyle.self, BottomSheetStyle.self, AdaptiveStyle.self, PopoverStyle.self,
                            AlertStyle.self])
