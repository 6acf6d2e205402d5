import ModalKitWaylandClient

/// One layer a ``LayerComposer`` shows above the window's own buffer: a solid colour stretched over
/// a rectangle, an image moved by whole points, or an image strip stretched along one axis — what a
/// sub-surface with a viewport can do (`SurfaceLayer`, which conforms). The benchmark conforms an
/// offscreen double, so that it measures the window's own policy.
///
/// Units as `SurfaceLayer`'s: positions and sizes in whole points of the window's content, image
/// buffers in pixels (premultiplied ARGB8888).
public protocol CompositedLayer: AnyObject {
    /// True while a buffer is attached (the layer shows).
    var isShown: Bool { get }
    /// True while an image is attached or drawn and not yet shown (it can be shown again without
    /// drawing).
    var hasImage: Bool { get }
    /// A free buffer of `width` × `height` pixels to draw the next image into, or nil when every
    /// buffer is held (draw later).
    /// - Throws: when the buffer cannot be made (the window ends its run with the error after the frame).
    func imageTarget(width: Int, height: Int) throws -> DrawTarget?
    /// Shows one premultiplied colour (`0xAARRGGBB`) over the rectangle (points, each side ≥ 1).
    /// - Throws: when the colour's buffer cannot be made.
    func showSolid(color: UInt32, x: Int, y: Int, width: Int, height: Int) throws
    /// Shows the image last drawn with its top-left at (`x`, `y`) points, at `scale` pixels per
    /// point (whole, or fractional with the image's origin and size whole pixels: shown 1:1 through
    /// the viewport), cropped to `visible` (whole points in the image; empty hides the layer).
    func showImage(x: Int, y: Int, visible: Rect, scale: Double)
    /// Shows the image last drawn, its `source` rectangle (pixels) stretched over the rectangle at
    /// (`x`, `y`) of `width` × `height` points.
    func showStretchedImage(source: PixelRect, x: Int, y: Int, width: Int, height: Int)
    /// Hides the layer (the image last shown is kept while its buffer is not released).
    func hide()
}

extension SurfaceLayer: CompositedLayer {}
