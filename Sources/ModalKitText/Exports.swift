// A text's colour is a `Color` (premultiplied, 0...1 components) from ModalKitGeometry, re-exported so
// that `import ModalKitText` alone draws text in a colour: no C module is needed to name it.
@_exported import ModalKitGeometry
