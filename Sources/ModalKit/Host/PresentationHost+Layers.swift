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
    /// With more than one level presented (a stack) this is the top level's frame alone: a layer
    /// backend composes one level (``levelCount`` ≤ 1) and leaves stacks to ``render(into:bufferAge:)``.
    public func layerFrame() -> LayerFrame {
        let level = levels.last
        let f = layerFrame(for: (level?.controller ?? controller).snapshot(at: lastNow), level: level)
        dirty = false
        return f
    }

    /// Renders only the presenting view (no dim, no presented view) into `target` (``pixelSize``),
    /// with damage and buffer age as ``render(into:bufferAge:)``: the window's own buffer under
    /// layers the compositor composes. Call after ``layerFrame()`` of the same frame. Returns an
    /// empty list when nothing changed since the last call (then nothing needs attaching).
    @discardableResult
    public func renderPresentingLayer(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        if !lastRenderWasLayer { presentingRenderer.reset() }
        lastRenderWasLayer = true
        var f = LayerFrame()
        (f.width, f.height) = pixelSize
        f.presentingVersion = presentingVersion
        let damage = presentingRenderer.render(f, presenting: presentingCache?.pixmanImage, presented: nil,
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
                || ($0.width, $0.height) != pixelSize } ?? true
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
        guard frame.hasPresentedView, let cache = levels.last?.cache else { return }
        layerPainter.draw(frame, cache: cache.pixmanImage, into: target, presentedX: presentedOffset.x, presentedY: presentedOffset.y)
    }

}
