// The built-in styles' note generator, run at build time by ModalKitStyleNotePlugin for each style's
// entry target: it runs the style's own declarations (name, summary, options) and writes the
// source of the library's ELF note (docs/design.md, plugin metadata and trust).
import ModalKitAdaptiveStyle
import ModalKitBottomSheetStyle
import ModalKitInsetCenteredStyle
import ModalKitNoteTool
import ModalKitPopoverStyle
import ModalKitAlertStyle
StyleNoteTool.main(styles: [InsetCenteredStyle.self, BottomSheetStyle.self, AdaptiveStyle.self, PopoverStyle.self,
                            AlertStyle.self])
