import CModalKitPixman

// Composition: snapshots of the levels, the pixman frame with damage, offline frames, and the
// pixel caches of the presenting and presented contents.

extension PresentationHost {
    /// Level 1's frame at `now` (monotonic seconds) as the state stands: see ``PresentationSnapshot``.
    /// A query: it advances nothing and reports nothing (a transition whose end `now` is past shows
    /// its end frame, and completes at the next ``update(now:)``).
    public func snapshot(at now: Double) -> PresentationSnapshot {
        controller.snapshot(at: now)
    }

    /// `level`'s frame at `now` as the state stands (1...``levelCount``; level 1 also when nothing is
    /// presented); nil for a level not in the stack. A query, as ``snapshot(at:)``.
    public func snapshot(level: Int, at now: Double) -> PresentationSnapshot? {
        self.controller(level: level)?.snapshot(at: now)
    }

    /// The frame at linear time fraction `fraction` (0...1, clamped) of a presentation (`.present`) or
    /// a dismissal (`.dismiss`, = a presentation at 1 − fraction) in the current container, offline:
    /// by the same geometry function as ``snapshot(at:)``, without changing any state (for
    /// ``renderOffline(_:presented:into:)-(PresentationSnapshot,_,_)``, e.g. `modal-demo render`). Under ``reducesMotion`` the
    /// cross-fade `fraction × duration` seconds into the phase.
    public func snapshot(phase: TransitionPhase, fraction: Double) -> PresentationSnapshot {
        controller.snapshot(phase: phase, fraction: fraction)
    }

    /// ``snapshot(phase:fraction:)`` coming to rest at `detent` (declaration index; nil: the
    /// smallest, where a presentation rests): ``PresentationController/snapshot(phase:fraction:detent:)``.
    /// With `content` and nothing presented, the style's frame hook asks `content` for its
    /// preferred size (the content the offline frame will show, given to `renderOffline`);
    /// otherwise the presented level's content.
    public func snapshot(phase: TransitionPhase, fraction: Double, detent: Int?,
                         content: (any PresentationContent)? = nil) -> PresentationSnapshot {
        guard let content, levels.isEmpty else { return controller.snapshot(phase: phase, fraction: fraction, detent: detent) }
        let asked = controller.contentSizing
        controller.contentSizing = { content.preferredContentSize(fittingWidth: $0) }
        defer { controller.contentSizing = asked }
        return controller.snapshot(phase: phase, fraction: fraction, detent: detent)
    }

    /// Renders the frame at the time of the last ``update(now:)`` (or of the last call that took a
    /// `now`: ``present(_:style:sourceRect:now:)``, ``dismiss(now:)``, ``handle(_:now:)``) into
    /// `target` (``pixelSize`` buffer pixels, premultiplied ARGB8888): the presenting view, then per
    /// level its dim and its presented view. Rendering reads the state and changes none of it: it
    /// advances no transition and reports no event (foot's rule: one place advances, one draws; a
    /// window's frame is `update(now:)`, then `render`). A content cache that cannot be allocated
    /// (no memory) leaves that layer out of the frame; nothing throws.
    /// - Parameters:
    ///   - target: the window's buffer, ``pixelSize`` buffer pixels, premultiplied ARGB8888.
    ///   - bufferAge: 0 = the target's contents are undefined (everything is painted);
    ///   n ≥ 1 = it holds the frame rendered n `render` calls ago (only what changed is painted).
    /// - Returns: the damage relative to the previous frame, buffer pixels (for
    ///   `wl_surface.damage_buffer`); reused by the next call, do not keep it.
    /// Cost: caches are redrawn only when their content said it changed or their size/scale
    /// changed; a level below the top is composed into its covered image only where it changed;
    /// after warm-up a frame allocates nothing.
    @discardableResult
    public func render(into target: PixelBuffer, bufferAge: Int) -> [PixelRect] {
        if lastRenderWasLayer { renderer.reset() }
        lastRenderWasLayer = false
        let now = lastNow
        let damage = compose(into: target, bufferAge: bufferAge, record: true) { i in
            i < levels.count ? levels[i].controller.snapshot(at: now) : controller.snapshot(at: now)
        }
        dirty = false
        return damage
    }

    /// Renders `snapshot` (e.g. ``snapshot(phase:fraction:)``) offscreen into
    /// `target` (``pixelSize``) from the same caches and compositor as `render`, without touching
    /// the live frame history. With nothing presented, `presented` is drawn into the presented cache
    /// for the picture (not presented: no state change, no event).
    public func renderOffline(_ snapshot: PresentationSnapshot, presented content: (any PresentationContent)?,
                              into target: PixelBuffer) {
        renderOffline([snapshot], presented: content.map { [$0] } ?? [], into: target)
    }

    /// Renders a stack offscreen: `snapshots[i]` is level i + 1's frame (e.g. the lower levels
    /// presented and the top one at some fraction), `contents[i]` its presented content; the same
    /// compositor as `render`, without touching the live frame history. With nothing presented,
    /// the contents are drawn into level caches for the picture (no state change, no event).
    public func renderOffline(_ snapshots: [PresentationSnapshot], presented contents: [any PresentationContent],
                              into target: PixelBuffer) {
        guard !snapshots.isEmpty else { return }
        let temporary = levels.isEmpty
        if temporary {
            for (i, c) in contents.enumerated() where i < snapshots.count {
                levels.append(makeLevel(c, style: controller.style))
                c.didLayout(size: snapshots[i].presentedFrame.size)
            }
        }
        compose(into: target, bufferAge: 0, record: false, depth: min(snapshots.count, max(levels.count, 1))) { i in
            snapshots[min(i, snapshots.count - 1)]
        }
        if temporary && controller.state == .dismissed { retireLevels(from: 0) }
    }

    /// Draws the stack into `target`: levels below the top composed into their covered images
    /// (each from the one below, repainting only its damage), the top level drawn into `target`
    /// over the covered image of the level below (or the presenting cache).
    @discardableResult
    func compose(into target: PixelBuffer, bufferAge: Int, record: Bool, depth: Int? = nil,
                         _ snapshotOf: (Int) -> PresentationSnapshot) -> [PixelRect] {
        let n = depth ?? max(levels.count, 1)
        if record && n != composedDepth {
            composedDepth = n
            compositionVersion += 1
        }
        let (pw, ph) = pixelSize
        updatePresenting(width: pw, height: ph)  // before its damage is read
        var below: OpaquePointer?
        var belowDamage = record ? pendingPresentingDamage : .zero
        var i = 0
        if n > 1 { below = presentingImage() }
        while i < n - 1 {
            let level = levels[i]
            let snap = snapshotOf(i)
            var frame = layerFrame(for: snap, level: level)
            // Covered by the level above: its style's "presenting view while covered" look applies
            // to this level's presented view (UIKit's page sheet over a sheet: the lower one recedes),
            // animated with the level above's progress; the dims stay over the whole container.
            let covering = snapshotOf(i + 1).presentingAppearance
            if covering != .identity, frame.hasPresentedView { recede(&frame, snap, covering) }
            // Over a level (not the presenting view), this level's own look for what it covers went
            // to that level's presented view (above), not to the whole composed image.
            if i > 0 { frame.presentingRect = nil }
            if level.covered?.width != pw || level.covered?.height != ph {
                level.covered = try? Image(width: pw, height: ph)
                level.coveredFresh = true
            }
            if level.coveredFresh && record { compositionVersion += 1 }
            frame.presentingVersion = presentingVersion &+ (compositionVersion << 24)
            guard let covered = level.covered else { break }
            let fresh = level.coveredFresh || !record
            let d = level.coveredRenderer.render(frame, presenting: below, presented: level.cache?.pixmanImage,
                                                 presentingDamage: belowDamage, into: covered.pixelBuffer,
                                                 bufferAge: fresh ? 0 : 1, record: record)
            // An unrecorded (offline) composition leaves the image out of step with the renderer's
            // history: the next live frame paints it whole.
            level.coveredFresh = !record
            var union = PixelRect.zero
            for r in d { union = union.union(r) }
            belowDamage = union
            below = covered.pixmanImage
            i += 1
        }
        let topIndex = n - 1
        var frame: LayerFrame
        var top: OpaquePointer?
        if topIndex < levels.count {
            frame = layerFrame(for: snapshotOf(topIndex), level: levels[topIndex])
            top = levels[topIndex].cache?.pixmanImage
        } else {
            frame = layerFrame(for: snapshotOf(topIndex), level: nil)
        }
        frame.presentingVersion = presentingVersion &+ (compositionVersion << 24)
        if topIndex > 0 { frame.presentingRect = nil }
        let source: Renderer.PresentingSource
        if topIndex > 0 {
            source = .image(below)
        } else if record && frame.showsPresentingViewAlone && drawsPresentingDirectly(into: target) {
            source = directPresentingSource
        } else {
            source = .image(presentingImage())
        }
        let damage = renderer.render(frame, presentingSource: source, presented: top, presentingDamage: belowDamage,
                                     into: target, bufferAge: bufferAge, record: record)
        if record { pendingPresentingDamage = .zero }
        return damage
    }

    /// Whether a frame of the presenting view alone into `target` is drawn by the content itself
    /// (``Renderer/PresentingSource/direct(_:size:scale:force:)``): when the cache does not hold
    /// the current pixels (copying a current one is cheaper than drawing) and `target` is at least
    /// ``pixelSize``.
    func drawsPresentingDirectly(into target: PixelBuffer) -> Bool {
        let (pw, ph) = pixelSize
        return !presentingCacheIsCurrent && target.width >= pw && target.height >= ph
    }

    /// The presenting content drawn straight into the target, when the renderer paints anything or
    /// the content waits to be drawn.
    var directPresentingSource: Renderer.PresentingSource {
        .direct(presentingContent, size: containerSize, scale: scale, force: presentingContent.invalidation != .none)
    }

    /// `frame`'s presented view (of `snap`) under `look`: its transform relative to the view's
    /// shown rectangle (translation, then scale about the anchor) and its alpha; the view is then
    /// drawn scaled from its cache (the corner radius of `look` is not applied to a presented view,
    /// which keeps its own corners), at the pixels of the presented view's rounding rule
    /// (``PresentationSnapshot/presentedPixelRect(_:scale:)``: it does not jump when it starts to recede).
    func recede(_ frame: inout LayerFrame, _ snap: PresentationSnapshot, _ look: PresentingViewAppearance) {
        let t = look.transform
        guard t.scaleX > 0, t.scaleY > 0 else { frame.presentedRect = .zero; return }
        let r = PresentationController.apply(t, to: snap.presentedRect)
        frame.presentedRect = PresentationSnapshot.presentedPixelRect(r, scale: scale)
        let a = Double(frame.presentedAlpha) * min(max(t.alpha, 0), 1)
        frame.presentedAlpha = UInt32(a.rounded())
        if frame.presentedRect.isEmpty || frame.presentedAlpha == 0 { frame.presentedRect = .zero }
    }

    /// The snapshot resolved to pixels, with the caches brought up to date.
    func layerFrame(for snap: PresentationSnapshot, level: PresentedLevel?) -> LayerFrame {
        var f = snap.layerFrame(scale: scale)
        updatePresenting(width: f.width, height: f.height)
        f.presentingVersion = presentingVersion
        guard f.hasPresentedView, let level else {
            f.presentedRect = .zero
            return f
        }
        let radius = snap.presentedCornerRadius(scale: scale)
        let bottom = snap.presentedBottomCornerRadius(scale: scale)
        var chrome = snap.chrome
        chrome.shadow = nil
        updatePresentedCache(level, PresentedKey(width: f.presentedSourceWidth, height: f.presentedSourceHeight, scale: scale,
                                                 radius: radius, corners: radius > 0 ? snap.corners.corners : [],
                                                 bottomRadius: bottom, chrome: chrome),
                             size: snap.presentedFrame.size)
        f.presentedVersion = level.version
        if !f.presentedExtensionRect.isEmpty, let cache = level.cache { f.presentedExtensionColor = extensionColor(f, cache) }
        return f
    }

    /// The colour of the presented view's background beyond its edge (``LayerFrame/presentedExtensionColor``):
    /// the cache's pixel in the middle of its last line toward the extension, inside the corner
    /// band there (the sheet's background where nothing is drawn over it).
    func extensionColor(_ f: LayerFrame, _ cache: Image) -> UInt32 {
        let w = cache.width, h = cache.height
        guard w > 0, h > 0 else { return 0 }
        let band = max(f.presentedTopBand, f.presentedBottomBand)
        switch f.presentedExtensionEdge {
        case .down: return cache.pixel(x: w / 2, y: max(0, h - 1 - band))
        case .up: return cache.pixel(x: w / 2, y: min(h - 1, band))
        case .right: return cache.pixel(x: max(0, w - 1 - band), y: h / 2)
        case .left: return cache.pixel(x: min(w - 1, band), y: h / 2)
        }
    }

    /// Counts a change of the presenting view's size or scale, or of its content
    /// (``PresentationContent/invalidation``), in ``presentingVersion`` (a change of everything) or
    /// ``pendingPresentingDamage`` (an area); the cache no longer holds the current pixels. Draws
    /// nothing: the pixels are drawn where a frame needs them (``presentingImage()``, or straight
    /// into the window's buffer). A content waiting to be drawn still reports its invalidation and
    /// is counted again at the next call, which changes nothing (the same area again; a version
    /// changed once more).
    func updatePresenting(width: Int, height: Int) {
        let sameSize = presentingKey.map { $0.width == width && $0.height == height && $0.scale == scale } ?? false
        let inval = presentingContent.invalidation
        if sameSize && inval == .none { return }
        presentingKey = (width, height, scale)
        presentingCacheIsCurrent = false
        if sameSize, case let .area(r) = inval {
            let s = r.scaled(by: scale)
            let px = PixelRect(x: Int(s.minX.rounded(.down)), y: Int(s.minY.rounded(.down)),
                               width: Int(s.maxX.rounded(.up)) - Int(s.minX.rounded(.down)),
                               height: Int(s.maxY.rounded(.up)) - Int(s.minY.rounded(.down)))
            pendingPresentingDamage = pendingPresentingDamage.union(px)
        } else {
            presentingVersion += 1
        }
    }

    /// The presenting view's cache at ``presentingKey``, drawn now unless it holds the current
    /// pixels (made on first use, and anew after ``releaseCachesAtRest()`` or a size change); nil
    /// when it cannot be allocated (no memory: the frame leaves the presenting view out).
    func presentingImage() -> OpaquePointer? {
        guard let key = presentingKey else { return nil }
        if presentingCache?.width != key.width || presentingCache?.height != key.height {
            presentingCache = try? Image(width: key.width, height: key.height)
            presentingCacheIsCurrent = false
        }
        guard let cache = presentingCache else { return nil }
        if !presentingCacheIsCurrent || presentingContent.invalidation != .none {
            presentingContent.draw(into: cache.pixmanImage, size: containerSize, scale: scale)
            presentingCacheIsCurrent = true
        }
        return cache.pixmanImage
    }

    func updatePresentedCache(_ level: PresentedLevel, _ key: PresentedKey, size: Size) {
        guard key != level.key || level.content.invalidation != .none else { return }
        if level.cache?.width != key.width || level.cache?.height != key.height {
            level.cache = try? Image(width: key.width, height: key.height)
        }
        level.key = key
        guard let cache = level.cache else { return }
        let image = cache.pixmanImage
        if let background = key.chrome.backgroundColor {
            Draw.fill(image, width: key.width, height: key.height, color: background)
        }
        level.content.draw(into: image, size: size, scale: key.scale)
        key.chrome.draw(into: image, width: key.width, height: key.height, scale: key.scale,
                        radius: key.radius, corners: key.corners)
        if key.bottomRadius == key.radius {
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.radius, corners: key.corners)
        } else {  // a shape morph: top and bottom corners each with their own radius
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.radius,
                             corners: key.corners.intersection(.top))
            Draw.clipCorners(image, width: key.width, height: key.height, radius: key.bottomRadius,
                             corners: key.corners.subtracting(.top))
        }
        level.version += 1
    }

}
