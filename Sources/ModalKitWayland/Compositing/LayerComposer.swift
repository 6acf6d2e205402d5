import ModalKit
import WaylandClient

/// The sub-surface backend's policy for one window: each frame of a `PresentationHost` shown as
/// the window's own buffer (the presenting view, drawn only when it changed) with two layers above
/// it — the dim as one colour stretched over the container (or a vertical gradient's strip of row
/// colours stretched across it), the presented view as its own buffer, drawn once per content, size
/// and scale and moved by whole points (per frame by pixman only for an alpha or a scale the
/// compositor cannot apply) and cropped to the container (sub-surfaces are not clipped to their
/// parent). docs/design.md, "Compositor-side composition".
///
/// What the layers do not express is drawn whole by pixman into the window's buffer, decided per
/// frame, the layers hidden: a fractional scale (layer buffers are drawn at whole scales only), a
/// gradient dim in any direction but vertical, a receding presenting view, a stack of levels, and a
/// presented view whose buffer would be over `BufferCap`.
///
/// The window (``PresentationWindow``) and the benchmark run this one type, over `SurfaceLayer`s
/// and over offscreen doubles: both measure and show the same policy. Call ``compose(_:into:width:height:)``
/// once per frame, after the host's `PresentationHost/update(now:)`.
public final class LayerComposer {
    /// The outcome of one frame.
    public struct Result: Equatable, Sendable {
        /// How the frame was composed.
        public var backend: FrameBackend
        /// Whether it changed what the window shows (a buffer drawn with damage, a layer moved,
        /// shown, hidden or recoloured).
        public var changed: Bool
        /// A buffer was held by the compositor, so part of the frame could not be drawn: ask for
        /// another frame (the window redraws after a release).
        public var needsRetry: Bool
        /// Buffer pixels drawn this frame into any buffer (the window's, a strip, the presented
        /// view's): what the client paid, for statistics.
        public var paintedPixels: Int
    }

    private let makeLayer: () -> CompositedLayer?
    /// The dim (below) and the presented view (above), made at the first composed frame.
    private var dimLayer: CompositedLayer?
    private var presentedLayer: CompositedLayer?
    /// What the presented layer's image holds: (cache version, buffer pixel size) of an opaque,
    /// unscaled presented view; nil when it holds a per-frame (alpha or scale) drawing or nothing.
    private var presentedImage: (version: Int, width: Int, height: Int)?
    /// The drop shadow the presented layer's image holds (colour, offset, blur; 0s without one).
    private var presentedShadow: (color: UInt32, x: Int, y: Int, blur: Int) = (0, 0, 0, 0)
    /// What the last composed frame showed (to tell whether this one changed anything).
    private var lastDim: UInt32 = 0
    /// What the dim layer's image holds: a vertical gradient dim's strip (the gradient, its rows =
    /// the container's buffer pixel height, the container's width in points); nil otherwise.
    private var dimStrip: (gradient: LinearGradient, rows: Int, width: Int)?
    /// The vertical gradient dim the last composed frame showed.
    private var lastDimGradient: LinearGradient?
    private var lastPresented: (x: Int, y: Int, width: Int, height: Int)?

    /// - Parameter makeLayer: makes a layer above the window's content and the layers made before
    ///   (`Window/makeLayer()`); called twice, at the first frame that uses layers.
    public init(makeLayer: @escaping () -> CompositedLayer?) {
        self.makeLayer = makeLayer
    }

    /// Composes `host`'s frame (at the time of its last `PresentationHost/update(now:)`) into
    /// `frame` and the layers, for a container of `width` × `height` points.
    public func compose(_ host: PresentationHost, into frame: ComposedFrame, width w: Int, height h: Int) -> Result {
        let s = frame.bufferScale
        guard s > 0 else {
            // Fractional scale: the whole frame by pixman (the presented view at the same pixels: its
            // top-left is a whole point by the snapshot's rule at every scale).
            return composeWithPixman(host, into: frame)
        }
        if dimLayer == nil {
            dimLayer = makeLayer()
            presentedLayer = makeLayer()
        }
        guard let dimLayer, let presentedLayer else { return composeWithPixman(host, into: frame) }
        let f = host.layerFrame()
        let stripGradient = f.dimGradient.flatMap { DimStrip.canShow($0) ? $0 : nil }
        let placement = PresentedLayerPlacement(frame: f, bufferScale: s, containerWidth: w, containerHeight: h)
        // A presented view whose buffer (with its shadow room) would be over the buffer cap (a presented view
        // as large as a window at the cap): that frame by pixman too, within the window's buffer.
        // So is a sheet whose background extends past its edge (pulled past its detent).
        let overCap = placement.map { !BufferCap.fits(width: $0.bufferWidth, height: $0.bufferHeight) } ?? false
        if (f.dimGradient != nil && stripGradient == nil) || f.presentingRect != nil || host.levelCount > 1 || overCap
            || !f.presentedExtensionRect.isEmpty {
            return composeWithPixman(host, into: frame)
        }
        var result = Result(backend: .subsurface, changed: false, needsRetry: false, paintedPixels: 0)
        // A layer that goes away uncovers the window's own buffer there: that area is damaged too
        // (sway 1.7 does not repaint the area of an unmapped sub-surface by itself).
        var uncovered: (x: Int, y: Int, width: Int, height: Int)?
        if f.dim == 0 && stripGradient == nil && dimLayer.isShown { uncovered = (0, 0, w, h) }
        if let last = lastPresented, placement == nil, uncovered == nil { uncovered = last }
        // The presenting view: the window's own buffer, drawn only when it changed.
        if frame.mustDrawBase || host.presentingLayerNeedsRender || uncovered != nil, let t = target({ try frame.baseTarget() }) {
            let damage = host.renderPresentingLayer(into: t.pixelBuffer, bufferAge: t.age)
            result.paintedPixels += host.lastPaintedPixelCount
            for r in damage { frame.baseDamage.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
            if let u = uncovered {
                frame.baseDamage.append(BufferRect(x: u.x * s, y: u.y * s, width: u.width * s, height: u.height * s))
            }
            result.changed = !frame.baseDamage.isEmpty
        }
        // The dim: one colour over the container, or a vertical gradient's column of row colours
        // (4 pixels wide: the middle 2 shown, a margin of the same colour each side) stretched over
        // it, 1:1 vertically; redrawn only when the gradient (its colours carry the dim's alpha)
        // or the container changes.
        if let g = stripGradient {
            let rows = h * s
            let holds = dimStrip.map { $0.gradient == g && $0.rows == rows && $0.width == w } ?? false
            if !holds || !dimLayer.hasImage {
                if let t = target({ try dimLayer.imageTarget(width: 4, height: rows) }) {
                    DimStrip.draw(g, into: t.pixelBuffer)
                    dimStrip = (g, rows, w)
                    result.paintedPixels += 4 * rows
                } else {
                    result.needsRetry = true   // every buffer held: retried after a release
                }
            }
            dimLayer.showStretchedImage(source: (1, 0, 2, rows), x: 0, y: 0, width: w, height: h)
        } else if f.dim != 0 {
            try? dimLayer.showSolid(color: f.dim, x: 0, y: 0, width: w, height: h)   // a failure ends the run (see target(_:))
            dimStrip = nil
        } else {
            dimLayer.hide()
            dimStrip = nil
        }
        result.changed = result.changed || f.dim != lastDim || stripGradient != lastDimGradient
        lastDim = f.dim
        lastDimGradient = stripGradient
        // The presented view: its own buffer (whole points: padded with transparent pixels), moved.
        if let p = placement {
            if !p.isCacheAsIs { result.backend = .subsurfacePixmanPresented }
            let shadow = f.hasShadow ? (f.shadowColor, f.shadowOffsetX, f.shadowOffsetY, f.shadowBlur) : (0, 0, 0, 0)
            let holds = presentedImage.map { $0 == (f.presentedVersion, p.bufferWidth, p.bufferHeight) } ?? false
                && presentedShadow == shadow
            if !p.isCacheAsIs || !holds || !presentedLayer.hasImage {
                if let t = target({ try presentedLayer.imageTarget(width: p.bufferWidth, height: p.bufferHeight) }) {
                    host.drawPresentedLayer(f, into: t.pixelBuffer, presentedOffset: (p.presentedOffsetX, p.presentedOffsetY))
                    presentedImage = p.isCacheAsIs ? (f.presentedVersion, p.bufferWidth, p.bufferHeight) : nil
                    presentedShadow = shadow
                    result.changed = true
                    result.paintedPixels += p.bufferWidth * p.bufferHeight
                } else {
                    result.needsRetry = true   // every buffer held: retried after a release
                }
            }
            let v = p.visible
            presentedLayer.showImage(x: p.x, y: p.y, visible: (Int(v.minX), Int(v.minY), Int(v.width), Int(v.height)),
                                     bufferScale: s)
            let shown = (x: p.x + Int(v.minX), y: p.y + Int(v.minY), width: Int(v.width), height: Int(v.height))
            result.changed = result.changed || lastPresented.map { $0 != shown } ?? true
            lastPresented = shown
        } else {
            result.changed = result.changed || lastPresented != nil
            presentedLayer.hide()
            lastPresented = nil
        }
        return result
    }

    /// A frame drawn whole by pixman into the window's buffer (``PresentationHost/render(into:bufferAge:)``),
    /// the layers hidden.
    private func composeWithPixman(_ host: PresentationHost, into frame: ComposedFrame) -> Result {
        dimLayer?.hide()
        presentedLayer?.hide()
        presentedImage = nil
        lastPresented = nil
        lastDim = 0
        dimStrip = nil
        lastDimGradient = nil
        var result = Result(backend: .pixman, changed: false, needsRetry: false, paintedPixels: 0)
        guard let t = target({ try frame.baseTarget() }) else { return result }
        let damage = host.render(into: t.pixelBuffer, bufferAge: t.age)
        result.paintedPixels = host.lastPaintedPixelCount
        for r in damage { frame.baseDamage.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
        result.changed = !damage.isEmpty
        return result
    }

    /// The target `make` returns; nil when every buffer is held (the frame is retried after a
    /// release) or when the buffer cannot be made. The window does not let the latter pass: it
    /// ends ``WaylandConnection/run()`` with that error after the frame (exit 1 with one line),
    /// so a window never stays open without frames.
    private func target(_ make: () throws -> DrawTarget?) -> DrawTarget? {
        (try? make()) ?? nil
    }
}
