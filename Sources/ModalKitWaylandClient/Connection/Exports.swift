// The damage a delegate reports is a `PixelRect` (buffer pixels) from ModalKitGeometry, the rectangle
// type of the presentation host too; re-exported so that an app on ModalKitWaylandClient names it
// without importing a second module.
@_exported import ModalKitGeometry
