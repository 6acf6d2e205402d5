import ModalKitClock

/// One frame of a ``Window``: drawn by the delegate (into the window's buffer, or composed with
/// sub-surface layers), decided by the frame scheduler, and sent by the one commit step.
extension Window {
    /// Draws if a frame is due. Called once per event-loop iteration by the connection.
    func update() throws {
        guard !isClosed else { return }
        if let failure = toplevel.failure { throw failure }
        if scheduler.shouldDraw {
            pool.dropsReleasedBuffers = false
            try drawFrame()
        } else if let decorations, decorations.needsCommitAlone, toplevel.configuration != nil {
            // Only the decorations changed (hover, focus): their sync commit shows with a parent
            // commit that keeps the content buffer as it is.
            if try decorations.prepareParentCommit() { commit(.bare) }
        }
    }

    // MARK: From the frame scheduler

    /// `wl_callback.done` of the pending frame callback: the next frame may be drawn now;
    /// ``update()`` does it if one is wanted.
    func frameCallbackArrived() {
        if !isClosed { delegate?.windowDidReceiveFrameCallback(self) }
        restIfIdle()
    }

    func framePresented(sequence: Int, at time: Double, refresh: Double) {
        guard !isClosed else { return }
        delegate?.window(self, didPresent: sequence, at: time, refresh: refresh)
    }

    /// Nothing more to draw — no frame due, none asked for, no frame callback pending: at rest,
    /// the window keeps only the buffer the compositor shows (and frees the others as they come
    /// back), as foot does; the next frame makes one. Checked when a frame callback arrives and
    /// when a frame the delegate was asked for turned out to change nothing (a delegate that asks
    /// for one more frame at the last callback of an animation, which then draws nothing).
    func restIfIdle() {
        guard !isClosed, scheduler.isAtRest else { return }
        pool.dropsReleasedBuffers = true
        pool.dropFreeBuffers()
        for layer in layers { layer.dropImageBuffersWhileHidden() }
    }

    /// What one `wl_surface.commit` of the window's surface carries.
    enum Commit {
        /// No new buffer and no frame report: the first commit (it asks for the first configure),
        /// or one that applies only what rides on it (the title bar's sync commit, the geometry).
        case bare
        /// No new buffer; a frame callback asked for (an animation step that changed no pixel
        /// keeps the pace).
        case frameRequest
        /// A frame that changed what the window shows: `buffer` attached with this frame's damage
        /// (nil: only the sub-surface layers changed), a frame callback when `requestFrame`, the
        /// presentation feedback when asked for, then the delegate's
        /// ``WindowDelegate/window(_:didCommit:)``.
        case frame(buffer: BufferPool.Acquired?, requestFrame: Bool, time: Double, cpuStart: Double,
                   layersChanged: Bool)
    }

    /// The one commit step: every `wl_surface.commit` of the window's surface, and what rides on
    /// it, in protocol order — buffer scale or viewport destination (with a buffer), attach,
    /// `damage_buffer`, `wl_surface.frame`, `wp_presentation.feedback`, commit; then the layers'
    /// state counts as applied and the delegate hears of a frame.
    func commit(_ commit: Commit) {
        guard let surface else { return }
        var frame: (buffer: BufferPool.Acquired?, sequence: Int, time: Double, cpuStart: Double, layersChanged: Bool)?
        switch commit {
        case .bare:
            break
        case .frameRequest:
            scheduler.requestFrameCallback(surface)
        case let .frame(buffer, requestFrame, time, cpuStart, layersChanged):
            if let buffer {
                applyScaleState(surface)
                surface.attach(buffer.buffer.proxy)
                for rect in damage { surface.damageBuffer(rect) }
            }
            if requestFrame { scheduler.requestFrameCallback(surface) }
            // Presentation feedback first: it is for this commit.
            let sequence = scheduler.nextSequence(
                feedbackOn: surface, from: options.presentationFeedback ? connection.presentationTime : nil)
            frame = (buffer, sequence, time, cpuStart, layersChanged)
        }
        surface.commit()
        for layer in layers { layer.parentCommitted() }
        guard let frame else { return }
        let cpu = threadCPUSeconds() - frame.cpuStart
        delegate?.window(self, didCommit: CommittedFrame(sequence: frame.sequence, time: frame.time, cpuSeconds: cpu,
                                                         attachedBuffer: frame.buffer != nil,
                                                         layersChanged: frame.layersChanged))
        if let buffer = frame.buffer { pool.finishDrawing(id: buffer.id, attached: true) }
    }

    /// The buffer scale, or on the fractional path the viewport's destination, for the next commit.
    private func applyScaleState(_ surface: Surface) {
        guard let configuration = toplevel.configuration?.configuration else { return }
        let surfaceScale = toplevel.surfaceScale
        if let viewport {
            // fractional-scale-v1: the destination is the logical size; the buffer scale stays 1.
            let destination = (width: configuration.width, height: configuration.height)
            if sentDestination.map({ $0 != destination }) ?? true {
                viewport.setDestination(width: destination.width, height: destination.height)
                sentDestination = destination
            }
        } else if surfaceScale.bufferScale != committedScale {
            surface.setBufferScale(surfaceScale.bufferScale)
            committedScale = surfaceScale.bufferScale
        }
    }

    /// Draws the frame that is due: the delegate draws (``WindowDelegate/window(_:draw:damage:)``)
    /// or composes (``LayeredWindowDelegate/window(_:compose:)``), the scheduler decides what the
    /// commit carries, the commit step sends it.
    func drawFrame() throws {
        let cpuStart = threadCPUSeconds()
        guard let configuration = toplevel.configuration?.configuration else { return }
        let surfaceScale = toplevel.surfaceScale
        let (width, height) = surfaceScale.bufferSize(width: configuration.width, height: configuration.height)
        // The title bar's redraw rides on this commit (sync subsurface): if it cannot be drawn
        // now, neither is the content, so a new size or scale never shows on one surface only.
        if let decorations, try !decorations.reserveBuffer() { return }
        pool.setSize(width: width, height: height)
        let time: Double
        let acquired: BufferPool.Acquired?
        if compositing == .subsurface, let layered = delegate as? LayeredWindowDelegate {
            scheduler.willDraw()
            time = scheduler.frameTime()
            acquired = compose(layered, width: width, height: height, time: time)
            guard !isClosed else { return }
            // A buffer that could not be made ends the run, even when the delegate ignored the
            // error: a frame is never silently left undrawn for good.
            if let error = composer.failure ?? layers.lazy.compactMap(\.allocationFailure).first {
                composer.failure = nil
                if let acquired { pool.finishDrawing(id: acquired.id, attached: false) }
                throw error
            }
            if scheduler.mustCommit && acquired == nil {
                // The content buffer could not be drawn (every buffer held): retry after a release;
                // the layers' cached state shows with that commit.
                scheduler.setNeedsRedraw()
                return
            }
        } else {
            // All buffers held by the compositor and the pool full: skip; a release wakes the loop
            // and the next iteration retries.
            guard let free = try pool.acquire() else { return }
            scheduler.willDraw()   // before the delegate, which may ask for the next frame
            time = scheduler.frameTime()
            acquired = free
            let target = DrawTarget(data: free.buffer.data, width: width, height: height, stride: free.buffer.stride,
                                    scale: surfaceScale.scale, age: free.age, time: time)
            damage.removeAll(keepingCapacity: true)
            delegate?.window(self, draw: target, damage: &damage)
            guard !isClosed else { return }   // the delegate closed the window while drawing
        }
        let layersChanged = layers.contains { $0.changed }
        let decision = scheduler.decide(drewContent: acquired != nil, damage: &damage, width: width, height: height,
                                        layersChanged: layersChanged)
        // The title bar's commit and the geometry go before the parent's commit (sync subsurface).
        let decorationsChanged = try decorations?.prepareParentCommit() ?? false
        if let acquired, !decision.attaches {
            pool.finishDrawing(id: acquired.id, attached: false)   // not attached: the buffer stays free
        }
        switch decision {
        case .discard:
            if decorationsChanged { commit(.bare) }
            restIfIdle()
        case .commitFrameRequest:
            commit(.frameRequest)
        case let .commitLayers(requestFrame):
            commit(.frame(buffer: nil, requestFrame: requestFrame, time: time, cpuStart: cpuStart, layersChanged: true))
        case let .commit(requestFrame):
            commit(.frame(buffer: acquired, requestFrame: requestFrame, time: time, cpuStart: cpuStart,
                          layersChanged: layersChanged))
        }
    }

    /// Lets a ``LayeredWindowDelegate`` compose the frame: layers, and the content buffer only
    /// when it draws it (``FrameComposer/baseTarget()``). Returns that buffer, with the frame's
    /// damage in ``damage``.
    private func compose(_ layered: LayeredWindowDelegate, width: Int, height: Int, time: Double) -> BufferPool.Acquired? {
        let surfaceScale = toplevel.surfaceScale
        composer.time = time
        composer.width = width
        composer.height = height
        composer.scale = surfaceScale.scale
        composer.bufferScale = surfaceScale.isFractional ? 0 : surfaceScale.bufferScale
        composer.mustDrawBase = scheduler.mustCommit
        composer.baseDamage.removeAll(keepingCapacity: true)
        composer.acquired = nil
        if composer.acquire == nil { composer.acquire = { [unowned self] in try self.pool.acquire() } }
        layered.window(self, compose: composer)
        let acquired = composer.acquired
        composer.acquired = nil
        damage.removeAll(keepingCapacity: true)
        damage.append(contentsOf: composer.baseDamage)
        return acquired
    }
}
