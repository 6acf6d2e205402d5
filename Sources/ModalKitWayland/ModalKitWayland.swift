// ModalKitWayland: a window on a presentation host (``PresentationWindow``). An app imports this one
// module: ModalKit (content, styles, colours, drawing), the style loader (ModalKitPlugins) and the
// clock come with it.
@_exported import ModalKit
@_exported import ModalKitClock
@_exported import ModalKitPlugins
