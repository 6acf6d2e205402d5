import ModalKit
import ModalKitWaylandClient

/// The sub-surface backend's policy for one window: each frame of a `PresentationHost` shown as
/// the window's own buffer (the presenting view, drawn only when it changed, or per frame while a
/// style recedes it) with two layers per presented level above it — the level's dim as one colour
/// stretched over the container (or a vertical gradient's strip of row colours stretched across
/// it), its presented view as its own buffer, drawn once per content, size and scale and moved by
/// whole points (per frame by pixman only for an alpha or a scale the compositor cannot apply, as
/// for a level covered by a receding style) and cropped to the container (sub-surfaces are not
/// clipped to their parent). At a fractional scale (fractional-scale-v1) the layers' buffers are
/// drawn at that scale and shown 1:1 through their viewports. docs/design.md, "Compositor-side
/// composition".
///
/// What the layers do not express is drawn whole by pixman into the window's buffer, decided per
/// frame, the layers hidden: a gradient dim in any direction but vertical, and a presented view
/// whose buffer would be over `BufferCap`.
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

    /// One level's two layers and what they hold.
    private final class LevelLayers {
        /// The dim (below) and the presented view (above).
        let dim: CompositedLayer
        let presented: CompositedLayer
        /// What the presented layer's image holds: (cache version, buffer pixel size) of an opaque,
        /// unscaled presented view; nil when it holds a per-frame (alpha or scale) drawing or nothing.
        var presentedImage: (version: Int, width: Int, height: Int)?
        /// The drop shadow the presented layer's image holds (colour, offset, blur; 0s without one).
        var presentedShadow: (color: UInt32, x: Int, y: Int, blur: Int) = (0, 0, 0, 0)
        /// The dim the last composed frame showed.
        var lastDim: UInt32 = 0
        /// What the dim layer's image holds: a vertical gradient dim's strip (the gradient, its rows
        /// = the container's buffer pixel height, the container's width in points); nil otherwise.
        var dimStrip: (gradient: LinearGradient, rows: Int, width: Int)?
        /// The vertical gradient dim the last composed frame showed.
        var lastDimGradient: LinearGradient?
        /// The strip's width in pixels, 4 or 5 (the 2 columns from column 1 shown in both),
        /// alternated at each new strip for the reason `SurfaceLayer` alternates its colour
        /// buffers' sizes: a compositor that updates its texture only inside the viewport's source
        /// (KWin 5.27) makes it anew for a new size, margin included.
        var stripWidth = 5
        /// The rectangle (points) the presented view's layer showed in the last composed frame; nil
        /// when it showed nothing.
        var lastPresented: Rect?

        init(dim: CompositedLayer, presented: CompositedLayer) {
            self.dim = dim
            self.presented = presented
        }

        /// Hides both layers and forgets what they held.
        func hide() {
            dim.hide()
            presented.hide()
            presentedImage = nil
            lastPresented = nil
            lastDim = 0
            dimStrip = nil
            lastDimGradient = nil
        }
    }

    private let makeLayer: () -> CompositedLayer?
    /// Per level, bottom to top, its layers (made at the first frame that shows that many levels).
    private var levelLayers: [LevelLayers] = []
    /// This frame's levels (kept with their capacity: no allocation per frame).
    private var frames: [LayerFrame] = []
    private var placements: [PresentedLayerPlacement?] = []
    /// A frame uncovered part of the window's buffer (a layer went away) but could not draw it
    /// (every buffer held): the whole buffer is damaged with the next frame that can.
    private var owesBaseDamage = false

    /// - Parameter makeLayer: makes a layer above the window's content and the layers made before
    ///   (`Window/makeLayer()`); called twice per level, at the first frame that shows that many
    ///   levels.
    public init(makeLayer: @escaping () -> CompositedLayer?) {
        self.makeLayer = makeLayer
        frames.reserveCapacity(4)
        placements.reserveCapacity(4)
        levelLayers.reserveCapacity(4)
    }

    /// Composes `host`'s frame (at the time of its last `PresentationHost/update(now:)`) into
    /// `frame` and the layers, for a container of `width` × `height` points.
    public func compose(_ host: PresentationHost, into frame: ComposedFrame, width w: Int, height h: Int) -> Result {
        // Buffer pixels per point: the whole buffer scale, or on the fractional path the fractional
        // scale, the layers' buffers then shown 1:1 through their viewports (fractional-scale-v1).
        let s = frame.bufferScale > 0 ? Double(frame.bufferScale) : frame.scale
        guard s >= 1, s.isFinite else { return composeWithPixman(host, into: frame) }
        // A fractional scale whose pixel grid repeats every 2 points or less (1.5) is placed and
        // tested equal to pixman; at one with a longer period (1.25, 1.75: 4 points) KWin 5.27
        // shows the presented layer up to 3 pixels from where pixman draws it, so those frames are
        // drawn by pixman (docs/design.md, "Compositor-side composition").
        guard frame.bufferScale > 0 || PresentedLayerPlacement.alignment(scale: s) <= 2 else {
            return composeWithPixman(host, into: frame)
        }
        let n = host.layerLevelCount
        while levelLayers.count < n {
            guard let d = makeLayer(), let p = makeLayer() else { return composeWithPixman(host, into: frame) }
            levelLayers.append(LevelLayers(dim: d, presented: p))
        }
        frames.removeAll(keepingCapacity: true)
        placements.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let f = host.layerFrame(level: i)
            let placement = PresentedLayerPlacement(frame: f, scale: s, containerWidth: w, containerHeight: h)
            // A gradient the strip cannot show, or a presented view whose buffer (with its shadow
            // room) would be over the buffer cap (a card as large as a window at the cap): that frame
            // by pixman, within the window's buffer.
            // So is a sheet whose background extends past its edge (pulled past its top detent).
            if let g = f.dimGradient, !DimStrip.canShow(g) { return composeWithPixman(host, into: frame) }
            if !f.presentedExtensionRect.isEmpty { return composeWithPixman(host, into: frame) }
            if let p = placement, !BufferCap.fits(width: p.bufferWidth, height: p.bufferHeight) {
                return composeWithPixman(host, into: frame)
            }
            frames.append(f)
            placements.append(placement)
        }
        var result = Result(backend: .subsurface, changed: false, needsRetry: false, paintedPixels: 0)
        // A layer that goes away uncovers the window's own buffer there: that area is damaged in
        // the same frame, whose commit unmaps the layer (sway 1.7 does not repaint the area of an
        // unmapped sub-surface by itself). The dim covers the whole container; a presented view
        // goes with its level, with its view, or when none of it is inside the container any
        // more (a sheet's last frames below the bottom edge, before its dismissal completes).
        var uncoveredAll = owesBaseDamage
        for (i, l) in levelLayers.enumerated() {
            let dimGoes = i >= n || (frames[i].dim == 0 && frames[i].dimGradient == nil)
            if dimGoes && l.dim.isShown { uncoveredAll = true }
        }
        let uncovers = uncoveredAll || levelLayers.indices.contains { presentedGoes($0, levels: n) }
        let mustDraw = frame.mustDrawBase || host.presentingLayerNeedsRender || uncovers
        // The presenting view: the window's own buffer, drawn only when it changed.
        if mustDraw, let t = target({ try frame.baseTarget() }) {
            let damage = host.renderPresentingLayer(into: t.pixelBuffer, bufferAge: t.age)
            result.paintedPixels += host.lastPaintedPixelCount
            frame.baseDamage.append(contentsOf: damage)
            if uncoveredAll {
                appendDamage(Rect(x: 0, y: 0, width: Double(w), height: Double(h)), scale: s, to: frame)
            } else {
                for (i, l) in levelLayers.enumerated() {
                    if let last = l.lastPresented, presentedGoes(i, levels: n) { appendDamage(last, scale: s, to: frame) }
                }
            }
            owesBaseDamage = false
            result.changed = !frame.baseDamage.isEmpty
        } else if mustDraw {
            // Every buffer held: the layers still go with this frame's commit; what they uncover is
            // damaged by the next frame that gets a buffer (retried after a release).
            owesBaseDamage = owesBaseDamage || uncovers
            result.needsRetry = true
        }
        for i in levelLayers.indices where i >= n { levelLayers[i].hide() }
        for i in 0..<n { compose(level: i, host, scale: s, width: w, height: h, into: &result) }
        return result
    }

    /// Whether level `i`'s presented layer showed in the last frame and shows nothing in this one
    /// (of `n` levels): its level left, it has no presented view, or none of it is inside the
    /// container. Call after this frame's placements are made.
    private func presentedGoes(_ i: Int, levels n: Int) -> Bool {
        levelLayers[i].lastPresented != nil && (i >= n || placements[i].map { $0.visible.isEmpty } ?? true)
    }

    /// Level `i`'s dim and presented view into its layers.
    private func compose(level i: Int, _ host: PresentationHost, scale s: Double, width w: Int, height h: Int,
                         into result: inout Result) {
        let l = levelLayers[i]
        let f = frames[i]
        let stripGradient = f.dimGradient
        // The dim: one colour over the container, or a vertical gradient's column of row colours
        // (4 or 5 pixels wide: the 2 from column 1 shown, a margin of the same colour each side) stretched over
        // it, 1:1 vertically; redrawn only when the gradient (its colours carry the dim's alpha)
        // or the container changes.
        if let g = stripGradient {
            let rows = Int((Double(h) * s).rounded())   // the container's buffer pixel height
            let holds = l.dimStrip.map { $0.gradient == g && $0.rows == rows && $0.width == w } ?? false
            if !holds || !l.dim.hasImage {
                let width = l.stripWidth == 4 ? 5 : 4
                if let t = target({ try l.dim.imageTarget(width: width, height: rows) }) {
                    DimStrip.draw(g, into: t.pixelBuffer)
                    l.dimStrip = (g, rows, w)
                    l.stripWidth = width
                    result.paintedPixels += width * rows
                } else {
                    result.needsRetry = true   // every buffer held: retried after a release
                }
            }
            l.dim.showStretchedImage(source: PixelRect(x: 1, y: 0, width: 2, height: rows), x: 0, y: 0, width: w, height: h)
        } else if f.dim != 0 {
            try? l.dim.showSolid(color: f.dim, x: 0, y: 0, width: w, height: h)   // a failure ends the run (see target(_:))
            l.dimStrip = nil
        } else {
            l.dim.hide()
            l.dimStrip = nil
        }
        result.changed = result.changed || f.dim != l.lastDim || stripGradient != l.lastDimGradient
        l.lastDim = f.dim
        l.lastDimGradient = stripGradient
        // The presented view: its own buffer (whole points: padded with transparent pixels), moved.
        if let p = placements[i] {
            if !p.isCacheAsIs { result.backend = .subsurfacePixmanPresented }
            let shadow = f.hasShadow ? (f.shadowColor, f.shadowOffsetX, f.shadowOffsetY, f.shadowBlur) : (0, 0, 0, 0)
            let holds = l.presentedImage.map { $0 == (f.presentedVersion, p.bufferWidth, p.bufferHeight) } ?? false
                && l.presentedShadow == shadow
            if !p.isCacheAsIs || !holds || !l.presented.hasImage {
                if let t = target({ try l.presented.imageTarget(width: p.bufferWidth, height: p.bufferHeight) }) {
                    host.drawPresentedLayer(f, level: i, into: t.pixelBuffer, presentedOffset: (p.presentedOffsetX, p.presentedOffsetY))
                    l.presentedImage = p.isCacheAsIs ? (f.presentedVersion, p.bufferWidth, p.bufferHeight) : nil
                    l.presentedShadow = shadow
                    result.changed = true
                    result.paintedPixels += p.bufferWidth * p.bufferHeight
                } else {
                    result.needsRetry = true   // every buffer held: retried after a release
                }
            }
            // Whole points of the image (PresentedLayerPlacement makes them so); an empty `visible`
            // (none of the view inside the container) hides the layer.
            let v = p.visible
            l.presented.showImage(x: p.x, y: p.y, visible: v, scale: s)
            if v.isEmpty {
                result.changed = result.changed || l.lastPresented != nil
                l.lastPresented = nil
            } else {
                let shown = v.offsetBy(dx: Double(p.x), dy: Double(p.y))
                result.changed = result.changed || l.lastPresented.map { $0 != shown } ?? true
                l.lastPresented = shown
            }
        } else {
            result.changed = result.changed || l.lastPresented != nil
            l.presented.hide()
            l.lastPresented = nil
        }
    }

    /// Damages the buffer pixels a rectangle of points touches (whole at a whole scale); an empty
    /// rectangle damages nothing (and adds no rectangle: damage that is there must mean pixels).
    private func appendDamage(_ u: Rect, scale s: Double, to frame: ComposedFrame) {
        guard u.width > 0, u.height > 0 else { return }
        let x0 = Int((u.minX * s).rounded(.down)), y0 = Int((u.minY * s).rounded(.down))
        let x1 = Int((u.maxX * s).rounded(.up)), y1 = Int((u.maxY * s).rounded(.up))
        frame.baseDamage.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// A frame drawn whole by pixman into the window's buffer (``PresentationHost/render(into:bufferAge:)``),
    /// the layers hidden.
    private func composeWithPixman(_ host: PresentationHost, into frame: ComposedFrame) -> Result {
        for l in levelLayers { l.hide() }
        var result = Result(backend: .pixman, changed: false, needsRetry: false, paintedPixels: 0)
        guard let t = target({ try frame.baseTarget() }) else { return result }
        let damage = host.render(into: t.pixelBuffer, bufferAge: t.age)
        result.paintedPixels = host.lastPaintedPixelCount
        frame.baseDamage.append(contentsOf: damage)
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
