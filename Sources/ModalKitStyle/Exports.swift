// The geometry and colour types a style's hooks take and return (`Point`, `Size`, `Rect` in points,
// `PixelRect` in buffer pixels, `Color`) live in ModalKitGeometry, which the window core and the
// text module use too; re-exported so that `import ModalKitStyle` (or `import ModalKit`) sees them.
@_exported import ModalKitGeometry
