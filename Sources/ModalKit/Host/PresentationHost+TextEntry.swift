extension PresentationHost {
    /// The content with keyboard focus: the top level's presented content, else the presenting content
    /// (the same content ``ContentInput/keyboard(_:)`` reaches).
    var focusedContent: any PresentationContent { levels.last?.content ?? presentingContent }

    /// Changes whenever ``textInputState(at:)`` or ``cursorShape(at:now:)`` may answer differently
    /// for the same presented view position: input (any ``PresentationInput``), an input method's
    /// update, a presentation or dismissal starting or ending, a layout, and — checked on each read
    /// — the focused content's ``PresentationContent/invalidation`` not being `.none` (a content
    /// whose text-input state changes without input, e.g. its text set by the app, invalidates
    /// itself, as a text field does). What it does not cover is the presented view moving (a
    /// transition, a drag): compare ``presentedViewRect(at:level:)`` of the top level for that.
    /// A window reads it before drawing each frame (while the content is still invalid) and asks for
    /// the state only when it or the view's position changed, so that frames cost the input method's
    /// bookkeeping nothing while a focused field does not change.
    public var textInputVersion: Int {
        if focusedContent.invalidation != .none { textInputGeneration &+= 1 }
        return textInputGeneration
    }

    /// The focused content's ``PresentationContent/textInputState`` at `now` (monotonic seconds),
    /// its cursor rectangle converted from the content's points to the container's points (under
    /// the presented view's frame and transform at `now`); nil when no text field has focus. A
    /// window asks for it after input, and before a frame when ``textInputVersion`` or the presented
    /// view's position changed, and sends the input method what changed.
    public func textInputState(at now: Double) -> TextInputState? {
        let content = focusedContent
        guard var state = content.textInputState else { return nil }
        if let top = levels.last {
            let c = top.controller
            let r = c.effectivePresentedViewRect(at: now) ?? .zero
            let t = c.effectivePresentedViewTransform(at: now)
            let kx = t.scaleX > 0 ? t.scaleX : 1, ky = t.scaleY > 0 ? t.scaleY : 1
            let box = state.cursorRectangle
            state.cursorRectangle = Rect(x: r.minX + box.minX * kx, y: r.minY + box.minY * ky,
                                         width: box.width * kx, height: box.height * ky)
        }
        return state
    }

    /// Gives an input method's update (``ContentInput/textInput(_:)``) to the focused content, if it
    /// has a focused text field; returns whether the content used it (then the host redraws).
    @discardableResult
    public func deliverTextInput(_ update: TextInputUpdate, now: Double) -> Bool {
        let content = focusedContent
        guard content.textInputState != nil else { return false }
        let used = content.handle(.textInput(update), now: now)
        textInputGeneration &+= 1
        if used { accessibilityGeneration &+= 1 }   // the field's text changed: screen readers hear it
        use(used)
        return used
    }

    /// The pointer's shape over `point` (container points) at `now`: what the content under it says
    /// (``PresentationContent/cursorShape(at:)``) — the top level's presented content where the
    /// point is inside its view, the presenting content with nothing presented or where input passes
    /// through beside an undimmed sheet — and ``CursorShape/default`` elsewhere (over the dim).
    public func cursorShape(at point: Point, now: Double) -> CursorShape {
        guard let top = levels.last else { return presentingContent.cursorShape(at: point) }
        if top.controller.effectivePresentedViewRect(at: now)?.contains(point) ?? false {
            return top.content.cursorShape(at: toPresented(point, level: top, now: now))
        }
        return passesInputThrough ? presentingContent.cursorShape(at: point) : .default
    }

    /// The earliest ``PresentationContent/nextInvalidationTime`` of the presenting content and every
    /// level's content (monotonic seconds), nil when none asks: a window wakes then and redraws
    /// what became invalid (a caret's blink).
    public var nextContentInvalidationTime: Double? {
        var t = presentingContent.nextInvalidationTime
        for l in levels {
            if let n = l.content.nextInvalidationTime { t = min(t ?? n, n) }
        }
        return t
    }
}
