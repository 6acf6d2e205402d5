import ModalKit
import ModalKitSystemSupport
import ModalKitWaylandClient

/// The ``Window``'s delegate for a ``PresentationWindow`` (kept apart so that the window's public
/// surface is the app's, not the delegate protocol's): configure → layout, frame callback → update
/// then draw (pixman) or compose (sub-surfaces), seat events → host input, commits and feedback →
/// the window's reports.
final class WindowBinding: LayeredWindowDelegate {
    weak var owner: PresentationWindow?

    func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {
        guard let o = owner else { return }
        let size = Size(width: Double(width), height: Double(height))
        o.configures += 1
        o.onConfigure?(size, scale)
        o.scene.layout(containerSize: size, scale: scale)
        window.setNeedsRedraw()
    }

    func window(_ window: Window, draw target: DrawTarget, damage rects: inout [BufferRect]) {
        guard let o = owner else { return }
        o.scene.update(now: target.time)
        let damage = o.host.render(into: target.pixelBuffer, bufferAge: target.age)
        // While a transition runs, ask for the next frame callback; when it ends, stop asking, so
        // an idle window sleeps in poll().
        if o.scene.isAnimating { window.setNeedsRedraw() }
        if o.pendingStyle != nil, !o.scene.isAnimating { o.applyPendingStyle() }
        o.pendingFrame = !damage.isEmpty
        o.pendingBackend = .pixman
        o.scheduleRestCheck()
        // The host's rectangles (ModalKit) into the window's array (ModalKitWaylandClient): the one
        // conversion between the two, into an array that keeps its capacity.
        for r in damage { rects.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
    }

    func window(_ window: Window, compose frame: FrameComposer) {
        guard let o = owner else { return }
        o.scene.update(now: frame.time)
        let result = o.composer.compose(o.host, into: frame, width: window.width, height: window.height)
        if result.needsRetry || o.scene.isAnimating { window.setNeedsRedraw() }
        if o.pendingStyle != nil, !o.scene.isAnimating { o.applyPendingStyle() }
        o.pendingFrame = result.changed
        o.pendingBackend = result.backend
        o.scheduleRestCheck()
    }

    func window(_ window: Window, didCommit frame: CommittedFrame) {
        guard let o = owner else { return }
        if !o.hasCommitted {
            o.hasCommitted = true
            o.startDesktopMotion()
            o.startAccessibility()
        }
        guard o.pendingFrame else {
            o.frameBySequence[frame.sequence % o.frameBySequence.count] = 0
            return
        }
        o.pendingFrame = false
        o.frames += 1
        o.frameBySequence[frame.sequence % o.frameBySequence.count] = o.frames
        o.onFrame?(FrameReport(number: o.frames, time: frame.time, backend: o.pendingBackend, cpuSeconds: frame.cpuSeconds))
    }

    func window(_ window: Window, didPresent sequence: Int, at time: Double, refresh: Double) {
        guard let o = owner else { return }
        let n = o.frameBySequence[sequence % o.frameBySequence.count]
        if n > 0 { o.onFramePresented?(n, time) }
        o.appear()
    }

    func windowDidReceiveFrameCallback(_ window: Window) {
        owner?.frameCallbackArrived()
    }

    func windowDidRequestClose(_ window: Window) { owner?.close() }

    /// The buffer cap keeps the window below the outputs' scale: said once (the window stays sharp
    /// enough to use; a compositor scales its buffers up).
    func window(_ window: Window, didLimitScaleTo scale: Double, wanted: Double) {
        guard let o = owner else { return }
        guard !o.warnedAboutScaleLimit else { return }
        o.warnedAboutScaleLimit = true
        func text(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : cFormat("%g", s) }
        let w = window.width, h = window.height
        o.onWarning("a \(w)x\(h)-point window at scale \(text(wanted)) needs a "
                    + "\(scaledLength(w, scale: wanted))x\(scaledLength(h, scale: wanted))-pixel buffer, over the buffer cap "
                    + "(\(BufferCap.maxSide) pixels a side, \(BufferCap.maxPixels) pixels): drawing at scale \(text(scale))")
    }

    func window(_ window: Window, pointer frame: PointerFrame) {
        guard let o = owner else { return }
        o.input.translate(frame, receivedAt: monotonicSeconds()) { event, now in o.handle(event, now: now) }
        o.redrawIfNeeded()
    }

    func window(_ window: Window, touch frame: TouchFrame) {
        guard let o = owner else { return }
        o.input.translate(frame, receivedAt: monotonicSeconds()) { event, now in o.handle(event, now: now) }
        o.redrawIfNeeded()
    }

    func window(_ window: Window, key event: KeyEvent) {
        guard let o = owner else { return }
        guard let (input, now) = o.input.translate(event, receivedAt: monotonicSeconds()) else { return }
        o.handle(input, now: now)
        o.redrawIfNeeded()
    }
}
