// The API of a backend that hands the layers to the compositor (sub-surfaces): the frame resolved
// to buffer pixels, the presenting view alone, and the presented view's own buffer.

extension PresentationHost {
    /// The frame at the time of the last ``update(now:)`` resolved to buffer pixels
    /// (``PresentationSnapshot/layerFrame(scale:)``: the presented view's top-left at a whole point,
    /// as `render` draws it), with both caches brought up to date and their versions set: what a
    /// backend that composes the layers itself shows (the presenting view through
    /// ``renderPresentingLayer(into:bufferAge:)``, the dim as one colour, the presented view through
    /// ``drawPresentedLayer(_:into:presentedOffset:)`` at `presentedRect`). A query like ``render(into:bufferAge:)``:
    /// it advances nothing and reports nothing.
    /// With more than one level presented (a stack) this is the top level's frame
    /// (``layerFrame(level:)`` of the last level).
    public func layerFrame() -> LayerFrame {
        layerFrame(level: layerLevelCount - 1)
    }

    /// How many levels a layer backend composes: ``levelCount``, at least 1 (level 1's frame, with
    /// nothing presented, is the presenting view alone).
    public var layerLevelCount: Int { max(levels.count, 1) }

    /// Level `index + 1`'s frame (`index` 0..<``layerLevelCount``: 0 is level 1, the last the top)
    /// at the time of the last ``update(now:)``, resolved to buffer pixels as ``render(into:bufferAge:)``
    /// composes it: the level's dim over the whole container and its presented view — under the look
    /// the level above gives what it covers (`PresentingViewAppearance`: the view moved, scaled
    /// and faded; UIKit's page sheet over a sheet) when it is covered. Level 1's frame also carries
    /// how its style draws the presenting view while covered (``LayerFrame/presentingRect``: the
    /// recede), which ``renderPresentingLayer(into:bufferAge:)`` then draws; a higher level's
    /// `presentingRect` is nil. A backend composes, bottom to top: the presenting view, then per
    /// level its dim and its presented view (``drawPresentedLayer(_:level:into:presentedOffset:)``).
    /// A query like ``render(into:bufferAge:)``: it advances nothing and reports nothing.
    public func layerFrame(level index: Int) -> LayerFrame {
        let now = lastNow
        let n = layerLevelCount
        let i = min(max(index, 0), n - 1)
        let level = i < levels.count ? levels[i] : nil
        let snap = (level?.controller ?? controller).snapshot(at: now)
        var f = layerFrame(for: snap, level: level)
        if i + 1 < levels.count {
            // Covered by the level above (as ``compose(into:bufferAge:record:depth:_:)`` draws it).
            let covering = levels[i + 1].controller.snapshot(at: now).presentingAppearance
            if covering != .identity, f.hasPresentedView { recede(&f, snap, covering) }
        }
        if i > 0 {
            f.presentingRect = nil
        } else {
            layerPresenting = (f.presentingRect, f.presentingCornerRadius, f.presentingAlpha)
        }
        dirty = false
        return f
    }

    /// Renders only the presenting view (no dim, no presented view) into `target` (``pixelSize``),
    /// with damage and buffer age as ``render(into:bufferAge:)``: the window's own buffer under
    /// layers the compositor composes. While covered by a style that recedes it, it is drawn as
    /// `render` draws it (scaled into level 1's ``LayerFrame/presentingRect``, bilinear, corners
    /// clipped, faded, over black). Call after ``layerFrame(level:)`` of level 1 (or ``layerFrame()``
    /// with one level) of the same frame. Returns an empty list when nothing changed since the
    /// last call (then nothing needs attaching).
    @discardableResult
    public func renderPresentingLayer(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        if !lastRenderWasLayer { presentingRenderer.reset() }
        lastRenderWasLayer = true
        var f = LayerFrame()
        (f.width, f.height) = pixelSize
        f.presentingVersion = presentingVersion
        (f.presentingRect, f.presentingCornerRadius, f.presentingAlpha) = layerPresenting
        // Not receding: the content draws itself straight into the window's buffer unless the cache
        // holds its current pixels.
        let source = f.showsPresentingViewAlone && drawsPresentingDirectly(into: target)
            ? directPresentingSource : .image(presentingImage())
        let damage = presentingRenderer.render(f, presentingSource: source, presented: nil,
                                               presentingDamage: pendingPresentingDamage, into: target,
                                               bufferAge: bufferAge, record: true)
        pendingPresentingDamage = .zero
        return damage
    }

    /// Whether the presenting view changed since the last ``renderPresentingLayer(into:bufferAge:)``
    /// (or a frame was rendered by ``render(into:bufferAge:)`` since, whose buffer holds more than
    /// the presenting view). Call after ``layerFrame()`` of the same frame.
    public var presentingLayerNeedsRender: Bool {
        !lastRenderWasLayer || !pendingPresentingDamage.isEmpty
            || presentingRenderer.lastFrame.map { $0.presentingVersion != presentingVersion
                || ($0.width, $0.height) != pixelSize || $0.presentingRect != layerPresenting.rect
                || $0.presentingCornerRadius != layerPresenting.radius || $0.presentingAlpha != layerPresenting.alpha } ?? true
    }

    /// Draws the presented view of `frame` (from ``layerFrame()``) into `target`, the buffer of a
    /// layer showing it at `frame.presentedRect`'s origin: `frame.presentedRect`'s size in its top-left corner, every
    /// other pixel transparent (so `target` may be padded, e.g. to whole points). Opaque and unscaled,
    /// that is the cache as it is (draw it once per ``LayerFrame/presentedVersion`` and size); with an
    /// alpha below 255 or a scale it is the cache at that alpha and scale, drawn by pixman as
    /// ``render(into:bufferAge:)`` would (a compositor without `wp_alpha_modifier_v1` cannot
    /// fade a surface). Nothing is drawn without a presented view.
    ///
    /// With a drop shadow (``LayerFrame/hasShadow``) the view is drawn at `presentedOffset` (pixels;
    /// ``PresentedLayerPlacement/presentedOffsetX`` and `presentedOffsetY`) over its shadow, which fills the
    /// rest of `target` as the full renderer draws it (× the view's alpha): `target` is then the
    /// placement's buffer, drawn once per content, size and shadow while the view is opaque and unscaled.
    public func drawPresentedLayer(_ frame: LayerFrame, into target: PixelBuffer, presentedOffset: (x: Int, y: Int) = (0, 0)) {
        drawPresentedLayer(frame, level: levels.count - 1, into: target, presentedOffset: presentedOffset)
    }

    /// Draws level `index + 1`'s presented view of `frame` (from ``layerFrame(level:)`` of the same
    /// level) into `target`, as ``drawPresentedLayer(_:into:presentedOffset:)`` draws the top level's; a
    /// covered level's view carries the look of the level above (scale, alpha), so it is drawn per frame.
    public func drawPresentedLayer(_ frame: LayerFrame, level index: Int, into target: PixelBuffer,
                                   presentedOffset: (x: Int, y: Int) = (0, 0)) {
        guard frame.hasPresentedView, index >= 0, index < levels.count, let cache = levels[index].cache else { return }
        layerPainter.draw(frame, cache: cache.pixmanImage, into: target, presentedX: presentedOffset.x, presentedY: presentedOffset.y)
    }

}
