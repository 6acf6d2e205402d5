// ModalKit is the presentation host over ModalKitStyle, the layer a style links (its hooks,
// geometry, options, chrome, timing and the export to the C style ABI). Re-exported so that an app
// or a style that writes `import ModalKit` sees both, as before the split; a style package may
// import ModalKitStyle alone and link nothing of the host (docs/design.md, module graph).
@_exported import ModalKitStyle
